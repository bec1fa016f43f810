import type { Queryable } from '../db/queryable.js';
import type { JobRow, ListingRow } from '../db/schema.js';

/**
 * What the repositories' searches and the in-memory search indexes (src/search/) share: the page an
 * index answers, the rows it keeps, and the reads an index is built from. The indexes import this;
 * the repositories never import the indexes.
 */

/** Where a search's page is, as an index answers it: its ids in order with their distances, and the exact total. */
export interface IndexedPage {
  ids: string[];
  distances: number[];
  total: number;
}

/** Rows an index snapshot keeps for the pages it showed (search/row-cache.ts RowCache). */
export interface IndexRows<R extends { id: string }> {
  /** The rows of `ids` (those that exist) by id, the missing ones read with one call to `read`. */
  get(ids: readonly string[], read: (missing: string[]) => Promise<R[]>): Promise<ReadonlyMap<string, R>>;
}

/** What a job index keeps per job: the columns it filters and orders by, and the status it skips by. */
export type JobIndexRow = Pick<
  JobRow,
  | 'id'
  | 'status'
  | 'lat'
  | 'lng'
  | 'category'
  | 'price_cents'
  | 'created_at'
  | 'deadline'
  | 'desired_date'
  | 'urgent'
  | 'duration_hours'
  | 'helpers_needed'
  | SearchTextColumn
>;

/** The columns a search with words reads (domain/search-text.ts SearchableText, with the category). */
type SearchTextColumn = 'title' | 'description' | 'city' | 'district';

/** What a listing index keeps per listing (see JobIndexRow). */
export type ListingIndexRow = Pick<
  ListingRow,
  | 'id'
  | 'status'
  | 'lat'
  | 'lng'
  | 'category'
  | 'price_per_day_cents'
  | 'condition'
  | 'instant_booking'
  | 'created_at'
  | 'price_per_week_cents'
  | 'deposit_cents'
  | SearchTextColumn
>;

/** The columns of JobIndexRow, as a job index reads them. */
export const jobIndexColumns = [
  'id',
  'status',
  'lat',
  'lng',
  'category',
  'price_cents',
  'created_at',
  'deadline',
  'desired_date',
  'urgent',
  'duration_hours',
  'helpers_needed',
  'title',
  'description',
  'city',
  'district',
] as const satisfies readonly (keyof JobIndexRow)[];

/** The columns of ListingIndexRow, as a listing index reads them (with the owner joined). */
export const listingIndexColumns = [
  'listings.id',
  'listings.status',
  'listings.lat',
  'listings.lng',
  'listings.category',
  'listings.price_per_day_cents',
  'listings.condition',
  'listings.instant_booking',
  'listings.created_at',
  'listings.price_per_week_cents',
  'listings.deposit_cents',
  'listings.title',
  'listings.description',
  'listings.city',
  'listings.district',
] as const;

/** Jobs with status 'open' (whatever their deadline): how many rows a job index will hold. */
export async function countOpenJobs(db: Queryable): Promise<number> {
  const counted = await db
    .selectFrom('jobs')
    .where('status', '=', 'open')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  return Number(counted?.n ?? 0);
}

/**
 * The next `limit` jobs with an id above `after`, in primary-key order, whatever their status: with
 * the status in the WHERE, SQLite would read the status index and sort the open jobs again for
 * every chunk. The caller skips the jobs that are not open.
 */
export function jobIndexRowsAfter(db: Queryable, after: string, limit: number): Promise<JobIndexRow[]> {
  return db.selectFrom('jobs').select(jobIndexColumns).where('id', '>', after).orderBy('id').limit(limit).execute();
}

function listingsWithOwners(db: Queryable) {
  return db.selectFrom('listings').innerJoin('owners', 'owners.id', 'listings.owner_id');
}

/**
 * Available listings: how many rows a listing index will hold at most (a listing without its owner
 * row is left out by the load), the columns' first size. Counted on the status index alone: with
 * the search's join to owners it took about a second at 300,000 listings, on the event loop.
 */
export async function countAvailableListings(db: Queryable): Promise<number> {
  const counted = await db
    .selectFrom('listings')
    .where('status', '=', 'available')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  return Number(counted?.n ?? 0);
}

/** The next `limit` listings with an owner and an id above `after`, in primary-key order, whatever their status (see jobIndexRowsAfter). */
export function listingIndexRowsAfter(db: Queryable, after: string, limit: number): Promise<ListingIndexRow[]> {
  return listingsWithOwners(db)
    .select(listingIndexColumns)
    .where('listings.id', '>', after)
    .orderBy('listings.id')
    .limit(limit)
    .execute();
}

/**
 * An index's page as API objects, in the index's order, each with the distance the index computed.
 * A row deleted since the index was built is left out.
 */
export function pageOf<R, T>(
  page: { ids: readonly string[]; distances: readonly number[] },
  rows: ReadonlyMap<string, R>,
  toApi: (row: R, distanceKm: number) => T,
): T[] {
  const out: T[] = [];
  page.ids.forEach((id, i) => {
    const row = rows.get(id);
    if (row) out.push(toApi(row, page.distances[i] as number));
  });
  return out;
}

/**
 * A page's API objects read by id (`read` answers the rows of the ids it is given), in the page's
 * order; `mapperFor` makes the row mapper once the page's rows are known (it may read what they
 * refer to in one query, such as their providers).
 */
export async function readPage<R extends { id: string }, T>(
  page: IndexedPage,
  read: (ids: string[]) => Promise<R[]>,
  mapperFor: (rows: readonly R[]) => Promise<(row: R, distanceKm: number) => T>,
): Promise<T[]> {
  if (page.ids.length === 0) return [];
  const rows = await read([...page.ids]);
  return pageOf(page, new Map(rows.map((row) => [row.id, row])), await mapperFor(rows));
}
