import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** The public reads whose answer depends only on the URL and the data: never on the caller. */
const CACHEABLE = new Set(
  ['/v1', '/v1/demo'].flatMap((base) =>
    [
      '/jobs',
      '/jobs/:id',
      '/listings',
      '/listings/:id',
      '/categories',
      '/estimate',
      '/helpers/availability',
      '/stats',
    ].map((path) => `${base}${path}`),
  ),
);

interface Entry {
  version: string;
  storedAt: number;
  body: string;
  etag: string;
}

export interface ResponseCacheOptions {
  /** The data version as of the request (Db.version, asked once per request). */
  version: (request: FastifyRequest) => Promise<string>;
  now: () => Date;
  /** How long an answer may be reused while the data stays the same (time moves statuses on). 0: off. */
  ttlMs: number;
  /** Bytes of answers kept at most; the least recently used go first. */
  maxBytes: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    cacheVersion: string | null;
  }
}

const etagOf = (body: string) => `W/"${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`;

function matches(request: FastifyRequest, etag: string): boolean {
  const header = request.headers['if-none-match'];
  if (!header) return false;
  return header === '*' || header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag.slice(2));
}

/**
 * Reuses the serialized answer of a public read while the data has not changed (Db.version, taken
 * before the query, moves with every write, here or on another instance or process) and for at most
 * `ttlMs`. Every answer carries an ETag; a request whose If-None-Match matches a reusable answer gets
 * a 304 without any query. Rate limits apply as to every request (they run before this).
 */
export function registerResponseCache(app: FastifyInstance, options: ResponseCacheOptions): void {
  app.decorateRequest('cacheVersion', null);
  if (options.ttlMs <= 0) return;
  const entries = new Map<string, Entry>();
  let bytes = 0;
  const drop = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    bytes -= entry.body.length;
    entries.delete(key);
  };

  app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.method !== 'GET' || !CACHEABLE.has(request.routeOptions.url ?? '')) return;
    const version = await options.version(request);
    request.cacheVersion = version;
    const entry = entries.get(request.url);
    if (!entry) return;
    const age = options.now().getTime() - entry.storedAt;
    if (entry.version !== version || age < 0 || age >= options.ttlMs) {
      drop(request.url);
      return;
    }
    // Most recently used last, so the oldest are dropped first.
    entries.delete(request.url);
    entries.set(request.url, entry);
    request.cacheVersion = null;
    reply.header('etag', entry.etag);
    if (matches(request, entry.etag)) return reply.code(304).send();
    return reply.type('application/json; charset=utf-8').send(entry.body);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const version = request.cacheVersion;
    if (version === null || reply.statusCode !== 200 || typeof payload !== 'string') return payload;
    const etag = etagOf(payload);
    reply.header('etag', etag);
    if (payload.length <= options.maxBytes / 8) {
      drop(request.url);
      entries.set(request.url, { version, storedAt: options.now().getTime(), body: payload, etag });
      bytes += payload.length;
      for (const key of entries.keys()) {
        if (bytes <= options.maxBytes) break;
        drop(key);
      }
    }
    if (!matches(request, etag)) return payload;
    reply.code(304);
    return '';
  });
}
