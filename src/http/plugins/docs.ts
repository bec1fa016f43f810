import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { API_VERSION } from '../../domain/tiers.js';
import { compactDocument } from '../openapi/compact.js';
import type { OpenApiObject } from '../openapi/types.js';

const DESCRIPTION = `A JSON REST API for the Karlsruhe area: jobs for local helpers (gardening, cleaning, moving, tech repair, childcare, pet care, shopping, events, borrowing, other) and items to borrow or rent by the day or week with a deposit.

All endpoints are under \`/v1\`, answer JSON and need no SDK. Every error is an \`ApiError\` with a stable \`error\` code, the offending \`param\`, a \`suggestion\` and \`alternatives\`.

Access: no key is needed to read (anonymous: by default 20 requests per minute per address; GET /v1/me and /v1/stats tell the limits in force). A developer key in the \`X-API-Key\` header gives 100 per minute per key by default; request one at \`/developers\`. \`/v1/demo/*\` serves the same endpoints over fake data (sandbox tier, 20 per minute, counted apart). Every response says the budget in \`RateLimit-Policy\`, \`RateLimit\` and \`X-RateLimit-*\` headers; a 429 says when to retry in \`Retry-After\`. The documents (this one at \`/v1/openapi.json\`, \`/docs\`, \`/llms.txt\`, \`/.well-known/api-catalog\`) cost no API calls: they have a budget of their own, by default 60 requests per minute per address (\`RateLimit-Policy: "documents"\`), answer an \`ETag\` (send it in \`If-None-Match\` for a \`304\`) and are compressed (br, gzip) as \`Accept-Encoding\` allows.

Caching: the public reads (job and listing search and lookup, categories, estimate, availability, stats, and their sandbox twins) answer with an \`ETag\`. Send it back in \`If-None-Match\` to get a \`304 Not Modified\` without a body while the data is unchanged. An answer is reused for at most one second (statuses move on with time) and never after a write, on any instance: every write is visible in the next read.

Decisions where the specification leaves things open are written into the descriptions of the operations and schemas here: job and listing states, the bodies of categories, availability and statistics, the \`hours\` synonym of \`duration_hours\`, the maximum radius of availability (50 km) and the error codes.`;

/** OpenAPI 3.1 generated from the route schemas; registered on the root, where it sees every route. */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
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
      components: {
        securitySchemes: {
          ApiKeyAuth: {
            type: 'apiKey',
            in: 'header',
            name: 'X-API-Key',
            description:
              'Developer key (kmp_ and 49 characters), from /developers; `Authorization: Bearer kmp_...` is accepted as the same key (sending both with different keys is a 401). Optional on reads: without it a request is anonymous (by default 20 per minute per address); with it, developer (by default 100 per minute per key; /v1/me tells the limits in force). A key that is sent must be valid (else 401). /v1/demo/* is the sandbox tier (20 per minute per address, counted apart). Every response carries RateLimit-Policy, RateLimit and X-RateLimit-Limit/-Remaining/-Reset (Unix seconds); a 429 carries Retry-After.',
          },
          MetricsToken: {
            type: 'http',
            scheme: 'bearer',
            description:
              'The operator’s METRICS_TOKEN, for GET /metrics only. Not a developer key: the public has no way to scrape metrics unless the operator gives the token out.',
          },
        },
      },
      // Either no credential (anonymous) or a developer key: both are accepted everywhere.
      security: [{}, { ApiKeyAuth: [] }],
      tags: [
        { name: 'Jobs', description: 'Requests for local help.' },
        { name: 'Listings', description: 'Items to borrow or rent.' },
        { name: 'Categories and pricing', description: 'Categories, price ranges and estimates.' },
        { name: 'Helpers', description: 'Helper profiles, and verified helpers available near a location.' },
        { name: 'Platform', description: 'Statistics, capabilities and health.' },
        { name: 'Applications', description: 'Helpers apply for jobs; job owners accept or reject.' },
        { name: 'Bookings', description: 'Borrowing an item: request, confirm, pick up, return.' },
        { name: 'Access', description: 'Tiers, keys and rate limits: who am I, and requesting a developer key.' },
        {
          name: 'Events',
          description:
            'Changes to public jobs and listings as they happen: a Server-Sent Events stream, resumable with Last-Event-ID.',
        },
        {
          name: 'Sandbox',
          description: 'Every read endpoint under /v1/demo over a fixed, fake dataset; no key needed.',
        },
      ],
    },
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
    // What operations share is written once and pointed at (http/openapi/compact.ts): headers,
    // responses, parameters and repeated schemas under components, the life cycles in their tags'
    // descriptions. Under 150 KB (test/http/openapi-size.test.ts), less than a third of it inlined.
    transformObject: (document) =>
      compactDocument((document as unknown as { openapiObject: OpenApiObject }).openapiObject) as never,
  });
}

/**
 * The document at /v1/openapi.json, rendered at /docs (Swagger UI, its assets, and the document
 * again at /docs/json and /docs/yaml). Registered in the documents' scope (plugins/documents.ts).
 */
export async function docsRoutes(scope: FastifyInstance): Promise<void> {
  await scope.register(swaggerUi, { routePrefix: '/docs', uiConfig: { deepLinking: true, tryItOutEnabled: true } });
  scope.get('/v1/openapi.json', { schema: { hide: true } }, async () => scope.swagger());
}
