import { type RawBuilder, sql } from 'kysely';
import { withinRadiusSql } from '../db/distance.js';
import { dialectOf, type Queryable } from '../db/queryable.js';
import { allOf } from '../domain/all-of.js';
import type { Category } from '../domain/categories.js';
import type { LatLng } from '../domain/geo.js';
import type { RateSample, RateStanding } from '../domain/pricing.js';
import { openJobSql } from './jobs.js';
import { hourlyRateCentsSql, percentilesByCategory, percentilesOverall, standingOf } from './quantiles.js';

type Counts = Map<Category, number>;

export async function availableHelpersByCategory(db: Queryable): Promise<Counts> {
  const rows = await db
    .selectFrom('helper_categories')
    .innerJoin('helpers', 'helpers.id', 'helper_categories.helper_id')
    .select(['helper_categories.category as category', (eb) => eb.fn.countAll<number>().as('n')])
    .where('helpers.verified', '=', 1)
    .where('helpers.available', '=', 1)
    .groupBy('helper_categories.category')
    .execute();
  return new Map(rows.map((r) => [r.category, Number(r.n)]));
}

/** Rows of a table per category that match `where`. */
export async function countByCategory(
  db: Queryable,
  table: 'jobs' | 'listings',
  where: RawBuilder<boolean>,
): Promise<Counts> {
  const result = await sql<{ category: Category; n: number | string }>`
    select category, count(*) as n from ${sql.table(table)} where ${where} group by category`.execute(db);
  return new Map(result.rows.map((r) => [r.category, Number(r.n)]));
}

/** Per-category counts and percentile samples that /v1/categories and /v1/stats are made of. */
export interface CategoryFigures {
  openJobs: Counts;
  completedJobs: Counts;
  availableListings: Counts;
  availableHelpers: Counts;
  openJobPrice: Map<Category, RateSample>;
  /** Cents per helper-hour, open and completed jobs. */
  hourlyRateAll: Map<Category, RateSample>;
  /** Cents per helper-hour, completed jobs only: what estimates learn from. */
  hourlyRateCompleted: Map<Category, RateSample>;
  dayPrice: Map<Category, RateSample>;
  weekPrice: Map<Category, RateSample>;
  deposit: Map<Category, RateSample>;
}

export async function categoryFigures(db: Queryable, now: Date): Promise<CategoryFigures> {
  const open = openJobSql(now);
  const available = sql<boolean>`status = 'available'`;
  return allOf({
    openJobs: countByCategory(db, 'jobs', open),
    completedJobs: countByCategory(db, 'jobs', sql`status = 'completed'`),
    availableListings: countByCategory(db, 'listings', available),
    availableHelpers: availableHelpersByCategory(db),
    openJobPrice: percentilesByCategory(db, 'jobs', sql`price_cents`, open),
    hourlyRateAll: percentilesByCategory(db, 'jobs', hourlyRateCentsSql, sql`(${open}) or status = 'completed'`),
    hourlyRateCompleted: percentilesByCategory(db, 'jobs', hourlyRateCentsSql, sql`status = 'completed'`),
    dayPrice: percentilesByCategory(db, 'listings', sql`price_per_day_cents`, available),
    weekPrice: percentilesByCategory(
      db,
      'listings',
      sql`price_per_week_cents`,
      sql`${available} and price_per_week_cents is not null`,
    ),
    deposit: percentilesByCategory(db, 'listings', sql`deposit_cents`, available),
  });
}

/** Cents per helper-hour of the completed jobs of a category, optionally only those near a point. */
export async function completedRateSample(
  db: Queryable,
  category: Category,
  near?: { center: LatLng; radiusKm: number },
): Promise<RateSample | null> {
  const where = near
    ? sql<boolean>`status = 'completed' and category = ${category} and ${withinRadiusSql(dialectOf(db), 'lat', 'lng', near.center, near.radiusKm)}`
    : sql<boolean>`status = 'completed' and category = ${category}`;
  const samples = await percentilesByCategory(db, 'jobs', hourlyRateCentsSql, where);
  return samples.get(category) ?? null;
}

/** Where a rate (EUR per helper-hour) stands among the completed jobs of a category: see standingOf. */
export function completedRateStanding(db: Queryable, category: Category, eur: number): Promise<RateStanding> {
  return standingOf(db, 'jobs', hourlyRateCentsSql, sql<boolean>`status = 'completed' and category = ${category}`, eur);
}

/** Platform-wide percentile samples (cents) behind the medians of /v1/stats. */
export function platformSamples(db: Queryable, now: Date) {
  const available = sql<boolean>`status = 'available'`;
  return allOf({
    jobPrice: percentilesOverall(db, 'jobs', sql`price_cents`, openJobSql(now)),
    hourlyRate: percentilesOverall(db, 'jobs', hourlyRateCentsSql, sql`status = 'completed'`),
    dayPrice: percentilesOverall(db, 'listings', sql`price_per_day_cents`, available),
    deposit: percentilesOverall(db, 'listings', sql`deposit_cents`, available),
  });
}

export interface PlaceCounts {
  city: string;
  district: string | null;
  openJobs: number;
  listings: number;
}

export async function countsByPlace(db: Queryable, now: Date): Promise<PlaceCounts[]> {
  const [jobs, listings] = await Promise.all([
    db
      .selectFrom('jobs')
      .select(['city', 'district', (eb) => eb.fn.countAll<number>().as('n')])
      .where(openJobSql(now))
      .groupBy(['city', 'district'])
      .execute(),
    db
      .selectFrom('listings')
      .select(['city', 'district', (eb) => eb.fn.countAll<number>().as('n')])
      .where('status', '=', 'available')
      .groupBy(['city', 'district'])
      .execute(),
  ]);
  const key = (city: string, district: string | null) => `${city}\u0000${district ?? ''}`;
  const places = new Map<string, PlaceCounts>();
  for (const r of jobs)
    places.set(key(r.city, r.district), { city: r.city, district: r.district, openJobs: Number(r.n), listings: 0 });
  for (const r of listings) {
    const k = key(r.city, r.district);
    const entry = places.get(k) ?? { city: r.city, district: r.district, openJobs: 0, listings: 0 };
    entry.listings = Number(r.n);
    places.set(k, entry);
  }
  return [...places.values()];
}

/** The helper totals of /v1/stats. */
export async function helperTotals(db: Queryable): Promise<Pick<Totals, 'helpers' | 'verified_available_helpers'>> {
  const helpers = await db
    .selectFrom('helpers')
    .select([
      (eb) => eb.fn.countAll<number>().as('helpers'),
      sql<number>`sum(case when verified = 1 and available = 1 then 1 else 0 end)`.as('verified_available_helpers'),
    ])
    .executeTakeFirst();
  return {
    helpers: Number(helpers?.helpers ?? 0),
    verified_available_helpers: Number(helpers?.verified_available_helpers ?? 0),
  };
}

export interface Totals {
  open_jobs: number;
  urgent_open_jobs: number;
  completed_jobs: number;
  available_listings: number;
  instant_booking_listings: number;
  helpers: number;
  verified_available_helpers: number;
}

export async function platformTotals(db: Queryable, now: Date): Promise<Totals> {
  const open = openJobSql(now);
  const [jobs, listings, helpers] = await Promise.all([
    db
      .selectFrom('jobs')
      .select([
        sql<number>`sum(case when ${open} then 1 else 0 end)`.as('open_jobs'),
        sql<number>`sum(case when ${open} and urgent = 1 then 1 else 0 end)`.as('urgent_open_jobs'),
        sql<number>`sum(case when status = 'completed' then 1 else 0 end)`.as('completed_jobs'),
      ])
      .executeTakeFirst(),
    db
      .selectFrom('listings')
      .select([
        sql<number>`sum(case when status = 'available' then 1 else 0 end)`.as('available_listings'),
        sql<number>`sum(case when status = 'available' and instant_booking = 1 then 1 else 0 end)`.as(
          'instant_booking_listings',
        ),
      ])
      .executeTakeFirst(),
    helperTotals(db),
  ]);
  const n = (v: unknown) => Number(v ?? 0);
  return {
    open_jobs: n(jobs?.open_jobs),
    urgent_open_jobs: n(jobs?.urgent_open_jobs),
    completed_jobs: n(jobs?.completed_jobs),
    available_listings: n(listings?.available_listings),
    instant_booking_listings: n(listings?.instant_booking_listings),
    ...helpers,
  };
}
