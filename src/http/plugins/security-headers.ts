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

const ALLOWED_METHODS = 'GET, HEAD, POST, PATCH, DELETE';
const ALLOWED_HEADERS =
  'X-API-Key, Authorization, Content-Type, Idempotency-Key, If-None-Match, X-Request-Id, Last-Event-ID, Mcp-Protocol-Version';
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

/**
 * Security headers on every response, and the CORS policy.
 *
 * CORS: the API authenticates with the X-API-Key header (or Authorization: Bearer), never with
 * cookies, so a browser sends no ambient credentials a foreign page could abuse: every origin may
 * read (CORS_ORIGINS=*, the default), or only the listed ones. Credentials are never allowed. A
 * preflight (OPTIONS with Access-Control-Request-Method) is answered 204 here, before rate limiting
 * and routing: it asks permission and costs no budget.
 */
export function registerSecurityHeaders(app: FastifyInstance, options: SecurityOptions): void {
  const anyOrigin = options.corsOrigins === '*';
  const origins = new Set(anyOrigin ? [] : options.corsOrigins.split(','));
  const hsts = options.publicUrl?.startsWith('https://') ?? false;

  /** The Access-Control-Allow-Origin for this Origin header, or null when it may not read. */
  const allowOrigin = (origin: string | undefined): string | null => {
    if (origin === undefined) return null;
    if (anyOrigin) return '*';
    return origins.has(origin) ? origin : null;
  };

  const common = (reply: FastifyReply, origin: string | undefined) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('x-frame-options', 'DENY');
    reply.header('referrer-policy', 'no-referrer');
    reply.header('cross-origin-resource-policy', anyOrigin ? 'cross-origin' : 'same-site');
    if (hsts) reply.header('strict-transport-security', 'max-age=31536000');
    const allowed = allowOrigin(origin);
    if (allowed) {
      reply.header('access-control-allow-origin', allowed);
      reply.header('access-control-expose-headers', EXPOSED);
    }
    if (!anyOrigin) reply.header('vary', 'Origin');
  };

  app.addHook('onRequest', async (request, reply) => {
    const origin = request.headers.origin;
    common(reply, origin);
    if (request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined) {
      if (allowOrigin(origin)) {
        reply.header('access-control-allow-methods', ALLOWED_METHODS);
        reply.header('access-control-allow-headers', ALLOWED_HEADERS);
        reply.header('access-control-max-age', PREFLIGHT_MAX_AGE);
      }
      // Without the allow headers the browser refuses the actual request; the answer is the same 204.
      return reply.code(204).header('cache-control', 'no-store').send();
    }
  });

  // Pages (docs, the developer form) set their own policy; JSON gets the strictest one.
  app.addHook('onSend', async (_request, reply, payload) => {
    const type = reply.getHeader('content-type');
    if (!reply.hasHeader('content-security-policy') && (typeof type !== 'string' || !type.startsWith('text/html'))) {
      reply.header('content-security-policy', JSON_CSP);
    }
    return payload;
  });
}
