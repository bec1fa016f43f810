import type { Queryable } from '../db/queryable.js';
import { allOf } from '../domain/all-of.js';
import {
  availableHelpersByCategory,
  type CategoryFigures,
  helperTotals,
  type PlaceCounts,
  type platformSamples,
  type Totals,
} from '../repositories/aggregates.js';
import type { IndexSnapshot } from './search-indexes.js';
import { FiguresBroken } from './sorted-values.js';

/**
 * The aggregates of /v1/categories and /v1/stats from the search indexes, which follow every write
 * (search-indexes.ts) and keep the figures of the open and completed jobs and the available
 * listings up to date as they do (index-figures.ts): counts and sorted values per category, so a
 * percentile is a lookup, not a pass over every row. Only the helpers (few rows, read through
 * their indexes) still come from SQL. The figures are exactly those of repositories/aggregates.ts
 * (tested: test/http/index-aggregates.test.ts compares both after random writes).
 */

type Platform = Awaited<ReturnType<typeof platformSamples>>;

type IndexStats = { figures: CategoryFigures; places: PlaceCounts[]; totals: Totals; platform: Platform };

/**
 * Everything /v1/stats shows, from the figures the indexes keep; undefined when they were found
 * inconsistent (a bug: the indexes are let go and rebuilt, and the caller answers from SQL).
 */
export async function statsFromIndex(db: Queryable, index: IndexSnapshot, now: Date): Promise<IndexStats | undefined> {
  try {
    return await fromFigures(db, index, now);
  } catch (error) {
    if (!(error instanceof FiguresBroken)) throw error;
    index.discard?.(error);
    return undefined;
  }
}

async function fromFigures(db: Queryable, index: IndexSnapshot, now: Date): Promise<IndexStats> {
  const sqlPart = allOf({ availableHelpers: availableHelpersByCategory(db), helpers: helperTotals(db) });
  // A failure below must not leave this query's rejection unhandled.
  sqlPart.catch(() => {});
  // Read synchronously, before any await: the indexes do not change under this pass.
  const jobs = index.jobs.figuresAt(now);
  const listings = index.listings.availableFigures();
  const places = placeCounts(index, jobs.byPlace, listings.byPlace);
  const openJobs = jobs.openPrice.countMap();
  const completedJobs = jobs.completed.countMap();
  const availableListings = listings.day.countMap();
  const figures = {
    openJobs,
    completedJobs,
    availableListings,
    openJobPrice: jobs.openPrice.samples(),
    hourlyRateAll: jobs.hourlyAll.samples(),
    hourlyRateCompleted: jobs.completed.samples(),
    dayPrice: listings.day.samples(),
    weekPrice: listings.week.samples(),
    deposit: listings.deposit.samples(),
  };
  const platform = {
    jobPrice: jobs.openPrice.overall(),
    hourlyRate: jobs.completed.overall(),
    dayPrice: listings.day.overall(),
    deposit: listings.deposit.overall(),
  };
  const [urgent, instant] = [jobs.urgent, listings.instant];
  const fromSql = await sqlPart;
  const sum = (m: Map<unknown, number>) => [...m.values()].reduce((a, b) => a + b, 0);
  return {
    figures: { ...figures, availableHelpers: fromSql.availableHelpers },
    places,
    totals: {
      open_jobs: sum(openJobs),
      urgent_open_jobs: urgent,
      completed_jobs: sum(completedJobs),
      available_listings: sum(availableListings),
      instant_booking_listings: instant,
      ...fromSql.helpers,
    },
    platform,
  };
}

function placeCounts(index: IndexSnapshot, jobs: Uint32Array, listings: Uint32Array): PlaceCounts[] {
  const key = (p: { city: string; district: string | null }) => `${p.city}\u0000${p.district ?? ''}`;
  const places = new Map<string, PlaceCounts>();
  for (const [code, n] of jobs.entries()) {
    if (n === 0) continue;
    const p = index.jobs.placeName(code);
    places.set(key(p), { city: p.city, district: p.district, openJobs: n, listings: 0 });
  }
  for (const [code, n] of listings.entries()) {
    if (n === 0) continue;
    const p = index.listings.placeName(code);
    const entry = places.get(key(p)) ?? { city: p.city, district: p.district, openJobs: 0, listings: 0 };
    entry.listings = n;
    places.set(key(p), entry);
  }
  return [...places.values()];
}
