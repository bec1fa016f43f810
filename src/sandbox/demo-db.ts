import { createDb, type Db } from '../db/create-db.js';
import { migrateToLatest } from '../db/migrate.js';
import { DEMO_ID_PREFIX } from '../domain/ids.js';
import { anchorFor, seedDatabase } from '../seed/seed-database.js';

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

export interface Sandbox {
  db: Db;
  /**
   * Rebuilds the dataset when the Berlin day has changed since it was built, so demo jobs never go
   * stale on a long-running server and every instance serves the same data on the same day.
   */
  refresh(): Promise<void>;
}

/**
 * The sandbox's own database: in memory, seeded around the Berlin day of `now()`, never connected
 * to the real one, so nothing done in the sandbox reaches real data and no real row shows in it.
 */
export async function createSandbox(now: () => Date): Promise<Sandbox> {
  const db = createDb('sqlite::memory:');
  let anchor = anchorFor(now());
  try {
    await migrateToLatest(db);
    await seedDatabase(db.kysely, { ...DEMO_SEED, anchor });
  } catch (error) {
    await db.close();
    throw error;
  }
  let rebuilding: Promise<void> | null = null;
  const refresh = async (): Promise<void> => {
    const today = anchorFor(now());
    if (today.getTime() === anchor.getTime()) return;
    rebuilding ??= seedDatabase(db.kysely, { ...DEMO_SEED, anchor: today }, () => {}, { replace: true })
      .then(() => {
        anchor = today;
      })
      .finally(() => {
        rebuilding = null;
      });
    await rebuilding;
  };
  return { db, refresh };
}
