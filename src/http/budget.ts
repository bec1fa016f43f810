import type { FastifyReply, FastifyRequest } from 'fastify';
import { RATE_WINDOW_SECONDS } from '../domain/tiers.js';
import type { RateLimitStore, WindowHit } from '../rate-limit/store.js';
import { ApiError } from '../services/errors.js';

/**
 * Budgets per client: who a client is (its address, or its /64), how a request is counted and how
 * the budget is announced. Shared by the tier budgets (plugins/access.ts), the documents' budget
 * (plugins/documents.ts), connections per address (connections.ts) and streams per caller.
 */

/**
 * The address a budget belongs to. An IPv6 client usually holds a whole /64, so its budget is per
 * /64; IPv4 (also IPv4-mapped IPv6) per address.
 */
export function clientKey(ip: string): string {
  if (!ip.includes(':') || /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(ip)) return ip.replace(/^::ffff:/i, '');
  const [head = '', tail = ''] = ip.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = ip.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left;
  const prefix = groups.slice(0, 4).map((g) => Number.parseInt(g || '0', 16).toString(16));
  return `${prefix.join(':')}::/64`;
}

/** Counts `request` in `bucket`'s window; a store that does not answer is a 503, never a free pass. */
export async function countRequest(
  store: RateLimitStore,
  bucket: string,
  request: FastifyRequest,
  windowMs = RATE_WINDOW_SECONDS * 1000,
): Promise<WindowHit> {
  try {
    return await store.hit(bucket, windowMs);
  } catch (error) {
    request.log.error({ err: error }, 'rate limit store unavailable');
    throw new ApiError(503, 'service_unavailable', 'The service cannot count requests right now.', {
      suggestion: 'Try again in a few seconds.',
      headers: { 'retry-after': '5' },
    });
  }
}

/** The budget's headers; `policy` names it: a tier, or "documents". */
export function setBudgetHeaders(
  reply: FastifyReply,
  policy: string,
  limit: number,
  remaining: number,
  resetSeconds: number,
  now: Date,
): void {
  reply.header('RateLimit-Policy', `"${policy}";q=${limit};w=${RATE_WINDOW_SECONDS}`);
  reply.header('RateLimit', `"${policy}";r=${remaining};t=${resetSeconds}`);
  reply.header('X-RateLimit-Limit', String(limit));
  reply.header('X-RateLimit-Remaining', String(remaining));
  reply.header('X-RateLimit-Reset', String(Math.ceil(now.getTime() / 1000) + resetSeconds));
}
