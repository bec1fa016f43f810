import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { API_SCOPES } from '../../domain/oauth-scopes.js';
import { API_VERSION } from '../../domain/tiers.js';
import { badRequest } from '../../services/errors.js';
import { acceptedForms } from '../openapi/accepted.js';
import { compactDocument, descriptionsPageOf } from '../openapi/compact.js';
import { documentPart, partTags } from '../openapi/parts.js';
import { DESCRIPTIONS_PAGE } from '../openapi/prose.js';
import type { OpenApiObject } from '../openapi/types.js';
import { SANDBOX_TAG } from '../sandbox-naming.js';
import { API_KEY_BEARER, DPOP_SCHEME, KEY_SECURITY, OAUTH_SCHEME } from '../write-body.js';

const DESCRIPTION = `A JSON REST API for the Karlsruhe area: jobs for local helpers (gardening, cleaning, moving, tech repair, childcare, pet care, shopping, events, borrowing, other) and items to borrow or rent by the day or week with a deposit.

All endpoints are under \`/v1\`, answer JSON and need no SDK. Every error is an \`ApiError\` with a stable \`error\` code, the offending \`param\`, a \`suggestion\` and \`alternatives\`.

Access: no key is needed to read (anonymous: by default 20 requests per minute per address; GET /v1/me and /v1/stats tell the limits in force). A developer key in the \`X-API-Key\` header gives 100 per minute per key by default; request one at \`/developers\`. \`/v1/demo/*\` serves the same endpoints over fake data (sandbox tier, 20 per minute, counted apart). Every response says the budget in \`RateLimit-Policy\`, \`RateLimit\` and \`X-RateLimit-*\` headers; a 429 says when to retry in \`Retry-After\`. The documents (this one at \`/v1/openapi.json\`, \`/docs\`, \`/llms.txt\`, \`/.well-known/api-catalog\`) cost no API calls: they have a budget of their own, by default 60 requests per minute per address (\`RateLimit-Policy: "documents"\`), and answer an \`ETag\`. \`/v1/openapi.json?tags=Bookings,Payments\` answers a part: those tags' operations with every component they use, a document of its own.

Caching: the public reads (job and listing search and lookup, categories, estimate, availability, stats, and their sandbox twins) answer with an \`ETag\`. Send it back in \`If-None-Match\` to get a \`304 Not Modified\` without a body while the data is unchanged. An answer is reused for at most one second (statuses move on with time) and never after a write, on any instance: every write is visible in the next read. Answers from 1 KiB go in br or gzip per \`Accept-Encoding\`, JSON with an \`ETag\` per coding.

Decisions where the specification leaves things open are written into the descriptions of the operations and schemas here: job and listing states, the bodies of categories, availability and statistics, the \`hours\` synonym of \`duration_hours\`, the maximum radius of availability (50 km) and the error codes.`;

/**
 * OpenAPI 3.1 generated from the route schemas; registered on the root, where it sees every route.
 * `servers` names PUBLIC_URL when it is set, so a generated client needs no base URL of its own;
 * without it, `/`: the server that serves the document.
 */
export async function registerOpenApi(app: FastifyInstance, publicUrl?: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Karlsruhe Local Services Marketplace and Item Lending API',
        version: API_VERSION,
        description: DESCRIPTION,
        license: { name: 'Apache-2.0', url: 'https://www.apache.org/licenses/LICENSE-2.0' },
        contact: { name: 'API team', email: 'api@example.org' },
      },
      servers: [
        publicUrl
          ? { url: publicUrl, description: 'This API (PUBLIC_URL)' }
          : { url: '/', description: 'The server that serves this document' },
      ],
      components: {
        securitySchemes: {
          ApiKeyAuth: {
            type: 'apiKey',
            in: 'header',
            name: 'X-API-Key',
            description:
              'Developer key (kmp_ and 49 characters), from /developers: optional on reads (anonymous without it), needed for writes; a key sent must be valid (else 401). Limits: see the introduction and GET /v1/me.',
          },
          [API_KEY_BEARER]: {
            type: 'http',
            scheme: 'bearer',
            description:
              'The same developer key as `Authorization: Bearer kmp_...` (sending it both ways with different keys is a 401), or an OAuth access token (see OAuth2).',
          },
          [OAUTH_SCHEME]: {
            type: 'oauth2',
            description:
              'Apps acting for a person: code + PKCE (S256), resource /v1 or /mcp; opaque tokens; ID tokens per RFC8725.',
            flows: {
              authorizationCode: {
                authorizationUrl: `${publicUrl ?? ''}/oauth/authorize`,
                tokenUrl: `${publicUrl ?? ''}/oauth/token`,
                refreshUrl: `${publicUrl ?? ''}/oauth/token`,
                scopes: Object.fromEntries(Object.entries(API_SCOPES).map(([scope, words]) => [scope, words.en])),
              },
            },
          },
          [DPOP_SCHEME]: {
            type: 'http',
            scheme: 'dpop',
            description:
              "An OAuth2 access token bound to the client's key (RFC 9449): Authorization: DPoP <token>, with a fresh proof in the DPoP header on every request.",
          },
          MetricsToken: {
            type: 'http',
            scheme: 'bearer',
            description:
              'The operator’s METRICS_TOKEN, for GET /metrics only. Not a developer key: the public has no way to scrape metrics unless the operator gives the token out.',
          },
        },
      },
      // Either no credential (anonymous) or a developer key, in either header: accepted everywhere.
      security: [{}, ...KEY_SECURITY],
      tags: [
        { name: 'Jobs', description: 'Requests for local help.' },
        {
          name: 'Job series',
          description:
            'Recurring jobs: a rule (every second Thursday at 9:00) whose occurrences are posted as ordinary jobs.',
        },
        { name: 'Listings', description: 'Items to borrow or rent.' },
        { name: 'Categories and pricing', description: 'Categories, price ranges and estimates.' },
        { name: 'Places', description: 'The places `near` takes by name: districts, towns and postal codes.' },
        { name: 'Helpers', description: 'Helper profiles, and verified helpers available near a location.' },
        { name: 'Platform', description: 'Statistics, capabilities and health.' },
        { name: 'Applications', description: 'Helpers apply for jobs; job owners accept or reject.' },
        { name: 'Bookings', description: 'Borrowing an item: request, confirm, pick up, return.' },
        {
          name: 'Conversations',
          description:
            'The two parties of a job, listing, application or booking write to each other; contact data stays masked until the deal is made.',
        },
        {
          name: 'Reviews',
          description: 'Double-blind reviews of both sides after a completed job or a returned booking, and replies.',
        },
        { name: 'Verification', description: 'Helpers ask to be verified; the platform decides.' },
        {
          name: 'Saved searches',
          description: 'Stored job and listing searches that call back: matches, events and a daily e-mail.',
        },
        {
          name: 'Payments',
          description:
            'What an accepted job owes its helper: paid by the payer, confirmed by the payee, booked in a ledger.',
        },
        { name: 'Access', description: 'Tiers, keys and rate limits: who am I, and requesting a developer key.' },
        {
          name: 'Notices',
          description:
            'DSA notice and action: anyone reports content; the platform decides with a statement of reasons; the affected account appeals; monthly transparency figures.',
        },
        {
          name: 'Your data',
          description:
            'GDPR rights as an API: a copy of everything stored about your account (Art. 15, 20) and its erasure (Art. 17). docs/privacy.md lists what is kept and why.',
        },
        {
          name: 'Events',
          description:
            'Changes to public jobs and listings as they happen: a Server-Sent Events stream, resumable with Last-Event-ID.',
        },
        SANDBOX_TAG,
        {
          name: 'Notifications',
          description:
            'What reaches you, when and in which language: e-mail, web push and a daily digest per kind of event, quiet hours, one-click unsubscribe.',
        },
        { name: 'Agents', description: 'The MCP server, for AI agents.' },
      ],
    },
    // The query parameters and write bodies as wide as the server takes them (openapi/accepted.ts).
    transform: acceptedForms as never,
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
    // What operations share is written once and pointed at (http/openapi/compact.ts): headers,
    // responses, parameters and repeated schemas under components, the life cycles in their tags'
    // descriptions. Under 217.5 KB (test/http/openapi-size.test.ts), less than a third of it inlined.
    transformObject: (document) =>
      compactDocument((document as unknown as { openapiObject: OpenApiObject }).openapiObject) as never,
  });
}

/**
 * The document at /v1/openapi.json, rendered at /docs (Swagger UI, its assets, and the document
 * again at /docs/json and /docs/yaml), and the whole texts of its long descriptions at
 * /docs/descriptions.md (openapi/prose.ts). Registered in the documents' scope (plugins/documents.ts).
 */
export async function docsRoutes(scope: FastifyInstance): Promise<void> {
  await scope.register(swaggerUi, { routePrefix: '/docs', uiConfig: { deepLinking: true, tryItOutEnabled: true } });
  // The whole document, or with ?tags= a part of it: the operations of those tags, self-contained (openapi/parts.ts).
  scope.get('/v1/openapi.json', { schema: { hide: true } }, async (request) => {
    const whole = scope.swagger() as unknown as OpenApiObject;
    const { tags, ...rest } = request.query as Record<string, unknown>;
    const other = Object.keys(rest)[0];
    if (other !== undefined) {
      throw badRequest(
        'invalid_parameter',
        other,
        `The document takes one parameter, tags; ${other} is not one.`,
        'Leave the query out for the whole document, or send tags=<names of tags, comma-separated> for a part.',
        ['tags'],
      );
    }
    if (tags === undefined) return whole;
    const asked = partTags(whole, Array.isArray(tags) ? tags.join(',') : String(tags));
    if ('unknown' in asked) {
      const known = (whole.tags ?? []).map((tag) => tag.name);
      throw badRequest(
        'invalid_parameter',
        'tags',
        `"${asked.unknown.slice(0, 60)}" is not a tag of this document.`,
        'Send tag names from the document, comma-separated (e.g. tags=Bookings,Payments); alternatives lists them.',
        known,
      );
    }
    return documentPart(whole, asked.tags);
  });
  // The whole texts of the descriptions the document shortens, each under the anchor its link names.
  scope.get(DESCRIPTIONS_PAGE, { schema: { hide: true } }, async (_request, reply) =>
    reply
      .type('text/markdown; charset=utf-8')
      .send(descriptionsPageOf(scope.swagger() as unknown as OpenApiObject) ?? ''),
  );
}
