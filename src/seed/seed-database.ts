import type { Kysely } from 'kysely';
import type { Database, NewJob } from '../db/schema.js';
import { berlinDate, berlinWallClock } from '../domain/berlin-time.js';
import type { Category } from '../domain/categories.js';
import type { EtaHelper } from '../domain/eta.js';
import { type RateSample, rateSample } from '../domain/pricing.js';
import { insertHelpers } from '../repositories/helpers.js';
import { insertJobs } from '../repositories/jobs.js';
import { insertListings, insertOwners } from '../repositories/listings.js';
import { type JobContext, makeHelper, makeJob, makeListing, makeOwner } from './generate.js';
import { Rng } from './rng.js';

export interface SeedOptions {
  seed: number;
  /** Open jobs (plus about 5 % assigned and 3 % expired ones on top). */
  jobs: number;
  listings: number;
  helpers: number;
  /** Completed jobs (plus about 8 % cancelled ones) that estimates learn from. */
  completedJobs: number;
  /** Midnight (Europe/Berlin) of the day the data is built around; same seed and anchor, same data. */
  anchor: Date;
}

export const DEFAULT_SEED_OPTIONS = {
  seed: 20261120,
  jobs: 2000,
  listings: 1500,
  helpers: 400,
  completedJobs: 1500,
} as const;

export type Progress = (phase: string, done: number, total: number) => void;

/** Midnight in Karlsruhe at the start of the given instant's day. */
export function anchorFor(instant: Date): Date {
  return berlinWallClock(berlinDate(instant), 0);
}

const BATCH = 2000;

async function insertJobBatches(
  db: Kysely<Database>,
  count: number,
  make: () => NewJob,
  phase: string,
  progress: Progress,
  onBatch: (batch: readonly NewJob[]) => void = () => {},
): Promise<void> {
  for (let done = 0; done < count; ) {
    const batch = Array.from({ length: Math.min(BATCH, count - done) }, make);
    await db.transaction().execute((trx) => insertJobs(trx, batch));
    onBatch(batch);
    done += batch.length;
    progress(phase, done, count);
  }
}

/**
 * Fills an empty database with a realistic, deterministic dataset. Each kind of row draws from its
 * own random stream, so changing one count does not reshuffle the others.
 */
export async function seedDatabase(
  db: Kysely<Database>,
  options: SeedOptions,
  progress: Progress = () => {},
): Promise<void> {
  const { anchor } = options;
  const stream = (n: number) => new Rng(options.seed * 31 + n);

  const helperRng = stream(1);
  const helpers = Array.from({ length: options.helpers }, () => makeHelper(helperRng, anchor));
  await db.transaction().execute((trx) => insertHelpers(trx, helpers));
  progress('helpers', helpers.length, options.helpers);

  const etaHelpers = new Map<Category, EtaHelper[]>();
  for (const h of helpers) {
    if (h.verified !== 1 || h.available !== 1) continue;
    for (const c of h.categories) etaHelpers.set(c, [...(etaHelpers.get(c) ?? []), h]);
  }

  // History first: open jobs judge their price against what completed jobs were paid.
  const historyRng = stream(2);
  const historyContext: JobContext = { anchor, etaHelpers, rates: new Map() };
  const ratesByCategory = new Map<Category, number[]>();
  const learnRates = (batch: readonly NewJob[]) => {
    for (const j of batch) {
      const list = ratesByCategory.get(j.category) ?? [];
      list.push(j.price_cents / 100 / (j.duration_hours * j.helpers_needed));
      ratesByCategory.set(j.category, list);
    }
  };
  const completed = () => makeJob(historyRng, historyContext, 'completed');
  await insertJobBatches(db, options.completedJobs, completed, 'completed jobs', progress, learnRates);
  const cancelled = () => makeJob(historyRng, historyContext, 'cancelled');
  await insertJobBatches(db, Math.round(options.completedJobs * 0.08), cancelled, 'cancelled jobs', progress);
  const rates = new Map<Category, RateSample>();
  for (const [category, values] of ratesByCategory) {
    const sample = rateSample(values);
    if (sample) rates.set(category, sample);
  }

  const jobRng = stream(3);
  const context: JobContext = { anchor, etaHelpers, rates };
  const extras = Math.round(options.jobs * 0.08);
  await insertJobBatches(db, options.jobs, () => makeJob(jobRng, context, 'open'), 'open jobs', progress);
  await insertJobBatches(
    db,
    extras,
    () => makeJob(jobRng, context, jobRng.chance(5 / 8) ? 'assigned' : 'expired'),
    'assigned and expired jobs',
    progress,
  );

  const listingRng = stream(4);
  const owners = Array.from({ length: Math.max(1, Math.ceil(options.listings / 3)) }, () =>
    makeOwner(listingRng, anchor),
  );
  await db.transaction().execute((trx) => insertOwners(trx, owners));
  for (let done = 0; done < options.listings; ) {
    const batch = Array.from({ length: Math.min(BATCH, options.listings - done) }, () =>
      makeListing(listingRng, anchor, listingRng.pick(owners).id),
    );
    await db.transaction().execute((trx) => insertListings(trx, batch));
    done += batch.length;
    progress('listings', done, options.listings);
  }

  await db
    .insertInto('meta')
    .values({ key: 'seed', value: JSON.stringify({ ...options, anchor: anchor.toISOString() }) })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: (eb) => eb.ref('excluded.value') }))
    .execute();
}

/** Whether the database holds no marketplace data yet (first start). */
export async function isEmpty(db: Kysely<Database>): Promise<boolean> {
  const row = await db.selectFrom('jobs').select('id').limit(1).executeTakeFirst();
  return row === undefined;
}
