import formBody from '@fastify/formbody';
import type { FastifyReply } from 'fastify';
import Negotiator from 'negotiator';
import { Type } from 'typebox';
import type { Language } from '../../domain/notifications.js';
import { NoQuery, RefTo } from '../../schemas/common.js';
import {
  NOTIFICATION_RULES,
  NotificationSettingsBody,
  NotificationSettingsSchema,
  PUSH_RULES,
  PushSubscriptionCreateBody,
  PushSubscriptionList,
  PushSubscriptionParams,
  PushSubscriptionSchema,
} from '../../schemas/notifications.js';
import {
  kindName,
  notificationSettings,
  unsubscribe,
  unsubscribeTarget,
  updateNotificationSettings,
} from '../../services/notifications.js';
import { listPushSubscriptions, subscribePush, unsubscribePush } from '../../services/push-subscriptions.js';
import { errorResponses } from '../error-catalogue.js';
import { sendHtmlPage } from '../html-page.js';
import { created, ok, sendCreated } from '../responses.js';
import type { Api, RouteDeps } from '../route-deps.js';
import { invalidUnsubscribePage, unsubscribeAskPage, unsubscribedPage } from '../views/unsubscribe-page.js';
import { WRITE_HOOKS, WRITE_SECURITY } from '../write-body.js';
import { requireAccount, writeContext } from '../write-kit.js';

/** Notification settings (issue 36): what is e-mailed to the account, when and in which language. */
export function notificationRoutes(app: Api, deps: RouteDeps): void {
  const { db } = deps;
  const tags = ['Notifications'];
  app.get(
    '/v1/me/notification-settings',
    {
      onRequest: WRITE_HOOKS.onRequest,
      schema: {
        operationId: 'getNotificationSettings',
        summary: 'Your notification settings',
        description: `What is e-mailed to you, when and in which language (the defaults until you change them).\n\n${NOTIFICATION_RULES}`,
        tags,
        security: WRITE_SECURITY,
        querystring: NoQuery,
        response: { 200: ok(RefTo(NotificationSettingsSchema), 'Your settings.'), ...errorResponses(400) },
      },
    },
    async (request) => notificationSettings(db, requireAccount(request)),
  );

  app.put(
    '/v1/me/notification-settings',
    {
      ...WRITE_HOOKS,
      schema: {
        operationId: 'updateNotificationSettings',
        summary: 'Change your notification settings',
        description: `Changes what you send (each part optional; per kind one channel or both); what is pending keeps the time it was planned for. 400 names a time that is not HH:MM or empty quiet hours.\n\n${NOTIFICATION_RULES}`,
        tags,
        security: WRITE_SECURITY,
        querystring: NoQuery,
        body: NotificationSettingsBody,
        response: {
          200: ok(RefTo(NotificationSettingsSchema), 'Your settings as they are now.'),
          ...errorResponses(400, 413, 415, 422),
        },
      },
    },
    async (request) => updateNotificationSettings(writeContext(request, deps), requireAccount(request), request.body),
  );

  app.post(
    '/v1/me/push-subscriptions',
    {
      ...WRITE_HOOKS,
      schema: {
        operationId: 'createPushSubscription',
        summary: 'Push to this browser',
        description: `Stores the browser's PushSubscription (subscribe with the application_server_key of GET /v1/me/push-subscriptions); the same browser again replaces its entry. 400: an endpoint that is not https or points inside, or keys that are not the browser's.\n\n${PUSH_RULES}`,
        tags,
        security: WRITE_SECURITY,
        querystring: NoQuery,
        body: PushSubscriptionCreateBody,
        response: {
          201: created(RefTo(PushSubscriptionSchema), 'The subscription.'),
          ...errorResponses(400, 413, 415, 422),
        },
      },
    },
    async (request, reply) => {
      const subscription = await subscribePush(
        writeContext(request, deps),
        requireAccount(request),
        request.body,
        deps.push,
      );
      return sendCreated(reply, '/v1/me/push-subscriptions', subscription);
    },
  );

  app.get(
    '/v1/me/push-subscriptions',
    {
      onRequest: WRITE_HOOKS.onRequest,
      schema: {
        operationId: 'listPushSubscriptions',
        summary: 'Your push subscriptions',
        description: `The browsers pushed to, with the last push's outcome, and the server's VAPID public key to subscribe with.\n\n${PUSH_RULES}`,
        tags,
        security: WRITE_SECURITY,
        querystring: NoQuery,
        response: { 200: ok(PushSubscriptionList, 'Your push subscriptions.'), ...errorResponses(400) },
      },
    },
    async (request) => listPushSubscriptions(db, requireAccount(request), deps.push),
  );

  app.delete(
    '/v1/me/push-subscriptions/:id',
    {
      onRequest: WRITE_HOOKS.onRequest,
      schema: {
        operationId: 'deletePushSubscription',
        summary: 'Stop pushing to a browser',
        description: 'That browser gets no more pushes; 404 for anyone else’s.',
        tags,
        security: WRITE_SECURITY,
        params: PushSubscriptionParams,
        querystring: NoQuery,
        response: { 204: ok(Type.Null(), 'Deleted; no body.'), ...errorResponses(400, 404, 413, 415) },
      },
    },
    async (request, reply) => {
      await unsubscribePush(db, requireAccount(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
}

// The page: no scripts, inline style only, the form posts only here.
const CSP =
  "default-src 'none'; script-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

const FORM_BODY_LIMIT = 1024;

const sendPage = (reply: FastifyReply, status: number, page: string) =>
  sendHtmlPage(reply, status, page, CSP, { 'x-robots-tag': 'noindex', vary: 'Accept-Language' });

/** The language of a page whose link is not valid: the visitor's (Accept-Language), else German. */
const visitorLanguage = (header: string | undefined): Language =>
  (new Negotiator({ headers: { 'accept-language': header ?? 'de' } }).language(['de', 'en']) as Language | undefined) ??
  'de';

const TokenQuery = Type.Object({ token: Type.String({ maxLength: 200 }) }, { additionalProperties: false });

/**
 * The unsubscribe link of every notification e-mail (no key: the token names the account and the
 * kind, signed): GET shows a page that asks, POST (its button, or a mail program's RFC 8058
 * one-click POST) stops that kind of e-mail. A plugin of its own so only here form bodies are read.
 */
export async function notificationPageRoutes(app: Api, options: { deps: RouteDeps }) {
  const { deps } = options;
  await app.register(formBody, { bodyLimit: FORM_BODY_LIMIT });
  app.get(
    '/v1/notifications/unsubscribe',
    { schema: { hide: true, querystring: TokenQuery } },
    async (request, reply) => {
      const { token } = request.query as { token: string };
      const target = await unsubscribeTarget(deps.db, token);
      if (!target)
        return sendPage(reply, 404, invalidUnsubscribePage(visitorLanguage(request.headers['accept-language'])));
      const action = `/v1/notifications/unsubscribe?token=${encodeURIComponent(token)}`;
      return sendPage(reply, 200, unsubscribeAskPage(target.language, kindName(target.kind, target.language), action));
    },
  );
  app.post(
    '/v1/notifications/unsubscribe',
    { schema: { hide: true, querystring: TokenQuery }, bodyLimit: FORM_BODY_LIMIT },
    async (request, reply) => {
      const { token } = request.query as { token: string };
      const done = await unsubscribe(deps.db, token, deps.now());
      if (!done)
        return sendPage(reply, 404, invalidUnsubscribePage(visitorLanguage(request.headers['accept-language'])));
      return sendPage(reply, 200, unsubscribedPage(done.language, kindName(done.kind, done.language)));
    },
  );
}
