import { sql } from 'kysely';
import { dialectOf, type Queryable } from '../db/queryable.js';
import type { SavedSearchesTable, SavedSearchResource, SavedSearchRow } from '../db/schema.js';
import type { SavedQuery } from '../domain/saved-search-match.js';
import type { SavedSearch, SavedSearchMatchPage } from '../schemas/saved-searches.js';
import { findJobsById } from './jobs.js';
import { findListingsById } from './listings.js';
import type { WriteTransaction } from './write-transaction.js';

export type NewSavedSearch = SavedSearchesTable;

export function savedSearchRowToSavedSearch(row: SavedSearchRow): SavedSearch {
  return {
    id: row.id,
    name: row.name,
    resource: row.resource,
    query: JSON.parse(row.query) as SavedQuery,
    email_digest: row.email_digest === 1,
    created_at: row.created_at,
  };
}

export async function countSavedSearches(db: Queryable, accountId: string): Promise<number> {
  const row = await db
    .selectFrom('saved_searches')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * Inserts a saved search unless the account has `max` already; on PostgreSQL an advisory lock per
 * account makes concurrent saves count one after another (SQLite has one writer).
 */
export async function insertSavedSearch(
  trx: WriteTransaction,
  row: NewSavedSearch,
  max: number,
): Promise<SavedSearch | { limit: number }> {
  if (dialectOf(trx) === 'postgres') {
    await sql`select pg_advisory_xact_lock(hashtext(${`saved_searches:${row.account_id}`}))`.execute(trx);
  }
  if ((await countSavedSearches(trx, row.account_id)) >= max) return { limit: max };
  await trx.insertInto('saved_searches').values(row).execute();
  return savedSearchRowToSavedSearch(row);
}

export function findSavedSearch(db: Queryable, accountId: string, id: string): Promise<SavedSearchRow | undefined> {
  return db
    .selectFrom('saved_searches')
    .selectAll()
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
}

export function findSavedSearchById(db: Queryable, id: string): Promise<SavedSearchRow | undefined> {
  return db.selectFrom('saved_searches').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function savedSearchesOf(
  db: Queryable,
  accountId: string,
  page: { limit: number; offset: number },
): Promise<{ data: SavedSearch[]; total: number }> {
  const total = await countSavedSearches(db, accountId);
  const rows = await db
    .selectFrom('saved_searches')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return { data: rows.map(savedSearchRowToSavedSearch), total };
}

/** Deletes an account's saved search and its matches; false when it has none with the id. */
export async function deleteSavedSearch(trx: WriteTransaction, accountId: string, id: string): Promise<boolean> {
  const deleted = await trx
    .deleteFrom('saved_searches')
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  if (Number(deleted.numDeletedRows) === 0) return false;
  await trx.deleteFrom('saved_search_matches').where('saved_search_id', '=', id).execute();
  return true;
}

/** Turns a search's digest off (the unsubscribe link); false when it was off already. */
export async function turnDigestOff(trx: WriteTransaction, id: string): Promise<boolean> {
  const updated = await trx
    .updateTable('saved_searches')
    .set({ email_digest: 0 })
    .where('id', '=', id)
    .where('email_digest', '=', 1)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) > 0;
}

/** A page of a search's matches, newest first, each with the job or listing as it is now. */
export async function matchesOf(
  db: Queryable,
  search: Pick<SavedSearchRow, 'id' | 'resource'>,
  page: { limit: number; offset: number },
  now: Date,
): Promise<Omit<SavedSearchMatchPage, 'limit' | 'offset'>> {
  // A job or listing a moderation decision removed leaves the matches (and is back if the decision is reversed).
  const removed =
    search.resource === 'jobs'
      ? db.selectFrom('jobs').select('id').where('status', '=', 'removed')
      : db.selectFrom('listings').select('id').where('status', '=', 'removed');
  const count = await db
    .selectFrom('saved_search_matches')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('saved_search_id', '=', search.id)
    .where('subject_id', 'not in', removed)
    .executeTakeFirst();
  const rows = await db
    .selectFrom('saved_search_matches')
    .select(['subject_id', 'matched_at'])
    .where('saved_search_id', '=', search.id)
    .where('subject_id', 'not in', removed)
    .orderBy('matched_at', 'desc')
    .orderBy('subject_id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  const ids = rows.map((row) => row.subject_id);
  // One read of the page's jobs or listings, not one per match.
  const subjects =
    search.resource === 'jobs'
      ? new Map([...(await findJobsById(db, ids, now))].map(([id, job]) => [id, { job }]))
      : new Map([...(await findListingsById(db, ids))].map(([id, listing]) => [id, { listing }]));
  const data = rows.map((row) => ({ matched_at: row.matched_at, ...subjects.get(row.subject_id) }));
  return { data, total: Number(count?.n ?? 0) };
}

/** Accounts with a digest-enabled search that has matches after `since` (their last digest or the day before). */
export async function accountsDueForDigest(db: Queryable, dueBefore: string, batch: number): Promise<string[]> {
  const rows = await db
    .selectFrom('saved_searches')
    .innerJoin('saved_search_matches', 'saved_search_matches.saved_search_id', 'saved_searches.id')
    .leftJoin('saved_search_digests', 'saved_search_digests.account_id', 'saved_searches.account_id')
    .select('saved_searches.account_id')
    .distinct()
    .where('saved_searches.email_digest', '=', 1)
    .where((eb) =>
      eb.or([eb('saved_search_digests.sent_at', 'is', null), eb('saved_search_digests.sent_at', '<=', dueBefore)]),
    )
    .where((eb) =>
      eb.or([
        eb('saved_search_digests.sent_at', 'is', null),
        eb('saved_search_matches.matched_at', '>', eb.ref('saved_search_digests.sent_at')),
      ]),
    )
    .orderBy('saved_searches.account_id')
    .limit(batch)
    .execute();
  return rows.map((row) => row.account_id);
}

/**
 * Claims an account's digest for this instance: one conditional write (an insert for the first
 * digest, else an update of a row still older than `dueBefore`), so of two instances only one
 * sends. Returns when the previous digest was sent (null: never), or undefined when not claimed.
 */
export async function claimDigest(
  db: Queryable,
  accountId: string,
  dueBefore: string,
  now: Date,
): Promise<{ previous: string | null } | undefined> {
  const at = now.toISOString();
  const current = await db
    .selectFrom('saved_search_digests')
    .select('sent_at')
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  if (!current) {
    const inserted = await db
      .insertInto('saved_search_digests')
      .values({ account_id: accountId, sent_at: at })
      .onConflict((oc) => oc.column('account_id').doNothing())
      .executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0 ? { previous: null } : undefined;
  }
  if (current.sent_at > dueBefore) return undefined;
  const updated = await db
    .updateTable('saved_search_digests')
    .set({ sent_at: at })
    .where('account_id', '=', accountId)
    .where('sent_at', '=', current.sent_at)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) > 0 ? { previous: current.sent_at } : undefined;
}

/** Gives a claim back (the e-mail could not be sent): the next round tries again. */
export async function releaseDigest(db: Queryable, accountId: string, previous: string | null): Promise<void> {
  if (previous === null) await db.deleteFrom('saved_search_digests').where('account_id', '=', accountId).execute();
  else
    await db
      .updateTable('saved_search_digests')
      .set({ sent_at: previous })
      .where('account_id', '=', accountId)
      .execute();
}

export interface DigestSearch {
  id: string;
  name: string;
  resource: SavedSearchResource;
  unsubscribeKey: string;
  subjects: { id: string; title: string }[];
}

/** An account's digest-enabled searches with their matches after `since`, and the account's e-mail. */
export async function digestOf(
  db: Queryable,
  accountId: string,
  since: string | null,
): Promise<{ email: string; name: string; searches: DigestSearch[] } | undefined> {
  const account = await db
    .selectFrom('accounts')
    .select(['email', 'name'])
    .where('id', '=', accountId)
    .executeTakeFirst();
  if (!account) return undefined;
  const searches = await db
    .selectFrom('saved_searches')
    .select(['id', 'name', 'resource', 'unsubscribe_key'])
    .where('account_id', '=', accountId)
    .where('email_digest', '=', 1)
    .orderBy('created_at')
    .execute();
  const result: DigestSearch[] = [];
  for (const search of searches) {
    let matches = db
      .selectFrom('saved_search_matches')
      .select('subject_id')
      .where('saved_search_id', '=', search.id)
      .orderBy('matched_at', 'desc')
      .limit(20);
    if (since !== null) matches = matches.where('matched_at', '>', since);
    const ids = (await matches.execute()).map((row) => row.subject_id);
    if (ids.length === 0) continue;
    const table = search.resource === 'jobs' ? 'jobs' : 'listings';
    const subjects = await db
      .selectFrom(table)
      .select(['id', 'title'])
      .where('id', 'in', ids)
      .where('status', '<>', 'removed')
      .execute();
    if (subjects.length === 0) continue;
    result.push({
      id: search.id,
      name: search.name,
      resource: search.resource,
      unsubscribeKey: search.unsubscribe_key,
      subjects,
    });
  }
  return { ...account, searches: result };
}
