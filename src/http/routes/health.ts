import { Type } from 'typebox';
import { NoQuery } from '../schemas/common.js';
import type { Api } from './route-kit.js';

export function healthRoutes(app: Api): void {
  app.get(
    '/healthz',
    {
      schema: {
        operationId: 'getHealth',
        summary: 'Liveness',
        description: 'Answers 200 while the process is up. It does not check the database.',
        tags: ['Platform'],
        querystring: NoQuery,
        response: {
          200: {
            ...Type.Object({ status: Type.Literal('ok') }, { additionalProperties: false }),
            description: 'The process is up (outside every rate limit).',
          },
          // Outside every budget and never authenticated: no 401 or 429 here.
          400: { $ref: 'ApiError', description: 'A query parameter was given; this endpoint takes none.' },
          500: { $ref: 'ApiError', description: 'Unexpected server error.' },
        },
      },
    },
    async () => ({ status: 'ok' as const }),
  );
}
