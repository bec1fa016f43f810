import type { SavedSearchResource } from '../db/schema.js';
import { berlinDate } from '../domain/berlin-time.js';
import { eurToCents } from '../domain/pricing.js';
import { type MatchSubject, type SavedQuery, savedSearchMatches } from '../domain/saved-search-match.js';
import { documentFields } from '../domain/search-text.js';
import { recordAccountEvents } from '../repositories/outbox.js';
import { insertMatches, matchCandidates } from '../repositories/saved-search-matches.js';
import type { WriteTransaction } from '../repositories/write-transaction.js';
import type { Job } from '../schemas/jobs.js';
import type { Listing } from '../schemas/listings.js';

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
 * box fit are read (matchCandidates); the remaining conditions are evaluated here. A subject that
 * matched a search once does not match it again; an owner is not told about their own. Returns the
 * number of searches it matched now.
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
  const candidates = await matchCandidates(trx, resource, object, ownerAccountId);
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
  const fresh = await insertMatches(
    trx,
    matching.map((search) => search.id),
    object.id,
    now,
  );
  const at = now.toISOString();
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
