import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { offerFreedTimes } from '../services/waitlist.js';
import { PeriodicSweep } from './periodic.js';

export interface WaitlistSweepOptions {
  now: () => Date;
  /** EVENTS_POLL_MS: a freed time is offered about as soon as it is free. */
  everyMs: number;
  /** WAITLIST_HOLD_HOURS. */
  holdHours: number;
  requestTtlHours: number;
  baseUrl: string;
  mailer: Parameters<typeof offerFreedTimes>[1];
  log: FastifyBaseLogger;
}

/**
 * Offers the waiting lists' freed times, every everyMs, in every instance: lapses ended holds,
 * offers each waiting entry whose time is free (once, under the listing's lock) and sends the
 * offers' e-mails (each claimed first, so once).
 */
export function waitlistSweep(db: Kysely<Database>, options: WaitlistSweepOptions): PeriodicSweep {
  const { now, everyMs, log, mailer, ...rest } = options;
  return new PeriodicSweep({
    everyMs,
    log,
    run: () => offerFreedTimes(db, mailer, { now: now(), ...rest }),
    done: 'waiting-list times offered',
    failed: 'waiting-list sweep failed; retried next round',
  });
}
