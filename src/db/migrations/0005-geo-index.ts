import { type Kysely, sql } from 'kysely';
import { isPostgres } from './column-types.js';

const GEO_TABLES = ['jobs', 'listings', 'helpers'] as const;

/**
 * PostgreSQL: a GiST index on each table's point (lng, lat), which answers the bounding box of a
 * radius search in both dimensions at once (a b-tree on (lat, lng) narrows by latitude only).
 * Built in, so it needs no extension and no privileged role, unlike cube/earthdistance. The box is
 * followed by the exact haversine test (db/distance.ts). SQLite keeps its (lat, lng) b-tree.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on today's Database type.
export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  for (const table of GEO_TABLES) {
    await sql`create index ${sql.id(`${table}_geo`)} on ${sql.table(table)} using gist (point(lng, lat))`.execute(db);
  }
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  for (const table of GEO_TABLES) await sql`drop index ${sql.id(`${table}_geo`)}`.execute(db);
}
