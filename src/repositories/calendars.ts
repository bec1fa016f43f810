import type { Queryable } from '../db/queryable.js';
import type { BookingStatus } from '../db/schema.js';
import { requestCutoff } from '../domain/booking-price.js';
import type { JobStatus } from '../domain/statuses.js';
import { bookingsHoldingDays } from './bookings.js';
import type { WriteTransaction } from './write-transaction.js';

/** The Europe/Berlin dates a feed covers, both inclusive. */
export interface DateWindow {
  from: string;
  to: string;
}

export interface BusyRange {
  id: string;
  start_date: string;
  end_date: string;
  /** A booking by the hour: its instants (null for a day booking). */
  start_at: string | null;
  end_at: string | null;
}

/** The ranges the listing's bookings hold at `now` (as its availability counts them) that touch the window. */
export function listingBusyRanges(
  db: Queryable,
  listingId: string,
  window: DateWindow,
  now: Date,
  requestTtlHours: number,
): Promise<BusyRange[]> {
  return bookingsHoldingDays(db, listingId, window, now, requestTtlHours)
    .select(['id', 'start_date', 'end_date', 'start_at', 'end_at'])
    .execute();
}

/** Sets the account's feed to the token with this hash: the previous one, if any, stops working. */
export async function replaceCalendarFeed(
  trx: WriteTransaction,
  accountId: string,
  tokenHash: string,
  createdAt: string,
): Promise<void> {
  await trx
    .insertInto('calendar_feeds')
    .values({ account_id: accountId, token_hash: tokenHash, created_at: createdAt })
    .onConflict((oc) => oc.column('account_id').doUpdateSet({ token_hash: tokenHash, created_at: createdAt }))
    .execute();
}

export async function deleteCalendarFeed(trx: WriteTransaction, accountId: string): Promise<void> {
  await trx.deleteFrom('calendar_feeds').where('account_id', '=', accountId).execute();
}

/** The account whose feed has a token with this hash. */
export async function accountOfCalendarFeed(db: Queryable, tokenHash: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('calendar_feeds')
    .select('account_id')
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
  return row?.account_id;
}

export interface AccountBooking {
  id: string;
  start_date: string;
  end_date: string;
  start_at: string | null;
  end_at: string | null;
  status: BookingStatus;
  title: string;
  role: 'owner' | 'renter';
}

/**
 * The account's bookings, as renter and as owner of the listing, that touch the window and are
 * commitments: requests still waiting (not past the TTL), confirmed, active and returned ones;
 * none of a listing a moderation decision removed.
 */
export async function bookingsOfAccount(
  db: Queryable,
  accountId: string,
  window: DateWindow,
  now: Date,
  requestTtlHours: number,
): Promise<AccountBooking[]> {
  const cutoff = requestCutoff(now, requestTtlHours);
  const rows = await db
    .selectFrom('bookings')
    .innerJoin('listings', 'listings.id', 'bookings.listing_id')
    .innerJoin('owners', 'owners.id', 'listings.owner_id')
    .select([
      'bookings.id',
      'bookings.start_date',
      'bookings.end_date',
      'bookings.start_at',
      'bookings.end_at',
      'bookings.status',
      'bookings.renter_account_id',
      'listings.title',
    ])
    .where((eb) => eb.or([eb('bookings.renter_account_id', '=', accountId), eb('owners.account_id', '=', accountId)]))
    // A listing a moderation decision removed is in no feed, as removed jobs are not (its title with it).
    .where('listings.status', '<>', 'removed')
    .where((eb) =>
      eb.or([
        eb('bookings.status', 'in', ['confirmed', 'active', 'returned']),
        eb.and([eb('bookings.status', '=', 'requested'), eb('bookings.created_at', '>', cutoff)]),
      ]),
    )
    .where('bookings.end_date', '>=', window.from)
    .where('bookings.start_date', '<=', window.to)
    .orderBy('bookings.start_date')
    .orderBy('bookings.id')
    .execute();
  return rows.map(({ renter_account_id, ...row }) => ({
    ...row,
    role: renter_account_id === accountId ? 'renter' : 'owner',
  }));
}

export interface AccountJob {
  id: string;
  title: string;
  status: JobStatus;
  desired_at: string;
  duration_hours: number;
  deadline: string | null;
  role: 'poster' | 'helper';
}

/**
 * Jobs with a desired time in the window that the account posted, or where its application was
 * accepted (and not withdrawn); cancelled and expired jobs are no commitment.
 */
export async function jobsOfAccount(db: Queryable, accountId: string, window: DateWindow): Promise<AccountJob[]> {
  const live: JobStatus[] = ['open', 'assigned', 'completed'];
  const columns = [
    'jobs.id',
    'jobs.title',
    'jobs.status',
    'jobs.desired_at',
    'jobs.duration_hours',
    'jobs.deadline',
  ] as const;
  const [posted, helped] = await Promise.all([
    db
      .selectFrom('jobs')
      .select(columns)
      .where('jobs.owner_account_id', '=', accountId)
      .where('jobs.status', 'in', live)
      .where('jobs.desired_date', '>=', window.from)
      .where('jobs.desired_date', '<=', window.to)
      .execute(),
    db
      .selectFrom('applications')
      .innerJoin('jobs', 'jobs.id', 'applications.job_id')
      .select(columns)
      .where('applications.account_id', '=', accountId)
      .where('applications.status', '=', 'accepted')
      .where('applications.withdrawn_at', 'is', null)
      .where('jobs.status', 'in', live)
      .where('jobs.desired_date', '>=', window.from)
      .where('jobs.desired_date', '<=', window.to)
      .execute(),
  ]);
  const withRole = (role: AccountJob['role']) => (row: (typeof posted)[number]) =>
    row.desired_at === null ? [] : [{ ...row, desired_at: row.desired_at, role }];
  return [...posted.flatMap(withRole('poster')), ...helped.flatMap(withRole('helper'))].sort(
    (a, b) => a.desired_at.localeCompare(b.desired_at) || a.id.localeCompare(b.id),
  );
}
