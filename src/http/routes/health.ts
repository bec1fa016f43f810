import { Type } from 'typebox';
import { NoQuery } from '../../schemas/common.js';
import { ApiError } from '../../services/errors.js';
import { PLATFORM_ERRORS } from '../error-catalogue.js';
import { type Probe, type Readiness, runProbes } from '../readiness.js';
import type { Api } from '../route-deps.js';

const CheckOutcome = Type.Union([Type.Literal('ok'), Type.Literal('timeout'), Type.Literal('unreachable')]);

/** The search index's state as /readyz reports it (SearchIndexes.ready; "off" with SEARCH_INDEX=false). */
export type SearchIndexState = 'ready' | 'warming' | 'off';

const SearchIndexOutcome = Type.Union([Type.Literal('ready'), Type.Literal('warming'), Type.Literal('off')], {
  description:
    'The in-memory search index: ready; warming (being built after a start or rebuilt, searches and figures ' +
    'meanwhile come from SQL: the same answers, slower); off (SEARCH_INDEX=false). Not a reason to withhold traffic.',
});

export function healthRoutes(
  app: Api,
  readiness: Readiness,
  probes: Readonly<Record<string, Probe>>,
  searchIndex: () => SearchIndexState,
): void {
  app.get(
    '/healthz',
    {
      config: { budget: 'exempt' },
      schema: {
        operationId: 'getHealth',
        summary: 'Liveness',
        description: 'Answers 200 while the process is up. It does not check the database (see /readyz).',
        tags: ['Platform'],
        querystring: NoQuery,
        response: {
          200: {
            ...Type.Object({ status: Type.Literal('ok') }, { additionalProperties: false }),
            description: 'The process is up (outside every rate limit).',
          },
          // Outside every budget and never authenticated: no 401 or 429 here.
          ...PLATFORM_ERRORS,
        },
      },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/readyz',
    {
      config: { budget: 'exempt' },
      schema: {
        operationId: 'getReadiness',
        summary: 'Readiness',
        description:
          'Answers 200 when this instance should get traffic: the database answers and, when REDIS_URL is set, ' +
          'Redis answers, each within 2 s (search_index says whether searches use the in-memory index yet). Answers 503 while either does not, and from the moment the instance ' +
          'received SIGTERM until it exits (requests in flight still finish). For load balancers and orchestrators; ' +
          'outside every rate limit.',
        tags: ['Platform'],
        querystring: NoQuery,
        response: {
          200: {
            ...Type.Object(
              {
                status: Type.Literal('ready'),
                search_index: SearchIndexOutcome,
                checks: Type.Object(
                  { database: CheckOutcome, redis: Type.Optional(CheckOutcome) },
                  {
                    additionalProperties: false,
                    description: 'Each dependency checked; redis only when REDIS_URL is set.',
                  },
                ),
              },
              { additionalProperties: false },
            ),
            description: 'Ready for traffic.',
          },
          ...PLATFORM_ERRORS,
          503: {
            $ref: 'ApiError',
            description:
              'Not ready: shutting down, or a dependency (named in the message) does not answer. Retry-After says when to ask again.',
          },
        },
      },
    },
    async () => {
      if (readiness.draining) throw notReady('This instance is shutting down.', 'Send requests to another instance.');
      const checks = await runProbes(probes);
      const failing = Object.entries(checks).filter(([, outcome]) => outcome !== 'ok');
      if (failing.length > 0) {
        const names = failing.map(([name, outcome]) => `${name} (${outcome})`).join(', ');
        throw notReady(`Not ready: ${names} did not answer.`, 'Ask again in a few seconds.');
      }
      return {
        status: 'ready' as const,
        search_index: searchIndex(),
        checks: checks as { database: 'ok'; redis?: 'ok' },
      };
    },
  );
}

function notReady(message: string, suggestion: string): ApiError {
  return new ApiError(503, 'service_unavailable', message, { suggestion, headers: { 'retry-after': '5' } });
}
