import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { dialectOf, type Queryable } from '../db/queryable.js';
import type { DeliveryRow, EventRow, EventType, WebhookRow } from '../db/schema.js';
import { eventIdOf } from '../domain/events.js';
import { newId } from '../domain/ids.js';
import type { Delivery, Webhook } from '../schemas/webhooks.js';
import { pendingDelivery } from './outbox.js';
import type { WriteTransaction } from './write-transaction.js';

export interface WebhookInput {
  url: string;
  events: readonly EventType[];
  category: string | null;
  lat: number | null;
  lng: number | null;
  radiusKm: number | null;
}

/** A new signing secret: whsec_ and 32 random bytes, base64url. */
function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/**
 * Adds a webhook of the account unless it has `max` already (counted in the same transaction; on
 * PostgreSQL under an advisory lock per account, so two at once cannot both take the last place).
 */
export async function createWebhook(
  trx: WriteTransaction,
  accountId: string,
  input: WebhookInput,
  max: number,
  now: Date,
): Promise<WebhookRow | { limit: number }> {
  if (dialectOf(trx) === 'postgres') {
    await sql`select pg_advisory_xact_lock(hashtext(${`webhooks:${accountId}`}))`.execute(trx);
  }
  const { n } = await trx
    .selectFrom('webhooks')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  if (Number(n) >= max) return { limit: max };
  const row: WebhookRow = {
    id: newId('wh'),
    account_id: accountId,
    url: input.url,
    events: `,${input.events.join(',')},`,
    filter_category: input.category,
    filter_lat: input.lat,
    filter_lng: input.lng,
    filter_radius_km: input.radiusKm,
    secret: newSecret(),
    created_at: now.toISOString(),
  };
  await trx.insertInto('webhooks').values(row).execute();
  return row;
}

/** The account's webhooks, oldest first. */
export function listWebhooks(db: Queryable, accountId: string): Promise<WebhookRow[]> {
  return db
    .selectFrom('webhooks')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** The webhook if the account owns it. */
export function ownWebhook(db: Queryable, id: string, accountId: string): Promise<WebhookRow | undefined> {
  return db
    .selectFrom('webhooks')
    .selectAll()
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
}

/** Deletes an own webhook with its deliveries (nothing more is sent); false when it is not the account's. */
export async function deleteOwnWebhook(trx: WriteTransaction, id: string, accountId: string): Promise<boolean> {
  const hook = await ownWebhook(trx, id, accountId);
  if (!hook) return false;
  await trx.deleteFrom('webhook_deliveries').where('webhook_id', '=', id).execute();
  await trx.deleteFrom('webhooks').where('id', '=', id).execute();
  return true;
}

export type DeliveryWithEvent = DeliveryRow & Pick<EventRow, 'type'>;

/** A page of a webhook's deliveries, newest first, optionally of one status. */
export async function listDeliveries(
  db: Queryable,
  webhookId: string,
  status: DeliveryRow['status'] | undefined,
  limit: number,
  offset: number,
): Promise<{ rows: DeliveryWithEvent[]; total: number }> {
  let base = db.selectFrom('webhook_deliveries').where('webhook_id', '=', webhookId);
  if (status) base = base.where('status', '=', status);
  const [rows, count] = await Promise.all([
    base
      .innerJoin('events', 'events.id', 'webhook_deliveries.event_id')
      .selectAll('webhook_deliveries')
      .select('events.type')
      .orderBy('webhook_deliveries.created_at', 'desc')
      .orderBy('webhook_deliveries.id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/**
 * Sends a delivery's event again: a new delivery, due at once, with attempts of its own (the
 * receiver sees the same event id and body, signed anew). Undefined when the webhook has no such delivery.
 */
export async function redeliver(
  trx: WriteTransaction,
  webhookId: string,
  deliveryId: string,
  now: Date,
): Promise<DeliveryWithEvent | undefined> {
  const original = await trx
    .selectFrom('webhook_deliveries')
    .innerJoin('events', 'events.id', 'webhook_deliveries.event_id')
    .select(['webhook_deliveries.event_id', 'events.type'])
    .where('webhook_deliveries.id', '=', deliveryId)
    .where('webhook_deliveries.webhook_id', '=', webhookId)
    .executeTakeFirst();
  if (!original) return undefined;
  const row = pendingDelivery(webhookId, Number(original.event_id), now.toISOString(), deliveryId);
  await trx.insertInto('webhook_deliveries').values(row).execute();
  return { ...row, type: original.type };
}

export interface AttemptResult {
  /** The HTTP status the receiver answered, or null when there was no answer. */
  status: number | null;
  error: string | null;
}

/** What comes after an attempt: delivered, tried again at a moment, or failed for good. */
export type NextStep = 'delivered' | 'failed' | Date;

/** Records an attempt and what comes after it (decided by the worker). */
export async function recordAttempt(
  db: Queryable,
  id: string,
  result: AttemptResult,
  now: Date,
  next: NextStep,
): Promise<void> {
  const at = now.toISOString();
  const delivered = next === 'delivered';
  await db.transaction().execute((trx) =>
    trx
      .updateTable('webhook_deliveries')
      .set((eb) => ({
        attempts: eb('attempts', '+', 1),
        last_attempt_at: at,
        response_status: result.status,
        last_error: delivered ? null : (result.error ?? `HTTP ${result.status}`).slice(0, 500),
        locked_until: null,
        status: next instanceof Date ? 'pending' : next,
        next_attempt_at: next instanceof Date ? next.toISOString() : null,
        delivered_at: delivered ? at : null,
      }))
      .where('id', '=', id)
      .execute(),
  );
}

/**
 * Forgets events and finished deliveries older than `before` (EVENTS_RETENTION_DAYS); an event
 * with a delivery still pending stays. Returns the events deleted.
 */
export async function pruneEvents(db: Queryable, before: Date): Promise<number> {
  const cutoff = before.toISOString();
  return db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom('webhook_deliveries')
      .where('created_at', '<', cutoff)
      .where('status', '!=', 'pending')
      .execute();
    const deleted = await trx
      .deleteFrom('events')
      .where('created_at', '<', cutoff)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('webhook_deliveries').select('id').whereRef('webhook_deliveries.event_id', '=', 'events.id'),
          ),
        ),
      )
      .executeTakeFirst();
    return Number(deleted.numDeletedRows);
  });
}

/** Lets go of a delivery taken but not attempted to the end (the worker stopped): due again at once, attempts unchanged. */
export async function releaseDelivery(db: Queryable, id: string): Promise<void> {
  await db
    .transaction()
    .execute((trx) => trx.updateTable('webhook_deliveries').set({ locked_until: null }).where('id', '=', id).execute());
}

/** A webhook as the API shows it (never its secret). */
export function webhookRowToWebhook(row: WebhookRow): Webhook {
  return {
    id: row.id,
    url: row.url,
    events: row.events.split(',').filter(Boolean) as EventType[],
    filters: { category: row.filter_category, lat: row.filter_lat, lng: row.filter_lng, radius: row.filter_radius_km },
    created_at: row.created_at,
  };
}

/** A delivery as the API shows it, with its event's public id and type. */
export function deliveryRowToDelivery(row: DeliveryWithEvent): Delivery {
  return {
    id: row.id,
    event_id: eventIdOf(Number(row.event_id)),
    event_type: row.type,
    status: row.status,
    attempts: row.attempts,
    next_attempt_at: row.next_attempt_at,
    last_attempt_at: row.last_attempt_at,
    response_status: row.response_status,
    last_error: row.last_error,
    delivered_at: row.delivered_at,
    redelivery_of: row.redelivery_of,
    created_at: row.created_at,
  };
}
