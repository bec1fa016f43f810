import { anchorFor, DEFAULT_SEED_OPTIONS, type Progress, seedIfEmpty } from '../seed/seed-database.js';
import { createDb, type Db, type DbOptions, redactDatabaseUrl } from './create-db.js';
import { migrateToLatest, pendingMigrations } from './migrate.js';

export interface OpenOptions extends DbOptions {
  /** Seed the default dataset when there are no marketplace rows yet (a first start). */
  seedIfEmpty: boolean;
  /** Apply pending migrations (default); when false, pending ones stop the start with a message. */
  migrate?: boolean;
  progress?: Progress;
}

export class SchemaBehindError extends Error {}

/**
 * Opens the database, applies pending migrations and, on a first start (no marketplace rows), seeds the
 * default dataset, so a fresh clone serves realistic data at once.
 */
export async function openDatabase(url: string, options: OpenOptions): Promise<Db> {
  const db = createDb(url, options);
  try {
    if (options.migrate === false) {
      const pending = await pendingMigrations(db);
      if (pending.length > 0) {
        throw new SchemaBehindError(
          `The database schema of ${redactDatabaseUrl(url)} is behind: ${pending.join(', ')} pending. Run \`npm run migrate\` with this DATABASE_URL (or start with MIGRATE_ON_START=true).`,
        );
      }
    } else {
      await migrateToLatest(db);
    }
    if (options.seedIfEmpty) {
      await seedIfEmpty(db.kysely, { ...DEFAULT_SEED_OPTIONS, anchor: anchorFor(new Date()) }, options.progress);
    }
    return db;
  } catch (error) {
    await db.close();
    throw error;
  }
}
