import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { refreshBusyCalendars } from '../services/busy-calendars.js';
import { PeriodicSweep } from './periodic.js';

export interface BusyCalendarSweepOptions {
  now: () => Date;
  /** EVENTS_POLL_MS: a new calendar is fetched about at once; each is due every refreshMinutes. */
  everyMs: number;
  refreshMinutes: number;
  allowPrivate: boolean;
  userAgent: string;
  log: FastifyBaseLogger;
}

/** Fetches the busy calendars as they come due, in every instance (each fetch claimed by one). */
export function busyCalendarSweep(db: Kysely<Database>, options: BusyCalendarSweepOptions): PeriodicSweep {
  const { now, everyMs, log, ...rest } = options;
  return new PeriodicSweep({
    everyMs,
    log,
    run: () => refreshBusyCalendars(db, { now: now(), ...rest }),
    done: 'busy calendars fetched',
    failed: 'busy calendar sweep failed; retried next round',
  });
}
