import { setMaxListeners } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { eventIdOf, eventJson } from '../domain/events.js';
import { claimDueDeliveries, type DueDelivery, type InFlightLimits } from '../repositories/delivery-claims.js';
import { type NextStep, pruneEvents, recordAttempt, releaseDelivery } from '../repositories/webhooks.js';
import { SIGNATURE_HEADER, sendDelivery, signatureOf } from './delivery.js';

/**
 * How long a claim outlasts its attempt's timeout: time to record the outcome. A worker that dies
 * (SIGKILL, a lost machine) holds its claims that long; then any instance takes them again.
 */
export const HOLD_MARGIN_MS = 30_000;

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
  /** Attempts this worker sends at once (WEBHOOK_CONCURRENCY). */
  concurrency: number;
  /** Attempts held at once of one webhook and of one account, across all workers. */
  inFlight: InFlightLimits;
}

const PRUNE_EVERY_MS = 3_600_000;

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
 * Sends what the outbox holds: `concurrency` slots, each sending one due delivery (webhook_deliveries,
 * held against other workers while it is sent), signing and POSTing it and recording the outcome.
 * A slot that frees takes the next due delivery at once, and no webhook or account gets more than
 * its `inFlight` share, so receivers that hang hold only their own share until their timeout while
 * the others' deliveries go on. Every pollMs it looks for new ones. Pending deliveries live in the
 * database, so a restart (or another instance) carries on where it stopped.
 */
export class WebhookWorker {
  private timer: NodeJS.Timeout | null = null;
  private prunedAt = 0;
  /** Aborted by stop(): sends in flight end at once instead of holding a shutdown up to timeoutMs. */
  private readonly stopping = new AbortController();
  /** The attempts being sent, a slot each. */
  private readonly sending = new Set<Promise<void>>();
  /** The claim being made: one at a time, so two cannot fill the same free slots. */
  private claiming: Promise<void> | null = null;
  /** Whether a slot freed (or a poll came) during the claim: then another one follows. */
  private claimAgain = false;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: WorkerOptions,
  ) {
    // Each send in flight listens for the stop: that many are expected, not a leak.
    setMaxListeners(Math.max(10, options.concurrency), this.stopping.signal);
  }

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
    await this.claiming;
    await Promise.all(this.sending);
  }

  /** Fills the free slots with due deliveries; resolves once they are taken (not sent). */
  tick(): Promise<void> {
    if (this.stopping.signal.aborted) return Promise.resolve();
    if (this.claiming) {
      this.claimAgain = true;
      return this.claiming;
    }
    this.claiming = this.fill()
      .catch((error) => this.options.log.warn({ err: error }, 'claiming webhook deliveries failed; tried again'))
      .finally(() => {
        this.claiming = null;
        if (this.claimAgain) void this.tick();
      });
    return this.claiming;
  }

  private async fill(): Promise<void> {
    const { now, timeoutMs, concurrency, inFlight } = this.options;
    await this.pruneWhenDue();
    let more = true;
    while (more && !this.stopping.signal.aborted) {
      this.claimAgain = false;
      const free = concurrency - this.sending.size;
      if (free <= 0) return;
      const at = now();
      // Held past the attempt's own timeout: only a worker that died leaves a hold to expire.
      const holdUntil = new Date(at.getTime() + timeoutMs + HOLD_MARGIN_MS);
      const due = await claimDueDeliveries(this.db, at, holdUntil, free, inFlight);
      for (const delivery of due) this.send(delivery);
      more = due.length > 0 || this.claimAgain;
    }
  }

  private async pruneWhenDue(): Promise<void> {
    const at = this.options.now().getTime();
    if (at - this.prunedAt < PRUNE_EVERY_MS) return;
    this.prunedAt = at;
    const before = new Date(at - this.options.retentionDays * 86_400_000);
    const deleted = await pruneEvents(this.db, before);
    if (deleted > 0) this.options.log.info({ deleted, before: before.toISOString() }, 'old events deleted');
  }

  /** Sends one delivery in a slot of its own; the slot, once free, takes the next due one. */
  private send(delivery: DueDelivery): void {
    const sending: Promise<void> = this.attempt(delivery)
      .catch((error) => this.options.log.warn({ err: error, delivery: delivery.id }, 'webhook attempt not recorded'))
      .finally(() => {
        this.sending.delete(sending);
        void this.tick();
      });
    this.sending.add(sending);
  }

  private async attempt(delivery: DueDelivery): Promise<void> {
    const { now, retryBaseMs, maxAttempts, timeoutMs, allowPrivate, userAgent } = this.options;
    // Taken while stop() began: an abort that already happened would not cut the send.
    if (this.stopping.signal.aborted) {
      await releaseDelivery(this.db, delivery.id);
      return;
    }
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
