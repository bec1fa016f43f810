import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { eventIdOf, eventJson } from '../events/outbox.js';
import {
  claimDueDeliveries,
  type DueDelivery,
  type NextStep,
  pruneEvents,
  recordAttempt,
  releaseDelivery,
} from '../repositories/webhooks.js';
import { SIGNATURE_HEADER, sendDelivery, signatureOf } from './delivery.js';

export interface WorkerOptions {
  now: () => Date;
  pollMs: number;
  /** The wait after the first failed attempt; it doubles after each further one. */
  retryBaseMs: number;
  maxAttempts: number;
  timeoutMs: number;
  allowPrivate: boolean;
  log: FastifyBaseLogger;
  userAgent: string;
  /** Events (and finished deliveries) older than this many days are deleted, once an hour. */
  retentionDays: number;
}

const PRUNE_EVERY_MS = 3_600_000;

/** Deliveries one worker sends at once. */
const BATCH = 16;
/** The longest wait between two attempts. */
const MAX_DELAY_MS = 24 * 3_600_000;

/**
 * The wait before the next attempt after `attempts` failed ones: retryBaseMs doubled per earlier
 * failure, at most a day, with ±10 % jitter so receivers that failed together are not retried together.
 */
export function retryDelayMs(attempts: number, retryBaseMs: number, random = Math.random()): number {
  const delay = Math.min(retryBaseMs * 2 ** (attempts - 1), MAX_DELAY_MS);
  return Math.round(delay * (0.9 + 0.2 * random));
}

/**
 * Sends what the outbox holds: every pollMs it takes the due deliveries (webhook_deliveries, held
 * against other workers while it sends), signs and POSTs each, and records the outcome. Pending
 * deliveries live in the database, so a restart (or another instance) carries on where it stopped.
 */
export class WebhookWorker {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private prunedAt = 0;
  /** Aborted by stop(): sends in flight end at once instead of holding a shutdown up to timeoutMs. */
  private readonly stopping = new AbortController();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: WorkerOptions,
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick(), this.options.pollMs);
    this.timer.unref();
  }

  /**
   * Stops polling and cuts the deliveries being sent: each is let go unrecorded (due again at once
   * for the next worker or the next start; the receiver may see it twice, as at-least-once allows).
   */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.stopping.abort();
    await this.running;
  }

  /** One round: send what is due now. Overlapping rounds are skipped. */
  tick(): Promise<void> {
    if (this.running) return this.running;
    if (this.stopping.signal.aborted) return Promise.resolve();
    this.running = this.round()
      .catch((error) => this.options.log.warn({ err: error }, 'webhook delivery round failed; retried next round'))
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }

  private async round(): Promise<void> {
    const { now, timeoutMs } = this.options;
    const at = now();
    const holdUntil = new Date(at.getTime() + timeoutMs + 30_000);
    if (at.getTime() - this.prunedAt >= PRUNE_EVERY_MS) {
      this.prunedAt = at.getTime();
      const before = new Date(at.getTime() - this.options.retentionDays * 86_400_000);
      const deleted = await pruneEvents(this.db, before);
      if (deleted > 0) this.options.log.info({ deleted, before: before.toISOString() }, 'old events deleted');
    }
    const due = await claimDueDeliveries(this.db, at, holdUntil, BATCH);
    await Promise.all(due.map((delivery) => this.attempt(delivery)));
  }

  private async attempt(delivery: DueDelivery): Promise<void> {
    const { now, retryBaseMs, maxAttempts, timeoutMs, allowPrivate, userAgent } = this.options;
    const body = eventJson(delivery.event);
    const timestamp = Math.floor(now().getTime() / 1000);
    const result = await sendDelivery(
      delivery.url,
      body,
      {
        'user-agent': userAgent,
        [SIGNATURE_HEADER]: signatureOf(delivery.secret, timestamp, body),
        'marketplace-event-id': eventIdOf(delivery.event.id),
        'marketplace-event-type': delivery.event.type,
        'marketplace-delivery-id': delivery.id,
      },
      { timeoutMs, allowPrivate, signal: this.stopping.signal },
    );
    if (result.status === null && this.stopping.signal.aborted) {
      await releaseDelivery(this.db, delivery.id);
      return;
    }
    const attempts = delivery.attempts + 1;
    const ok = result.status !== null && result.status >= 200 && result.status < 300;
    const next: NextStep = ok
      ? 'delivered'
      : attempts >= maxAttempts
        ? 'failed'
        : new Date(now().getTime() + retryDelayMs(attempts, retryBaseMs));
    await recordAttempt(this.db, delivery.id, result, now(), next);
  }
}
