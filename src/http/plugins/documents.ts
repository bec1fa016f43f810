import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import type { RateLimitStore } from '../../rate-limit/store.js';
import { ApiError } from '../../services/errors.js';
import { clientKey, countRequest, setBudgetHeaders } from '../budget.js';
import { type Coding, codingFor, type Encode, varyOnEncoding } from '../compression.js';
import { etagOf, matches } from './response-cache.js';

export interface DocumentsOptions {
  store: RateLimitStore;
  /** Requests per minute per client address over all documents (DOCS_RATE_LIMIT_PER_MIN). */
  perMinute: number;
  now: () => Date;
  /** Compresses a document the first time a client asks for it in a coding (compression.ts). */
  encode: Encode;
}

const same = (a: string | Buffer, b: string | Buffer) =>
  typeof a === 'string' ? a === b : Buffer.isBuffer(b) && a.equals(b);

/** Documents whose tag and codings are kept at once (the pages, the OpenAPI document and its parts). */
const MAX_KNOWN_DOCUMENTS = 64;

/** The policy name in the RateLimit headers of documents, next to the tiers'. */
const POLICY = 'documents';

/**
 * Makes the plugin it is called in the home of the documents: every route registered there (also
 * those of plugins such as Swagger UI, which take no route options from us) gets `budget: 'documents'`
 * in its config, which the tier budgets skip (an integrator reading the docs loses no API calls). In
 * exchange documents have a budget of their own per client address, in the same store as the tiers
 * (shared through Redis), and their answers are cheap to repeat: an ETag (If-None-Match gives a 304
 * without a body) and brotli or gzip as Accept-Encoding allows.
 */
export async function documentScope(scope: FastifyInstance, options: DocumentsOptions): Promise<void> {
  scope.addHook('onRoute', (route) => {
    route.config = { ...route.config, budget: 'documents', compression: 'own' };
  });
  // Only here: the API's JSON answers have their own compression (plugins/compression.ts, which
  // the `compression: 'own'` above keeps out), with a coding per ETag and compressed bytes the
  // response cache keeps; a global registration would also reach the SSE stream. The documents
  // include streamed files (Swagger UI's assets), which this plugin compresses as they are read.
  // Brotli at quality 4 (the plugin's default); per request, so the documents budget bounds what
  // one address can make the server compress.
  await scope.register(compress, {
    global: true,
    encodings: ['br', 'gzip'],
    globalDecompression: false,
    // JSON, YAML (/docs/yaml) and text; other types as the MIME database says (scripts, styles).
    customTypes: /^text\/|[+/]json\b|[+/](?:x-)?yaml\b/,
  });

  scope.addHook('onRequest', async (request, reply) => {
    const now = options.now();
    const hit = await countRequest(options.store, `${POLICY}:${clientKey(request.ip)}`, request);
    const resetSeconds = Math.max(1, Math.ceil(hit.resetMs / 1000));
    setBudgetHeaders(reply, POLICY, options.perMinute, Math.max(0, options.perMinute - hit.count), resetSeconds, now);
    if (hit.count > options.perMinute) {
      throw new ApiError(
        429,
        'rate_limit_exceeded',
        `The documents (/docs, /v1/openapi.json, /llms.txt, /.well-known/api-catalog) allow ${options.perMinute} requests per minute per address; this one was over.`,
        {
          suggestion: `Wait ${resetSeconds} s (Retry-After). Keep a copy and send its ETag in If-None-Match: a 304 is quick, though it counts too. API calls have their own budget and are still served.`,
          headers: { 'retry-after': String(resetSeconds) },
        },
      );
    }
  });

  // A document is the same for the life of the process (the /docs page differs only by its URL's
  // trailing slash), so each URL's tag, and its bytes in each coding, are made once and reused
  // while its body is the same: a 167 KB OpenAPI document costs ~20 ms of brotli, once, not per
  // request. Compressed here, the answer carries Content-Encoding and the compress plugin leaves
  // it be; what it still compresses per request are the streamed assets of Swagger UI.
  const known = new Map<string, { body: string | Buffer; etag: string; coded: Partial<Record<Coding, Buffer>> }>();
  scope.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode !== 200 || !(typeof payload === 'string' || Buffer.isBuffer(payload))) return payload;
    // By URL: the OpenAPI document's parts (?tags=) are documents of their own beside the whole.
    const url = request.url;
    let document = known.get(url);
    if (!document || !same(document.body, payload)) {
      document = { body: payload, etag: etagOf(payload), coded: {} };
      // Bounded: odd query strings cannot grow it (the documents budget bounds how fast they come).
      if (!known.has(url) && known.size >= MAX_KNOWN_DOCUMENTS) known.clear();
      known.set(url, document);
    }
    reply.header('etag', document.etag);
    if (matches(request, document.etag)) {
      reply.code(304);
      return '';
    }
    const coding = codingFor(request, Buffer.byteLength(payload));
    if (coding === null) return payload;
    let coded = document.coded[coding];
    if (!coded) {
      coded = options.encode(payload, coding);
      document.coded[coding] = coded;
    }
    varyOnEncoding(reply);
    reply.header('content-encoding', coding);
    reply.header('content-length', coded.length);
    return coded;
  });
}
