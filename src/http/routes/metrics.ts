import { createHash, timingSafeEqual } from 'node:crypto';
import { NoQuery } from '../../schemas/common.js';
import { ApiError } from '../../services/errors.js';
import { PLATFORM_ERRORS } from '../error-catalogue.js';
import type { Metrics } from '../metrics.js';
import type { Api } from '../route-deps.js';

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * GET /metrics in Prometheus' text format, for the operator's scraper only: off (404) unless
 * METRICS_TOKEN is set, and then only with `Authorization: Bearer <METRICS_TOKEN>` (401 otherwise).
 * Compared as SHA-256 digests in constant time, so the answer's timing tells nothing about the token.
 * Outside every rate-limit budget, like /healthz.
 */
export function metricsRoutes(app: Api, metrics: Metrics, token: string | undefined): void {
  const expected = token === undefined ? null : digest(`Bearer ${token}`);
  app.get(
    '/metrics',
    {
      config: { budget: 'exempt' },
      schema: {
        operationId: 'getMetrics',
        summary: 'Prometheus metrics (operator only)',
        description:
          'Requests and latency by route pattern and status, rate-limit refusals by tier, database pool use, and ' +
          "the process's own figures, in Prometheus' text format. Off unless the operator sets METRICS_TOKEN; " +
          'then only for `Authorization: Bearer <METRICS_TOKEN>`. Outside every rate limit.',
        tags: ['Platform'],
        querystring: NoQuery,
        security: [{ MetricsToken: [] }],
        response: {
          200: {
            description: 'The metrics (text/plain; version=0.0.4).',
            content: { 'text/plain': { schema: { type: 'string' } } },
          },
          ...PLATFORM_ERRORS,
          401: { $ref: 'ApiError', description: 'Authorization is missing or not the configured token.' },
          404: { $ref: 'ApiError', description: 'Metrics are off on this instance (no METRICS_TOKEN).' },
        },
      },
    },
    async (request, reply) => {
      if (!expected) {
        throw new ApiError(404, 'not_found', 'Metrics are not enabled on this instance.', {
          suggestion: 'The operator turns /metrics on by setting METRICS_TOKEN, and scrapes it with that token.',
        });
      }
      const given = request.headers.authorization;
      if (typeof given !== 'string' || !timingSafeEqual(digest(given), expected)) {
        throw new ApiError(401, 'authentication_required', 'GET /metrics needs the operator’s metrics token.', {
          param: 'Authorization',
          suggestion: 'Send Authorization: Bearer <METRICS_TOKEN>, as configured on the server.',
          headers: { 'www-authenticate': 'Bearer realm="metrics"' },
        });
      }
      const text = await metrics.text();
      return reply.header('cache-control', 'no-store').type(metrics.contentType).send(text);
    },
  );
}
