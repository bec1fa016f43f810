import type { SavedSearchResource } from '../db/schema.js';
import { berlinDate } from '../domain/berlin-time.js';
import { eurToCents } from '../domain/pricing.js';
import { type MatchSubject, type SavedQuery, savedSearchMatches } from '../domain/saved-search-match.js';
import { documentFields } from '../domain/search-text.js';
import type { Job } from '../schemas/job.js';
import type { Listing } from '../schemas/listing.js';
import { recordAccountEvents } from './outbox.js';
import type { WriteTransaction } from './write-transaction.js';

/** Match rows per statement. */
const MATCH_BATCH = 500;

/** What the matching reads of a job or listing as the write left it (the object its event holds). */
function subjectOf(resource: SavedSearchResource, object: Job | Listing): MatchSubject {
  const common = {
    category: object.category,
    point: { lat: object.location.lat, lng: object.location.lng },
    terms: documentFields({ ...object, city: object.location.city, district: object.location.district }),
  };
  if (resource === 'jobs') {
    const job = object as Job;
    return {
      ...common,
      priceCents: eurToCents(job.price_eur),
      desiredDate: job.desired_at && berlinDate(new Date(job.desired_at)),
      urgent: job.urgent,
    };
  }
  const listing = object as Listing;
  return {
    ...common,
    priceCents: eurToCents(listing.price_per_day_eur),
    condition: listing.condition,
    instantBooking: listing.instant_booking,
  };
}

/**
 * Compares a job or listing just created or changed with the saved searches of other accounts, in
 * the write's transaction: each search it starts to match gets a match row and a private
 * saved_search.matched event for its account. Only searches whose resource, category and bounding
 * box fit are read (an index covers them); the remaining conditions are evaluated here. A subject
 * that matched a search once does not match it again; an owner is not told about their own.
 */
export async function matchSavedSearches(
  trx: WriteTransaction,
  resource: SavedSearchResource,
  object: Job | Listing,
  ownerAccountId: string,
  now: Date,
): Promise<number> {
  const searchable = resource === 'jobs' ? object.status === 'open' : object.status === 'available';
  if (!searchable) return 0;
  const { lat, lng } = object.location;
  const candidates = await trx
    .selectFrom('saved_searches')
    .select(['id', 'account_id', 'name', 'query', 'center_lat', 'center_lng', 'radius_km'])
    .where('resource', '=', resource)
    .where((eb) => eb.or([eb('category', 'is', null), eb('category', '=', object.category)]))
    .where('min_lat', '<=', lat)
    .where('max_lat', '>=', lat)
    .where('min_lng', '<=', lng)
    .where('max_lng', '>=', lng)
    .where('account_id', '<>', ownerAccountId)
    // A search it matched before (an earlier write of the same job or listing) is not asked again.
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('saved_search_matches')
            .select('saved_search_matches.saved_search_id')
            .whereRef('saved_search_matches.saved_search_id', '=', 'saved_searches.id')
            .where('saved_search_matches.subject_id', '=', object.id),
        ),
      ),
    )
    .execute();
  if (candidates.length === 0) return 0;
  const subject = subjectOf(resource, object);
  const matching = candidates.filter((search) =>
    savedSearchMatches(
      resource,
      JSON.parse(search.query) as SavedQuery,
      { center: { lat: search.center_lat, lng: search.center_lng }, radiusKm: search.radius_km },
      subject,
    ),
  );
  if (matching.length === 0) return 0;
  const at = now.toISOString();
  const fresh = new Set<string>();
  for (let i = 0; i < matching.length; i += MATCH_BATCH) {
    const inserted = await trx
      .insertInto('saved_search_matches')
      .values(
        matching
          .slice(i, i + MATCH_BATCH)
          .map((search) => ({ saved_search_id: search.id, subject_id: object.id, matched_at: at })),
      )
      .onConflict((oc) => oc.columns(['saved_search_id', 'subject_id']).doNothing())
      .returning('saved_search_id')
      .execute();
    for (const row of inserted) fresh.add(row.saved_search_id);
  }
  const events = matching
    .filter((search) => fresh.has(search.id))
    .map((search) => ({
      subjectId: search.id,
      accountId: search.account_id,
      data: { saved_search: { id: search.id, name: search.name, resource }, matched_at: at, match: object },
    }));
  await recordAccountEvents(trx, 'saved_search.matched', events, now);
  return fresh.size;
}
