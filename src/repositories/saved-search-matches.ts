import type { SavedSearchResource } from '../db/schema.js';
import type { Category } from '../domain/categories.js';
import type { WriteTransaction } from './write-transaction.js';

/** Match rows per statement. */
const MATCH_BATCH = 500;

/** A saved search a job or listing may match, as the matching reads it. */
export interface MatchCandidate {
  id: string;
  account_id: string;
  name: string;
  query: string;
  center_lat: number;
  center_lng: number;
  radius_km: number;
}

/**
 * The saved searches of other accounts than `ownerAccountId` that a job or listing may match: of
 * its resource, with its category or none, with its point in their bounding box (an index covers
 * these), and not matched by the same subject before (an earlier write of the same job or listing).
 * The remaining conditions are the caller's to evaluate.
 */
export function matchCandidates(
  trx: WriteTransaction,
  resource: SavedSearchResource,
  subject: { id: string; category: Category; location: { lat: number; lng: number } },
  ownerAccountId: string,
): Promise<MatchCandidate[]> {
  const { lat, lng } = subject.location;
  return trx
    .selectFrom('saved_searches')
    .select(['id', 'account_id', 'name', 'query', 'center_lat', 'center_lng', 'radius_km'])
    .where('resource', '=', resource)
    .where((eb) => eb.or([eb('category', 'is', null), eb('category', '=', subject.category)]))
    .where('min_lat', '<=', lat)
    .where('max_lat', '>=', lat)
    .where('min_lng', '<=', lng)
    .where('max_lng', '>=', lng)
    .where('account_id', '<>', ownerAccountId)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('saved_search_matches')
            .select('saved_search_matches.saved_search_id')
            .whereRef('saved_search_matches.saved_search_id', '=', 'saved_searches.id')
            .where('saved_search_matches.subject_id', '=', subject.id),
        ),
      ),
    )
    .execute();
}

/**
 * Inserts a match row for each search and the subject, in batches; a row that is there already
 * (a concurrent write matched first) is skipped. Returns the ids of the searches matched now.
 */
export async function insertMatches(
  trx: WriteTransaction,
  searchIds: readonly string[],
  subjectId: string,
  now: Date,
): Promise<Set<string>> {
  const at = now.toISOString();
  const fresh = new Set<string>();
  for (let i = 0; i < searchIds.length; i += MATCH_BATCH) {
    const inserted = await trx
      .insertInto('saved_search_matches')
      .values(
        searchIds
          .slice(i, i + MATCH_BATCH)
          .map((id) => ({ saved_search_id: id, subject_id: subjectId, matched_at: at })),
      )
      .onConflict((oc) => oc.columns(['saved_search_id', 'subject_id']).doNothing())
      .returning('saved_search_id')
      .execute();
    for (const row of inserted) fresh.add(row.saved_search_id);
  }
  return fresh;
}
