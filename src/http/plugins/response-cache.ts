import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Answers remembered at most (with or without their body): bounds the memory of the tags too. */
const MAX_ENTRIES = 20_000;

/** How long a read waits for the same read in progress before it runs its own query. */
const COALESCE_WAIT_MS = 30_000;

interface Entry {
  version: string;
  storedAt: number;
  etag: string;
  /**
   * The serialized answer, UTF-8; null for an answer given once: only its tag is kept (enough for
   * a 304), the body when the URL is asked for again. One-off searches then cost no cache memory.
   */
  body: Buffer | null;
}

/**
 * An answer being computed: `wanted` when another request asked for it meanwhile; `release`
 * lets the waiting requests go on, however the computing request ends.
 */
interface Computing {
  done: Promise<void>;
  wanted: boolean;
  release: () => void;
}

export interface ResponseCacheOptions {
  /** The data version as of the request (Db.version, asked once per request). */
  version: (request: FastifyRequest) => Promise<string>;
  now: () => Date;
  /** How long an answer may be reused while the data stays the same (time moves statuses on). 0: off. */
  ttlMs: number;
  /** Bytes of answers kept at most; the oldest stored go first. */
  maxBytes: number;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * `public`: a read whose answer depends only on the URL and the data, never on the caller (no
     * key, tier or account changes it), so its GET answers may be reused for everyone while the
     * data stays the same. Without it a route's answers are never cached.
     */
    cache?: 'public';
  }
  interface FastifyRequest {
    /** Set on a request that computes an answer others may wait for. */
    cacheComputing: Computing | null;
    cacheVersion: string | null;
  }
}

export const etagOf = (body: string | Buffer) =>
  `W/"${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`;

export function matches(request: FastifyRequest, etag: string): boolean {
  const header = request.headers['if-none-match'];
  if (!header) return false;
  return header === '*' || header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag.slice(2));
}

/**
 * Reuses the serialized answer of a public read (a route with `config: { cache: 'public' }`) while
 * the data has not changed (Db.version, taken before the query, moves with every write, here or on
 * another instance or process) and for at most `ttlMs`. Every answer carries an ETag; a request
 * whose If-None-Match matches a reusable answer gets a 304 without any query. Rate limits apply as
 * to every request (they run before this). A body is kept from the second time its URL is asked
 * for; the same read asked while it is being computed waits for that answer instead of computing it
 * again.
 */
export function registerResponseCache(app: FastifyInstance, options: ResponseCacheOptions): void {
  app.decorateRequest('cacheVersion', null);
  app.decorateRequest('cacheComputing', null);
  if (options.ttlMs <= 0) return;
  const entries = new Map<string, Entry>();
  const computing = new Map<string, Computing>();
  let bytes = 0;
  const drop = (url: string) => {
    const entry = entries.get(url);
    if (!entry) return;
    bytes -= entry.body?.length ?? 0;
    entries.delete(url);
  };
  /**
   * The entry of the URL if it may answer at this version now. Entries go oldest stored first: an
   * answer lives at most ttlMs, so the order it was stored in is close to the order of use, and a
   * hit costs no reordering (moving an entry to the end of a large Map on every hit made V8 rehash
   * it every few hundred hits).
   */
  const fresh = (url: string, version: string): Entry | undefined => {
    const entry = entries.get(url);
    if (!entry) return undefined;
    const age = options.now().getTime() - entry.storedAt;
    return entry.version === version && age >= 0 && age < options.ttlMs ? entry : undefined;
  };
  const release = (request: FastifyRequest) => request.cacheComputing?.release();

  app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.method !== 'GET' || request.routeOptions.config?.cache !== 'public') return;
    const version = await options.version(request);
    request.cacheVersion = version;
    let entry = fresh(request.url, version);
    if (entry && !entry.body && matches(request, entry.etag)) {
      request.cacheVersion = null;
      reply.header('etag', entry.etag);
      return reply.code(304).send();
    }
    if (!entry?.body) {
      // One computation per answer at a time: a burst of the same expensive read (stats over a
      // large dataset) costs one query, not one per request.
      const key = `${version}\u0000${request.url}`;
      const pending = computing.get(key);
      if (pending) {
        pending.wanted = true;
        const timer = new AbortController();
        await Promise.race([
          pending.done,
          sleep(COALESCE_WAIT_MS, undefined, { signal: timer.signal }).catch(() => {}),
        ]);
        timer.abort();
        entry = fresh(request.url, version);
      }
      if (!entry?.body) {
        if (!computing.has(key)) {
          let finish = () => {};
          const done = new Promise<void>((resolve) => (finish = resolve));
          const record: Computing = {
            done,
            wanted: false,
            release: () => {
              if (computing.get(key) === record) computing.delete(key);
              finish();
            },
          };
          computing.set(key, record);
          request.cacheComputing = record;
        }
        return;
      }
    }
    request.cacheVersion = null;
    reply.header('etag', entry.etag);
    if (matches(request, entry.etag)) return reply.code(304).send();
    return reply.type('application/json; charset=utf-8').send(entry.body);
  });
  // However the computing request ends (answered, failed, client gone), the waiting ones go on.
  app.addHook('onResponse', async (request) => release(request));
  app.addHook('onRequestAbort', async (request) => release(request));

  app.addHook('onSend', async (request, reply, payload) => {
    const version = request.cacheVersion;
    if (version === null || reply.statusCode !== 200 || typeof payload !== 'string') return payload;
    const etag = etagOf(payload);
    reply.header('etag', etag);
    // Asked for before (any version, any age) or by others while computed: worth its bytes.
    const wanted = entries.has(request.url) || request.cacheComputing?.wanted === true;
    drop(request.url);
    // Kept as UTF-8 bytes: counted exactly against maxBytes, off the JavaScript heap.
    const body = wanted ? Buffer.from(payload) : null;
    if (body === null || body.length <= options.maxBytes / 8) {
      entries.set(request.url, { version, storedAt: options.now().getTime(), etag, body });
      bytes += body?.length ?? 0;
      for (const url of entries.keys()) {
        if (bytes <= options.maxBytes && entries.size <= MAX_ENTRIES) break;
        drop(url);
      }
    }
    release(request);
    if (!matches(request, etag)) return payload;
    reply.code(304);
    return '';
  });
}
