import type { Kysely } from 'kysely';
import type { Queryable } from '../db/queryable.js';
import type { Database, NotificationRow, NotificationSettingsRow, PushSubscriptionRow } from '../db/schema.js';
import { newId } from '../domain/ids.js';
import { NOTIFIED_EVENT_TYPES } from '../domain/notifications.js';

const CURSOR = 'notifications_cursor';

/** How long a claimed notification is held against other instances while it is sent. */
const CLAIM_MS = 120_000;

/** An account's notification settings; undefined: none stored (the defaults). */
export function findNotificationSettings(
  db: Queryable,
  accountId: string,
): Promise<NotificationSettingsRow | undefined> {
  return db.selectFrom('notification_settings').selectAll().where('account_id', '=', accountId).executeTakeFirst();
}

/** The stored settings of several accounts, by account. */
export async function notificationSettingsOf(
  db: Queryable,
  accountIds: readonly string[],
): Promise<Map<string, NotificationSettingsRow>> {
  if (accountIds.length === 0) return new Map();
  const rows = await db.selectFrom('notification_settings').selectAll().where('account_id', 'in', accountIds).execute();
  return new Map(rows.map((row) => [row.account_id, row]));
}

/** Stores an account's settings (its unsubscribe key stays once made). */
export async function saveNotificationSettings(db: Queryable, row: NotificationSettingsRow): Promise<void> {
  const { account_id, unsubscribe_key, ...changed } = row;
  await db
    .insertInto('notification_settings')
    .values(row)
    .onConflict((oc) => oc.column('account_id').doUpdateSet(changed))
    .execute();
}

/** An event the planner reads: its id, type, subject, audience and payload. */
export interface NotifiedEvent {
  id: number;
  type: string;
  subject_id: string;
  audience: string | null;
  payload: string;
  created_at: string;
}

/**
 * Takes the next events to plan notifications for, once across instances: reads up to `limit`
 * private events of the notified types after the shared cursor and moves the cursor past them
 * with a conditional write in the caller's transaction (an instance that lost the race reads
 * nothing; a transaction that fails gives the events back).
 */
export async function takeEventBatch(trx: Queryable, limit: number, startFrom: string): Promise<NotifiedEvent[]> {
  let cursor = await trx.selectFrom('meta').select('value').where('key', '=', CURSOR).executeTakeFirst();
  if (!cursor) {
    // The first round ever: from the newest event older than `startFrom` on (an upgrade tells the
    // last day, not the whole history). Of two instances starting at once, the first row stays.
    const before = await trx
      .selectFrom('events')
      .select((eb) => eb.fn.max('id').as('id'))
      .where('created_at', '<', startFrom)
      .executeTakeFirst();
    await trx
      .insertInto('meta')
      .values({ key: CURSOR, value: String(before?.id ?? 0) })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
    cursor = await trx.selectFrom('meta').select('value').where('key', '=', CURSOR).executeTakeFirst();
    if (!cursor) return [];
  }
  const events = await trx
    .selectFrom('events')
    .select(['id', 'type', 'subject_id', 'audience', 'payload', 'created_at'])
    .where('id', '>', Number(cursor.value))
    .where('type', 'in', NOTIFIED_EVENT_TYPES)
    .where('audience', 'is not', null)
    .orderBy('id')
    .limit(limit)
    .execute();
  const last = events.at(-1);
  if (!last) return [];
  const moved = await trx
    .updateTable('meta')
    .set({ value: String(last.id) })
    .where('key', '=', CURSOR)
    .where('value', '=', cursor.value)
    .executeTakeFirst();
  return Number(moved.numUpdatedRows) > 0 ? events.map((event) => ({ ...event, id: Number(event.id) })) : [];
}

/**
 * Whether an event the planner reads may be waiting after the cursor (or no cursor is made yet):
 * one read outside any transaction, so an idle instance takes no write lock every round.
 */
export async function eventsMayWait(db: Queryable): Promise<boolean> {
  const cursor = await db.selectFrom('meta').select('value').where('key', '=', CURSOR).executeTakeFirst();
  if (!cursor) return true;
  const next = await db
    .selectFrom('events')
    .select('id')
    .where('id', '>', Number(cursor.value))
    .where('type', 'in', NOTIFIED_EVENT_TYPES)
    .limit(1)
    .executeTakeFirst();
  return next !== undefined;
}

/** The two sides of an application: the job's owner and the helper's account. */
export function applicationParties(db: Queryable, applicationId: string) {
  return db
    .selectFrom('applications')
    .innerJoin('jobs', 'jobs.id', 'applications.job_id')
    .select(['jobs.owner_account_id as owner', 'applications.account_id as helper', 'jobs.title as title'])
    .where('applications.id', '=', applicationId)
    .executeTakeFirst();
}

/** Bookings with their listing and its owner: where a booking's two sides are read from. */
const bookingsWithOwners = (db: Queryable) =>
  db
    .selectFrom('bookings')
    .innerJoin('listings', 'listings.id', 'bookings.listing_id')
    .innerJoin('owners', 'owners.id', 'listings.owner_id');

/** The two sides of a booking: the listing owner's account and the renter, and who cancelled it. */
export function bookingParties(db: Queryable, bookingId: string) {
  return bookingsWithOwners(db)
    .select([
      'owners.account_id as owner',
      'bookings.renter_account_id as renter',
      'bookings.cancelled_by as cancelled_by',
      'listings.title as title',
    ])
    .where('bookings.id', '=', bookingId)
    .executeTakeFirst();
}

export type NewNotification = Omit<
  NotificationRow,
  'id' | 'attempts' | 'claimed_until' | 'sent_at' | 'last_error' | 'status'
>;

/** Records notifications to send; one already made from the same source for the account and channel stays as it is. */
export async function insertNotifications(trx: Queryable, rows: readonly NewNotification[]): Promise<number> {
  let inserted = 0;
  for (const row of rows) {
    const result = await trx
      .insertInto('notifications')
      .values({ ...row, id: newId('ntf'), status: 'pending', claimed_until: null, sent_at: null, last_error: null })
      .onConflict((oc) => oc.columns(['account_id', 'channel', 'source']).doNothing())
      .executeTakeFirst();
    inserted += Number(result.numInsertedOrUpdatedRows ?? 0);
  }
  return inserted;
}

/**
 * Claims the next due notification for this instance: pending, due, not held by another
 * instance's claim (or its claim ran out: that instance died), with a conditional write; of a
 * few candidates the first this instance wins. Undefined: nothing is due, or others hold it all.
 */
export async function claimNextDue(db: Kysely<Database>, now: Date): Promise<NotificationRow | undefined> {
  const at = now.toISOString();
  const candidates = await db
    .selectFrom('notifications')
    .select('id')
    .where('status', '=', 'pending')
    .where('due_at', '<=', at)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', at)]))
    .orderBy('due_at')
    .orderBy('id')
    .limit(5)
    .execute();
  const until = new Date(now.getTime() + CLAIM_MS).toISOString();
  for (const { id } of candidates) {
    const row = await db
      .updateTable('notifications')
      .set({ claimed_until: until })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', at)]))
      .returningAll()
      .executeTakeFirst();
    if (row) return row;
  }
  return undefined;
}

/**
 * What is sent with a claimed notification as one: the other pending ones of the account on the
 * channel with the same fold key (the messages of a conversation), or for a digest every pending
 * digest one that is due. Claimed too, so no other instance sends them meanwhile.
 */
export async function claimFolded(db: Kysely<Database>, first: NotificationRow, now: Date): Promise<NotificationRow[]> {
  const at = now.toISOString();
  let query = db
    .updateTable('notifications')
    .set({ claimed_until: new Date(now.getTime() + CLAIM_MS).toISOString() })
    .where('account_id', '=', first.account_id)
    .where('channel', '=', first.channel)
    .where('status', '=', 'pending')
    .where('id', '!=', first.id)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', at)]));
  if (first.channel === 'digest') query = query.where('due_at', '<=', at);
  else if (first.fold_key !== null) query = query.where('fold_key', '=', first.fold_key);
  else return [];
  const rows = await query.returningAll().execute();
  return rows.sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
}

/** The e-mail went: the first is sent, the ones sent with it folded into it. */
export async function markSent(db: Queryable, first: string, folded: readonly string[], now: Date): Promise<void> {
  const at = now.toISOString();
  await db
    .updateTable('notifications')
    .set({ status: 'sent', sent_at: at, claimed_until: null })
    .where('id', '=', first)
    .execute();
  if (folded.length > 0) {
    await db
      .updateTable('notifications')
      .set({ status: 'folded', sent_at: at, claimed_until: null })
      .where('id', 'in', folded)
      .execute();
  }
}

/** Nothing was sent: the claims end and each is due again at `dueAt` (or failed for good). */
export async function markUnsent(
  db: Queryable,
  ids: readonly string[],
  outcome: { status: 'pending' | 'failed' | 'dropped'; dueAt: string; error: string | null },
): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('notifications')
    .set((eb) => ({
      status: outcome.status,
      due_at: outcome.dueAt,
      last_error: outcome.error,
      claimed_until: null,
      attempts: eb('attempts', '+', outcome.error === null ? 0 : 1),
    }))
    .where('id', 'in', ids)
    .execute();
}

/** Drops the pending notifications of one kind of an account (it unsubscribed from it); how many. */
export async function dropPending(
  db: Queryable,
  accountId: string,
  kind: string,
  channel: NotificationRow['channel'],
): Promise<number> {
  const result = await db
    .updateTable('notifications')
    .set({ status: 'dropped', claimed_until: null })
    .where('account_id', '=', accountId)
    .where('kind', '=', kind)
    .where('channel', '=', channel)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** An account's address and whether it may be written to (not erased, not suspended). */
export function recipientOf(db: Queryable, accountId: string) {
  return db
    .selectFrom('accounts')
    .select(['id', 'email', 'erased_at', 'suspended_at'])
    .where('id', '=', accountId)
    .executeTakeFirst();
}

/** The title of what a conversation is about (the job's or the listing's); '' when it is gone. */
export async function conversationTitle(db: Queryable, conversationId: string): Promise<string> {
  const conversation = await db
    .selectFrom('conversations')
    .select(['about_type', 'about_id'])
    .where('id', '=', conversationId)
    .executeTakeFirst();
  if (!conversation) return '';
  const { about_type: type, about_id: id } = conversation;
  const row =
    type === 'job'
      ? await db.selectFrom('jobs').select('title').where('id', '=', id).executeTakeFirst()
      : type === 'listing'
        ? await db.selectFrom('listings').select('title').where('id', '=', id).executeTakeFirst()
        : type === 'application'
          ? await db
              .selectFrom('applications')
              .innerJoin('jobs', 'jobs.id', 'applications.job_id')
              .select('jobs.title')
              .where('applications.id', '=', id)
              .executeTakeFirst()
          : await db
              .selectFrom('bookings')
              .innerJoin('listings', 'listings.id', 'bookings.listing_id')
              .select('listings.title')
              .where('bookings.id', '=', id)
              .executeTakeFirst();
  return row?.title ?? '';
}

/**
 * The bookings a reminder is due for on the local date `today`: confirmed ones picked up
 * tomorrow, active ones due back tomorrow, active ones whose return day has passed. With their
 * renter and the listing owner's account.
 */
export function bookingsToRemind(db: Queryable, today: string, tomorrow: string) {
  return bookingsWithOwners(db)
    .select([
      'bookings.id',
      'bookings.status',
      'bookings.start_date',
      'bookings.end_date',
      'bookings.start_at',
      'bookings.end_at',
      'bookings.renter_account_id as renter',
      'owners.account_id as owner',
    ])
    .where((eb) =>
      eb.or([
        eb.and([eb('bookings.status', '=', 'confirmed'), eb('bookings.start_date', '=', tomorrow)]),
        eb.and([eb('bookings.status', '=', 'active'), eb('bookings.end_date', '<=', tomorrow)]),
      ]),
    )
    .where('bookings.end_date', '>=', addDaysText(today, -7))
    .execute();
}

/** When an extension was asked for and decided: decided as it was asked, instant booking accepted it. */
export function extensionTimes(db: Queryable, extensionId: string) {
  return db
    .selectFrom('booking_extensions')
    .select(['created_at', 'decided_at'])
    .where('id', '=', extensionId)
    .executeTakeFirst();
}

/**
 * The excusal a job_series.helper_excused event tells of (the newest of the standing helper's on
 * that series up to the event), with the series owner's and the helper's accounts.
 */
export function excusalOf(db: Queryable, seriesApplicationId: string, upTo: string) {
  return db
    .selectFrom('series_applications')
    .innerJoin('job_series', 'job_series.id', 'series_applications.series_id')
    .innerJoin('job_series_excusals', (join) =>
      join
        .onRef('job_series_excusals.series_id', '=', 'series_applications.series_id')
        .onRef('job_series_excusals.helper_id', '=', 'series_applications.helper_id'),
    )
    .select([
      'job_series.owner_account_id as owner',
      'series_applications.account_id as helper',
      'series_applications.series_id',
      'job_series_excusals.occurrence_date',
      'job_series_excusals.excused_by',
    ])
    .where('series_applications.id', '=', seriesApplicationId)
    .where('job_series_excusals.created_at', '<=', upTo)
    .orderBy('job_series_excusals.created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** The title of what a payment is for: its job's, or its booking's listing's. */
export async function paymentTitle(db: Queryable, paymentId: string): Promise<string> {
  const row = await db
    .selectFrom('payments')
    .leftJoin('jobs', 'jobs.id', 'payments.job_id')
    .leftJoin('bookings', 'bookings.id', 'payments.booking_id')
    .leftJoin('listings', 'listings.id', 'bookings.listing_id')
    .select(['jobs.title as job_title', 'listings.title as listing_title'])
    .where('payments.id', '=', paymentId)
    .executeTakeFirst();
  return row?.job_title ?? row?.listing_title ?? '';
}

/** The title of the listing a damage claim is about. */
export async function claimTitle(db: Queryable, claimId: string): Promise<string> {
  const row = await db
    .selectFrom('claims')
    .innerJoin('bookings', 'bookings.id', 'claims.booking_id')
    .innerJoin('listings', 'listings.id', 'bookings.listing_id')
    .select('listings.title')
    .where('claims.id', '=', claimId)
    .executeTakeFirst();
  return row?.title ?? '';
}

/** Returned bookings whose return (the start of their review window) lies in (after, upTo]; with both parties. */
export function returnedBookingsBetween(db: Queryable, after: string, upTo: string) {
  return bookingsWithOwners(db)
    .select([
      'bookings.id',
      'bookings.updated_at as since',
      'bookings.renter_account_id as renter',
      'owners.account_id as owner',
    ])
    .where('bookings.status', '=', 'returned')
    .where('bookings.updated_at', '>', after)
    .where('bookings.updated_at', '<=', upTo)
    .execute();
}

/** Accepted applications of completed jobs whose completion became final in (after, upTo]; with both parties. */
export function finalApplicationsBetween(db: Queryable, after: string, upTo: string) {
  return db
    .selectFrom('applications')
    .innerJoin('jobs', 'jobs.id', 'applications.job_id')
    .select([
      'applications.id',
      'applications.job_id',
      'applications.completion_final_at as since',
      'applications.account_id as helper',
      'jobs.owner_account_id as owner',
    ])
    .where('applications.status', '=', 'accepted')
    .where('applications.withdrawn_at', 'is', null)
    .where('jobs.status', '=', 'completed')
    .where('applications.completion_final_at', '>', after)
    .where('applications.completion_final_at', '<=', upTo)
    .execute();
}

/** The accounts that reviewed each of these applications or bookings, as `about_id account_id`. */
export async function reviewAuthorsOf(db: Queryable, aboutIds: readonly string[]): Promise<Set<string>> {
  if (aboutIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('reviews')
    .select(['about_id', 'author_account_id'])
    .where('about_id', 'in', aboutIds)
    .execute();
  return new Set(rows.map((row) => `${row.about_id} ${row.author_account_id}`));
}

/** A date (YYYY-MM-DD) days later or earlier. */
const addDaysText = (date: string, days: number) =>
  new Date(Date.parse(`${date}T12:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** Of these accounts, those with at least one push subscription. */
export async function accountsWithPush(db: Queryable, accountIds: readonly string[]): Promise<Set<string>> {
  if (accountIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('push_subscriptions')
    .select('account_id')
    .distinct()
    .where('account_id', 'in', accountIds)
    .execute();
  return new Set(rows.map((row) => row.account_id));
}

/** An account's push subscriptions, oldest first. */
export function pushSubscriptionsOf(db: Queryable, accountId: string): Promise<PushSubscriptionRow[]> {
  return db
    .selectFrom('push_subscriptions')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/**
 * Stores a browser's subscription for the account; the same endpoint subscribed again (the same
 * browser, maybe now signed in as someone else) is that row, with the new keys and account.
 */
export async function savePushSubscription(
  db: Queryable,
  row: Pick<PushSubscriptionRow, 'account_id' | 'endpoint' | 'p256dh' | 'auth'>,
  now: Date,
): Promise<PushSubscriptionRow> {
  const at = now.toISOString();
  return db
    .insertInto('push_subscriptions')
    .values({ ...row, id: newId('psub'), created_at: at, last_sent_at: null, last_error: null })
    .onConflict((oc) =>
      oc.column('endpoint').doUpdateSet({
        account_id: row.account_id,
        p256dh: row.p256dh,
        auth: row.auth,
        created_at: at,
        last_error: null,
      }),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Deletes one of the account's subscriptions; whether there was one. */
export async function deletePushSubscription(db: Queryable, accountId: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('push_subscriptions')
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** A push went, or failed (410/404: the subscription is gone, so is the row). */
export async function recordPushOutcome(
  db: Queryable,
  id: string,
  outcome: { gone: boolean; error: string | null },
  now: Date,
): Promise<void> {
  if (outcome.gone) {
    await db.deleteFrom('push_subscriptions').where('id', '=', id).execute();
    return;
  }
  await db
    .updateTable('push_subscriptions')
    .set(outcome.error === null ? { last_sent_at: now.toISOString(), last_error: null } : { last_error: outcome.error })
    .where('id', '=', id)
    .execute();
}

const VAPID_KEYS = 'vapid_keys';

/** The VAPID keys made on first need, or undefined. */
export async function storedVapidKeys(db: Queryable): Promise<{ publicKey: string; privateKey: string } | undefined> {
  const row = await db.selectFrom('meta').select('value').where('key', '=', VAPID_KEYS).executeTakeFirst();
  return row ? (JSON.parse(row.value) as { publicKey: string; privateKey: string }) : undefined;
}

/** Stores VAPID keys unless some are stored already (two instances at once: the first wins); the stored ones. */
export async function storeVapidKeys(
  db: Queryable,
  keys: { publicKey: string; privateKey: string },
): Promise<{ publicKey: string; privateKey: string }> {
  await db
    .insertInto('meta')
    .values({ key: VAPID_KEYS, value: JSON.stringify(keys) })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  return (await storedVapidKeys(db)) ?? keys;
}
