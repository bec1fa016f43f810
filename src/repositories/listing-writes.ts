import { sql } from 'kysely';
import type { Queryable } from '../db/queryable.js';
import type { AccountRow, ListingRow, NewListing } from '../db/schema.js';
import { newId } from '../domain/ids.js';
import type { ListingStatus } from '../domain/statuses.js';
import { firstNameAndInitial } from '../domain/text.js';
import { freshRecordColumns } from './mappers.js';
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

/** Inserts an available listing of the owner; returns its id. */
export async function insertListing(
  trx: WriteTransaction,
  ownerId: string,
  values: ListingValues,
  now: Date,
): Promise<string> {
  const id = newId('lst');
  const at = now.toISOString();
  await trx
    .insertInto('listings')
    .values({ ...values, id, owner_id: ownerId, status: 'available', created_at: at, updated_at: at })
    .execute();
  return id;
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

export type ListingChange = Partial<Omit<ListingRow, 'id' | 'owner_id' | 'status' | 'created_at'>>;

/**
 * Writes a listing's row without changing it: as the first statement of a change it locks the
 * listing, so rules read after it that span fields (the weekly price below seven days) hold against
 * concurrent changes.
 */
export async function lockListing(trx: WriteTransaction, id: string): Promise<void> {
  await trx.updateTable('listings').set({ updated_at: sql`updated_at` }).where('id', '=', id).execute();
}

/** Sets columns of a listing and stamps updated_at. */
export async function setListingColumns(
  trx: WriteTransaction,
  id: string,
  change: ListingChange,
  now: Date,
): Promise<void> {
  await trx
    .updateTable('listings')
    .set({ ...change, updated_at: now.toISOString() })
    .where('id', '=', id)
    .execute();
}

/**
 * Moves an own listing from one of `from` to `to` in one conditional write; false when it was not
 * in `from` (or is not the account's).
 */
export async function moveOwnListing(
  trx: WriteTransaction,
  id: string,
  accountId: string,
  from: readonly ListingStatus[],
  to: ListingStatus,
  now: Date,
): Promise<boolean> {
  const result = await trx
    .updateTable('listings')
    .set({ status: to, updated_at: now.toISOString() })
    .where('id', '=', id)
    .where('owner_id', 'in', ownersOf(trx, accountId))
    .where('status', 'in', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
