import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { finalizeCompletions } from '../services/completions.js';
import { PeriodicSweep } from './periodic.js';

/**
 * Writes final the job completions whose window to object closed without a word from the helper,
 * with the helpers' figures (the job counts in their record). Reads and reviews do not wait for it
 * (domain/completions.ts judges the window at read time): it exists for the stored row and the figures.
 */
export function completionSweep(
  db: Kysely<Database>,
  options: { now: () => Date; everyMs: number; log: FastifyBaseLogger },
): PeriodicSweep {
  const { now, everyMs, log } = options;
  return new PeriodicSweep({
    everyMs,
    log,
    run: () => finalizeCompletions({ db, now: now(), claim: null }),
    done: 'job completions final at the end of their window',
    failed: 'finalizing job completions failed; retried next round',
  });
}
