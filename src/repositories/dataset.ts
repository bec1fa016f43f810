import { type Kysely, sql, type Transaction } from 'kysely';
import { dialectOf, type Queryable } from '../db/queryable.js';
import type { Database } from '../db/schema.js';
import { pruneSearchChanges } from './search-changes.js';

/** Tables the seed fills, children first (the order to delete them in). */
const MARKETPLACE_TABLES = [
  'reviews',
  'verifications',
  'bookings',
  'applications',
  'helper_categories',
  'helpers',
  'listings',
  'owners',
  'jobs',
] as const;

/** Whether any marketplace row exists: a first start seeds only a database with none. */
export async function hasMarketplaceData(db: Queryable): Promise<boolean> {
  const checks = MARKETPLACE_TABLES.map((table) => sql`select 1 from ${sql.table(table)}`);
  const result = await sql<{
    found: number;
  }>`select 1 as found where exists (${sql.join(checks, sql` union all `)})`.execute(db);
  return result.rows.length > 0;
}

export async function deleteMarketplaceData(db: Queryable): Promise<void> {
  for (const table of MARKETPLACE_TABLES) await db.deleteFrom(table).execute();
}

/** Records what the seed was built from (options and anchor), for people and tools that ask later. */
export async function recordSeed(db: Queryable, description: unknown): Promise<void> {
  await db
    .insertInto('meta')
    .values({ key: 'seed', value: JSON.stringify(description) })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: (eb) => eb.ref('excluded.value') }))
    .execute();
}

/** An arbitrary constant naming the seed's PostgreSQL advisory lock. */
const SEED_LOCK = 7_205_310_651;

/**
 * Holds the dataset lock until the transaction ends, so instances starting together on one empty
 * database seed it once: PostgreSQL with an advisory lock, SQLite by writing first (its write lock).
 */
export async function lockDataset(trx: Queryable): Promise<void> {
  if (dialectOf(trx) === 'postgres') {
    await sql`select pg_advisory_xact_lock(${sql.lit(SEED_LOCK)})`.execute(trx);
    return;
  }
  await trx
    .insertInto('meta')
    .values({ key: 'seed_lock', value: 'held while seeding' })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  await trx.updateTable('meta').set({ value: 'held while seeding' }).where('key', '=', 'seed_lock').execute();
}

/** Ends what lockDataset began, inside the same transaction: no lock row outlives it. */
export async function unlockDataset(trx: Queryable): Promise<void> {
  if (dialectOf(trx) === 'sqlite') await trx.deleteFrom('meta').where('key', '=', 'seed_lock').execute();
}

/**
 * Runs `fill` (which writes a dataset) in one transaction: all of it is there or none. With
 * `replace`, the marketplace rows already there are deleted first, in the same transaction.
 */
export async function fillDataset(
  db: Kysely<Database>,
  fill: (trx: Transaction<Database>) => Promise<void>,
  { replace }: { replace: boolean },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    if (replace) await deleteMarketplaceData(trx);
    await fill(trx);
    await forgetFilledChanges(trx);
  });
}

/**
 * A dataset written at once is a change of everything: its rows in the search indexes' change log
 * (one per row) are dropped at once, with the horizon past them, so an index following the log
 * rebuilds instead of reading them one by one, and the log does not hold them for an hour.
 */
async function forgetFilledChanges(trx: Transaction<Database>): Promise<void> {
  await pruneSearchChanges(trx, new Date(Date.now() + 86_400_000));
}

/**
 * Runs `fill` in one transaction when the database holds no marketplace rows; true when it did.
 * The emptiness check runs under the dataset lock, inside that transaction, so instances started
 * together fill it once.
 */
export function fillDatasetIfEmpty(
  db: Kysely<Database>,
  fill: (trx: Transaction<Database>) => Promise<void>,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    await lockDataset(trx);
    const empty = !(await hasMarketplaceData(trx));
    if (empty) {
      await fill(trx);
      await forgetFilledChanges(trx);
    }
    await unlockDataset(trx);
    return empty;
  });
}
