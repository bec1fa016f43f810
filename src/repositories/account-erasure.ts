import { type ExpressionBuilder, sql } from 'kysely';
import type { Queryable } from '../db/queryable.js';
import type { AccountRow, Database } from '../db/schema.js';
import { ERASED_NAME, ERASED_TEXT, ERASED_TITLE, erasedEmail } from '../domain/erasure.js';
import { changedRows } from './changed-rows.js';
import type { WriteTransaction } from './write-transaction.js';

/** The account with this id, erased or not. */
export function findAccount(db: Queryable, id: string): Promise<AccountRow | undefined> {
  return db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The ids of the owner rows of an account (one at most), as a subquery. */
const ownersOf = (db: Queryable, id: string) => db.selectFrom('owners').select('id').where('account_id', '=', id);
/** The ids of the listings of an account, as a subquery. */
const listingsOf = (db: Queryable, id: string) =>
  db.selectFrom('listings').select('id').where('owner_id', 'in', ownersOf(db, id));
/** The ids of the jobs of an account, as a subquery. */
const jobsOf = (db: Queryable, id: string) => db.selectFrom('jobs').select('id').where('owner_account_id', '=', id);

/** What the anonymising part of an erasure did, counted. */
export interface AnonymisedCounts {
  events_deleted: number;
  messages_erased: number;
  reviews_anonymised: number;
}

/**
 * The first part of an erasure (services/account-data.ts, eraseAccount, tells the whole story):
 * marks the account erased, then
 * 1. deletes the outbox's events about its objects, and those only it could see (their payloads
 *    are copies of names and texts), so that nothing written afterwards carries a name or text;
 * 2. overwrites names, e-mail, texts and exact places, and drops what reports kept of its items.
 * Null when the account was erased already (nothing is done twice).
 */
export async function anonymiseAccountRows(
  trx: WriteTransaction,
  account: AccountRow,
  now: Date,
): Promise<AnonymisedCounts | null> {
  const at = now.toISOString();
  const id = account.id;
  const marked = await trx
    .updateTable('accounts')
    .set({ erased_at: at, name: ERASED_NAME, email: erasedEmail(id), organisation: null })
    .where('id', '=', id)
    .where('erased_at', 'is', null)
    .executeTakeFirst();
  if (changedRows(marked) === 0) return null;

  const owners = ownersOf(trx, id);
  const listings = listingsOf(trx, id);
  const jobs = jobsOf(trx, id);

  // 1. Events: about its jobs, listings, helper profiles, applications, bookings (either side),
  // messages it sent, reviews it wrote, its verifications; and every event only it could see.
  const subjects = [
    jobs,
    listings,
    trx.selectFrom('helpers').select('id').where('account_id', '=', id),
    trx.selectFrom('applications').select('id').where('account_id', '=', id),
    trx.selectFrom('bookings').select('id').where('renter_account_id', '=', id),
    trx.selectFrom('bookings').select('id').where('listing_id', 'in', listings),
    trx.selectFrom('messages').select('id').where('sender_account_id', '=', id),
    trx.selectFrom('reviews').select('id').where('author_account_id', '=', id),
    trx.selectFrom('verifications').select('id').where('account_id', '=', id),
  ];
  const aboutAccount = (eb: ExpressionBuilder<Database, 'events'>) =>
    eb.or([...subjects.map((ids) => eb('subject_id', 'in', ids)), eb('audience', '=', JSON.stringify([id]))]);
  await trx
    .deleteFrom('webhook_deliveries')
    .where('event_id', 'in', trx.selectFrom('events').select('id').where(aboutAccount))
    .execute();
  const eventsDeleted = changedRows(await trx.deleteFrom('events').where(aboutAccount).executeTakeFirst());

  // 2. Names, texts, e-mail addresses and exact places.
  const requests = await trx
    .selectFrom('key_requests')
    .select('id')
    .where(sql`lower(email)`, '=', account.email.toLowerCase())
    .execute();
  for (const request of requests) {
    await trx
      .updateTable('key_requests')
      .set({ name: ERASED_NAME, email: erasedEmail(request.id), organisation: null, intended_use: ERASED_TEXT })
      .where('id', '=', request.id)
      .execute();
  }
  await trx
    .updateTable('key_requests')
    .set({ status: 'rejected', decided_at: at, reason: 'The account was erased.' })
    .where('id', 'in', requests.length > 0 ? requests.map((r) => r.id) : [''])
    .where('status', '=', 'pending')
    .execute();
  await trx.updateTable('owners').set({ display_name: ERASED_NAME }).where('account_id', '=', id).execute();
  await trx
    .updateTable('helpers')
    .set((eb) => ({
      display_name: ERASED_NAME,
      bio: '',
      available: 0,
      exact_lat: eb.ref('lat'),
      exact_lng: eb.ref('lng'),
    }))
    .where('account_id', '=', id)
    .execute();
  // A job's or listing's words, photos and exact place: what it says about the person.
  const erasedOffer = (eb: ExpressionBuilder<Database, 'jobs' | 'listings'>) => ({
    title: ERASED_TITLE,
    description: ERASED_TEXT,
    photos: '[]',
    exact_lat: eb.ref('lat'),
    exact_lng: eb.ref('lng'),
  });
  await trx.updateTable('jobs').set(erasedOffer).where('owner_account_id', '=', id).execute();
  // A job series keeps the job's words and exact place as its template: it goes, with its skipped
  // dates (its posted occurrences are jobs, erased above; nothing more is posted).
  const series = trx.selectFrom('job_series').select('id').where('owner_account_id', '=', id);
  await trx.deleteFrom('job_series_skips').where('series_id', 'in', series).execute();
  // Who was excused when (of its series, and its helpers from others'): gone with them.
  const helpers = trx.selectFrom('helpers').select('id').where('account_id', '=', id);
  await trx
    .deleteFrom('job_series_excusals')
    .where((eb) => eb.or([eb('series_id', 'in', series), eb('helper_id', 'in', helpers)]))
    .execute();
  await trx.deleteFrom('series_applications').where('series_id', 'in', series).execute();
  // Its applications to others' series: the words go, and a standing helper stands no more.
  await trx
    .updateTable('series_applications')
    .set({ message: null, status: 'ended', ended_at: at })
    .where('account_id', '=', id)
    .where('status', '=', 'accepted')
    .execute();
  await trx.updateTable('series_applications').set({ message: null }).where('account_id', '=', id).execute();
  await trx.deleteFrom('job_series').where('owner_account_id', '=', id).execute();
  // What was e-mailed or pushed to the person, when, how they wanted it, and their browsers: gone.
  await trx.deleteFrom('notifications').where('account_id', '=', id).execute();
  await trx.deleteFrom('notification_settings').where('account_id', '=', id).execute();
  await trx.deleteFrom('push_subscriptions').where('account_id', '=', id).execute();
  // Waiting for others' listings says what the person wanted when: the entries go (an offer held is freed).
  await trx.deleteFrom('waitlist_entries').where('account_id', '=', id).execute();
  // An own calendar's secret address and when the person is busy: gone.
  const calendars = trx.selectFrom('busy_calendars').select('id').where('account_id', '=', id);
  await trx.deleteFrom('busy_times').where('calendar_id', 'in', calendars).execute();
  await trx.deleteFrom('busy_calendars').where('account_id', '=', id).execute();
  await trx.updateTable('listings').set(erasedOffer).where('owner_id', 'in', owners).execute();
  const messagesErased = changedRows(
    await trx.updateTable('messages').set({ text: ERASED_TEXT }).where('sender_account_id', '=', id).executeTakeFirst(),
  );
  await trx.updateTable('applications').set({ message: null }).where('account_id', '=', id).execute();
  // An objection to a job's completion stays an objection (the owner's reviews stay closed); its words go.
  await trx
    .updateTable('applications')
    .set({ completion_objection: ERASED_TEXT })
    .where('account_id', '=', id)
    .where('completion_objection', 'is not', null)
    .execute();
  const reviewsAnonymised = changedRows(
    await trx
      .updateTable('reviews')
      .set({ text: null, author_name: ERASED_NAME })
      .where('author_account_id', '=', id)
      .executeTakeFirst(),
  );
  await trx.updateTable('reviews').set({ reply: null }).where('reviewed_account_id', '=', id).execute();
  // What reports about its items kept of them (the evidence, migration 0032) goes with the items'
  // words; the reports stay, as the platform's record of the notices.
  await trx
    .updateTable('reports')
    .set({ snapshot: null })
    .where('about_account_id', '=', id)
    .where('snapshot', 'is not', null)
    .execute();

  return { events_deleted: eventsDeleted, messages_erased: messagesErased, reviews_anonymised: reviewsAnonymised };
}

/**
 * The ids copies of an account's data carry: its own, and those of everything it made or takes
 * part in (helper and owner profiles, jobs, job series, listings, applications, bookings as renter and of its
 * listings, conversations, messages, reviews written, verifications, reports filed, drafts, saved
 * searches, webhooks). Every answer and event payload names an object by its id, so a copy of
 * the account's words or name is a text that holds one of these.
 */
export async function idsOfAccount(db: Queryable, id: string): Promise<string[]> {
  const listings = listingsOf(db, id);
  const lists = await Promise.all([
    db.selectFrom('helpers').select('id').where('account_id', '=', id).execute(),
    ownersOf(db, id).execute(),
    jobsOf(db, id).execute(),
    db.selectFrom('job_series').select('id').where('owner_account_id', '=', id).execute(),
    listings.execute(),
    db.selectFrom('applications').select('id').where('account_id', '=', id).execute(),
    db
      .selectFrom('bookings')
      .select('id')
      .where((eb) => eb.or([eb('renter_account_id', '=', id), eb('listing_id', 'in', listingsOf(db, id))]))
      .execute(),
    db
      .selectFrom('conversations')
      .select('id')
      .where((eb) => eb.or([eb('account_low', '=', id), eb('account_high', '=', id)]))
      .execute(),
    db.selectFrom('messages').select('id').where('sender_account_id', '=', id).execute(),
    db.selectFrom('reviews').select('id').where('author_account_id', '=', id).execute(),
    db.selectFrom('verifications').select('id').where('account_id', '=', id).execute(),
    db.selectFrom('reports').select('id').where('reporter_account_id', '=', id).execute(),
    db.selectFrom('drafts').select('id').where('account_id', '=', id).execute(),
    db.selectFrom('saved_searches').select('id').where('account_id', '=', id).execute(),
    db.selectFrom('webhooks').select('id').where('account_id', '=', id).execute(),
  ]);
  return [id, ...lists.flat().map((row) => row.id)];
}

/** How many ids one statement looks for (each is one LIKE): statements stay short on both engines. */
export const IDS_PER_STATEMENT = 200;

/** LIKE patterns that find each id as a JSON string ("job_…") in a text. */
const namingPatterns = (ids: readonly string[]) => ids.map((id) => `%${JSON.stringify(id)}%`);

/**
 * Deletes every event (of any audience) whose payload names one of `ids` (at most
 * IDS_PER_STATEMENT), with its webhook deliveries first; returns how many events.
 */
export async function deleteEventsNaming(trx: WriteTransaction, ids: readonly string[]): Promise<number> {
  const patterns = namingPatterns(ids);
  const naming = (eb: ExpressionBuilder<Database, 'events'>) => eb.or(patterns.map((p) => eb('payload', 'like', p)));
  await trx
    .deleteFrom('webhook_deliveries')
    .where('event_id', 'in', trx.selectFrom('events').select('id').where(naming))
    .execute();
  return changedRows(await trx.deleteFrom('events').where(naming).executeTakeFirst());
}

/**
 * Deletes the stored idempotent answers of accounts other than `accountId` whose body names one of
 * `ids` (at most IDS_PER_STATEMENT); returns how many.
 */
export async function deleteOthersAnswersNaming(
  trx: WriteTransaction,
  accountId: string,
  ids: readonly string[],
): Promise<number> {
  const patterns = namingPatterns(ids);
  return changedRows(
    await trx
      .deleteFrom('idempotency_keys')
      .where('account_id', '<>', accountId)
      .where((eb) => eb.or(patterns.map((p) => eb('response_body', 'like', p))))
      .executeTakeFirst(),
  );
}

/** The jobs of the account an erasure cancels: open or assigned. */
export function cancellableJobsOf(db: Queryable, id: string): Promise<{ id: string }[]> {
  return jobsOf(db, id).where('status', 'in', ['open', 'assigned']).execute();
}

/** The listings of the account an erasure archives: available or paused. */
export function archivableListingsOf(db: Queryable, id: string): Promise<{ id: string }[]> {
  return listingsOf(db, id).where('status', 'in', ['available', 'paused']).execute();
}

/** Withdraws the account's pending applications; returns how many. */
export async function withdrawPendingApplications(trx: WriteTransaction, id: string, now: Date): Promise<number> {
  return changedRows(
    await trx
      .updateTable('applications')
      .set({ status: 'withdrawn', decided_at: now.toISOString() })
      .where('account_id', '=', id)
      .where('status', '=', 'pending')
      .executeTakeFirst(),
  );
}

/** The requested bookings an erasure cancels: the account's as renter, and those of its listings. */
export function requestedBookingsOf(db: Queryable, id: string): Promise<{ id: string; renter_account_id: string }[]> {
  return db
    .selectFrom('bookings')
    .select(['id', 'renter_account_id'])
    .where('status', '=', 'requested')
    .where((eb) => eb.or([eb('renter_account_id', '=', id), eb('listing_id', 'in', listingsOf(db, id))]))
    .execute();
}

/** What the removing part of an erasure did, counted. */
export interface RemovedCounts {
  keys_revoked: number;
  webhooks_deleted: number;
  saved_searches_deleted: number;
}

/**
 * The last part of an erasure (step 4, after its commitments ended): revokes the account's keys;
 * deletes its webhooks, saved searches, calendar feed, drafts, sessions, sign-in codes, passkeys, OAuth grants, tokens and clients, place releases (read by it or of
 * its places), provider details, its bank account and idempotency
 * records (but `keepIdempotencyKey`'s); unties the reports it filed and erases its appeals' texts.
 */
export async function removeAccountRows(
  trx: WriteTransaction,
  id: string,
  now: Date,
  /** The Idempotency-Key of the erasing request itself: kept, its answer holds nothing personal. */
  keepIdempotencyKey: string | null,
): Promise<RemovedCounts> {
  const at = now.toISOString();
  const keysRevoked = changedRows(
    await trx
      .updateTable('api_keys')
      .set({ revoked_at: at })
      .where('account_id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst(),
  );
  const webhooks = trx.selectFrom('webhooks').select('id').where('account_id', '=', id);
  await trx.deleteFrom('webhook_deliveries').where('webhook_id', 'in', webhooks).execute();
  const webhooksDeleted = changedRows(await trx.deleteFrom('webhooks').where('account_id', '=', id).executeTakeFirst());
  const searches = trx.selectFrom('saved_searches').select('id').where('account_id', '=', id);
  await trx.deleteFrom('saved_search_matches').where('saved_search_id', 'in', searches).execute();
  const searchesDeleted = changedRows(
    await trx.deleteFrom('saved_searches').where('account_id', '=', id).executeTakeFirst(),
  );
  await trx.deleteFrom('saved_search_digests').where('account_id', '=', id).execute();
  await trx.deleteFrom('calendar_feeds').where('account_id', '=', id).execute();
  await trx.deleteFrom('drafts').where('account_id', '=', id).execute();
  // Signed-in browsers and codes in flight end with the account (issue 31).
  await trx.deleteFrom('sessions').where('account_id', '=', id).execute();
  await trx.deleteFrom('sign_in_codes').where('account_id', '=', id).execute();
  await trx.deleteFrom('passkeys').where('account_id', '=', id).execute();
  // Apps acting for the person (their grants and tokens) and the apps the account registered (issue 31).
  const clients = trx
    .selectFrom('oauth_records')
    .select('id')
    .where('model', '=', 'Client')
    .where('account_id', '=', id);
  await trx.deleteFrom('oauth_records').where('client_id', 'in', clients).execute();
  await trx.deleteFrom('oauth_records').where('account_id', '=', id).execute();
  await trx.deleteFrom('passkey_challenges').where('account_id', '=', id).execute();
  await trx
    .deleteFrom('place_releases')
    .where((eb) => eb.or([eb('reader_account_id', '=', id), eb('owner_account_id', '=', id)]))
    .execute();
  await trx.deleteFrom('providers').where('account_id', '=', id).execute();
  // A bank account for transfers (issue 32): payments stay (tax law), the IBAN goes.
  await trx.deleteFrom('bank_accounts').where('account_id', '=', id).execute();
  // The link to a Stripe connected account goes; Stripe keeps the account under its own duties.
  await trx.deleteFrom('payout_accounts').where('account_id', '=', id).execute();
  // An operator's role ends; the audit log keeps what they did (append-only: accountability).
  await trx.deleteFrom('operators').where('account_id', '=', id).execute();
  // Claims stay with the payments they settle; what the erased person wrote in them goes.
  await trx.updateTable('claims').set({ text: ERASED_TEXT, photos: '[]' }).where('owner_account_id', '=', id).execute();
  await trx
    .updateTable('claims')
    .set({ response_text: ERASED_TEXT })
    .where('renter_account_id', '=', id)
    .where('response_text', 'is not', null)
    .execute();
  // Reports it filed stay (the notice is the platform's record, DSA Art. 16), no longer tied to it.
  await trx
    .updateTable('reports')
    .set({ reporter_account_id: null, reporter_email: null, explanation: ERASED_TEXT })
    .where('reporter_account_id', '=', id)
    .execute();
  await trx.updateTable('appeals').set({ text: ERASED_TEXT }).where('account_id', '=', id).execute();
  // Stored answers repeat what was written (names, texts); the erasing request's own stays until replayed.
  let keys = trx.deleteFrom('idempotency_keys').where('account_id', '=', id);
  if (keepIdempotencyKey !== null) keys = keys.where('key', '<>', keepIdempotencyKey);
  await keys.execute();

  return { keys_revoked: keysRevoked, webhooks_deleted: webhooksDeleted, saved_searches_deleted: searchesDeleted };
}
