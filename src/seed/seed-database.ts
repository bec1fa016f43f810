import type { Kysely } from 'kysely';
import type { Db } from '../db/create-db.js';
import type { Queryable } from '../db/queryable.js';
import type { Database, NewJob, NewListing } from '../db/schema.js';
import { berlinDate, berlinWallClock } from '../domain/berlin-time.js';
import type { Category } from '../domain/categories.js';
import type { EtaHelper } from '../domain/eta.js';
import { type RateSample, rateSample } from '../domain/pricing.js';
import { fillDataset, fillDatasetIfEmpty, recordSeed } from '../repositories/dataset.js';
import { insertHelpers } from '../repositories/helper-availability.js';
import { insertJobs } from '../repositories/jobs.js';
import { insertListings, insertOwners } from '../repositories/listings.js';
import { figuresToColumns } from '../repositories/mappers.js';
import { insertHistory } from '../repositories/seed-history.js';
import { type JobContext, makeHelper, makeJob } from './generate.js';
import { emptyHistory, helperHistory, ownerHistory } from './history.js';
import { makeListing, makeOwner } from './listings.js';
import type { Marking } from './placing.js';
import type { Region } from './regions.js';
import { Rng } from './rng.js';

export interface SeedOptions {
  seed: number;
  /** Open jobs (plus about 5 % assigned and 3 % expired ones on top). */
  jobs: number;
  listings: number;
  helpers: number;
  /** Completed jobs (plus 8 % cancelled ones on top) that estimates learn from. */
  completedJobs: number;
  /** Midnight (Europe/Berlin) of the day the data is built around; same seed and anchor, same data. */
  anchor: Date;
  /** Put before every id: `demo_` gives `demo_job_…`, `demo_lst_…` (the sandbox's data). */
  idPrefix?: string;
  /** Marks the data as fake where people see it: titles start with "[Demo] ", display names with "Demo ". */
  demo?: boolean;
  /** Around Karlsruhe (default) or over Baden-Wuerttemberg (the benchmark's large dataset). */
  region?: Region;
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

/** Makes and inserts `count` rows in batches, reporting progress after each. */
async function inBatches<T>(
  count: number,
  make: () => T,
  insert: (batch: T[]) => Promise<void>,
  phase: string,
  progress: Progress,
): Promise<void> {
  for (let done = 0; done < count; ) {
    const batch = Array.from({ length: Math.min(BATCH, count - done) }, make);
    await insert(batch);
    done += batch.length;
    progress(phase, done, count);
  }
}

/** EUR per helper-hour of the given completed jobs, per category. */
function rateSamples(rates: ReadonlyMap<Category, number[]>): Map<Category, RateSample> {
  const samples = new Map<Category, RateSample>();
  for (const [category, values] of rates) {
    const sample = rateSample(values);
    if (sample) samples.set(category, sample);
  }
  return samples;
}

/** Verified, available helpers by category, with the response time smart_eta_minutes reads. */
function etaHelpersOf(helpers: readonly (EtaHelper & HelperFacts)[]): Map<Category, EtaHelper[]> {
  const etaHelpers = new Map<Category, EtaHelper[]>();
  for (const h of helpers) {
    if (h.verified !== 1 || h.available !== 1) continue;
    for (const c of h.categories) etaHelpers.set(c, [...(etaHelpers.get(c) ?? []), h]);
  }
  return etaHelpers;
}

interface HelperFacts {
  verified: 0 | 1;
  available: 0 | 1;
  categories: readonly Category[];
}

async function seedRows(db: Queryable, options: SeedOptions, progress: Progress): Promise<void> {
  const { anchor } = options;
  const marking: Marking = {
    idPrefix: options.idPrefix ?? '',
    demo: options.demo ?? false,
    region: options.region ?? 'karlsruhe',
  };
  const stream = (n: number) => new Rng(options.seed * 31 + n);

  const helperRng = stream(1);
  const made = Array.from({ length: options.helpers }, () => makeHelper(helperRng, anchor, marking));
  // Past jobs were judged against the helpers as they were then: their usual answer time.
  const asThen = made.map((h) => ({
    ...h,
    avg_response_minutes: Math.round(h.traits.responseMinutes),
    verified: h.traits.verified ? (1 as const) : (0 as const),
  }));

  // History first: open jobs judge their price against what completed jobs were paid.
  const historyRng = stream(2);
  const history: JobContext = { anchor, etaHelpers: etaHelpersOf(asThen), rates: new Map(), marking };
  const completed = Array.from({ length: options.completedJobs }, () => makeJob(historyRng, history, 'completed'));
  const cancelledCount = Math.round(options.completedJobs * 0.08);
  const cancelled = Array.from({ length: cancelledCount }, () => makeJob(historyRng, history, 'cancelled'));

  // What the helpers did on those jobs, and the figures that follow from it.
  const past = emptyHistory();
  const helperFigures = helperHistory(stream(5), marking, anchor, made, [...completed, ...cancelled], past);
  const helpers = made.map(({ traits: _traits, ...h }) => {
    const figures = helperFigures.get(h.id);
    return figures ? { ...h, ...figuresToColumns(figures) } : h;
  });
  await insertHelpers(db, helpers);
  progress('helpers', helpers.length, options.helpers);

  const rates = new Map<Category, number[]>();
  const insertCompleted = async (batch: NewJob[]) => {
    await insertJobs(db, batch);
    for (const j of batch) {
      const list = rates.get(j.category) ?? [];
      list.push(j.price_cents / 100 / (j.duration_hours * j.helpers_needed));
      rates.set(j.category, list);
    }
  };
  const insert = (batch: NewJob[]) => insertJobs(db, batch);
  const completedRows = completed.values();
  const next = () => completedRows.next().value as NewJob;
  await inBatches(options.completedJobs, next, insertCompleted, 'completed jobs', progress);
  const cancelledRows = cancelled.values();
  await inBatches(cancelledCount, () => cancelledRows.next().value as NewJob, insert, 'cancelled jobs', progress);
  await insertHistory(db, past);
  progress(
    'helper history',
    past.applications.length + past.reviews.length,
    past.applications.length + past.reviews.length,
  );

  const jobRng = stream(3);
  const context: JobContext = { anchor, etaHelpers: etaHelpersOf(helpers), rates: rateSamples(rates), marking };
  await inBatches(options.jobs, () => makeJob(jobRng, context, 'open'), insert, 'open jobs', progress);
  const extra = () => makeJob(jobRng, context, jobRng.chance(5 / 8) ? 'assigned' : 'expired');
  await inBatches(Math.round(options.jobs * 0.08), extra, insert, 'assigned and expired jobs', progress);

  const listingRng = stream(4);
  const madeOwners = Array.from({ length: Math.max(1, Math.ceil(options.listings / 3)) }, () =>
    makeOwner(listingRng, anchor, marking),
  );
  const listings = Array.from({ length: options.listings }, () =>
    makeListing(listingRng, anchor, listingRng.pick(madeOwners).id, marking),
  );
  const lent = emptyHistory();
  const ownerFigures = ownerHistory(stream(6), marking, anchor, madeOwners, listings, lent);
  const owners = madeOwners.map(({ traits: _traits, ...o }) => {
    const figures = ownerFigures.get(o.id);
    return figures ? { ...o, ...figuresToColumns(figures) } : o;
  });
  await insertOwners(db, owners);
  const listingRows = listings.values();
  const nextListing = () => listingRows.next().value as NewListing;
  await inBatches(options.listings, nextListing, (batch) => insertListings(db, batch), 'listings', progress);
  await insertHistory(db, lent);
  progress('lending history', lent.bookings.length + lent.reviews.length, lent.bookings.length + lent.reviews.length);

  await recordSeed(db, { ...options, anchor: anchor.toISOString() });
}

/**
 * Fills the database with a realistic, deterministic dataset in one transaction: all of it is
 * there or none (with `replace`, the marketplace rows already there go in the same transaction).
 * Each kind of row draws from its own random stream, so changing one count does not reshuffle the others.
 */
export async function seedDatabase(
  db: Kysely<Database>,
  options: SeedOptions,
  progress: Progress = () => {},
  { replace = false }: { replace?: boolean } = {},
): Promise<void> {
  await fillDataset(db, (trx) => seedRows(trx, options, progress), { replace });
}

/**
 * Seeds a database with no marketplace rows; true when it did. The emptiness check runs under the
 * dataset lock, inside the seeding transaction, so instances started together seed once.
 */
export function seedIfEmpty(
  db: Kysely<Database>,
  options: SeedOptions,
  progress: Progress = () => {},
): Promise<boolean> {
  return fillDatasetIfEmpty(db, (trx) => seedRows(trx, options, progress));
}

/**
 * On a first start (no marketplace rows), seeds the default dataset around today, so a fresh clone
 * serves realistic data at once; true when it did.
 */
export function seedFirstStart(db: Db, progress: Progress = () => {}): Promise<boolean> {
  return seedIfEmpty(db.kysely, { ...DEFAULT_SEED_OPTIONS, anchor: anchorFor(new Date()) }, progress);
}
