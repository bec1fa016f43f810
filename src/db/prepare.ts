import { createDb, type Db, type DbOptions, redactDatabaseUrl } from './create-db.js';
import { migrateToLatest, pendingMigrations } from './migrate.js';

export interface OpenOptions extends DbOptions {
  /** Apply pending migrations (default); when false, pending ones stop the start with a message. */
  migrate?: boolean;
  /**
   * Runs once the schema is current, before the database is handed out: the server seeds a first
   * start here (seed/seed-database.ts seedFirstStart). When it fails, the database is closed.
   */
  onReady?: (db: Db) => Promise<unknown>;
}

export class SchemaBehindError extends Error {}

/** Opens the database, applies pending migrations (or checks there are none) and runs `onReady`. */
export async function openDatabase(url: string, options: OpenOptions = {}): Promise<Db> {
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
    await options.onReady?.(db);
    return db;
  } catch (error) {
    await db.close();
    throw error;
  }
}
