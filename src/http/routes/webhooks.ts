import { Type } from 'typebox';
import type { Config } from '../../config.js';
import { NoQuery, RefTo } from '../../schemas/common.js';
import {
  type DELIVERY_STATUSES,
  DeliveryPage,
  DeliveryParams,
  DeliveryQuery,
  DeliverySchema,
  WebhookCreateBody,
  WebhookIdParams,
  WebhookList,
  WebhookSchema,
  WebhookWithSecret,
  webhookDocs,
} from '../../schemas/webhooks.js';
import { addWebhook, deliveriesOf, removeWebhook, sendAgain, webhookOf, webhooksOf } from '../../services/webhooks.js';
import { retryDelayMs } from '../../webhooks/worker.js';
import { errorResponses } from '../error-catalogue.js';
import { created, ok, sendCreated } from '../responses.js';
import type { Api, RouteDeps } from '../route-deps.js';
import { WRITE_HOOKS, WRITE_SECURITY } from '../write-body.js';
import { requireAccount, writeContext } from '../write-kit.js';

export interface WebhookSettings {
  perAccount: number;
  allowPrivate: boolean;
  retryBaseMs: number;
  maxAttempts: number;
  timeoutMs: number;
}

/** The webhooks' settings as configured, for the app (app.ts) and the stdio server's catalog (mcp/catalog.ts). */
export function webhookSettingsOf(config: Config): WebhookSettings {
  return {
    perAccount: config.WEBHOOKS_PER_ACCOUNT,
    allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_NETWORKS,
    retryBaseMs: config.WEBHOOK_RETRY_BASE_MS,
    maxAttempts: config.WEBHOOK_MAX_ATTEMPTS,
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
  };
}

/** The whole time deliveries of an event are tried (the worker's waits without jitter), for the documentation. */
function retryWindow({ retryBaseMs, maxAttempts }: WebhookSettings): string {
  let totalMs = 0;
  for (let failed = 1; failed < maxAttempts; failed++) totalMs += retryDelayMs(failed, retryBaseMs, 0.5);
  const hours = totalMs / 3_600_000;
  return hours >= 1 ? `about ${Math.round(hours)} hours` : `about ${Math.round(totalMs / 60_000)} minutes`;
}

export function webhookRoutes(app: Api, deps: RouteDeps, settings: WebhookSettings): void {
  const { db } = deps;
  const docs = webhookDocs({ ...settings, retryWindow: retryWindow(settings) });

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
        body: WebhookCreateBody,
        response: {
          201: created(WebhookWithSecret, 'The webhook with its signing secret (shown this once).'),
          ...errorResponses(400, 409, 413, 415, 422),
        },
      },
    },
    async (request, reply) => {
      const webhook = await addWebhook(writeContext(request, deps), requireAccount(request), request.body, settings);
      return sendCreated(reply, `/v1/webhooks/${webhook.id}`, webhook);
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
    async (request) => webhooksOf(db, requireAccount(request)),
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
    async (request) => webhookOf(db, requireAccount(request), request.params.id),
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
          204: ok(Type.Null(), 'Deleted; no body.'),
          ...errorResponses(400, 404, 413, 415),
        },
      },
    },
    async (request, reply) => {
      await removeWebhook(writeContext(request, deps), requireAccount(request), request.params.id);
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
    async (request) =>
      deliveriesOf(db, requireAccount(request), request.params.id, {
        ...request.query,
        status: request.query.status as (typeof DELIVERY_STATUSES)[number] | undefined,
      }),
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
        response: {
          202: ok(RefTo(DeliverySchema), 'The new delivery, pending.'),
          ...errorResponses(400, 404, 409, 413, 415, 422),
        },
      },
    },
    async (request, reply) => {
      const { id: webhookId, delivery_id: deliveryId } = request.params;
      const delivery = await sendAgain(writeContext(request, deps), requireAccount(request), { webhookId, deliveryId });
      return reply.code(202).send(delivery);
    },
  );
}
