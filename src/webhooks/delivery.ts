import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { BlockedAddressError, guardedLookup, isPrivateAddress } from './url-guard.js';

/** The header a receiver verifies: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`. */
export const SIGNATURE_HEADER = 'marketplace-signature';

/** The signature header value of a body sent at `timestamp` (unix seconds), as Stripe builds it. */
export function signatureOf(secret: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `t=${timestamp},v1=${mac}`;
}

/**
 * Whether a signature header is valid for a body: a v1 HMAC matches (compared in constant time)
 * and its timestamp is within `toleranceSeconds` of `now` (replays of old deliveries fail).
 */
export function verifySignature(
  header: string,
  body: string,
  secret: string,
  now: Date,
  toleranceSeconds = 300,
): boolean {
  const parts = header.split(',').map((part) => part.split('=', 2) as [string, string | undefined]);
  const t = Number(parts.find(([name]) => name === 't')?.[1]);
  if (!Number.isInteger(t) || Math.abs(now.getTime() / 1000 - t) > toleranceSeconds) return false;
  const expected = Buffer.from(signatureOf(secret, t, body).split('v1=')[1] ?? '', 'hex');
  return parts.some(([name, value]) => {
    if (name !== 'v1' || !value) return false;
    const given = Buffer.from(value, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

export interface SendOptions {
  timeoutMs: number;
  /** Aborts the exchange (the worker stopping); the result is then an error. */
  signal?: AbortSignal;
  /** Deliver to loopback and private addresses too (WEBHOOK_ALLOW_PRIVATE_NETWORKS). */
  allowPrivate: boolean;
}

export interface SendResult {
  status: number | null;
  error: string | null;
}

/** What is read of a receiver's answer before the connection is closed: its status is what counts. */
const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * POSTs one delivery. Redirects are not followed (a 3xx is a failed attempt), the whole exchange
 * has `timeoutMs`, and unless private networks are allowed the address connected to must be public
 * (checked on the resolved address itself: guardedLookup).
 */
export function sendDelivery(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: SendOptions,
): Promise<SendResult> {
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      resolve({ status: null, error: 'the webhook url is not a valid URL' });
      return;
    }
    const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
    if (!options.allowPrivate && isIP(host) && isPrivateAddress(host)) {
      resolve({ status: null, error: new BlockedAddressError(host).message });
      return;
    }
    const client = target.protocol === 'https:' ? https : http;
    let settled = false;
    const finish = (result: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      // The signal is the worker's, for its whole life: a listener left on it would pile up with every send.
      options.signal?.removeEventListener('abort', cut);
      resolve(result);
    };
    const request = client.request(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        agent: false,
        ...(options.allowPrivate ? {} : { lookup: guardedLookup as never }),
      },
      (response) => {
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_ANSWER_BYTES) response.destroy();
        });
        const done = () => finish({ status: response.statusCode ?? null, error: null });
        response.on('end', done);
        response.on('close', done);
        response.on('error', done);
      },
    );
    const cut = () => request.destroy(new Error('the sender stopped'));
    const timer = setTimeout(() => {
      request.destroy(new Error(`no answer within ${options.timeoutMs} ms`));
    }, options.timeoutMs);
    request.on('error', (error) => finish({ status: null, error: error.message }));
    options.signal?.addEventListener('abort', cut, { once: true });
    request.end(body);
  });
}
