import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { API_VERSION } from '../../domain/tiers.js';

const DESCRIPTION = `A JSON REST API for the Karlsruhe area: jobs for local helpers (gardening, cleaning, moving, tech repair, childcare, pet care, shopping, events, borrowing, other) and items to borrow or rent by the day or week with a deposit.

All endpoints are under \`/v1\`, answer JSON and need no SDK. Every error is an \`ApiError\` with a stable \`error\` code, the offending \`param\`, a \`suggestion\` and \`alternatives\`.

Decisions where the specification leaves things open are written into the descriptions of the operations and schemas here: job and listing states, the bodies of categories, availability and statistics, the \`hours\` synonym of \`duration_hours\`, the maximum radius of availability (50 km) and the error codes.`;

/** OpenAPI 3.1 generated from the route schemas, served at /v1/openapi.json, rendered at /docs. */
export async function registerDocs(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Karlsruhe Local Services Marketplace and Item Lending API',
        version: API_VERSION,
        description: DESCRIPTION,
        license: { name: 'Proprietary', url: 'https://example.org/terms' },
        contact: { name: 'API team', email: 'api@example.org' },
      },
      servers: [{ url: '/', description: 'The server that serves this document' }],
      // Every operation is public today: no credential is read. Saying so explicitly (an empty list
      // of requirements) is what OpenAPI asks; the access-tier work adds the X-API-Key scheme.
      security: [],
      tags: [
        { name: 'Jobs', description: 'Requests for local help.' },
        { name: 'Listings', description: 'Items to borrow or rent.' },
        { name: 'Categories and pricing', description: 'Categories, price ranges and estimates.' },
        { name: 'Helpers', description: 'Verified helpers near a location.' },
        { name: 'Platform', description: 'Statistics, capabilities and health.' },
      ],
    },
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { deepLinking: true, tryItOutEnabled: true } });
  app.get('/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
