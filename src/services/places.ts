import type { Queryable } from '../db/queryable.js';
import { berlinDate, berlinWallClock, nextDate } from '../domain/berlin-time.js';
import { firstNameAndInitial } from '../domain/text.js';
import {
  type ExactPlace,
  exactHelperPlace,
  exactJobPlace,
  exactListingPlace,
  placesReleasedTo,
  recordPlaceRelease,
  releasesOfPlacesOf,
} from '../repositories/places.js';
import { ApiError } from './errors.js';

/**
 * The exact places one account may be shown of jobs and listings it does not own, per Europe/Berlin
 * day (issue 30, 4): a person picks up a few items and does a few jobs a day; a collector of homes
 * reads many. Beyond it, 429 account_limit_reached until the next day; places read again the same
 * day do not count twice.
 */
export const PLACE_RELEASES_PER_ACCOUNT_PER_DAY = 10;

/**
 * GET /v1/{jobs,listings,helpers}/{id}/location: the exact place of a job, listing or helper
 * profile for an account it concerns (repositories/places.ts says who); undefined for anyone else.
 * Shown to anyone but its owner, the read is recorded (who, when: GET /v1/me/place-releases) and
 * counts against PLACE_RELEASES_PER_ACCOUNT_PER_DAY.
 */
export async function exactPlaceOf(
  resource: 'jobs' | 'listings' | 'helpers',
  db: Queryable,
  id: string,
  accountId: string,
  now: Date,
): Promise<ExactPlace | undefined> {
  if (resource === 'helpers') return exactHelperPlace(db, id, accountId);
  const day = berlinDate(now);
  const found =
    resource === 'jobs' ? await exactJobPlace(db, id, accountId) : await exactListingPlace(db, id, accountId, day);
  if (!found) return undefined;
  const { owner_account_id: owner, ...place } = found;
  if (owner !== null && owner !== accountId) {
    const released = await placesReleasedTo(db, accountId, day);
    if (!released.includes(id) && released.length >= PLACE_RELEASES_PER_ACCOUNT_PER_DAY) {
      throw new ApiError(
        429,
        'account_limit_reached',
        `An account may be shown the exact places of ${PLACE_RELEASES_PER_ACCOUNT_PER_DAY} jobs and listings a day; this would be one more.`,
        {
          param: null,
          suggestion: 'Read the places you were shown today again (they do not count twice), or this one tomorrow.',
          headers: { 'retry-after': String(secondsToBerlinMidnight(now)) },
        },
      );
    }
    await recordPlaceRelease(
      db,
      { resource, objectId: id, ownerAccountId: owner, readerAccountId: accountId, day },
      now.toISOString(),
    );
  }
  return place;
}

/** Seconds until the next Europe/Berlin day begins (at least 1). */
function secondsToBerlinMidnight(now: Date): number {
  const midnight = berlinWallClock(nextDate(berlinDate(now)), 0);
  return Math.max(1, Math.ceil((midnight.getTime() - now.getTime()) / 1000));
}

/** GET /v1/me/place-releases: who was shown the exact places of the account's jobs and listings, newest first. */
export async function placeReleasesOf(db: Queryable, accountId: string, limit: number, offset: number) {
  const { rows, total } = await releasesOfPlacesOf(db, accountId, limit, offset);
  return {
    data: rows.map((row) => ({
      about: { type: row.resource === 'jobs' ? ('job' as const) : ('listing' as const), id: row.object_id },
      read_by: firstNameAndInitial(row.reader_name),
      day: row.day,
      first_read_at: row.first_at,
      last_read_at: row.last_at,
      reads: row.reads,
    })),
    total,
    limit,
    offset,
    has_more: offset + rows.length < total,
  };
}
