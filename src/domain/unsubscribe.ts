import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The token of a saved search's unsubscribe link: its id and an HMAC of the id under a random key
 * kept with the search. It works without an API key, so it is unguessable, names one search only,
 * and stays valid in every digest sent (the key is never shown; deleting the search voids it).
 */
export function newUnsubscribeKey(): string {
  return randomBytes(32).toString('hex');
}

function mac(key: string, id: string): string {
  return createHmac('sha256', Buffer.from(key, 'hex')).update(`unsubscribe:${id}`).digest('base64url');
}

export function unsubscribeToken(id: string, key: string): string {
  return `${id}.${mac(key, id)}`;
}

/** The saved search id a token names (to look its key up), or null for a malformed token. */
export function tokenSearchId(token: string): string | null {
  const match = /^(svs_[0-9a-f]{16})\.[A-Za-z0-9_-]{43}$/.exec(token);
  return match?.[1] ?? null;
}

/** Whether the token is the one of this search and key (compared in constant time). */
export function tokenValid(token: string, id: string, key: string): boolean {
  const expected = Buffer.from(unsubscribeToken(id, key));
  const given = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * The token of a notification e-mail's one-click unsubscribe link (issue 36): the account, the
 * kind it stops and an HMAC of both under a random key kept with the account's settings. It stops
 * that kind's e-mails of that account only, needs no sign-in, and stays valid in every e-mail sent.
 */
export function notificationToken(accountId: string, kind: string, key: string): string {
  const mac = createHmac('sha256', Buffer.from(key, 'hex'))
    .update(`notifications:${accountId}:${kind}`)
    .digest('base64url');
  return `${accountId}.${kind}.${mac}`;
}

/** The account and kind a notification token names (to look the key up), or null for a malformed one. */
export function notificationTokenParts(token: string): { accountId: string; kind: string } | null {
  const match = /^([a-z]+_[0-9a-f]{16})\.([a-z_]{1,32})\.[A-Za-z0-9_-]{43}$/.exec(token);
  return match ? { accountId: match[1] as string, kind: match[2] as string } : null;
}

/** Whether a notification token is the one of this account, kind and key (compared in constant time). */
export function notificationTokenValid(token: string, accountId: string, kind: string, key: string): boolean {
  const expected = Buffer.from(notificationToken(accountId, kind, key));
  const given = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
