import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { FeeRule } from '../domain/payments.js';
import { postDueOccurrences } from '../services/job-series.js';
import { PeriodicSweep } from './periodic.js';

export interface JobSeriesSweepOptions {
  now: () => Date;
  /** EVENTS_POLL_MS: an occurrence is posted about as soon as it enters the window. */
  everyMs: number;
  /** SERIES_HORIZON_DAYS. */
  horizonDays: number;
  /** The payments a standing helper's place on a posted occurrence owes. */
  fees: FeeRule;
  log: FastifyBaseLogger;
}

/**
 * Posts the occurrences of job series as they enter the window (SERIES_HORIZON_DAYS ahead of their
 * start), every everyMs, in every instance: each series is locked in its own transaction and each
 * occurrence's job is unique by series and date, so two instances never post one twice.
 */
export function jobSeriesSweep(db: Kysely<Database>, options: JobSeriesSweepOptions): PeriodicSweep {
  const { now, everyMs, horizonDays, fees, log } = options;
  return new PeriodicSweep({
    everyMs,
    log,
    run: () => postDueOccurrences(db, now(), { horizonDays, fees }),
    done: 'job series occurrences posted',
    failed: 'job series sweep failed; retried next round',
  });
}
