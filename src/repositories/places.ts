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

/** A job's or listing's place with the account that owns it (who reads it is recorded unless it is the owner). */
export type OwnedPlace = ExactPlace & { owner_account_id: string | null };

/**
 * The place of a job, for its owner or an account whose application to it was accepted;
 * undefined for everyone else (and for ids that do not exist: the same answer).
 */
export async function exactJobPlace(db: Queryable, jobId: string, accountId: string): Promise<OwnedPlace | undefined> {
  return db
    .selectFrom('jobs')
    .select([...EXACT_PLACE, 'owner_account_id'])
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
): Promise<OwnedPlace | undefined> {
  const latestStart = addDays(today, PICK_UP_PLACE_DAYS_AHEAD);
  return db
    .selectFrom('listings')
    .innerJoin('owners', 'owners.id', 'listings.owner_id')
    .select([...EXACT_PLACE.map((column) => `listings.${column}` as const), 'owners.account_id as owner_account_id'])
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

/** A release as recorded: one row per object, reader and Europe/Berlin day. */
export interface PlaceRelease {
  resource: 'jobs' | 'listings';
  objectId: string;
  ownerAccountId: string;
  readerAccountId: string;
  day: string;
}

/** Records a read of a place by someone other than its owner: the day's row, or one more read of it. */
export async function recordPlaceRelease(db: Queryable, release: PlaceRelease, at: string): Promise<void> {
  await db
    .insertInto('place_releases')
    .values({
      resource: release.resource,
      object_id: release.objectId,
      owner_account_id: release.ownerAccountId,
      reader_account_id: release.readerAccountId,
      day: release.day,
      first_at: at,
      last_at: at,
      reads: 1,
    })
    .onConflict((oc) =>
      oc.columns(['object_id', 'reader_account_id', 'day']).doUpdateSet((eb) => ({
        last_at: at,
        reads: eb('place_releases.reads', '+', 1),
      })),
    )
    .execute();
}

/** The objects whose places were released to the reader on the day (their ids). */
export async function placesReleasedTo(db: Queryable, readerAccountId: string, day: string): Promise<string[]> {
  const rows = await db
    .selectFrom('place_releases')
    .select('object_id')
    .where('reader_account_id', '=', readerAccountId)
    .where('day', '=', day)
    .execute();
  return rows.map((r) => r.object_id);
}

/** The releases of the account's places, newest first, with the reader's name as stored. */
export async function releasesOfPlacesOf(db: Queryable, ownerAccountId: string, limit: number, offset: number) {
  const [rows, total] = await Promise.all([
    db
      .selectFrom('place_releases')
      .innerJoin('accounts', 'accounts.id', 'place_releases.reader_account_id')
      .select([
        'place_releases.resource',
        'place_releases.object_id',
        'place_releases.day',
        'place_releases.first_at',
        'place_releases.last_at',
        'place_releases.reads',
        'accounts.name as reader_name',
      ])
      .where('place_releases.owner_account_id', '=', ownerAccountId)
      .orderBy('place_releases.last_at', 'desc')
      .orderBy('place_releases.object_id')
      .orderBy('place_releases.reader_account_id')
      .limit(limit)
      .offset(offset)
      .execute(),
    db
      .selectFrom('place_releases')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('owner_account_id', '=', ownerAccountId)
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}
