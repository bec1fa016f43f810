import { addDays } from '../domain/booking-price.js';
import type { Queryable } from './db.js';

/** A place as stored, for whom it concerns (never a public answer). */
export interface ExactPlace {
  id: string;
  city: string;
  plz: string;
  district: string | null;
  lat: number;
  lng: number;
}

/**
 * How many days before a confirmed booking starts its renter may know where to pick the item up.
 * Not from the confirmation: an instant booking is confirmed at once, so anyone could book months
 * ahead, read the place and cancel. A day ahead is when a renter plans the trip; an active booking
 * (picked up) always may.
 */
export const PICK_UP_PLACE_DAYS_AHEAD = 1;

/**
 * The place of a job, for its owner or an account whose application to it was accepted;
 * undefined for everyone else (and for ids that do not exist: the same answer).
 */
export async function exactJobPlace(db: Queryable, jobId: string, accountId: string): Promise<ExactPlace | undefined> {
  return db
    .selectFrom('jobs')
    .select(['id', 'city', 'plz', 'district', 'exact_lat as lat', 'exact_lng as lng'])
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
    .select([
      'listings.id',
      'listings.city',
      'listings.plz',
      'listings.district',
      'listings.exact_lat as lat',
      'listings.exact_lng as lng',
    ])
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
    .select(['id', 'city', 'plz', 'district', 'exact_lat as lat', 'exact_lng as lng'])
    .where('id', '=', helperId)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
}
