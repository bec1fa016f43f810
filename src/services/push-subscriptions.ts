import { Agent } from 'node:https';
import webpush from 'web-push';
import type { Queryable } from '../db/queryable.js';
import type { AccountRow, PushSubscriptionRow } from '../db/schema.js';
import {
  deletePushSubscription,
  pushSubscriptionsOf,
  recordPushOutcome,
  savePushSubscription,
  storedVapidKeys,
  storeVapidKeys,
} from '../repositories/notifications.js';
import { inWriteTransaction, type WriteContext } from '../repositories/write-transaction.js';
import type { PushSubscriptionCreateBody, PushSubscriptionView } from '../schemas/notifications.js';
import { guardedLookup, webhookUrlProblem } from '../webhooks/url-guard.js';
import { ApiError, badRequest } from './errors.js';

/**
 * Web push (issue 36): browsers subscribe with their PushSubscription; notifications of the kinds
 * whose `push` channel is on are encrypted for each (RFC 8291, with the maintained web-push
 * package) and signed with the server's VAPID keys (RFC 8292): from the settings, else made the
 * first time they are needed and stored, so every instance signs with the same pair.
 */

export interface PushSettings {
  /** VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY, or null: made once and stored. */
  keys: { publicKey: string; privateKey: string } | null;
  /** Who runs the push sender, for push services to reach (mailto: or https:). */
  subject: string;
  /** WEBHOOK_ALLOW_PRIVATE_NETWORKS: an endpoint may be a private address (development and tests). */
  allowPrivate: boolean;
  /** The HTTPS agent pushes go through (tests: one that trusts the stand-in's certificate). */
  agent?: Agent;
}

/**
 * The connections pushes go through unless private addresses are allowed: the webhooks' guard
 * checks the address connected to (guardedLookup), so an endpoint whose name later resolves inside
 * is refused then too (a literal private address was refused when subscribing).
 */
const GUARDED = new Agent({ lookup: guardedLookup as never });

/** The VAPID key pair: the settings', or the stored one, made now if there is none. */
export async function vapidKeys(db: Queryable, settings: Pick<PushSettings, 'keys'>) {
  if (settings.keys) return settings.keys;
  return (await storedVapidKeys(db)) ?? storeVapidKeys(db, webpush.generateVAPIDKeys());
}

function view(row: PushSubscriptionRow): PushSubscriptionView {
  return {
    id: row.id,
    endpoint_host: new URL(row.endpoint).host,
    created_at: row.created_at,
    last_sent_at: row.last_sent_at,
    last_error: row.last_error,
  };
}

/** GET /v1/me/push-subscriptions: the account's browsers, and the key a browser subscribes with. */
export async function listPushSubscriptions(db: Queryable, account: AccountRow, settings: PushSettings) {
  const [rows, keys] = await Promise.all([pushSubscriptionsOf(db, account.id), vapidKeys(db, settings)]);
  return { data: rows.map(view), application_server_key: keys.publicKey };
}

/**
 * POST /v1/me/push-subscriptions: stores the browser's PushSubscription (its JSON as the browser
 * gives it). 400 for an endpoint that is not https or points at a private address, or keys that
 * are not a P-256 public key and a 16-byte secret.
 */
export async function subscribePush(
  context: WriteContext,
  account: AccountRow,
  body: PushSubscriptionCreateBody,
  settings: PushSettings,
): Promise<PushSubscriptionView> {
  const problem = await webhookUrlProblem(body.endpoint, settings.allowPrivate);
  if (problem || !body.endpoint.startsWith('https://')) {
    throw badRequest(
      'invalid_parameter',
      'endpoint',
      problem
        ? problem.problem.replace(/^url/, 'endpoint').replace(/webhooks are only delivered/, 'pushes are only sent')
        : 'endpoint must be an https:// address.',
      'Send the PushSubscription exactly as the browser gives it (pushManager.subscribe(...).toJSON()).',
    );
  }
  const key = Buffer.from(body.keys.p256dh, 'base64url');
  if (key.length !== 65 || key[0] !== 4) {
    throw badRequest(
      'invalid_parameter',
      'keys.p256dh',
      'keys.p256dh is not an uncompressed P-256 public key (65 bytes, base64url).',
      'Send the keys the browser gives with the subscription.',
    );
  }
  if (Buffer.from(body.keys.auth, 'base64url').length !== 16) {
    throw badRequest(
      'invalid_parameter',
      'keys.auth',
      'keys.auth is not a 16-byte secret (base64url).',
      'Send the keys the browser gives with the subscription.',
    );
  }
  // In the write transaction, with the Idempotency-Key's mark: a retry answers the same subscription.
  const row = await inWriteTransaction(context, (trx) =>
    savePushSubscription(
      trx,
      { account_id: account.id, endpoint: body.endpoint, p256dh: body.keys.p256dh, auth: body.keys.auth },
      context.now,
    ),
  );
  return view(row);
}

/** DELETE /v1/me/push-subscriptions/{id}: that browser gets no more pushes; 404 for anyone else's. */
export async function unsubscribePush(db: Queryable, account: AccountRow, id: string): Promise<void> {
  if (!(await deletePushSubscription(db, account.id, id))) {
    throw new ApiError(404, 'not_found', `No push subscription with the id '${id}' is yours.`, {
      param: 'id',
      suggestion: 'GET /v1/me/push-subscriptions lists yours.',
    });
  }
}

/** What a push says: the title and text shown, and where a click leads. */
export interface PushMessage {
  title: string;
  body: string;
  url: string;
  kind: string;
}

/**
 * Pushes one message to every browser of the account. A subscription the push service answers
 * 404 or 410 for is gone and deleted; other failures are recorded on it. Whether it reached at
 * least one browser (false with none left); throws when every browser failed otherwise, so the
 * notification is tried again later.
 */
export async function pushToAccount(
  db: Queryable,
  accountId: string,
  message: PushMessage,
  settings: PushSettings,
  now: Date,
): Promise<boolean> {
  const subscriptions = await pushSubscriptionsOf(db, accountId);
  if (subscriptions.length === 0) return false;
  const keys = await vapidKeys(db, settings);
  const options = {
    vapidDetails: { subject: settings.subject, publicKey: keys.publicKey, privateKey: keys.privateKey },
    TTL: 24 * 3600,
    timeout: 10_000,
    ...(settings.agent ? { agent: settings.agent } : settings.allowPrivate ? {} : { agent: GUARDED }),
  };
  let reached = 0;
  const failures: string[] = [];
  for (const subscription of subscriptions) {
    try {
      await webpush.sendNotification(
        { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
        JSON.stringify(message),
        options,
      );
      reached++;
      await recordPushOutcome(db, subscription.id, { gone: false, error: null }, now);
    } catch (error) {
      const status = (error as { statusCode?: number }).statusCode;
      const gone = status === 404 || status === 410;
      const text = status ? `the push service answered ${status}` : String((error as Error).message ?? error);
      await recordPushOutcome(db, subscription.id, { gone, error: text.slice(0, 300) }, now);
      if (!gone) failures.push(text);
    }
  }
  if (reached === 0 && failures.length > 0) throw new Error(`every push failed: ${failures.join('; ')}`);
  return reached > 0;
}
