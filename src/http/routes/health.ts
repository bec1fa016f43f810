import { Type } from 'typebox';
import { NoQuery } from '../schemas/common.js';
import { type Api, errorResponses, ok } from './route-kit.js';

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
          200: ok(Type.Object({ status: Type.Literal('ok') }, { additionalProperties: false }), 'The process is up.'),
          ...errorResponses(400),
        },
      },
    },
    async () => ({ status: 'ok' as const }),
  );
}
