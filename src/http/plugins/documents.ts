import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import type { RateLimitStore } from '../../rate-limit/store.js';
import { ApiError } from '../../services/errors.js';
import { clientKey, countRequest, setBudgetHeaders } from '../budget.js';
import { etagOf, matches } from './response-cache.js';

export interface DocumentsOptions {
  store: RateLimitStore;
  /** Requests per minute per client address over all documents (DOCS_RATE_LIMIT_PER_MIN). */
  perMinute: number;
  now: () => Date;
}

const same = (a: string | Buffer, b: string | Buffer) =>
  typeof a === 'string' ? a === b : Buffer.isBuffer(b) && a.equals(b);

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
    route.config = { ...route.config, budget: 'documents' };
  });
  // Only here: a global registration would compress the API's answers and streams too (issue 16).
  // Brotli at quality 4 (the plugin's default) costs about the CPU of gzip; per request, so the
  // documents budget bounds what one address can make the server compress.
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
  // trailing slash), so each route's tag is computed once and reused while its body is the same.
  const tags = new Map<string, { body: string | Buffer; etag: string }>();
  scope.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode !== 200 || !(typeof payload === 'string' || Buffer.isBuffer(payload))) return payload;
    const route = request.routeOptions.url ?? '';
    let known = tags.get(route);
    if (!known || !same(known.body, payload)) {
      known = { body: payload, etag: etagOf(payload) };
      tags.set(route, known);
    }
    reply.header('etag', known.etag);
    if (!matches(request, known.etag)) return payload;
    reply.code(304);
    return '';
  });
}
