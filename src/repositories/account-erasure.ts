import { type ExpressionBuilder, sql } from 'kysely';
import type { Queryable } from '../db/queryable.js';
import type { AccountRow, Database } from '../db/schema.js';
import { ERASED_NAME, ERASED_TEXT, ERASED_TITLE, erasedEmail } from '../domain/erasure.js';
import { setBookingStatus } from './bookings.js';
import { transitionOwnJob } from './job-writes.js';
import { setOwnListingStatus } from './listing-writes.js';
import type { WriteTransaction } from './write-transaction.js';

/** The account with this id, erased or not. */
export function findAccount(db: Queryable, id: string): Promise<AccountRow | undefined> {
  return db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
}

/** What an erasure did, counted. */
export interface ErasureCounts {
  jobs_cancelled: number;
  listings_archived: number;
  applications_withdrawn: number;
  bookings_cancelled: number;
  keys_revoked: number;
  messages_erased: number;
  reviews_anonymised: number;
  events_deleted: number;
  webhooks_deleted: number;
  saved_searches_deleted: number;
}

const changed = (result: { numUpdatedRows?: bigint; numDeletedRows?: bigint }) =>
  Number(result.numUpdatedRows ?? result.numDeletedRows ?? 0);

/**
 * Erases the account inside one write transaction (GDPR Art. 17; docs/privacy.md says what stays
 * and why). In this order, so that nothing written afterwards carries a name or text:
 * 1. the outbox's events about its objects, and those only it could see, are deleted (their
 *    payloads are copies of names and texts);
 * 2. names, e-mail, texts and exact places are overwritten;
 * 3. its commitments end the usual way, each with its usual event (which now shows erased texts):
 *    open jobs cancelled, listings archived, pending applications withdrawn, requested bookings
 *    (as renter or owner) cancelled;
 * 4. keys are revoked; webhooks, saved searches, the calendar feed and idempotency records go.
 * Returns null when the account was erased already (nothing is done twice).
 */
export async function eraseAccountRows(
  trx: WriteTransaction,
  account: AccountRow,
  now: Date,
  requestTtlHours: number,
  /** The Idempotency-Key of the erasing request itself: kept, its answer holds nothing personal. */
  keepIdempotencyKey: string | null,
): Promise<ErasureCounts | null> {
  const at = now.toISOString();
  const id = account.id;
  const marked = await trx
    .updateTable('accounts')
    .set({ erased_at: at, name: ERASED_NAME, email: erasedEmail(id), organisation: null })
    .where('id', '=', id)
    .where('erased_at', 'is', null)
    .executeTakeFirst();
  if (changed(marked) === 0) return null;

  const owners = trx.selectFrom('owners').select('id').where('account_id', '=', id);
  const listings = trx.selectFrom('listings').select('id').where('owner_id', 'in', owners);
  const jobs = trx.selectFrom('jobs').select('id').where('owner_account_id', '=', id);

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
  const eventsDeleted = changed(await trx.deleteFrom('events').where(aboutAccount).executeTakeFirst());

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
  await trx.updateTable('listings').set(erasedOffer).where('owner_id', 'in', owners).execute();
  const messagesErased = changed(
    await trx.updateTable('messages').set({ text: ERASED_TEXT }).where('sender_account_id', '=', id).executeTakeFirst(),
  );
  await trx.updateTable('applications').set({ message: null }).where('account_id', '=', id).execute();
  const reviewsAnonymised = changed(
    await trx
      .updateTable('reviews')
      .set({ text: null, author_name: ERASED_NAME })
      .where('author_account_id', '=', id)
      .executeTakeFirst(),
  );
  await trx.updateTable('reviews').set({ reply: null }).where('reviewed_account_id', '=', id).execute();

  // 3. Commitments end as they would by hand, each with its usual event.
  let jobsCancelled = 0;
  const openJobs = await jobs.where('status', 'in', ['open', 'assigned']).execute();
  for (const job of openJobs) {
    const outcome = await transitionOwnJob(trx, job.id, id, 'cancel', now);
    if (outcome?.done) jobsCancelled += 1;
  }
  let listingsArchived = 0;
  const liveListings = await listings.where('status', 'in', ['available', 'paused']).execute();
  for (const listing of liveListings) {
    if (await setOwnListingStatus(trx, listing.id, id, ['available', 'paused'], 'archived', now)) listingsArchived += 1;
  }
  const withdrawn = changed(
    await trx
      .updateTable('applications')
      .set({ status: 'withdrawn', decided_at: at })
      .where('account_id', '=', id)
      .where('status', '=', 'pending')
      .executeTakeFirst(),
  );
  let bookingsCancelled = 0;
  const requested = await trx
    .selectFrom('bookings')
    .select(['id', 'renter_account_id'])
    .where('status', '=', 'requested')
    .where((eb) => eb.or([eb('renter_account_id', '=', id), eb('listing_id', 'in', listings)]))
    .execute();
  for (const booking of requested) {
    const role = booking.renter_account_id === id ? 'renter' : 'owner';
    const done = await setBookingStatus(trx, booking.id, ['requested'], 'cancelled', now, requestTtlHours, {
      cancelled_by: role,
    });
    if (done) bookingsCancelled += 1;
  }

  // 4. Access and what only served the account.
  const keysRevoked = changed(
    await trx
      .updateTable('api_keys')
      .set({ revoked_at: at })
      .where('account_id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst(),
  );
  const webhooks = trx.selectFrom('webhooks').select('id').where('account_id', '=', id);
  await trx.deleteFrom('webhook_deliveries').where('webhook_id', 'in', webhooks).execute();
  const webhooksDeleted = changed(await trx.deleteFrom('webhooks').where('account_id', '=', id).executeTakeFirst());
  const searches = trx.selectFrom('saved_searches').select('id').where('account_id', '=', id);
  await trx.deleteFrom('saved_search_matches').where('saved_search_id', 'in', searches).execute();
  const searchesDeleted = changed(
    await trx.deleteFrom('saved_searches').where('account_id', '=', id).executeTakeFirst(),
  );
  await trx.deleteFrom('saved_search_digests').where('account_id', '=', id).execute();
  await trx.deleteFrom('calendar_feeds').where('account_id', '=', id).execute();
  await trx.deleteFrom('drafts').where('account_id', '=', id).execute();
  await trx.deleteFrom('providers').where('account_id', '=', id).execute();
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

  return {
    jobs_cancelled: jobsCancelled,
    listings_archived: listingsArchived,
    applications_withdrawn: withdrawn,
    bookings_cancelled: bookingsCancelled,
    keys_revoked: keysRevoked,
    messages_erased: messagesErased,
    reviews_anonymised: reviewsAnonymised,
    events_deleted: eventsDeleted,
    webhooks_deleted: webhooksDeleted,
    saved_searches_deleted: searchesDeleted,
  };
}
