import type { Queryable } from '../db/queryable.js';
import { DEFAULT_CENTER, haversineKm, type LatLng, MAX_RADIUS_KM } from '../domain/geo.js';
import type { NamedPlace } from '../domain/place-names.js';
import { eurToCents } from '../domain/pricing.js';
import { findJob, jobRowsOf, jobsNearId, jobsOfPage, searchJobs as searchJobsSql } from '../repositories/jobs.js';
import {
  findListing,
  listingRowsOf,
  listingsNearId,
  listingsOfPage,
  searchListings as searchListingsSql,
} from '../repositories/listings.js';
import { ownsItem } from '../repositories/notices.js';
import { DEFAULT_PAGE_SIZE } from '../schemas/common.js';
import type { Job, JobSearchQuery } from '../schemas/jobs.js';
import type { Listing, ListingSearchQuery } from '../schemas/listings.js';
import type { IndexSnapshot } from '../search/search-indexes.js';
import { searchAreaOf, searchWordsAndSort } from './search-area.js';
import { checkBudget } from './search-checks.js';

/**
 * The one road of a search: its parameters read (search-area.ts, search-checks.ts: the parts
 * saved searches, streams and webhooks share), then answered by the in-memory index when the
 * request has a current one (src/search), else by SQL (the repositories); both give the same page.
 */

export type { IndexSnapshot } from '../search/search-indexes.js';
export { type AreaQuery, filterArea, searchAreaOf, searchWordsAndSort } from './search-area.js';
export { checkBudget } from './search-checks.js';

/** One page of a search as the API answers it. */
export interface SearchPage<T> {
  data: T[];
  total: number;
  limit: number;
  offset: number;
  has_more: boolean;
  /** The place `near` named. */
  near?: NamedPlace;
  /** Why the page is empty, when the search area lies wholly outside the service area. */
  notice?: string;
}

/** The area a search covers: its centre and radius, and the place `near` named. */
type Area = { center: LatLng; radiusKm: number; place?: NamedPlace };

/**
 * An empty page's notice when no point of the search area is in the service area (MAX_RADIUS_KM
 * around DEFAULT_CENTER), where every job and listing is: a write there is refused with the
 * distance (write-rules.ts locationOf), a search answers an empty page that says why.
 */
function outsideNotice({ center, radiusKm }: Area, total: number): string | undefined {
  const km = haversineKm(DEFAULT_CENTER, center);
  if (total > 0 || km <= MAX_RADIUS_KM + radiusKm) return undefined;
  return `The search area (${radiusKm} km around ${center.lat}, ${center.lng}) is ${km.toFixed(1)} km from Karlsruhe, outside the service area: ${MAX_RADIUS_KM} km around Karlsruhe (${DEFAULT_CENTER.lat}, ${DEFAULT_CENTER.lng}). Search within it: leave out lat and lng, or name a place with near (GET /v1/places?q=... lists them).`;
}

/** The paging, place and notice of a page around what the search found. */
function pageAnswer<T>(
  found: { data: T[]; total: number },
  paging: { limit: number; offset: number },
  area: Area,
): SearchPage<T> {
  const { limit, offset } = paging;
  const notice = outsideNotice(area, found.total);
  return {
    ...found,
    limit,
    offset,
    has_more: offset + limit < found.total,
    ...(area.place && { near: area.place }),
    ...(notice && { notice }),
  };
}

/** What every search reads from its query: the area, the words and their order, the category, the page. */
function searchOf(query: JobSearchQuery | ListingSearchQuery) {
  const paging = { limit: query.limit ?? DEFAULT_PAGE_SIZE, offset: query.offset ?? 0 };
  const area = searchAreaOf(query);
  const words = searchWordsAndSort(query);
  return {
    paging,
    area,
    search: { center: area.center, radiusKm: area.radiusKm, ...words, category: query.category, ...paging },
  };
}

/**
 * The index snapshot current for the request, asked for only once the query was found valid (a
 * refused query never waits for the index to follow the data); undefined: SQL answers.
 */
export type SnapshotOf = () => Promise<IndexSnapshot | undefined>;

/** GET /v1/jobs: open jobs matching the query, one page; from the index snapshot when there is one, else SQL. */
export async function searchJobs(
  db: Queryable,
  query: JobSearchQuery,
  now: Date,
  snapshotOf?: SnapshotOf,
): Promise<SearchPage<Job>> {
  checkBudget(query);
  const { paging, area, search: common } = searchOf(query);
  const search = {
    ...common,
    budgetMinCents: query.budget_min === undefined ? undefined : eurToCents(query.budget_min, 'up'),
    budgetMaxCents: query.budget_max === undefined ? undefined : eurToCents(query.budget_max, 'down'),
    date: query.date,
    urgent: query.urgent,
  };
  const index = (await snapshotOf?.())?.jobs;
  if (!index) return pageAnswer(await searchJobsSql(db, search, now), paging, area);
  const page = index.search(search, now);
  const rows = await index.rows.get(page.ids, (ids) => jobRowsOf(db, ids));
  return pageAnswer({ data: await jobsOfPage(db, page, rows, now), total: page.total }, paging, area);
}

/** GET /v1/listings: available listings matching the query, one page (see searchJobs). */
export async function searchListings(
  db: Queryable,
  query: ListingSearchQuery,
  snapshotOf?: SnapshotOf,
): Promise<SearchPage<Listing>> {
  const { paging, area, search: common } = searchOf(query);
  const search = {
    ...common,
    priceMaxCents: query.price_max === undefined ? undefined : eurToCents(query.price_max, 'down'),
    condition: query.condition,
    instantBooking: query.instant_booking,
  };
  const index = (await snapshotOf?.())?.listings;
  if (!index) return pageAnswer(await searchListingsSql(db, search), paging, area);
  const page = index.search(search);
  const rows = await index.rows.get(page.ids, (ids) => listingRowsOf(db, ids));
  return pageAnswer({ data: await listingsOfPage(db, page, rows), total: page.total }, paging, area);
}

/**
 * A job or listing by id as a caller sees it: `shown`, or `private` when a moderation decision
 * removed it and the caller is its owner (who alone still sees it, marked); else missing, with
 * the open or available ones whose ids sort next to the id asked for.
 */
export type ById<T> =
  | { found: 'shown'; item: T }
  | { found: 'private'; item: T }
  | { found: 'missing'; similar: { id: string; title: string }[] };

/** GET /v1/jobs/{id} (see ById); `caller` is the calling account's id, if any. */
export async function jobById(db: Queryable, id: string, now: Date, caller?: string): Promise<ById<Job>> {
  const job = await findJob(db, id, now);
  if (job && job.status !== 'removed') return { found: 'shown', item: job };
  if (job && caller && (await ownsItem(db, 'job', job.id, caller))) return { found: 'private', item: job };
  return { found: 'missing', similar: await jobsNearId(db, id, now, 3) };
}

/** GET /v1/listings/{id} (see ById). */
export async function listingById(db: Queryable, id: string, caller?: string): Promise<ById<Listing>> {
  const listing = await findListing(db, id);
  if (listing && listing.status !== 'removed') return { found: 'shown', item: listing };
  if (listing && caller && (await ownsItem(db, 'listing', listing.id, caller))) {
    return { found: 'private', item: listing };
  }
  return { found: 'missing', similar: await listingsNearId(db, id, 3) };
}
