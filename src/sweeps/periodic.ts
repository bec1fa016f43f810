import type { FastifyBaseLogger } from 'fastify';

/**
 * Runs a background write every everyMs in every instance, one run at a time (a tick during a run
 * waits for it instead of starting another); the writes it makes are conditional, so concurrent
 * instances are safe. `stop` waits for a run under way (the database closes after the app).
 */
export class PeriodicSweep {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly options: {
      everyMs: number;
      log: FastifyBaseLogger;
      /** One run; returns how many rows it changed. */
      run: () => Promise<number>;
      /** Logged (with the count) when a run changed something. */
      done: string;
      /** Logged when a run failed; the next round tries again. */
      failed: string;
    },
  ) {}

  start(): void {
    if (this.timer || this.stopped) return;
    this.timer = setInterval(() => void this.tick(), this.options.everyMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  tick(): Promise<void> {
    if (this.running) return this.running;
    if (this.stopped) return Promise.resolve();
    const { run, log, done, failed } = this.options;
    this.running = run()
      .then((count) => {
        if (count > 0) log.info({ count }, done);
      })
      .catch((error) => log.warn({ err: error }, failed))
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }
}
