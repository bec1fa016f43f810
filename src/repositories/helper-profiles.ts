import type { Queryable } from '../db/queryable.js';
import type { HelperRow, NewHelper } from '../db/schema.js';
import type { Category } from '../domain/categories.js';
import { DEFAULT_CENTER, haversineKm } from '../domain/geo.js';
import { newId } from '../domain/ids.js';
import { centsToEur } from '../domain/pricing.js';
import type { AvailabilityWindow, HelperProfile } from '../schemas/helper-profiles.js';
import { freshRecordColumns, helperAreaFromRow, reliabilityFromRow } from './mappers.js';
import type { WriteTransaction } from './write-transaction.js';

/** The columns of a helper that its account sets (location resolved, rate in cents, availability as JSON). */
export type HelperValues = Pick<
  NewHelper,
  | 'display_name'
  | 'bio'
  | 'hourly_rate_cents'
  | 'available'
  | 'availability'
  | 'city'
  | 'plz'
  | 'district'
  | 'lat'
  | 'lng'
  | 'exact_lat'
  | 'exact_lng'
>;

export function helperRowToProfile(row: HelperRow, categories: readonly Category[]): HelperProfile {
  return {
    id: row.id,
    display_name: row.display_name,
    categories: [...categories],
    hourly_rate_eur: centsToEur(row.hourly_rate_cents),
    location: helperAreaFromRow(row, haversineKm(DEFAULT_CENTER, row)),
    reliability: reliabilityFromRow(row),
    availability: row.availability === null ? null : (JSON.parse(row.availability) as AvailabilityWindow),
    available: row.available === 1,
    bio: row.bio,
  };
}

/** Registers a helper profile for an account, unverified and with a fresh record; returns its id. */
export async function insertHelperProfile(
  trx: WriteTransaction,
  accountId: string,
  values: HelperValues,
  categories: readonly Category[],
  now: Date,
): Promise<string> {
  const id = newId('hlp');
  await trx
    .insertInto('helpers')
    .values({
      ...values,
      ...freshRecordColumns(),
      id,
      account_id: accountId,
      created_at: now.toISOString(),
    })
    .execute();
  await trx
    .insertInto('helper_categories')
    .values(categories.map((category) => ({ helper_id: id, category })))
    .execute();
  return id;
}

export async function findHelperProfile(db: Queryable, id: string): Promise<HelperProfile | undefined> {
  const row = await db.selectFrom('helpers').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  const categories = await db
    .selectFrom('helper_categories')
    .select('category')
    .where('helper_id', '=', id)
    .orderBy('category')
    .execute();
  return helperRowToProfile(
    row,
    categories.map((c) => c.category),
  );
}

/** Whether a moderation decision removed the helper's profile from public reads. */
export async function isRemovedHelper(db: Queryable, id: string): Promise<boolean> {
  const row = await db.selectFrom('helpers').select('removed_at').where('id', '=', id).executeTakeFirst();
  return row !== undefined && row.removed_at !== null;
}

/** Whether the helper was registered by the account. */
export async function isOwnHelper(db: Queryable, id: string, accountId: string): Promise<boolean> {
  const row = await db
    .selectFrom('helpers')
    .select('id')
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Changes a helper of the account (and, when given, replaces its categories); the first statement
 * of the transaction writes. False: no such helper of the account.
 */
export async function updateHelperProfile(
  trx: WriteTransaction,
  id: string,
  accountId: string,
  values: Partial<HelperValues>,
  categories: readonly Category[] | undefined,
): Promise<boolean> {
  // Setting account_id to itself keeps the statement valid when only the categories change.
  const updated = await trx
    .updateTable('helpers')
    .set({ ...values, account_id: accountId })
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) return false;
  if (categories) {
    await trx.deleteFrom('helper_categories').where('helper_id', '=', id).execute();
    await trx
      .insertInto('helper_categories')
      .values(categories.map((category) => ({ helper_id: id, category })))
      .execute();
  }
  return true;
}
