import type { FastifyInstance, FastifyReply } from 'fastify';

/** Headers a browser may read from a cross-origin response (the rest stay hidden from scripts). */
const EXPOSED = [
  'ETag',
  'Location',
  'Retry-After',
  'Allow',
  'X-Request-Id',
  'Idempotent-Replayed',
  'RateLimit',
  'RateLimit-Policy',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
].join(', ');

const ALLOWED_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE';
const ALLOWED_HEADERS =
  'X-API-Key, Authorization, Content-Type, Idempotency-Key, If-None-Match, X-Request-Id, Last-Event-ID, Mcp-Protocol-Version, DPoP';
/** How long a browser may reuse a preflight answer, in seconds. */
const PREFLIGHT_MAX_AGE = '600';

/** JSON answers render nothing, load nothing and may not be framed. */
export const JSON_CSP = "default-src 'none'; frame-ancestors 'none'";

export interface SecurityOptions {
  /** CORS_ORIGINS: '*' or a comma-separated list of origins. */
  corsOrigins: string;
  /** PUBLIC_URL: over https, responses carry Strict-Transport-Security. */
  publicUrl?: string | undefined;
}

/** The headers of one answer, and whether an Origin may read answers (see securityPolicy). */
export interface SecurityPolicy {
  allowOrigin(origin: string | undefined): string | null;
  /**
   * What every answer carries, also the ones written before any hook runs (router errors) or
   * straight to the socket (408, 431, malformed requests: see early-errors.ts).
   */
  headersFor(origin: string | undefined): Readonly<Record<string, string>>;
  /** headersFor, with the Content-Security-Policy of a JSON answer (the onSend hook adds it to the rest). */
  jsonHeadersFor(origin: string | undefined): Record<string, string>;
}

/**
 * The security headers and the CORS policy, defined once.
 *
 * CORS: the API authenticates with the X-API-Key header (or Authorization: Bearer), never with
 * cookies, so a browser sends no ambient credentials a foreign page could abuse: every origin may
 * read (CORS_ORIGINS=*, the default), or only the listed ones. Credentials are never allowed.
 */
export function securityPolicy(options: SecurityOptions): SecurityPolicy {
  const anyOrigin = options.corsOrigins === '*';
  const origins = new Set(anyOrigin ? [] : options.corsOrigins.split(','));
  const fixed: Record<string, string> = {
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cross-origin-resource-policy': anyOrigin ? 'cross-origin' : 'same-site',
    ...(options.publicUrl?.startsWith('https://') ? { 'strict-transport-security': 'max-age=31536000' } : {}),
    ...(anyOrigin ? {} : { vary: 'Origin' }),
  };
  const allowOrigin = (origin: string | undefined): string | null => {
    if (origin === undefined) return null;
    if (anyOrigin) return '*';
    return origins.has(origin) ? origin : null;
  };
  // Computed once (issue 34): an answer without an Origin, and one per origin that may read.
  const withoutOrigin: Readonly<Record<string, string>> = Object.freeze({ ...fixed });
  const readable = new Map<string, Readonly<Record<string, string>>>();
  const headersFor = (origin: string | undefined): Readonly<Record<string, string>> => {
    const allowed = allowOrigin(origin);
    if (!allowed) return withoutOrigin;
    let headers = readable.get(allowed);
    if (!headers) {
      headers = Object.freeze({
        ...fixed,
        'access-control-allow-origin': allowed,
        'access-control-expose-headers': EXPOSED,
      });
      readable.set(allowed, headers);
    }
    return headers;
  };
  return {
    allowOrigin,
    headersFor,
    jsonHeadersFor: (origin) => ({ ...headersFor(origin), 'content-security-policy': JSON_CSP }),
  };
}

/**
 * Security headers on every response (securityPolicy). A preflight (OPTIONS with
 * Access-Control-Request-Method) is answered 204 here, before rate limiting and routing: it asks
 * permission and costs no budget.
 */
export function registerSecurityHeaders(app: FastifyInstance, policy: SecurityPolicy): void {
  app.addHook('onRequest', async (request, reply) => {
    const origin = request.headers.origin;
    reply.headers(policy.headersFor(origin));
    if (request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined) {
      if (policy.allowOrigin(origin)) {
        reply.header('access-control-allow-methods', ALLOWED_METHODS);
        reply.header('access-control-allow-headers', ALLOWED_HEADERS);
        reply.header('access-control-max-age', PREFLIGHT_MAX_AGE);
      }
      // Without the allow headers the browser refuses the actual request; the answer is the same 204.
      return reply.code(204).header('cache-control', 'no-store').send();
    }
  });

  app.addHook('onSend', async (_request, reply, payload) => {
    strictPolicyUnlessPage(reply);
    return payload;
  });
}

/**
 * Pages (docs, the developer form) set their own Content-Security-Policy; every other answer gets
 * the strictest one. The onSend hook above, and the response cache's early answers, which no
 * onSend hook sees (response-cache.ts).
 */
export function strictPolicyUnlessPage(reply: FastifyReply): void {
  const type = reply.getHeader('content-type');
  if (!reply.hasHeader('content-security-policy') && (typeof type !== 'string' || !type.startsWith('text/html'))) {
    reply.header('content-security-policy', JSON_CSP);
  }
}
