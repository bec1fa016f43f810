/** What the operators' console counts (issue 33): each queue's waiting items and its oldest one. */
import { sql } from 'kysely';
import type { Queryable } from '../db/queryable.js';

export interface QueueFigure {
  waiting: number;
  /** When the oldest waiting item came in; null when none waits. */
  oldest: string | null;
}

async function figure(
  db: Queryable,
  table: 'key_requests' | 'verifications' | 'reports' | 'appeals' | 'claims',
  statuses: readonly string[],
): Promise<QueueFigure> {
  const row = await db
    .selectFrom(table)
    .select((eb) => [eb.fn.countAll<number>().as('waiting'), eb.fn.min<string>('created_at').as('oldest')])
    // biome-ignore lint/suspicious/noExplicitAny: each table's own status type; the lists below are theirs.
    .where('status', 'in', statuses as any)
    .executeTakeFirstOrThrow();
  return { waiting: Number(row.waiting), oldest: row.oldest ?? null };
}

export const keyRequestQueue = (db: Queryable) => figure(db, 'key_requests', ['pending']);
export const verificationQueue = (db: Queryable) => figure(db, 'verifications', ['pending']);
export const reportQueue = (db: Queryable) => figure(db, 'reports', ['received']);
export const appealQueue = (db: Queryable) => figure(db, 'appeals', ['pending']);
export const claimQueue = (db: Queryable) => figure(db, 'claims', ['disputed']);

/** `%` and `_` typed by the operator match themselves, not any text. */
const likeText = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Accounts whose id is `text`, or whose e-mail or name contains it (case-insensitive); at most `limit`, newest first. */
export function searchAccounts(db: Queryable, text: string, limit: number) {
  const like = likeText(text);
  return db
    .selectFrom('accounts')
    .select(['id', 'name', 'email', 'account_type', 'created_at', 'suspended_at', 'erased_at'])
    .where((eb) =>
      eb.or([
        eb('id', '=', text),
        eb(sql`lower(email)`, 'like', sql`${like} escape '\\'`),
        eb(sql`lower(name)`, 'like', sql`${like} escape '\\'`),
      ]),
    )
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
}

/** How many objects of each kind an account has, for its console page. */
export async function accountObjects(db: Queryable, accountId: string) {
  const count = async (query: Promise<{ n: number | string | bigint } | undefined>) => Number((await query)?.n ?? 0);
  const [jobs, listings, helpers, bookings] = await Promise.all([
    count(
      db
        .selectFrom('jobs')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('owner_account_id', '=', accountId)
        .executeTakeFirst(),
    ),
    count(
      db
        .selectFrom('listings')
        .innerJoin('owners', 'owners.id', 'listings.owner_id')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('owners.account_id', '=', accountId)
        .executeTakeFirst(),
    ),
    db.selectFrom('helpers').select(['id', 'display_name', 'removed_at']).where('account_id', '=', accountId).execute(),
    count(
      db
        .selectFrom('bookings')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('renter_account_id', '=', accountId)
        .executeTakeFirst(),
    ),
  ]);
  return { jobs, listings, helpers, bookings };
}

/** The account's API keys as the console shows them (never a hash). */
export function keysOfAccount(db: Queryable, accountId: string) {
  return db
    .selectFrom('api_keys')
    .select(['id', 'last4', 'created_at', 'expires_at', 'revoked_at'])
    .where('account_id', '=', accountId)
    .orderBy('created_at', 'desc')
    .execute();
}

/** Every verification request of a helper, newest first. */
export function verificationsOfHelper(db: Queryable, helperId: string) {
  return db
    .selectFrom('verifications')
    .selectAll()
    .where('helper_id', '=', helperId)
    .orderBy('created_at', 'desc')
    .execute();
}

/** The pending appeals with the decision they contest, oldest first. */
export function pendingAppealRows(db: Queryable) {
  return db
    .selectFrom('appeals')
    .innerJoin('moderation_decisions as d', 'd.id', 'appeals.decision_id')
    .select([
      'appeals.id',
      'appeals.decision_id',
      'appeals.account_id',
      'appeals.created_at',
      'd.action',
      'd.about_type',
      'd.about_id',
    ])
    .where('appeals.status', '=', 'pending')
    .orderBy('appeals.created_at')
    .execute();
}

/** The payments of a booking (rent, deposit, fees, refunds), oldest first. */
export function paymentsOfBooking(db: Queryable, bookingId: string) {
  return db
    .selectFrom('payments')
    .select(['id', 'kind', 'status', 'amount_cents', 'kept_cents', 'created_at', 'paid_at', 'released_at'])
    .where('booking_id', '=', bookingId)
    .orderBy('created_at')
    .execute();
}

/** A booking as the console shows it beside a claim. */
export function bookingOfClaim(db: Queryable, bookingId: string) {
  return db
    .selectFrom('bookings')
    .innerJoin('listings', 'listings.id', 'bookings.listing_id')
    .select([
      'bookings.id',
      'bookings.listing_id',
      'listings.title',
      'bookings.start_date',
      'bookings.end_date',
      'bookings.status',
      'bookings.created_at',
      'bookings.decided_at',
      'bookings.returned_at',
      'bookings.cancelled_by',
      'bookings.price_cents',
      'bookings.deposit_cents',
    ])
    .where('bookings.id', '=', bookingId)
    .executeTakeFirst();
}

/** The messages of the conversation a message belongs to, oldest first (a private read: the caller records it). */
export async function conversationOfMessage(db: Queryable, messageId: string) {
  const message = await db
    .selectFrom('messages')
    .select(['conversation_id', 'seq'])
    .where('id', '=', messageId)
    .executeTakeFirst();
  if (!message) return [];
  // The reported message with up to 100 before and after it.
  return db
    .selectFrom('messages')
    .select(['id', 'sender_account_id', 'text', 'created_at', 'removed_at'])
    .where('conversation_id', '=', message.conversation_id)
    .where('seq', '>=', Number(message.seq) - 100)
    .where('seq', '<=', Number(message.seq) + 100)
    .orderBy('seq')
    .execute();
}

/** The account's suspension decisions not reversed, newest first. */
export function activeSuspensions(db: Queryable, accountId: string) {
  return db
    .selectFrom('moderation_decisions')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('action', '=', 'suspend_account')
    .where('reversed_at', 'is', null)
    .orderBy('created_at', 'desc')
    .execute();
}

/** Marks an account not suspended (an operator restored it); false when it was not suspended. */
export async function liftSuspension(trx: Queryable, accountId: string): Promise<boolean> {
  const lifted = await trx
    .updateTable('accounts')
    .set({ suspended_at: null })
    .where('id', '=', accountId)
    .where('suspended_at', 'is not', null)
    .executeTakeFirst();
  return Number(lifted.numUpdatedRows) > 0;
}

/** Marks an account suspended unless it is erased or suspended already (then false). */
export async function markSuspended(trx: Queryable, accountId: string, now: Date): Promise<boolean> {
  const marked = await trx
    .updateTable('accounts')
    .set({ suspended_at: now.toISOString() })
    .where('id', '=', accountId)
    .where('suspended_at', 'is', null)
    .where('erased_at', 'is', null)
    .executeTakeFirst();
  return Number(marked.numUpdatedRows) > 0;
}

/** Whether one of the decisions has a pending appeal. */
export async function pendingAppealOn(db: Queryable, decisionIds: readonly string[]): Promise<boolean> {
  if (decisionIds.length === 0) return false;
  const row = await db
    .selectFrom('appeals')
    .select('id')
    .where('decision_id', 'in', decisionIds)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * The messages between a booking's two parties about its listing or the booking itself, oldest
 * first (a private read: the caller records it).
 */
export async function conversationOfParties(
  db: Queryable,
  subjects: { type: 'listing' | 'booking'; id: string }[],
  a: string,
  b: string,
) {
  const [low, high] = a < b ? [a, b] : [b, a];
  return db
    .selectFrom('messages')
    .innerJoin('conversations as c', 'c.id', 'messages.conversation_id')
    .select([
      'messages.id',
      'messages.sender_account_id',
      'messages.text',
      'messages.created_at',
      'messages.removed_at',
    ])
    .where('c.account_low', '=', low)
    .where('c.account_high', '=', high)
    .where((eb) => eb.or(subjects.map((s) => eb.and([eb('c.about_type', '=', s.type), eb('c.about_id', '=', s.id)]))))
    .orderBy('messages.created_at')
    .orderBy('messages.seq')
    .limit(200)
    .execute();
}

/** The reports about an account's items, newest first. */
export function reportsAboutAccount(db: Queryable, accountId: string, limit: number) {
  return db
    .selectFrom('reports')
    .select(['id', 'about_type', 'about_id', 'reason', 'status', 'created_at'])
    .where('about_account_id', '=', accountId)
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
}
