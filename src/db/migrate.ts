import { type Migration, type MigrationProvider, Migrator } from 'kysely';
import type { Db } from './create-db.js';
import * as initial from './migrations/0001-initial.js';
import * as access from './migrations/0002-access.js';
import * as writes from './migrations/0003-writes.js';
import * as bookingPrices from './migrations/0004-booking-prices.js';

/** Migrations are listed in code, not read from a folder, so they work the same from src/ and dist/. */
const MIGRATIONS: Record<string, Migration> = {
  '0001-initial': initial,
  '0002-access': access,
  '0003-writes': writes,
  '0004-booking-prices': bookingPrices,
};

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

/** Applies every pending migration; returns the names applied. Throws on the first failure. */
export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({ db: db.kysely, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
