import { sql } from 'kysely';
import type { Queryable } from '../db/queryable.js';
import type { AccountRow, ListingRow, ListingsTable, NewListing } from '../db/schema.js';
import { newId } from '../domain/ids.js';
import type { ListingStatus } from '../domain/statuses.js';
import { firstNameAndInitial } from '../domain/text.js';
import type { Listing } from '../schemas/listing.js';
import { freshRecordColumns } from './mappers.js';
import { recordListingEvent } from './outbox.js';
import { matchSavedSearches } from './saved-search-matches.js';
import type { WriteTransaction } from './write-transaction.js';

/**
 * The owner row of an account, created on its first listing. The insert comes first and yields to
 * an existing row (owners.account_id is unique), so two first listings at once make one owner.
 */
export async function ownerIdOfAccount(db: WriteTransaction, account: AccountRow, now: Date): Promise<string> {
  await db
    .insertInto('owners')
    .values({
      id: newId('own'),
      display_name: firstNameAndInitial(account.name),
      created_at: now.toISOString(),
      account_id: account.id,
      ...freshRecordColumns(),
    })
    .onConflict((conflict) => conflict.column('account_id').where('account_id', 'is not', null).doNothing())
    .execute();
  const owner = await db
    .selectFrom('owners')
    .select('id')
    .where('account_id', '=', account.id)
    .executeTakeFirstOrThrow();
  return owner.id;
}

export type ListingValues = Omit<NewListing, 'id' | 'owner_id' | 'status' | 'created_at' | 'updated_at'>;

/**
 * Inserts a listing of the account (an available one) and its owner row if needed; returns it as
 * GET /v1/listings/{id} shows it (the snapshot its listing.created event holds).
 */
export async function insertListing(
  trx: WriteTransaction,
  account: AccountRow,
  values: ListingValues,
  now: Date,
): Promise<Listing> {
  const ownerId = await ownerIdOfAccount(trx, account, now);
  const id = newId('lst');
  const at = now.toISOString();
  await trx
    .insertInto('listings')
    .values({ ...values, id, owner_id: ownerId, status: 'available', created_at: at, updated_at: at })
    .execute();
  const listing = await recordListingEvent(trx, 'listing.created', id, now);
  await matchSavedSearches(trx, 'listings', listing, account.id, now);
  return listing;
}

/** The owner rows of an account (one at most), as a subquery. */
function ownersOf(db: Queryable, accountId: string) {
  return db.selectFrom('owners').select('id').where('account_id', '=', accountId);
}

/** The listing if the account owns it. */
export function ownListing(db: Queryable, id: string, accountId: string): Promise<ListingRow | undefined> {
  return db
    .selectFrom('listings')
    .selectAll()
    .where('id', '=', id)
    .where('owner_id', 'in', ownersOf(db, accountId))
    .executeTakeFirst();
}

export type ListingChange = Partial<Omit<ListingsTable, 'id' | 'owner_id' | 'status' | 'created_at'>>;

/**
 * Changes an own listing that is not archived. `change` sees the row as it is inside the
 * transaction, after a first write has locked the listing, so rules that span fields (the weekly
 * price below seven days) hold against concurrent changes; it may throw to change nothing (what it
 * throws rolls the transaction back).
 */
export async function updateOwnListing(
  trx: WriteTransaction,
  id: string,
  accountId: string,
  change: (current: ListingRow) => ListingChange,
  now: Date,
): Promise<{ updated: true; listing: Listing } | { updated: false; current: ListingRow | undefined }> {
  await trx.updateTable('listings').set({ updated_at: sql`updated_at` }).where('id', '=', id).execute();
  const current = await ownListing(trx, id, accountId);
  // Archived, or removed by a moderation decision: no longer changed.
  if (!current || current.status === 'archived' || current.status === 'removed')
    return { updated: false as const, current };
  await trx
    .updateTable('listings')
    .set({ ...change(current), updated_at: now.toISOString() })
    .where('id', '=', id)
    .execute();
  const listing = await recordListingEvent(trx, 'listing.updated', id, now);
  await matchSavedSearches(trx, 'listings', listing, accountId, now);
  return { updated: true as const, listing };
}

/**
 * Moves an own listing from one of `from` to `to` in one conditional write, with its
 * listing.status_changed event; returns the listing as changed, or null when it was not in `from`.
 */
export async function setOwnListingStatus(
  trx: WriteTransaction,
  id: string,
  accountId: string,
  from: readonly ListingStatus[],
  to: ListingStatus,
  now: Date,
): Promise<Listing | null> {
  const result = await trx
    .updateTable('listings')
    .set({ status: to, updated_at: now.toISOString() })
    .where('id', '=', id)
    .where('owner_id', 'in', ownersOf(trx, accountId))
    .where('status', 'in', from)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return null;
  const listing = await recordListingEvent(trx, 'listing.status_changed', id, now);
  // A paused listing made available again may start to match.
  await matchSavedSearches(trx, 'listings', listing, accountId, now);
  return listing;
}
