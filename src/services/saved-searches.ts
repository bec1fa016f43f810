import type { Queryable } from '../db/queryable.js';
import type { AccountRow, SavedSearchResource } from '../db/schema.js';
import type { Category } from '../domain/categories.js';
import { boundingBox } from '../domain/geo.js';
import { newId } from '../domain/ids.js';
import type { SavedQuery } from '../domain/saved-search-match.js';
import { newUnsubscribeKey, tokenSearchId, tokenValid } from '../domain/unsubscribe.js';
import {
  deleteSavedSearch,
  findSavedSearch,
  findSavedSearchById,
  insertSavedSearch,
  matchesOf,
  savedSearchesOf,
  savedSearchRowToSavedSearch,
  turnDigestOff,
} from '../repositories/saved-searches.js';
import { inWriteTransaction, type WriteContext } from '../repositories/write-transaction.js';
import type { SavedSearch, SavedSearchMatchPage } from '../schemas/saved-searches.js';
import { ApiError } from './errors.js';
import { searchAreaOf } from './search-area.js';

export interface SavedSearchInput {
  name: string;
  resource: SavedSearchResource;
  /** Validated as the resource's search validates its query string (http/routes/saved-searches.ts). */
  query: SavedQuery;
  email_digest: boolean;
}

type Page = { limit: number; offset: number };

/** Saves a search of the account; 409 limit_reached beyond `max` (SAVED_SEARCHES_PER_ACCOUNT). */
export async function saveSearch(
  context: WriteContext,
  account: AccountRow,
  input: SavedSearchInput,
  max: number,
): Promise<SavedSearch> {
  const { query } = input;
  const coordinates = {
    lat: typeof query.lat === 'number' ? query.lat : undefined,
    lng: typeof query.lng === 'number' ? query.lng : undefined,
    radius: typeof query.radius === 'number' ? query.radius : undefined,
  };
  // `near` is resolved now: the search keeps matching around the place it named when saved.
  const area = searchAreaOf({ ...coordinates, near: typeof query.near === 'string' ? query.near : undefined });
  const box = boundingBox(area.center, area.radiusKm);
  const row = {
    id: newId('svs'),
    account_id: account.id,
    name: input.name,
    resource: input.resource,
    query: JSON.stringify(query),
    category: typeof query.category === 'string' ? (query.category as Category) : null,
    center_lat: area.center.lat,
    center_lng: area.center.lng,
    radius_km: area.radiusKm,
    min_lat: box.minLat,
    max_lat: box.maxLat,
    min_lng: box.minLng,
    max_lng: box.maxLng,
    email_digest: input.email_digest ? (1 as const) : (0 as const),
    unsubscribe_key: newUnsubscribeKey(),
    created_at: context.now.toISOString(),
  };
  return inWriteTransaction(context, async (trx) => {
    const saved = await insertSavedSearch(trx, row, max);
    // Thrown in the transaction: nothing commits, so the same key saves once one was deleted.
    if ('limit' in saved) {
      throw new ApiError(409, 'limit_reached', `The account has ${saved.limit} saved searches, the most it may have.`, {
        param: null,
        suggestion: 'Delete one you no longer need (DELETE /v1/saved-searches/{id}), then save again.',
      });
    }
    return saved;
  });
}

export async function savedSearches(db: Queryable, account: AccountRow, page: Page) {
  return { ...(await savedSearchesOf(db, account.id, page)), ...page };
}

export async function savedSearchById(db: Queryable, account: AccountRow, id: string): Promise<SavedSearch> {
  const row = await findSavedSearch(db, account.id, id);
  if (!row) throw notFound(id);
  return savedSearchRowToSavedSearch(row);
}

export async function removeSavedSearch(context: WriteContext, account: AccountRow, id: string): Promise<void> {
  await inWriteTransaction(context, async (trx) => {
    if (!(await deleteSavedSearch(trx, account.id, id))) throw notFound(id);
  });
}

/** The jobs or listings that started to match the search after it was saved, newest first. */
export async function savedSearchMatchPage(
  db: Queryable,
  account: AccountRow,
  id: string,
  page: Page,
  now: Date,
): Promise<SavedSearchMatchPage> {
  const row = await findSavedSearch(db, account.id, id);
  if (!row) throw notFound(id);
  return { ...(await matchesOf(db, row, page, now)), ...page };
}

/** The digest's unsubscribe link: turns email_digest off for the search the token names (no key needed). */
export async function unsubscribe(
  context: WriteContext,
  token: string,
): Promise<{ unsubscribed: boolean; saved_search_id: string; message: string }> {
  const id = tokenSearchId(token);
  const row = id === null ? undefined : await findSavedSearchById(context.db, id);
  if (!row || !tokenValid(token, row.id, row.unsubscribe_key)) {
    throw new ApiError(404, 'not_found', 'This unsubscribe link names no saved search (it may have been deleted).', {
      param: 'token',
      suggestion: 'Use the link of a recent digest e-mail as it is, or delete the search with your key.',
    });
  }
  const changed = await inWriteTransaction(context, (trx) => turnDigestOff(trx, row.id));
  return {
    unsubscribed: true,
    saved_search_id: row.id,
    message: changed
      ? `No more digest e-mails for the saved search '${row.name}'.`
      : `The digest of the saved search '${row.name}' was off already.`,
  };
}

function notFound(id: string): ApiError {
  return new ApiError(404, 'not_found', `No saved search of yours has the id '${id}'.`, {
    param: 'id',
    suggestion: 'GET /v1/saved-searches lists your saved searches.',
  });
}
