import { hash } from 'node:crypto';
import type { OutgoingHttpHeaders } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Language } from '../../domain/notifications.js';
import { type Coding, codedTag, codingFor, type Encode, varyOnEncoding } from '../compression.js';
import { requestLanguage, sayLanguage } from '../language.js';

/** Answers remembered at most (with or without their body): bounds the memory of the tags too. */
const MAX_ENTRIES = 20_000;

/** How long a read waits for the same read in progress before it runs its own query. */
const COALESCE_WAIT_MS = 30_000;

interface Entry {
  version: string;
  storedAt: number;
  /** The tag of the answer as it is; each coding has its own (compression.ts, codedTag). */
  etag: string;
  /** Bytes of the answer as it is: they decide whether it is compressed, also when only the tag is kept. */
  size: number;
  /**
   * The serialized answer, UTF-8; null for an answer given once: only its tag is kept (enough for
   * a 304), the body when the URL is asked for again. One-off searches then cost no cache memory.
   */
  body: Buffer | null;
  /** The body compressed, per coding: made the first time a client asks for it, then reused. */
  coded: Partial<Record<Coding, Buffer>>;
  /** The language it speaks (a route with `language`): said again, with Vary, when it is reused. */
  language: Language | null;
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
  /** Bytes of answers kept at most, compressed ones included; the oldest stored go first. */
  maxBytes: number;
  /** Compresses a kept body the first time a client asks for it in a coding (compression.ts). */
  encode: Encode;
  /**
   * What the app's onSend hooks add to a reused JSON answer, those that run before this plugin's
   * (the security headers' Content-Security-Policy) and those after it (Connection: close while
   * draining): an early answer is written without any onSend hook, so they are applied here, in the
   * order the hooks run. The equivalence test holds both ways to the same bytes and header order.
   */
  sealed: { before: (reply: FastifyReply) => void; after: (reply: FastifyReply) => void };
}

export interface ResponseCacheStats {
  /** Bytes the kept answers take now, as they are and compressed. */
  bytes(): number;
  /** Answers given from the earliest hook (the fast path), since the start. */
  earlyAnswers(): number;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * `public`: a read whose answer depends only on the URL and the data, never on the caller (no
     * key, tier or account changes it), so its GET answers may be reused for everyone while the
     * data stays the same. Without it a route's answers are never cached.
     */
    cache?: 'public';
    /**
     * The answer speaks the request's language (Accept-Language, issue 36): kept once per language,
     * and reused with its Content-Language and Vary: Accept-Language.
     */
    language?: true;
  }
  interface FastifyRequest {
    /** Set on a request that computes an answer others may wait for. */
    cacheComputing: Computing | null;
    cacheVersion: string | null;
  }
}

export const etagOf = (body: string | Buffer) => `W/"${hash('sha1', body, 'base64url').slice(0, 22)}"`;

export function matches(request: FastifyRequest, etag: string): boolean {
  const header = request.headers['if-none-match'];
  if (!header) return false;
  return header === '*' || header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag.slice(2));
}

const heldBytes = (entry: Entry) =>
  (entry.body?.length ?? 0) + (entry.coded.br?.length ?? 0) + (entry.coded.gzip?.length ?? 0);

/** A 304 for the representation tagged `etag`, with the headers its 200 would have. */
function notModified(reply: FastifyReply, etag: string) {
  varyOnEncoding(reply);
  return reply.header('etag', etag).code(304).send();
}

/**
 * Reuses the serialized answer of a public read (a route with `config: { cache: 'public' }`) while
 * the data has not changed (Db.version, taken before the query, moves with every write, here or on
 * another instance or process) and for at most `ttlMs`. Every answer carries an ETag; a request
 * whose If-None-Match matches a reusable answer gets a 304 without any query. Rate limits apply as
 * to every request (they run before this). A body is kept from the second time its URL is asked
 * for; the same read asked while it is being computed waits for that answer instead of computing it
 * again.
 *
 * Compression (compression.ts): an answer goes in the coding the request accepts best (brotli or
 * gzip from 1 KiB), tagged per coding, with Vary: Accept-Encoding. A kept body is compressed once
 * per coding, when first asked for in it; the compressed bytes count against maxBytes.
 */
export function registerResponseCache(app: FastifyInstance, options: ResponseCacheOptions): ResponseCacheStats {
  app.decorateRequest('cacheVersion', null);
  app.decorateRequest('cacheComputing', null);
  if (options.ttlMs <= 0) return { bytes: () => 0, earlyAnswers: () => 0 };
  let earlyAnswers = 0;
  const entries = new Map<string, Entry>();
  const computing = new Map<string, Computing>();
  let bytes = 0;
  const drop = (url: string) => {
    const entry = entries.get(url);
    if (!entry) return;
    bytes -= heldBytes(entry);
    entries.delete(url);
  };
  const evict = () => {
    for (const url of entries.keys()) {
      if (bytes <= options.maxBytes && entries.size <= MAX_ENTRIES) break;
      drop(url);
    }
  };
  /** The kept body in a coding: compressed the first time, then reused while the entry is kept. */
  const codedBody = (url: string, entry: Entry, body: Buffer, coding: Coding): Buffer => {
    let coded = entry.coded[coding];
    if (!coded) {
      coded = options.encode(body, coding);
      // An entry already dropped (evicted as it was stored) is no longer counted: nothing to keep.
      if (entries.get(url) === entry) {
        entry.coded[coding] = coded;
        bytes += coded.length;
        evict();
      }
    }
    return coded;
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
  /** What an answer is kept under: its URL, and its language where the route speaks the caller's. */
  const keyOf = (request: FastifyRequest) =>
    request.routeOptions.config?.language ? `${request.url}\u0000${requestLanguage(request)}` : request.url;
  /** The headers the handler gave the kept answer before the hooks ran (its language). */
  const sayAgain = (reply: FastifyReply, entry: Entry) => {
    if (entry.language) sayLanguage(reply, entry.language);
  };

  /**
   * The fast path (issue 34): a kept answer goes out from the first hook after access and the rate
   * limit (onRequest, registered after them), its stored bytes with the headers the hooks before
   * set (request id, security, budget) and those the later hooks would add, written to the socket
   * at once: no body parsing, no guards or validation, no handler, no onSend chain, no serializer.
   * Only what they could not change is taken this way: a GET of a public route, without a body
   * (the guards read bodies), whose URL was answered 200 at the same data version (validation
   * depends on the URL alone) and that is not a revalidation (304s take the path below). onResponse
   * hooks (metrics, the log line) still run.
   */
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.method !== 'GET' || request.routeOptions.config?.cache !== 'public') return;
    const { headers } = request;
    if (headers['content-length'] !== undefined || headers['transfer-encoding'] !== undefined) return;
    const key = keyOf(request);
    const entry = fresh(key, await options.version(request));
    if (!entry?.body) return;
    const coding = codingFor(request, entry.size);
    const etag = codedTag(entry.etag, coding);
    if (matches(request, etag)) return;
    const body = coding === null ? entry.body : codedBody(key, entry, entry.body, coding);
    // In the order a computed answer gets them: the handler's language, its type (the serializer),
    // the onSend hooks before this plugin's, this plugin's onSend, those after it, and the length
    // (Fastify, last).
    sayAgain(reply, entry);
    reply.type('application/json; charset=utf-8');
    options.sealed.before(reply);
    varyOnEncoding(reply);
    reply.header('etag', etag);
    if (coding !== null) reply.header('content-encoding', coding);
    options.sealed.after(reply);
    reply.header('content-length', String(body.length));
    earlyAnswers++;
    reply.hijack();
    reply.raw.writeHead(200, reply.getHeaders() as OutgoingHttpHeaders);
    reply.raw.end(body);
  });

  app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.method !== 'GET' || request.routeOptions.config?.cache !== 'public') return;
    const version = await options.version(request);
    request.cacheVersion = version;
    const url = keyOf(request);
    let entry = fresh(url, version);
    if (entry && !entry.body) {
      const etag = codedTag(entry.etag, codingFor(request, entry.size));
      if (matches(request, etag)) {
        request.cacheVersion = null;
        sayAgain(reply, entry);
        return notModified(reply, etag);
      }
    }
    if (!entry?.body) {
      // One computation per answer at a time: a burst of the same expensive read (stats over a
      // large dataset) costs one query, not one per request.
      const key = `${version}\u0000${url}`;
      const pending = computing.get(key);
      if (pending) {
        pending.wanted = true;
        const timer = new AbortController();
        await Promise.race([
          pending.done,
          sleep(COALESCE_WAIT_MS, undefined, { signal: timer.signal }).catch(() => {}),
        ]);
        timer.abort();
        entry = fresh(url, version);
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
    const coding = codingFor(request, entry.size);
    const etag = codedTag(entry.etag, coding);
    sayAgain(reply, entry);
    if (matches(request, etag)) return notModified(reply, etag);
    varyOnEncoding(reply);
    reply.header('etag', etag).type('application/json; charset=utf-8');
    if (coding === null) return reply.send(entry.body);
    return reply.header('content-encoding', coding).send(codedBody(url, entry, entry.body, coding));
  });
  // However the computing request ends (answered, failed, client gone), the waiting ones go on.
  app.addHook('onResponse', async (request) => release(request));
  app.addHook('onRequestAbort', async (request) => release(request));

  app.addHook('onSend', async (request, reply, payload) => {
    const version = request.cacheVersion;
    if (version === null || reply.statusCode !== 200 || typeof payload !== 'string') return payload;
    const url = keyOf(request);
    const size = Buffer.byteLength(payload);
    // Asked for before (any version, any age) or by others while computed: worth its bytes.
    const wanted = entries.has(url) || request.cacheComputing?.wanted === true;
    drop(url);
    const entry: Entry = {
      version,
      storedAt: options.now().getTime(),
      etag: etagOf(payload),
      size,
      // Kept as UTF-8 bytes: counted exactly against maxBytes, off the JavaScript heap.
      body: wanted ? Buffer.from(payload) : null,
      coded: {},
      language: request.routeOptions.config?.language
        ? ((reply.getHeader('content-language') as Language | undefined) ?? null)
        : null,
    };
    if (entry.body === null || size <= options.maxBytes / 8) {
      entries.set(url, entry);
      bytes += heldBytes(entry);
      evict();
    }
    release(request);
    const coding = codingFor(request, size);
    const etag = codedTag(entry.etag, coding);
    varyOnEncoding(reply);
    reply.header('etag', etag);
    if (matches(request, etag)) {
      reply.code(304);
      return '';
    }
    if (coding === null) return payload;
    reply.header('content-encoding', coding);
    return entry.body ? codedBody(url, entry, entry.body, coding) : options.encode(payload, coding);
  });
  return { bytes: () => bytes, earlyAnswers: () => earlyAnswers };
}
