import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { guardedLookup, isPrivateAddress } from './url-guard.js';

/**
 * Fetches an external iCalendar feed (issue 35, busy calendars) with the webhooks' address guard:
 * http(s) only, no internal addresses (checked at connect time, so DNS rebinding is refused too),
 * at most `maxBytes`, within `timeoutMs`, with If-None-Match and If-Modified-Since from the last
 * fetch. Never follows redirects (a redirect could point inside); says what went wrong in words a
 * feed's owner understands, without what a name resolved to.
 */
export interface CalendarFetchOptions {
  etag: string | null;
  lastModified: string | null;
  allowPrivate: boolean;
  timeoutMs: number;
  maxBytes: number;
  userAgent: string;
}

export type CalendarFetchResult =
  | { kind: 'ok'; text: string; etag: string | null; lastModified: string | null }
  | { kind: 'not_modified' }
  | { kind: 'error'; error: string };

export function fetchCalendar(url: string, options: CalendarFetchOptions): Promise<CalendarFetchResult> {
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      resolve({ kind: 'error', error: 'the URL is not valid' });
      return;
    }
    const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
    if (!options.allowPrivate && isIP(host) && isPrivateAddress(host)) {
      resolve({ kind: 'error', error: `${host} is not a public address` });
      return;
    }
    let settled = false;
    const finish = (result: CalendarFetchResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const client = target.protocol === 'https:' ? https : http;
    const headers: Record<string, string> = { accept: 'text/calendar', 'user-agent': options.userAgent };
    if (options.etag) headers['if-none-match'] = options.etag;
    if (options.lastModified) headers['if-modified-since'] = options.lastModified;
    const request = client.get(
      target,
      { headers, agent: false, ...(options.allowPrivate ? {} : { lookup: guardedLookup as never }) },
      (response) => {
        const status = response.statusCode ?? 0;
        if (status === 304) {
          response.resume();
          finish({ kind: 'not_modified' });
          return;
        }
        if (status < 200 || status >= 300) {
          response.resume();
          finish({
            kind: 'error',
            error: `the server answered ${status}${status >= 300 && status < 400 ? ' (redirects are not followed)' : ''}`,
          });
          return;
        }
        const chunks: Buffer[] = [];
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > options.maxBytes) {
            request.destroy();
            finish({ kind: 'error', error: `the feed is larger than ${options.maxBytes} bytes` });
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () =>
          finish({
            kind: 'ok',
            text: Buffer.concat(chunks).toString('utf8'),
            etag: headerOf(response.headers.etag),
            lastModified: headerOf(response.headers['last-modified']),
          }),
        );
        response.on('error', (error) => finish({ kind: 'error', error: error.message }));
      },
    );
    const timer = setTimeout(() => {
      request.destroy();
      finish({ kind: 'error', error: `no complete answer within ${options.timeoutMs} ms` });
    }, options.timeoutMs);
    request.on('error', (error) =>
      finish({
        kind: 'error',
        error: error.name === 'BlockedAddressError' ? `${host} is not a public address` : error.message,
      }),
    );
  });
}

const headerOf = (value: string | string[] | undefined): string | null =>
  value === undefined ? null : Array.isArray(value) ? (value[0] ?? null) : value;
