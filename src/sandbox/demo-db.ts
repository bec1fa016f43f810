import { createDb, type Db } from '../db/create-db.js';
import { migrateToLatest } from '../db/migrate.js';
import { anchorFor, seedDatabase } from '../seed/seed-database.js';

/** Every id of the fake dataset starts with this (`demo_job_…`, `demo_lst_…`), so no id is valid in both. */
export const DEMO_ID_PREFIX = 'demo_';

/** A small, fixed dataset: enough for every endpoint to answer with realistic figures. */
export const DEMO_SEED = {
  seed: 4242,
  jobs: 300,
  listings: 200,
  helpers: 80,
  completedJobs: 300,
  idPrefix: DEMO_ID_PREFIX,
  demo: true,
} as const;

/**
 * The sandbox's own database: in memory, seeded around the Berlin day of `now`, never connected to
 * the real one, so nothing done in the sandbox reaches real data and no real row shows in it.
 */
export async function createSandboxDb(now: Date): Promise<Db> {
  const db = createDb('sqlite::memory:');
  try {
    await migrateToLatest(db);
    await seedDatabase(db.kysely, { ...DEMO_SEED, anchor: anchorFor(now) });
    return db;
  } catch (error) {
    await db.close();
    throw error;
  }
}
