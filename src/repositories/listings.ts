import { sql } from 'kysely';
import { distanceKmSql, withinRadiusSql } from '../db/distance.js';
import { dialectOf, insertInChunks, type Queryable } from '../db/queryable.js';
import type { ListingRow, NewListing, NewOwner, ReliabilityColumns } from '../db/schema.js';
import type { Category } from '../domain/categories.js';
import { DEFAULT_CENTER, haversineKm, type LatLng } from '../domain/geo.js';
import { parseOpeningHours } from '../domain/hourly-lending.js';
import { centsToEur } from '../domain/pricing.js';
import type { QueryWord } from '../domain/search-text.js';
import type { Condition } from '../domain/statuses.js';
import type { Listing } from '../schemas/listings.js';
import type { PublicProvider } from '../schemas/providers.js';
import type { IndexedPage } from './indexed-search.js';
import { pageOf, readPage } from './indexed-search.js';
import { flag, locationFromRow, parsePhotos, reliabilityFromRow } from './mappers.js';
import { idNeighbours } from './neighbours.js';
import { publicProviders } from './providers.js';
import { type SearchSort, searchOrder } from './search-order.js';
import { scoredPage } from './text-search.js';

export interface ListingSearch {
  center: LatLng;
  radiusKm: number;
  category?: Category;
  priceMaxCents?: number;
  condition?: Condition;
  instantBooking?: boolean;
  /** Words of q that must all match (domain/search-text.ts queryWords); none: no text filter. */
  text?: readonly QueryWord[];
  sort: SearchSort;
  limit: number;
  offset: number;
}

/** A listing row with its owner's reliability and account (null for seeded owners), as searches read it. */
export type ListingSearchRow = ListingRow & ReliabilityColumns & { owner_account_id: string | null };

/**
 * A listing as the API shows it; `providers` holds the public details of the commercial accounts
 * among the rows' owners (publicProviders): listings of other owners show provider null.
 */
export function listingRowToListing(
  row: ListingSearchRow,
  distanceKm: number,
  providers: ReadonlyMap<string, PublicProvider>,
): Listing {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    category: row.category,
    type: 'lending',
    status: row.status,
    price_per_day_eur: centsToEur(row.price_per_day_cents),
    price_per_week_eur: row.price_per_week_cents === null ? null : centsToEur(row.price_per_week_cents),
    deposit_eur: centsToEur(row.deposit_cents),
    late_fee_per_day_eur: row.late_fee_per_day_cents === null ? null : centsToEur(row.late_fee_per_day_cents),
    condition: row.condition,
    location: locationFromRow(row, distanceKm),
    instant_booking: flag(row.instant_booking),
    cancellation_policy: row.cancellation_policy,
    min_lead_hours: row.min_lead_hours,
    buffer_hours: row.buffer_hours,
    max_booking_days: row.max_booking_days,
    price_per_hour_eur: row.price_per_hour_cents === null ? null : centsToEur(row.price_per_hour_cents),
    min_hours: row.min_hours,
    opening_hours: parseOpeningHours(row.opening_hours),
    photos: parsePhotos(row.photos),
    owner_reliability: reliabilityFromRow(row),
    provider: (row.owner_account_id !== null && providers.get(row.owner_account_id)) || null,
  };
}

/** The mapper of a page of listing rows: their owners' providers read in one query first. */
function listingMapper(db: Queryable) {
  return async (rows: readonly ListingSearchRow[]) => {
    const providers = await publicProviders(
      db,
      rows.map((row) => row.owner_account_id),
    );
    return (row: ListingSearchRow, km: number) => listingRowToListing(row, km, providers);
  };
}

const OWNER_RELIABILITY = [
  'owners.reliability_score',
  'owners.completed_jobs',
  'owners.avg_response_minutes',
  'owners.cancellation_rate',
  'owners.rating_avg',
  'owners.rating_count',
  'owners.verified',
  'owners.account_id as owner_account_id',
] as const;

function listingsWithOwners(db: Queryable) {
  return db.selectFrom('listings').innerJoin('owners', 'owners.id', 'listings.owner_id');
}

/** The rows of these listings with their owner's reliability, as searches read them, for a page found by id. */
export function listingRowsOf(db: Queryable, ids: readonly string[]): Promise<ListingSearchRow[]> {
  return listingsWithOwners(db)
    .selectAll('listings')
    .select(OWNER_RELIABILITY)
    .where('listings.id', 'in', ids)
    .execute();
}

/** The listings of a page an in-memory index found (search/listing-index.ts), in its order (see jobsOfPage). */
export async function listingsOfPage(
  db: Queryable,
  page: IndexedPage,
  rows: ReadonlyMap<string, ListingSearchRow>,
): Promise<Listing[]> {
  return pageOf(page, rows, await listingMapper(db)([...rows.values()]));
}

/** One page of available listings and the exact total, as SQL (services/search.ts may ask the index instead). */
export async function searchListings(
  db: Queryable,
  search: ListingSearch,
): Promise<{ data: Listing[]; total: number }> {
  const dialect = dialectOf(db);
  let query = listingsWithOwners(db)
    .where('listings.status', '=', 'available')
    .where(withinRadiusSql(dialect, 'listings.lat', 'listings.lng', search.center, search.radiusKm));
  if (search.category) query = query.where('listings.category', '=', search.category);
  if (search.priceMaxCents !== undefined)
    query = query.where('listings.price_per_day_cents', '<=', search.priceMaxCents);
  if (search.condition) query = query.where('listings.condition', '=', search.condition);
  if (search.instantBooking !== undefined)
    query = query.where('listings.instant_booking', '=', search.instantBooking ? 1 : 0);
  const distance = distanceKmSql(
    dialect,
    sql.ref<number>('listings.lat'),
    sql.ref<number>('listings.lng'),
    search.center,
  );

  if (search.text && search.text.length > 0) {
    const page = await scoredPage(
      (after, size) =>
        query
          .select([
            'listings.id',
            'listings.title',
            'listings.description',
            'listings.category',
            'listings.city',
            'listings.district',
            'listings.created_at',
            'listings.price_per_day_cents',
          ])
          .select(distance.as('distance_km'))
          .where('listings.id', '>', after)
          .orderBy('listings.id')
          .limit(size)
          .execute(),
      { ...search, text: search.text },
      (row) => row.price_per_day_cents,
    );
    return { data: await readPage(page, (ids) => listingRowsOf(db, ids), listingMapper(db)), total: page.total };
  }

  const countRow = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  const total = Number(countRow?.n ?? 0);
  if (search.offset >= total) return { data: [], total };

  const rows = await query
    .selectAll('listings')
    .select(OWNER_RELIABILITY)
    .select(distance.as('distance_km'))
    .orderBy(
      searchOrder(search.sort, {
        price: 'listings.price_per_day_cents',
        created: 'listings.created_at',
        id: 'listings.id',
      }),
    )
    .limit(search.limit)
    .offset(search.offset)
    .execute();
  const toApi = await listingMapper(db)(rows);
  return { data: rows.map((row) => toApi(row, row.distance_km)), total };
}

export async function findListing(db: Queryable, id: string): Promise<Listing | undefined> {
  const row = await listingsWithOwners(db)
    .selectAll('listings')
    .select(OWNER_RELIABILITY)
    .where('listings.id', '=', id)
    .executeTakeFirst();
  return row && (await listingMapper(db)([row]))(row, haversineKm(DEFAULT_CENTER, row));
}

/** Listings by id, as GET /v1/listings/{id} shows each (one query); missing ids are left out. */
export async function findListingsById(db: Queryable, ids: readonly string[]): Promise<Map<string, Listing>> {
  if (ids.length === 0) return new Map();
  const rows = await listingRowsOf(db, ids);
  const toApi = await listingMapper(db)(rows);
  return new Map(rows.map((row) => [row.id, toApi(row, haversineKm(DEFAULT_CENTER, row))]));
}

/** Available listings whose ids sort next to `id`. */
export function listingsNearId(db: Queryable, id: string, count: number): Promise<Pick<Listing, 'id' | 'title'>[]> {
  return idNeighbours(db, 'listings', id, sql<boolean>`status = 'available'`, count);
}

export function insertOwners(db: Queryable, owners: readonly NewOwner[]): Promise<void> {
  return insertInChunks(db, 'owners', owners);
}

export function insertListings(db: Queryable, listings: readonly NewListing[]): Promise<void> {
  return insertInChunks(db, 'listings', listings);
}
