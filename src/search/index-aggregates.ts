import type { Queryable } from '../db/queryable.js';
import { allOf } from '../domain/all-of.js';
import { CATEGORIES } from '../domain/categories.js';
import {
  availableHelpersByCategory,
  type CategoryFigures,
  completedHourlyRates,
  helperTotals,
  type PlaceCounts,
  type platformSamples,
  type Totals,
} from '../repositories/aggregates.js';
import { ByCategory } from './figures.js';
import type { IndexSnapshot } from './search-indexes.js';

/**
 * The aggregates of /v1/categories and /v1/stats from the search indexes, which follow every write
 * (search-indexes.ts): the open jobs and available listings, the bulk of the rows, are read from the
 * index's columns (one pass, percentiles by selection) instead of being scanned and ranked by SQL;
 * what the index does not hold (completed jobs, helpers: few rows, read through their status index)
 * still comes from SQL. The figures are exactly those of repositories/aggregates.ts (tested:
 * test/http/index-aggregates.test.ts compares both after random writes).
 */

type Platform = Awaited<ReturnType<typeof platformSamples>>;

export async function categoryFiguresFromIndex(
  db: Queryable,
  index: IndexSnapshot,
  now: Date,
): Promise<CategoryFigures> {
  return (await statsFromIndex(db, index, now)).figures;
}

/** Everything /v1/stats shows, from one pass over each index. */
export async function statsFromIndex(
  db: Queryable,
  index: IndexSnapshot,
  now: Date,
): Promise<{ figures: CategoryFigures; places: PlaceCounts[]; totals: Totals; platform: Platform }> {
  const sqlPart = allOf({
    completedRates: completedHourlyRates(db),
    availableHelpers: availableHelpersByCategory(db),
    helpers: helperTotals(db),
  });
  // Read synchronously, before any await: the indexes do not change under this pass.
  const open = index.jobs.openFigures(now);
  const listings = index.listings.availableFigures();
  const places = placeCounts(index, open.byPlace, listings.byPlace);
  const overall = {
    jobPrice: open.price.overall(),
    dayPrice: listings.day.overall(),
    deposit: listings.deposit.overall(),
  };
  const openCounts = open.price.countMap();
  const listingCounts = listings.day.countMap();
  const openPrice = open.price.samples();
  const [dayPrice, weekPrice, deposit] = [listings.day.samples(), listings.week.samples(), listings.deposit.samples()];
  const fromSql = await sqlPart;

  // Cents per helper-hour of open and completed jobs together.
  const counts = new Uint32Array(CATEGORIES.length);
  CATEGORIES.forEach((_, c) => {
    counts[c] = open.hourly.count(c);
  });
  const completedByCode = fromSql.completedRates.map((r) => ({ code: CATEGORIES.indexOf(r.category), v: r.v }));
  // The completed jobs' own figures come from the same rows: counts and percentiles, read once.
  const completedCounts = new Uint32Array(CATEGORIES.length);
  for (const { code } of completedByCode) completedCounts[code] = (completedCounts[code] as number) + 1;
  const completed = new ByCategory(completedCounts, 'float');
  for (const { code, v } of completedByCode) completed.add(code, v);
  const completedRateOverall = completed.overall();
  for (const { code } of completedByCode) counts[code] = (counts[code] as number) + 1;
  const hourlyAll = new ByCategory(counts, 'float');
  for (let c = 0; c < CATEGORIES.length; c++) {
    for (const v of open.hourly.valuesOf(c)) hourlyAll.add(c, v);
  }
  for (const { code, v } of completedByCode) hourlyAll.add(code, v);

  const sum = (m: Map<unknown, number>) => [...m.values()].reduce((a, b) => a + b, 0);
  const completedJobs = completed.countMap();
  const completedTotal = sum(completedJobs);
  return {
    figures: {
      openJobs: openCounts,
      completedJobs,
      availableListings: listingCounts,
      availableHelpers: fromSql.availableHelpers,
      openJobPrice: openPrice,
      hourlyRateAll: hourlyAll.samples(),
      hourlyRateCompleted: completed.samples(),
      dayPrice,
      weekPrice,
      deposit,
    },
    places,
    totals: {
      open_jobs: sum(openCounts),
      urgent_open_jobs: open.urgent,
      completed_jobs: completedTotal,
      available_listings: sum(listingCounts),
      instant_booking_listings: listings.instant,
      ...fromSql.helpers,
    },
    platform: { ...overall, hourlyRate: completedRateOverall },
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
