import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { publishClosedReviews } from '../services/reviews.js';
import { PeriodicSweep } from './periodic.js';

/**
 * Writes the publication of reviews whose window closed without the other side's review, with
 * their review.published events and the reviewed parties' figures. Reads do not wait for it
 * (domain/reviews.ts isPublished): it exists for the events, the stored row and the figures.
 */
export function reviewPublicationSweep(
  db: Kysely<Database>,
  options: { now: () => Date; everyMs: number; log: FastifyBaseLogger },
): PeriodicSweep {
  const { now, everyMs, log } = options;
  return new PeriodicSweep({
    everyMs,
    log,
    run: () => publishClosedReviews({ db, now: now(), claim: null }),
    done: 'reviews published at the end of their window',
    failed: 'review publication failed; retried next round',
  });
}
