import { type RawBuilder, sql } from 'kysely';
import { distanceKmSql, withinRadiusSql } from '../db/distance.js';
import { dialectOf, insertInChunks, type Queryable } from '../db/queryable.js';
import type { JobRow, NewJob } from '../db/schema.js';
import type { Category } from '../domain/categories.js';
import { coarseEta } from '../domain/eta.js';
import { DEFAULT_CENTER, haversineKm, type LatLng } from '../domain/geo.js';
import { centsToEur, maxApplicants, priceRange } from '../domain/pricing.js';
import type { QueryWord } from '../domain/search-text.js';
import { effectiveJobStatus } from '../domain/statuses.js';
import type { Job } from '../schemas/jobs.js';
import type { PublicProvider } from '../schemas/providers.js';
import type { IndexedPage } from './indexed-search.js';
import { pageOf, readPage } from './indexed-search.js';
import { flag, locationFromRow, parsePhotos } from './mappers.js';
import { idNeighbours } from './neighbours.js';
import { publicProviders } from './providers.js';
import { type SearchSort, searchOrder } from './search-order.js';
import { scoredPage } from './text-search.js';

export interface JobSearch {
  center: LatLng;
  radiusKm: number;
  category?: Category;
  budgetMinCents?: number;
  budgetMaxCents?: number;
  /** Europe/Berlin calendar date of desired_at. */
  date?: string;
  urgent?: boolean;
  /** Words of q that must all match (domain/search-text.ts queryWords); none: no text filter. */
  text?: readonly QueryWord[];
  sort: SearchSort;
  limit: number;
  offset: number;
}

/**
 * A job as the API shows it; `providers` holds the public details of the commercial accounts
 * among the rows' owners (publicProviders): jobs of other owners show provider null.
 */
export function jobRowToJob(
  row: JobRow,
  distanceKm: number,
  now: Date,
  providers: ReadonlyMap<string, PublicProvider>,
): Job {
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
    smart_eta_minutes: row.smart_eta_minutes === null ? null : coarseEta(row.smart_eta_minutes),
    photos: parsePhotos(row.photos),
    requires_license: flag(row.requires_license),
    express: flag(row.express),
    remote_task: flag(row.remote_task),
    pricing_confidence: row.pricing_confidence,
    cancellation_policy: row.cancellation_policy,
    provider: (row.owner_account_id !== null && providers.get(row.owner_account_id)) || null,
    series_id: row.series_id,
  };
}

/** The mapper of a page of job rows: their owners' providers read in one query first. */
function jobMapper(db: Queryable, now: Date) {
  return async (rows: readonly JobRow[]) => {
    const providers = await publicProviders(
      db,
      rows.map((row) => row.owner_account_id),
    );
    return (row: JobRow, km: number) => jobRowToJob(row, km, now, providers);
  };
}

/** Open means: status open and the deadline, if any, still ahead. The one definition every query uses. */
export function openJobSql(now: Date): RawBuilder<boolean> {
  return sql<boolean>`(status = 'open' and (deadline is null or deadline > ${now.toISOString()}))`;
}

/** The rows of these jobs (any status), for a page found by id. */
export function jobRowsOf(db: Queryable, ids: readonly string[]): Promise<JobRow[]> {
  return db.selectFrom('jobs').selectAll().where('id', 'in', ids).execute();
}

/**
 * The jobs of a page an in-memory index found (search/job-index.ts), in its order, from their rows
 * (jobRowsOf, or the rows the index keeps).
 */
export async function jobsOfPage(
  db: Queryable,
  page: IndexedPage,
  rows: ReadonlyMap<string, JobRow>,
  now: Date,
): Promise<Job[]> {
  return pageOf(page, rows, await jobMapper(db, now)([...rows.values()]));
}

/**
 * One page of open jobs and the exact total, as SQL; services/search.ts asks the in-memory index
 * instead when it is current, which gives the same answer (tested).
 */
export async function searchJobs(db: Queryable, search: JobSearch, now: Date): Promise<{ data: Job[]; total: number }> {
  const mapper = jobMapper(db, now);
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

  if (search.text && search.text.length > 0) {
    const page = await scoredPage(
      (after, size) =>
        query
          .select(['id', 'title', 'description', 'category', 'city', 'district', 'created_at', 'price_cents'])
          .select(distance.as('distance_km'))
          .where('id', '>', after)
          .orderBy('id')
          .limit(size)
          .execute(),
      { ...search, text: search.text },
      (row) => row.price_cents,
    );
    return { data: await readPage(page, (ids) => jobRowsOf(db, ids), mapper), total: page.total };
  }

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
  const toApi = await mapper(rows);
  return { data: rows.map((row) => toApi(row, row.distance_km)), total };
}

export async function findJob(db: Queryable, id: string, now: Date): Promise<Job | undefined> {
  const row = await db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
  return row && (await jobMapper(db, now)([row]))(row, haversineKm(DEFAULT_CENTER, row));
}

/** Jobs by id, as GET /v1/jobs/{id} shows each (one query); missing ids are left out. */
export async function findJobsById(db: Queryable, ids: readonly string[], now: Date): Promise<Map<string, Job>> {
  if (ids.length === 0) return new Map();
  const rows = await jobRowsOf(db, ids);
  const toApi = await jobMapper(db, now)(rows);
  return new Map(rows.map((row) => [row.id, toApi(row, haversineKm(DEFAULT_CENTER, row))]));
}

/** Open jobs whose ids sort next to `id`. */
export function jobsNearId(db: Queryable, id: string, now: Date, count: number): Promise<Pick<Job, 'id' | 'title'>[]> {
  return idNeighbours(db, 'jobs', id, openJobSql(now), count);
}

export function insertJobs(db: Queryable, jobs: readonly NewJob[]): Promise<void> {
  return insertInChunks(db, 'jobs', jobs);
}
