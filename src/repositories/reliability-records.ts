import type { Queryable } from '../db/queryable.js';
import {
  countedRatings,
  helperRecord,
  ownerRecord,
  type ReliabilityHistory,
  reliabilityOf,
} from '../domain/reliability.js';
import { figuresToColumns } from './mappers.js';
import type { WriteTransaction } from './write-transaction.js';

async function isVerified(db: Queryable, column: 'helper_id' | 'owner_id', id: string): Promise<boolean> {
  const row = await db
    .selectFrom('verifications')
    .select('id')
    .where(column, '=', id)
    .where('status', '=', 'approved')
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * The ratings that count of the published reviews of a helper (by clients) or an owner (by
 * renters): countedRatings, one per seasoned author.
 */
async function publishedRatings(db: Queryable, column: 'helper_id' | 'owner_id', id: string): Promise<number[]> {
  const rows = await db
    .selectFrom('reviews')
    .leftJoin('accounts', 'accounts.id', 'reviews.author_account_id')
    .select([
      'reviews.rating',
      'reviews.author_account_id',
      'reviews.created_at',
      'accounts.created_at as author_created_at',
    ])
    .where(`reviews.${column}`, '=', id)
    .where('reviews.author_side', '=', column === 'helper_id' ? 'client' : 'renter')
    .where('reviews.published_at', 'is not', null)
    .orderBy('reviews.id')
    .execute();
  return countedRatings(rows);
}

/**
 * Minutes an account took to answer the conversations the other side opened: from the first
 * message to the account's first one, for each conversation it has answered.
 */
export async function firstReplyMinutes(db: Queryable, accountId: string | null): Promise<number[]> {
  if (accountId === null) return [];
  const rows = await db
    .selectFrom('conversations as c')
    .select((eb) => [
      eb
        .selectFrom('messages as m')
        .select((m) => m.fn.min('m.created_at').as('at'))
        .whereRef('m.conversation_id', '=', 'c.id')
        .as('first_at'),
      eb
        .selectFrom('messages as m')
        .select((m) => m.fn.min('m.created_at').as('at'))
        .whereRef('m.conversation_id', '=', 'c.id')
        .where('m.sender_account_id', '=', accountId)
        .as('reply_at'),
    ])
    .where((eb) => eb.or([eb('c.account_low', '=', accountId), eb('c.account_high', '=', accountId)]))
    .where('c.started_by', '!=', accountId)
    .orderBy('c.id')
    .execute();
  return rows.flatMap((row) =>
    row.first_at && row.reply_at
      ? [Math.max(0, (Date.parse(String(row.reply_at)) - Date.parse(String(row.first_at))) / 60_000)]
      : [],
  );
}

/**
 * The first-reply minutes of the account behind a helper or owner row, unless the caller has them
 * already (a refresh of all of one account's rows reads them once).
 */
async function repliesOf(
  db: Queryable,
  table: 'helpers' | 'owners',
  id: string,
  known: readonly number[] | undefined,
): Promise<readonly number[]> {
  if (known) return known;
  const row = await db.selectFrom(table).select('account_id').where('id', '=', id).executeTakeFirst();
  return firstReplyMinutes(db, row?.account_id ?? null);
}

/** A helper's record from what is stored: their applications, published reviews and verifications. */
export async function helperHistory(
  db: Queryable,
  helperId: string,
  replies?: readonly number[],
): Promise<ReliabilityHistory> {
  const applications = await db
    .selectFrom('applications')
    .innerJoin('jobs', 'jobs.id', 'applications.job_id')
    .leftJoin('accounts', 'accounts.id', 'jobs.owner_account_id')
    .select([
      'applications.created_at',
      'applications.status',
      'applications.withdrawn_at',
      'applications.no_show',
      'applications.excused_by',
      'jobs.desired_at as job_desired_at',
      'jobs.created_at as job_created_at',
      'jobs.status as job_status',
      'jobs.completed_at as job_completed_at',
      'accounts.created_at as owner_created_at',
      'applications.completion_final_at',
    ])
    .where('applications.helper_id', '=', helperId)
    .orderBy('applications.id')
    .execute();
  const ratings = await publishedRatings(db, 'helper_id', helperId);
  const answered = await repliesOf(db, 'helpers', helperId, replies);
  return helperRecord(applications, ratings, await isVerified(db, 'helper_id', helperId), answered);
}

/** A listing owner's record: the bookings of their listings, published reviews and verifications. */
export async function ownerHistory(
  db: Queryable,
  ownerId: string,
  replies?: readonly number[],
): Promise<ReliabilityHistory> {
  const bookings = await db
    .selectFrom('bookings')
    .innerJoin('listings', 'listings.id', 'bookings.listing_id')
    .select(['bookings.status', 'bookings.created_at', 'bookings.decided_at', 'bookings.cancelled_by'])
    .where('listings.owner_id', '=', ownerId)
    .orderBy('bookings.id')
    .execute();
  const ratings = await publishedRatings(db, 'owner_id', ownerId);
  const answered = await repliesOf(db, 'owners', ownerId, replies);
  return ownerRecord(bookings, ratings, await isVerified(db, 'owner_id', ownerId), answered);
}

/** Writes the figures of each helper's record into its row (the cache), inside the write that changed the record. */
export async function refreshHelperRecords(
  trx: WriteTransaction,
  helperIds: readonly string[],
  replies?: readonly number[],
): Promise<void> {
  for (const id of new Set(helperIds)) {
    const columns = figuresToColumns(reliabilityOf(await helperHistory(trx, id, replies)));
    await trx.updateTable('helpers').set(columns).where('id', '=', id).execute();
  }
}

/** As refreshHelperRecords, for listing owners. */
export async function refreshOwnerRecords(
  trx: WriteTransaction,
  ownerIds: readonly string[],
  replies?: readonly number[],
): Promise<void> {
  for (const id of new Set(ownerIds)) {
    const columns = figuresToColumns(reliabilityOf(await ownerHistory(trx, id, replies)));
    await trx.updateTable('owners').set(columns).where('id', '=', id).execute();
  }
}

/**
 * Refreshes the records of an account's helper profiles and owner row (a first reply to a
 * conversation moved its answer times).
 */
export async function refreshAccountRecords(trx: WriteTransaction, accountId: string): Promise<void> {
  const helpers = await trx.selectFrom('helpers').select('id').where('account_id', '=', accountId).execute();
  const owners = await trx.selectFrom('owners').select('id').where('account_id', '=', accountId).execute();
  if (helpers.length + owners.length === 0) return;
  // The account's conversations are scanned once for all its rows.
  const replies = await firstReplyMinutes(trx, accountId);
  await refreshHelperRecords(
    trx,
    helpers.map((h) => h.id),
    replies,
  );
  await refreshOwnerRecords(
    trx,
    owners.map((o) => o.id),
    replies,
  );
}

/** The owner of a booking's listing. */
export async function ownerOfBooking(db: Queryable, bookingId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('bookings')
    .innerJoin('listings', 'listings.id', 'bookings.listing_id')
    .select('listings.owner_id')
    .where('bookings.id', '=', bookingId)
    .executeTakeFirst();
  return row?.owner_id;
}
