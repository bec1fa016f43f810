import type { Queryable } from '../db/queryable.js';
import { addDays, PICK_UP_PLACE_DAYS_AHEAD } from '../domain/booking-price.js';

/** A place as stored, for whom it concerns (never a public answer). */
export interface ExactPlace {
  id: string;
  city: string;
  plz: string;
  district: string | null;
  lat: number;
  lng: number;
}

/** The columns of a place as its owner wrote it, named as the answer names them. */
const EXACT_PLACE = ['id', 'city', 'plz', 'district', 'exact_lat as lat', 'exact_lng as lng'] as const;

/**
 * The place of a job, for its owner or an account whose application to it was accepted;
 * undefined for everyone else (and for ids that do not exist: the same answer).
 */
export async function exactJobPlace(db: Queryable, jobId: string, accountId: string): Promise<ExactPlace | undefined> {
  return db
    .selectFrom('jobs')
    .select(EXACT_PLACE)
    .where('id', '=', jobId)
    .where((eb) =>
      eb.or([
        eb('owner_account_id', '=', accountId),
        eb.exists(
          eb
            .selectFrom('applications')
            .select('applications.id')
            .whereRef('applications.job_id', '=', 'jobs.id')
            .where('applications.account_id', '=', accountId)
            .where('applications.status', '=', 'accepted'),
        ),
      ]),
    )
    .executeTakeFirst();
}

/**
 * The place of a listing, for its owner, or the renter of an active booking or of a confirmed one
 * that starts within PICK_UP_PLACE_DAYS_AHEAD days of `today` (Europe/Berlin) or has started.
 */
export async function exactListingPlace(
  db: Queryable,
  listingId: string,
  accountId: string,
  today: string,
): Promise<ExactPlace | undefined> {
  const latestStart = addDays(today, PICK_UP_PLACE_DAYS_AHEAD);
  return db
    .selectFrom('listings')
    .innerJoin('owners', 'owners.id', 'listings.owner_id')
    .select(EXACT_PLACE.map((column) => `listings.${column}` as const))
    .where('listings.id', '=', listingId)
    .where((eb) =>
      eb.or([
        eb('owners.account_id', '=', accountId),
        eb.exists(
          eb
            .selectFrom('bookings')
            .select('bookings.id')
            .whereRef('bookings.listing_id', '=', 'listings.id')
            .where('bookings.renter_account_id', '=', accountId)
            .where((b) =>
              b.or([
                b('bookings.status', '=', 'active'),
                b.and([b('bookings.status', '=', 'confirmed'), b('bookings.start_date', '<=', latestStart)]),
              ]),
            ),
        ),
      ]),
    )
    .executeTakeFirst();
}

/** The place of a helper profile, for the account that registered it. */
export async function exactHelperPlace(
  db: Queryable,
  helperId: string,
  accountId: string,
): Promise<ExactPlace | undefined> {
  return db
    .selectFrom('helpers')
    .select(EXACT_PLACE)
    .where('id', '=', helperId)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
}
