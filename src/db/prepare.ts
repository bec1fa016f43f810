import { hasMarketplaceData } from '../repositories/dataset.js';
import { anchorFor, DEFAULT_SEED_OPTIONS, type Progress, seedDatabase } from '../seed/seed-database.js';
import { createDb, type Db } from './create-db.js';
import { migrateToLatest } from './migrate.js';

/**
 * Opens the database, applies pending migrations and, on a first start (no marketplace rows), seeds the
 * default dataset, so a fresh clone serves realistic data at once.
 */
export async function openDatabase(url: string, options: { seedIfEmpty: boolean; progress?: Progress }): Promise<Db> {
  const db = createDb(url);
  try {
    await migrateToLatest(db);
    if (options.seedIfEmpty && !(await hasMarketplaceData(db.kysely))) {
      await seedDatabase(db.kysely, { ...DEFAULT_SEED_OPTIONS, anchor: anchorFor(new Date()) }, options.progress);
    }
    return db;
  } catch (error) {
    await db.close();
    throw error;
  }
}
