import type { Queryable } from '../db/queryable.js';
import { berlinDate } from '../domain/berlin-time.js';
import { type ExactPlace, exactHelperPlace, exactJobPlace, exactListingPlace } from '../repositories/places.js';

/**
 * GET /v1/{jobs,listings,helpers}/{id}/location: the exact place of a job, listing or helper
 * profile for an account it concerns (repositories/places.ts says who); undefined for anyone else.
 */
export function exactPlaceOf(
  resource: 'jobs' | 'listings' | 'helpers',
  db: Queryable,
  id: string,
  accountId: string,
  now: Date,
): Promise<ExactPlace | undefined> {
  if (resource === 'jobs') return exactJobPlace(db, id, accountId);
  if (resource === 'listings') return exactListingPlace(db, id, accountId, berlinDate(now));
  return exactHelperPlace(db, id, accountId);
}
