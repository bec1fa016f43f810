import type { FastifyRequest } from 'fastify';
import type { RateLimitStore } from '../rate-limit/store.js';
import { ApiError } from '../services/errors.js';
import { clientKey, countRequest } from './budget.js';

const HOUR_MS = 3_600_000;

/**
 * The hourly budget of reports (POST /v1/reports, DSA notices): per key for key holders, per client
 * address (an IPv6 /64) for everyone else, in the same store as the tier budgets (Redis when set),
 * so notices cannot be used to flood the moderators. A store that does not answer is a 503 (countRequest).
 */
export function reportBudget(store: RateLimitStore, perHour: number) {
  return async (request: FastifyRequest): Promise<void> => {
    const key = request.access?.key;
    const bucket = key ? `reports:key:${key.lineage_id}` : `reports:${clientKey(request.ip)}`;
    const hit = await countRequest(store, bucket, request, HOUR_MS);
    if (hit.count > perHour) {
      const wait = Math.max(1, Math.ceil(hit.resetMs / 1000));
      throw new ApiError(
        429,
        'rate_limit_exceeded',
        `At most ${perHour} reports an hour may be filed from one address or key.`,
        {
          suggestion: `Wait ${wait} s (Retry-After). For many reports at once, write to the platform instead.`,
          headers: { 'retry-after': String(wait) },
        },
      );
    }
  };
}
