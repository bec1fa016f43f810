import { Type } from 'typebox';
import type { DeliveryStatus, EventType, WebhookRow } from '../../db/schema.js';
import { eventIdOf } from '../../domain/events.js';
import {
  createWebhook,
  type DeliveryWithEvent,
  deleteOwnWebhook,
  listDeliveries,
  listWebhooks,
  ownWebhook,
  redeliver,
} from '../../repositories/webhooks.js';
import { NoQuery, RefTo } from '../../schemas/common.js';
import { IdempotencyHeaders } from '../../schemas/listing-writes.js';
import {
  type Delivery,
  DeliveryPage,
  DeliveryParams,
  DeliveryQuery,
  DeliverySchema,
  type Webhook,
  WebhookCreateBody,
  WebhookIdParams,
  WebhookList,
  WebhookSchema,
  WebhookWithSecret,
} from '../../schemas/webhooks.js';
import { ApiError, badRequest } from '../../services/errors.js';
import { webhookUrlProblem } from '../../webhooks/url-guard.js';
import { retryDelayMs } from '../../webhooks/worker.js';
import { WRITE_HOOKS, WRITE_SECURITY } from '../write-body.js';
import { requireAccount } from '../write-kit.js';
import { type Api, errorResponses, ok, type RouteDeps } from './route-kit.js';

export interface WebhookSettings {
  perAccount: number;
  allowPrivate: boolean;
  retryBaseMs: number;
  maxAttempts: number;
  timeoutMs: number;
}

function webhookOf(row: WebhookRow): Webhook {
  return {
    id: row.id,
    url: row.url,
    events: row.events.split(',').filter(Boolean) as EventType[],
    filters: { category: row.filter_category, lat: row.filter_lat, lng: row.filter_lng, radius: row.filter_radius_km },
    created_at: row.created_at,
  };
}

function deliveryOf(row: DeliveryWithEvent): Delivery {
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

function webhookNotFound(id: string): ApiError {
  return new ApiError(404, 'not_found', `No webhook with the id '${id}' is yours.`, {
    param: 'id',
    suggestion: 'Check the id; GET /v1/webhooks lists the webhooks of your account.',
  });
}

/** The whole time deliveries of an event are tried (the worker's waits without jitter), for the documentation. */
function retryWindow({ retryBaseMs, maxAttempts }: WebhookSettings): string {
  let totalMs = 0;
  for (let failed = 1; failed < maxAttempts; failed++) totalMs += retryDelayMs(failed, retryBaseMs, 0.5);
  const hours = totalMs / 3_600_000;
  return hours >= 1 ? `about ${Math.round(hours)} hours` : `about ${Math.round(totalMs / 60_000)} minutes`;
}

export function webhookDocs(settings: WebhookSettings): string {
  return `Webhooks tell a developer account's server about changes as they happen, instead of it polling.

**Events.** job.created, job.updated, job.status_changed, listing.created, listing.updated and listing.status_changed are public: any webhook may subscribe to them, optionally filtered by category and area (lat, lng, radius in km: the search filters). application.created reaches only the job's owner and the applicant; booking.created and booking.status_changed only the listing's owner and the renter. Each change is written to an outbox in the same database transaction as the change itself, so no acknowledged change goes without its event, also across a crash or a restart.

**Delivery.** A POST to the webhook's url with the JSON body \`{"id": "evt_…", "type": "job.created", "created_at": "…", "data": {"object": {…the job, listing, application or booking as the API showed it…}}}\` and the headers Marketplace-Event-Id, Marketplace-Event-Type, Marketplace-Delivery-Id and Marketplace-Signature. Any 2xx answer within ${settings.timeoutMs / 1000} s counts as delivered; anything else (other statuses, redirects, timeouts, refused connections) is retried with exponential backoff: ${settings.retryBaseMs / 1000} s after the first failure, doubling each time (±10 % jitter, at most a day between attempts), ${settings.maxAttempts} attempts over ${retryWindow(settings)}, then the delivery is failed. Deliveries are at least once and not ordered: deduplicate on the event id.

**Signatures** (as Stripe does): \`Marketplace-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256>\`, the HMAC keyed with the webhook's secret over \`<t>.<raw body>\`. Recompute it over the raw bytes, compare in constant time, and refuse timestamps more than 5 minutes old. The secret (whsec_…) is shown once, in the answer to POST /v1/webhooks.

**Where to.** Only http(s) URLs whose host resolves to public addresses: loopback, private (10/8, 172.16/12, 192.168/16, fc00::/7), link-local (169.254/16 with cloud metadata, fe80::/10), carrier-grade NAT and reserved ranges, also inside IPv6 forms that carry an IPv4 address (IPv4-mapped and -compatible, SIIT, NAT64, 6to4, Teredo), are refused when the webhook is created and again when each delivery connects (so DNS rebinding does not help), unless the operator sets WEBHOOK_ALLOW_PRIVATE_NETWORKS=true. Redirects are not followed. At most ${settings.perAccount} webhooks per account.`;
}

export function webhookRoutes(app: Api, { db, now }: RouteDeps, settings: WebhookSettings): void {
  const docs = webhookDocs(settings);

  app.post(
    '/v1/webhooks',
    {
      ...WRITE_HOOKS,
      schema: {
        operationId: 'createWebhook',
        summary: 'Subscribe to events',
        description: `Adds a webhook of the calling account (a developer key is needed) and answers its signing secret, once.\n\n${docs}`,
        tags: ['Events'],
        security: WRITE_SECURITY,
        querystring: NoQuery,
        headers: IdempotencyHeaders,
        body: WebhookCreateBody,
        response: {
          201: ok(WebhookWithSecret, 'The webhook with its signing secret (shown this once).'),
          ...errorResponses(400, 409, 413, 415, 422),
        },
      },
    },
    async (request, reply) => {
      const account = requireAccount(request);
      const { url, events, filters = {} } = request.body;
      const problem = await webhookUrlProblem(url, settings.allowPrivate);
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
      const created = await createWebhook(
        db,
        account.id,
        {
          url,
          events,
          category: filters.category ?? null,
          lat: filters.lat ?? null,
          lng: filters.lng ?? null,
          radiusKm: filters.lat === undefined ? null : (filters.radius ?? 50),
        },
        settings.perAccount,
        now(),
      );
      if ('limit' in created) {
        throw new ApiError(409, 'limit_reached', `The account has ${created.limit} webhooks, the most it may have.`, {
          suggestion:
            'Delete one you no longer need (DELETE /v1/webhooks/{id}), or subscribe one webhook to more event types.',
        });
      }
      return reply.code(201).send({ ...webhookOf(created), secret: created.secret });
    },
  );

  app.get(
    '/v1/webhooks',
    {
      onRequest: WRITE_HOOKS.onRequest,
      schema: {
        operationId: 'listWebhooks',
        summary: 'List your webhooks',
        description: `The webhooks of the calling account, oldest first (without their secrets).\n\n${docs}`,
        tags: ['Events'],
        security: WRITE_SECURITY,
        querystring: NoQuery,
        response: { 200: ok(WebhookList, 'The webhooks.'), ...errorResponses(400) },
      },
    },
    async (request) => {
      const account = requireAccount(request);
      return { data: (await listWebhooks(db, account.id)).map(webhookOf) };
    },
  );

  app.get(
    '/v1/webhooks/:id',
    {
      onRequest: WRITE_HOOKS.onRequest,
      schema: {
        operationId: 'getWebhook',
        summary: 'Get a webhook',
        description: "One webhook of the calling account (without its secret); another account's answers 404.",
        tags: ['Events'],
        security: WRITE_SECURITY,
        params: WebhookIdParams,
        querystring: NoQuery,
        response: { 200: ok(RefTo(WebhookSchema), 'The webhook.'), ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      const account = requireAccount(request);
      const row = await ownWebhook(db, request.params.id, account.id);
      if (!row) throw webhookNotFound(request.params.id);
      return webhookOf(row);
    },
  );

  app.delete(
    '/v1/webhooks/:id',
    {
      onRequest: WRITE_HOOKS.onRequest,
      schema: {
        operationId: 'deleteWebhook',
        summary: 'Delete a webhook',
        description:
          "Deletes a webhook of the calling account with its deliveries: nothing more is sent to it, also not the pending retries. Another account's webhook answers 404.",
        tags: ['Events'],
        security: WRITE_SECURITY,
        params: WebhookIdParams,
        querystring: NoQuery,
        response: {
          204: Type.Null({ description: 'Deleted; no body.' }),
          ...errorResponses(400, 404, 413, 415),
        },
      },
    },
    async (request, reply) => {
      const account = requireAccount(request);
      if (!(await deleteOwnWebhook(db, request.params.id, account.id))) throw webhookNotFound(request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/v1/webhooks/:id/deliveries',
    {
      onRequest: WRITE_HOOKS.onRequest,
      schema: {
        operationId: 'listWebhookDeliveries',
        summary: 'List deliveries of a webhook',
        description:
          'The deliveries of a webhook of the calling account, newest first: each event sent (or to be sent) with its attempts, the last answer and when it is tried next.',
        tags: ['Events'],
        security: WRITE_SECURITY,
        params: WebhookIdParams,
        querystring: DeliveryQuery,
        response: { 200: ok(DeliveryPage, 'A page of deliveries.'), ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      const account = requireAccount(request);
      const { id } = request.params;
      if (!(await ownWebhook(db, id, account.id))) throw webhookNotFound(id);
      const { status, limit = 20, offset = 0 } = request.query;
      const page = await listDeliveries(db, id, status as DeliveryStatus | undefined, limit, offset);
      return {
        data: page.rows.map(deliveryOf),
        total: page.total,
        limit,
        offset,
        has_more: offset + limit < page.total,
      };
    },
  );

  app.post(
    '/v1/webhooks/:id/deliveries/:delivery_id/redeliver',
    {
      ...WRITE_HOOKS,
      schema: {
        operationId: 'redeliverWebhookDelivery',
        summary: 'Send a delivery again',
        description:
          'Queues the event of a delivery for sending again, as a new delivery with attempts of its own (the same event id and body; signed anew): for a receiver that was down longer than the retries, or lost what it got. No body.',
        tags: ['Events'],
        security: WRITE_SECURITY,
        params: DeliveryParams,
        querystring: NoQuery,
        headers: IdempotencyHeaders,
        response: {
          202: ok(RefTo(DeliverySchema), 'The new delivery, pending.'),
          ...errorResponses(400, 404, 409, 413, 415, 422),
        },
      },
    },
    async (request, reply) => {
      const account = requireAccount(request);
      const { id, delivery_id: deliveryId } = request.params;
      if (!(await ownWebhook(db, id, account.id))) throw webhookNotFound(id);
      const row = await redeliver(db, id, deliveryId, now());
      if (!row) {
        throw new ApiError(404, 'not_found', `The webhook has no delivery '${deliveryId}'.`, {
          param: 'delivery_id',
          suggestion: `GET /v1/webhooks/${id}/deliveries lists its deliveries.`,
        });
      }
      return reply.code(202).send(deliveryOf(row));
    },
  );
}
