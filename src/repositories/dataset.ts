import { sql } from 'kysely';
import type { Queryable } from './db.js';

/** Tables the seed fills, children first (the order to delete them in). */
const MARKETPLACE_TABLES = ['helper_categories', 'helpers', 'listings', 'owners', 'jobs'] as const;

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
