import { type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import type { Db } from './create-db.js';
import * as initial from './migrations/0001-initial.js';
import * as access from './migrations/0002-access.js';
import * as writes from './migrations/0003-writes.js';
import * as bookingPrices from './migrations/0004-booking-prices.js';
import * as geoIndex from './migrations/0005-geo-index.js';
import * as searchCover from './migrations/0006-search-cover.js';
import * as hardening from './migrations/0007-hardening.js';
import * as events from './migrations/0008-events.js';
import * as bookingExpiry from './migrations/0009-booking-expiry.js';
import * as shownPlaces from './migrations/0010-shown-places.js';
import * as idempotencyHeaders from './migrations/0011-idempotency-headers.js';

/** Migrations are listed in code, not read from a folder, so they work the same from src/ and dist/. */
const MIGRATIONS: Record<string, Migration> = {
  '0001-initial': initial,
  '0002-access': access,
  '0003-writes': writes,
  '0004-booking-prices': bookingPrices,
  '0005-geo-index': geoIndex,
  '0006-search-cover': searchCover,
  '0007-hardening': hardening,
  '0008-events': events,
  '0009-booking-expiry': bookingExpiry,
  '0010-shown-places': shownPlaces,
  '0011-idempotency-headers': idempotencyHeaders,
};

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

/**
 * On PostgreSQL, the migration tables live in the schema the tables do (the first of the
 * search_path); otherwise Kysely would find another schema's on the path and skip creating its own.
 */
async function migratorFor(db: Db): Promise<Migrator> {
  if (db.dialect !== 'postgres') return new Migrator({ db: db.kysely, provider });
  const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db.kysely);
  const schema = rows[0]?.schema;
  if (!schema) throw new Error('No schema to migrate into: the search_path names no existing schema.');
  return new Migrator({ db: db.kysely, provider, migrationTableSchema: schema });
}

/** Applies every pending migration; returns the names applied. Throws on the first failure. */
export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = await migratorFor(db);
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** Applies the migrations up to and including `name` (tests of a migration start from the one before). */
export async function migrateTo(db: Db, name: string): Promise<void> {
  const { error } = await (await migratorFor(db)).migrateTo(name);
  if (error) throw error instanceof Error ? error : new Error(String(error));
}

/** The names of migrations not applied yet, in order. */
export async function pendingMigrations(db: Db): Promise<string[]> {
  const migrations = await (await migratorFor(db)).getMigrations();
  return migrations.filter((m) => m.executedAt === undefined).map((m) => m.name);
}
