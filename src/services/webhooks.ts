import type { Queryable } from '../db/queryable.js';
import type { AccountRow, DeliveryStatus } from '../db/schema.js';
import {
  createWebhook,
  deleteOwnWebhook,
  deliveryRowToDelivery,
  listDeliveries,
  listWebhooks,
  ownWebhook,
  redeliver,
  webhookRowToWebhook,
} from '../repositories/webhooks.js';
import { inWriteTransaction, type WriteContext } from '../repositories/write-transaction.js';
import type { Delivery, Webhook, WebhookCreateBody } from '../schemas/webhooks.js';
import { webhookUrlProblem } from '../webhooks/url-guard.js';
import { ApiError, badRequest } from './errors.js';
import { filterArea } from './search-area.js';

export interface WebhookRules {
  /** Webhooks an account may have (WEBHOOKS_PER_ACCOUNT). */
  perAccount: number;
  /** Whether URLs may point into private networks (WEBHOOK_ALLOW_PRIVATE_NETWORKS). */
  allowPrivate: boolean;
}

function webhookNotFound(id: string): ApiError {
  return new ApiError(404, 'not_found', `No webhook with the id '${id}' is yours.`, {
    param: 'id',
    suggestion: 'Check the id; GET /v1/webhooks lists the webhooks of your account.',
  });
}

/** Registers a webhook of the account: a public URL, a whole area or none, at most perAccount. */
export async function addWebhook(
  context: WriteContext,
  account: AccountRow,
  body: WebhookCreateBody,
  rules: WebhookRules,
): Promise<Webhook & { secret: string }> {
  const { url, events } = body;
  const filters = { category: body.filters?.category, ...filterArea(body.filters ?? {}, 'filters.near') };
  const problem = await webhookUrlProblem(url, rules.allowPrivate);
  if (problem) {
    throw new ApiError(400, 'webhook_url_not_allowed', problem.problem, {
      param: 'url',
      suggestion: problem.suggestion,
    });
  }
  if ((filters.lat === undefined) !== (filters.lng === undefined)) {
    const missing = filters.lat === undefined ? 'filters.lat' : 'filters.lng';
    throw badRequest(
      'missing_parameter',
      missing,
      `${missing} is missing: an area needs both lat and lng.`,
      'Send filters.lat and filters.lng together, or neither.',
    );
  }
  if (filters.radius !== undefined && filters.lat === undefined) {
    throw badRequest(
      'conflicting_parameters',
      'filters.radius',
      'filters.radius needs filters.lat and filters.lng: the radius is around them.',
      'Send filters.lat and filters.lng with the radius, or leave the radius out.',
      ['filters.lat', 'filters.lng'],
    );
  }
  const input = {
    url,
    events,
    category: filters.category ?? null,
    lat: filters.lat ?? null,
    lng: filters.lng ?? null,
    radiusKm: filters.lat === undefined ? null : (filters.radius ?? 50),
  };
  const created = await inWriteTransaction(context, async (trx) => {
    const row = await createWebhook(trx, account.id, input, rules.perAccount, context.now);
    // Thrown in the transaction: nothing commits, so the same key creates once one was deleted.
    if ('limit' in row) {
      throw new ApiError(409, 'limit_reached', `The account has ${row.limit} webhooks, the most it may have.`, {
        suggestion:
          'Delete one you no longer need (DELETE /v1/webhooks/{id}), or subscribe one webhook to more event types.',
      });
    }
    return row;
  });
  return { ...webhookRowToWebhook(created), secret: created.secret };
}

/** The account's webhooks, oldest first. */
export async function webhooksOf(db: Queryable, account: AccountRow): Promise<{ data: Webhook[] }> {
  return { data: (await listWebhooks(db, account.id)).map(webhookRowToWebhook) };
}

/** One webhook of the account; 404 for anyone else's. */
export async function webhookOf(db: Queryable, account: AccountRow, id: string): Promise<Webhook> {
  const row = await ownWebhook(db, id, account.id);
  if (!row) throw webhookNotFound(id);
  return webhookRowToWebhook(row);
}

/** Deletes a webhook of the account with its deliveries. */
export async function removeWebhook(context: WriteContext, account: AccountRow, id: string): Promise<void> {
  await inWriteTransaction(context, async (trx) => {
    if (!(await deleteOwnWebhook(trx, id, account.id))) throw webhookNotFound(id);
  });
}

/** A page of the deliveries of a webhook of the account, newest first. */
export async function deliveriesOf(
  db: Queryable,
  account: AccountRow,
  id: string,
  query: { status?: DeliveryStatus | undefined; limit?: number | undefined; offset?: number | undefined },
): Promise<{ data: Delivery[]; total: number; limit: number; offset: number; has_more: boolean }> {
  if (!(await ownWebhook(db, id, account.id))) throw webhookNotFound(id);
  const { status, limit = 20, offset = 0 } = query;
  const page = await listDeliveries(db, id, status, limit, offset);
  return {
    data: page.rows.map(deliveryRowToDelivery),
    total: page.total,
    limit,
    offset,
    has_more: offset + limit < page.total,
  };
}

/** Queues a delivery's event again, as a new delivery of the account's webhook. */
export async function sendAgain(
  context: WriteContext,
  account: AccountRow,
  ids: { webhookId: string; deliveryId: string },
): Promise<Delivery> {
  const { webhookId: id, deliveryId } = ids;
  if (!(await ownWebhook(context.db, id, account.id))) throw webhookNotFound(id);
  const row = await inWriteTransaction(context, async (trx) => {
    const queued = await redeliver(trx, id, deliveryId, context.now);
    if (!queued) {
      throw new ApiError(404, 'not_found', `The webhook has no delivery '${deliveryId}'.`, {
        param: 'delivery_id',
        suggestion: `GET /v1/webhooks/${id}/deliveries lists its deliveries.`,
      });
    }
    return queued;
  });
  return deliveryRowToDelivery(row);
}
