import { type RawBuilder, sql } from 'kysely';
import { distanceKmSql, withinRadiusSql } from '../db/distance.js';
import { dialectOf, insertInChunks, type Queryable } from '../db/queryable.js';
import type { JobRow, NewJob } from '../db/schema.js';
import type { Category } from '../domain/categories.js';
import { DEFAULT_CENTER, haversineKm, type LatLng } from '../domain/geo.js';
import { centsToEur, maxApplicants, priceRange } from '../domain/pricing.js';
import { effectiveJobStatus } from '../domain/statuses.js';
import type { Job } from '../schemas/job.js';
import type { IndexedPage, IndexRows } from './indexed-search.js';
import { pageOf } from './indexed-search.js';
import { flag, locationFromRow, parsePhotos } from './mappers.js';
import { idNeighbours } from './neighbours.js';
import { type SearchSort, searchOrder } from './search-order.js';

export interface JobSearch {
  center: LatLng;
  radiusKm: number;
  category?: Category;
  budgetMinCents?: number;
  budgetMaxCents?: number;
  /** Europe/Berlin calendar date of desired_at. */
  date?: string;
  urgent?: boolean;
  sort: SearchSort;
  limit: number;
  offset: number;
}

export function jobRowToJob(row: JobRow, distanceKm: number, now: Date): Job {
  const priceEur = centsToEur(row.price_cents);
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    category: row.category,
    type: 'marketplace',
    status: effectiveJobStatus(row.status, row.deadline, now),
    price_eur: priceEur,
    price_range: priceRange(priceEur),
    location: locationFromRow(row, distanceKm),
    desired_at: row.desired_at,
    deadline: row.deadline,
    time_preference: row.time_preference,
    urgent: flag(row.urgent),
    created_at: row.created_at,
    helpers_needed: row.helpers_needed,
    applications_count: row.applications_count,
    max_applicants: maxApplicants(row.helpers_needed),
    smart_eta_minutes: row.smart_eta_minutes,
    photos: parsePhotos(row.photos),
    requires_license: flag(row.requires_license),
    express: flag(row.express),
    remote_task: flag(row.remote_task),
    pricing_confidence: row.pricing_confidence,
  };
}

/** Open means: status open and the deadline, if any, still ahead. The one definition every query uses. */
export function openJobSql(now: Date): RawBuilder<boolean> {
  return sql<boolean>`(status = 'open' and (deadline is null or deadline > ${now.toISOString()}))`;
}

/** An in-memory index of the open jobs (search/job-index.ts JobIndex): the same page as the SQL below. */
export interface JobSearchIndex {
  search(search: JobSearch, now: Date): IndexedPage;
  readonly rows: IndexRows<JobRow>;
}

/**
 * One page of open jobs and the exact total: from the in-memory index when one is given (it must
 * be current: search/search-indexes.ts), else as SQL. Both give the same answer (tested).
 */
export async function searchJobs(
  db: Queryable,
  search: JobSearch,
  now: Date,
  index?: JobSearchIndex,
): Promise<{ data: Job[]; total: number }> {
  if (index) {
    const page = index.search(search, now);
    const rows = await index.rows.get(page.ids, (ids) =>
      db.selectFrom('jobs').selectAll().where('id', 'in', ids).execute(),
    );
    return { data: pageOf(page, rows, (row, km) => jobRowToJob(row, km, now)), total: page.total };
  }
  const distance = distanceKmSql(dialectOf(db), sql.ref<number>('lat'), sql.ref<number>('lng'), search.center);
  let query = db
    .selectFrom('jobs')
    .where(openJobSql(now))
    .where(withinRadiusSql(dialectOf(db), 'lat', 'lng', search.center, search.radiusKm));
  if (search.category) query = query.where('category', '=', search.category);
  if (search.budgetMinCents !== undefined) query = query.where('price_cents', '>=', search.budgetMinCents);
  if (search.budgetMaxCents !== undefined) query = query.where('price_cents', '<=', search.budgetMaxCents);
  if (search.date) query = query.where('desired_date', '=', search.date);
  if (search.urgent !== undefined) query = query.where('urgent', '=', search.urgent ? 1 : 0);

  const countRow = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  const total = Number(countRow?.n ?? 0);
  if (search.offset >= total) return { data: [], total };

  const rows = await query
    .selectAll()
    .select(distance.as('distance_km'))
    .orderBy(searchOrder(search.sort, { price: 'price_cents', created: 'created_at', id: 'id' }))
    .limit(search.limit)
    .offset(search.offset)
    .execute();
  return { data: rows.map((row) => jobRowToJob(row, row.distance_km, now)), total };
}

export async function findJob(db: Queryable, id: string, now: Date): Promise<Job | undefined> {
  const row = await db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
  return row && jobRowToJob(row, haversineKm(DEFAULT_CENTER, row), now);
}

/** Open jobs whose ids sort next to `id`. */
export function jobsNearId(db: Queryable, id: string, now: Date, count: number): Promise<Pick<Job, 'id' | 'title'>[]> {
  return idNeighbours(db, 'jobs', id, openJobSql(now), count);
}

export function insertJobs(db: Queryable, jobs: readonly NewJob[]): Promise<void> {
  return insertInChunks(db, 'jobs', jobs);
}
