import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { expireBookingRequests } from '../services/bookings.js';

export interface BookingRequestSweepOptions {
  now: () => Date;
  /** EVENTS_POLL_MS: an expiry's event is recorded about as soon as any other reaches the readers. */
  everyMs: number;
  requestTtlHours: number;
  log: FastifyBaseLogger;
}

/**
 * Writes `expired` (with its event) for booking requests past their TTL, every everyMs, in every
 * instance: the conditional writes make concurrent sweeps safe. Reads and the overlap check do not
 * wait for it (domain/booking-price.ts effectiveBooking); it exists for the event and the stored row.
 */
export class BookingRequestSweep {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: BookingRequestSweepOptions,
  ) {}

  start(): void {
    if (this.timer || this.stopped) return;
    this.timer = setInterval(() => void this.tick(), this.options.everyMs);
    this.timer.unref();
  }

  /** Stops the timer and waits for a sweep under way (the database closes after the app). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** One sweep; one at a time (a tick during a sweep waits for it instead of starting another). */
  tick(): Promise<void> {
    if (this.running) return this.running;
    if (this.stopped) return Promise.resolve();
    const { now, requestTtlHours, log } = this.options;
    this.running = expireBookingRequests({ db: this.db, now: now(), claim: null }, requestTtlHours)
      .then((expired) => {
        if (expired > 0) log.info({ expired }, 'unanswered booking requests expired');
      })
      .catch((error) => log.warn({ err: error }, 'booking request sweep failed; retried next round'))
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }
}
