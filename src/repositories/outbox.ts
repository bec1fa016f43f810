import { sql } from 'kysely';
import { dialectOf } from '../db/queryable.js';
import type { EventType } from '../db/schema.js';
import { passes } from '../domain/events.js';
import { newId } from '../domain/ids.js';
import type { WriteTransaction } from './write-transaction.js';

/** An arbitrary constant naming the PostgreSQL advisory lock that orders event ids by commit. */
const EVENT_ORDER_LOCK = 0x6b6d_7008;

export interface NewEvent {
  type: EventType;
  subjectId: string;
  place: { category: string; lat: number; lng: number } | null;
  /** null: public; else the accounts the event concerns (null entries are dropped). */
  audience: readonly (string | null)[] | null;
  data: unknown;
}

/**
 * Adds an event to the outbox inside the write's own transaction, with a pending delivery for each
 * webhook it matches: the event and its deliveries commit with the write or not at all.
 *
 * Readers page through events by id ("after the last one I saw"), so ids must become visible in
 * order. SQLite has one writer at a time; on PostgreSQL a transaction-scoped advisory lock, taken
 * before the id is drawn and held to commit, makes the writers of events draw and commit one after
 * another, so no smaller id can appear after a reader has passed it.
 */
export async function recordEvent(trx: WriteTransaction, event: NewEvent, now: Date): Promise<void> {
  await takeEventOrderLock(trx);
  const audience = event.audience && [...new Set(event.audience.filter((id): id is string => id !== null))];
  const at = now.toISOString();
  const row = {
    type: event.type,
    subject_id: event.subjectId,
    category: event.place?.category ?? null,
    lat: event.place?.lat ?? null,
    lng: event.place?.lng ?? null,
    audience: audience && JSON.stringify(audience),
    payload: JSON.stringify(event.data),
    created_at: at,
  };
  const { id } = await trx.insertInto('events').values(row).returning('id').executeTakeFirstOrThrow();
  if (audience && audience.length === 0) return;
  const matching = await matchingHooks(trx, event.type, row, audience);
  if (matching.length === 0) return;
  await trx
    .insertInto('webhook_deliveries')
    .values(matching.map((hook) => pendingDelivery(hook.id, Number(id), at)))
    .execute();
}

/** See recordEvent: on PostgreSQL, event ids are drawn and committed one writer after another. */
async function takeEventOrderLock(trx: WriteTransaction): Promise<void> {
  if (dialectOf(trx) === 'postgres') await sql`select pg_advisory_xact_lock(${sql.lit(EVENT_ORDER_LOCK)})`.execute(trx);
}

/** Rows per statement: well under the bound-parameter limits of both engines. */
const EVENT_BATCH = 500;

/**
 * The webhooks an event of this type about this place goes to: subscribed to the type, of the
 * audience's accounts when it is private (null: public), with filters the place passes.
 */
async function matchingHooks(
  trx: WriteTransaction,
  type: EventType,
  place: { category: string | null; lat: number | null; lng: number | null },
  accounts: readonly string[] | null,
): Promise<{ id: string; account_id: string }[]> {
  const read = (ids: readonly string[] | null) => {
    let hooks = trx
      .selectFrom('webhooks')
      .select(['id', 'account_id', 'filter_category', 'filter_lat', 'filter_lng', 'filter_radius_km'])
      .where('events', 'like', `%,${type},%`);
    if (ids) hooks = hooks.where('account_id', 'in', ids);
    const { category } = place;
    if (category !== null) {
      hooks = hooks.where((eb) => eb.or([eb('filter_category', 'is', null), eb('filter_category', '=', category)]));
    }
    return hooks.execute();
  };
  const found = [];
  if (accounts === null) found.push(...(await read(null)));
  else
    for (let i = 0; i < accounts.length; i += EVENT_BATCH)
      found.push(...(await read(accounts.slice(i, i + EVENT_BATCH))));
  return found.filter((hook) =>
    passes(
      { category: hook.filter_category, lat: hook.filter_lat, lng: hook.filter_lng, radius: hook.filter_radius_km },
      place,
    ),
  );
}

/** A private event about no place, for one account; its subject id is unique among the events recorded with it. */
export interface AccountEvent {
  subjectId: string;
  accountId: string;
  data: unknown;
}

/**
 * recordEvent for many private events of one type at once (one write can match many saved
 * searches): the same rows, deliveries and ordering lock, in a few statements instead of a few per
 * event.
 */
export async function recordAccountEvents(
  trx: WriteTransaction,
  type: EventType,
  events: readonly AccountEvent[],
  now: Date,
): Promise<void> {
  if (events.length === 0) return;
  await takeEventOrderLock(trx);
  const at = now.toISOString();
  const inserted: { id: number; subject_id: string }[] = [];
  for (let i = 0; i < events.length; i += EVENT_BATCH) {
    const rows = events.slice(i, i + EVENT_BATCH).map((event) => ({
      type,
      subject_id: event.subjectId,
      category: null,
      lat: null,
      lng: null,
      audience: JSON.stringify([event.accountId]),
      payload: JSON.stringify(event.data),
      created_at: at,
    }));
    inserted.push(...(await trx.insertInto('events').values(rows).returning(['id', 'subject_id']).execute()));
  }
  const accountOf = new Map(events.map((event) => [event.subjectId, event.accountId]));
  const place = { category: null, lat: null, lng: null };
  const hooks = await matchingHooks(trx, type, place, [...new Set(accountOf.values())]);
  const hooksOf = new Map<string, typeof hooks>();
  for (const hook of hooks) hooksOf.set(hook.account_id, [...(hooksOf.get(hook.account_id) ?? []), hook]);
  const deliveries = inserted.flatMap((event) =>
    (hooksOf.get(accountOf.get(event.subject_id) ?? '') ?? []).map((hook) =>
      pendingDelivery(hook.id, Number(event.id), at),
    ),
  );
  for (let i = 0; i < deliveries.length; i += EVENT_BATCH) {
    await trx
      .insertInto('webhook_deliveries')
      .values(deliveries.slice(i, i + EVENT_BATCH))
      .execute();
  }
}

/** A delivery of an event to a webhook, due at once. */
export function pendingDelivery(webhookId: string, eventId: number, at: string, redeliveryOf: string | null = null) {
  return {
    id: newId('whd'),
    webhook_id: webhookId,
    event_id: eventId,
    status: 'pending' as const,
    attempts: 0,
    next_attempt_at: at,
    locked_until: null,
    last_attempt_at: null,
    response_status: null,
    last_error: null,
    delivered_at: null,
    redelivery_of: redeliveryOf,
    created_at: at,
  };
}

/** A public subject: a job or a listing as the API shows it. */
interface Placed {
  category: string;
  location: { lat: number; lng: number };
}

/**
 * The event of a public subject's change, with the subject as the API shows it now (read by the
 * caller inside the write's transaction); returns that subject, which the write answers (no second
 * read).
 */
export async function recordPublicEvent<T extends Placed>(
  trx: WriteTransaction,
  type: EventType,
  id: string,
  subject: T | undefined,
  now: Date,
): Promise<T> {
  if (!subject) throw new Error(`${id} is gone inside the transaction that changed it`);
  const place = { category: subject.category, lat: subject.location.lat, lng: subject.location.lng };
  await recordEvent(trx, { type, subjectId: id, place, audience: null, data: subject }, now);
  return subject;
}
