import { readFileSync } from 'node:fs';
import type { TierLimits } from '../../domain/tiers.js';
import { NoQuery } from '../../schemas/common.js';
import { BUDGET_HEADERS, DOCUMENT_ERRORS } from '../error-catalogue.js';
import { DESCRIPTIONS_PAGE } from '../openapi/prose.js';
import type { Api } from '../route-deps.js';

/** RFC 9727's media type for an API catalog: a linkset (RFC 9264) with its profile. */
export const API_CATALOG_TYPE = 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"';

/**
 * The workflows (Arazzo 1.0): the main stories as steps a runner executes, served byte for byte as
 * the file in assets/ (the same path from src/ and dist/, like the places CSVs). CI runs them against
 * a real server with Redocly's respect (scripts/workflows.mjs), so they cannot drift from the API.
 */
export const WORKFLOWS_PATH = '/v1/workflows.arazzo.yaml';
const WORKFLOWS_FILE = new URL('../../../assets/workflows.arazzo.yaml', import.meta.url);

/** The Arazzo version the document declares, for its media type's `version` parameter. */
function arazzoVersion(document: string): string {
  const version = /^arazzo:\s*['"]?([0-9.]+)/m.exec(document)?.[1];
  if (!version) throw new Error(`${WORKFLOWS_FILE.pathname}: no \`arazzo:\` version line`);
  return version;
}

/**
 * The Arazzo specification's own media type for YAML (section 6.3, registered with IANA), with the
 * version it defines as a parameter, as the API catalog names the OpenAPI document's; YAML is
 * UTF-8 by definition (RFC 9512), so no charset.
 */
export const workflowsType = (document: string) =>
  `application/vnd.oai.workflows+yaml;version=${arazzoVersion(document)}`;

export interface DiscoveryFacts {
  /** The public base URL (PUBLIC_URL, else http://HOST:PORT): never taken from a request's Host header. */
  baseUrl: string;
  limits: TierLimits;
}

/** What the documents here share with /v1/openapi.json and /docs, said once in the introduction (plugins/docs.ts). */
const AS_A_DOCUMENT = 'A document: outside the tier budgets, with an ETag and compression (see the introduction).';

/** /llms.txt, after the llms.txt proposal (llmstxt.org): what the API is and where to read on, in Markdown. */
export function llmsTxt({ baseUrl, limits }: DiscoveryFacts): string {
  return `# Karlsruhe Marketplace API

> A JSON REST API (under /v1) for a local marketplace around Karlsruhe, Germany: jobs for helpers (gardening, cleaning, moving, tech repair, childcare, pet care, shopping, events, borrowing, other) and items lent or rented by the day or week with a deposit. Reads need no key; writes need a free developer key. No SDK is required: plain HTTPS and JSON.

- Authentication: send a developer key as \`X-API-Key: kmp_...\`. Without a key a request is anonymous (read only, ${limits.anonymous} requests per minute per address); with a key, developer (read and write, ${limits.developer} per minute). \`/v1/demo/*\` serves fake data (the sandbox tier, ${limits.sandbox} per minute). A key is requested with \`POST /v1/developer/key-requests\` (or the form at ${baseUrl}/developers) and reviewed within 24 hours.
- Every response carries its budget (\`RateLimit\`, \`RateLimit-Policy\`, \`X-RateLimit-*\`); a 429 carries \`Retry-After\`.
- Every error is an ApiError: \`{"error", "message", "param", "suggestion", "alternatives", "alternatives_count"}\`; \`error\` is a stable code, \`suggestion\` says what to do instead.
- Writes (POST) take an \`Idempotency-Key\` header: a retry with the same key and body replays the first answer and never does the work twice.
- Searches default to the centre of Karlsruhe (lat 49.0069, lng 8.4037) and a 50 km radius; coordinates are WGS84 degrees (shown points of jobs and listings are approximate, 200 to 500 m from the place; the place itself is at GET /v1/{jobs,listings,helpers}/{id}/location for whom it concerns), money is in euros, days are Europe/Berlin calendar days.

## Docs

- [OpenAPI document](${baseUrl}/v1/openapi.json): every operation, parameter, response and error, OpenAPI 3.1
- Parts of it, for reading only what you need: [${baseUrl}/v1/openapi.json?tags=Bookings,Payments](${baseUrl}/v1/openapi.json?tags=Bookings,Payments), any tags of the document, comma-separated; each a complete OpenAPI document (one tag's part is under 150 KB)
- [API reference](${baseUrl}/docs): the same, readable in a browser
- [Long descriptions](${baseUrl}${DESCRIPTIONS_PAGE}): the whole text of every description the OpenAPI document shortens to its first sentence, in Markdown
- [API catalog](${baseUrl}/.well-known/api-catalog): RFC 9727 linkset pointing at the OpenAPI document
- [Workflows](${baseUrl}${WORKFLOWS_PATH}): Arazzo 1.0, the main stories as steps a runner executes: post a job and hire a helper through the reviews, lend an item through return and review, request a key and subscribe to webhooks, report an item

## Key endpoints

- [Search jobs](${baseUrl}/v1/jobs): GET, filters category, lat, lng, radius, budget_min, budget_max, urgent, date, sort, limit, offset
- [One job](${baseUrl}/v1/jobs/{id}): GET
- [Search listings](${baseUrl}/v1/listings): GET, items to borrow or rent, with price per day and week and the deposit
- [Categories](${baseUrl}/v1/categories): GET, with live price ranges; lang=de or en
- [Price estimate](${baseUrl}/v1/estimate): GET, category and duration_hours, learned from completed jobs
- [Available helpers](${baseUrl}/v1/helpers/availability): GET, verified helpers near a point
- [Listing availability](${baseUrl}/v1/listings/{id}/availability): GET, the days taken
- [Statistics](${baseUrl}/v1/stats): GET, live figures, coverage and capabilities
- [Who am I](${baseUrl}/v1/me): GET, the tier and budget of the calling key
- [Post a job](${baseUrl}/v1/jobs): POST with a developer key
- [Apply to a job](${baseUrl}/v1/jobs/{id}/applications): POST with a developer key and one of the account's helper profiles
- [Book a listing](${baseUrl}/v1/listings/{id}/bookings): POST with a developer key, start_date and end_date
- [MCP server](${baseUrl}/mcp): Model Context Protocol, revision 2026-07-28 and the 2025 revisions, over Streamable HTTP (POST JSON-RPC, stateless) and over stdio (npx karlsruhe-marketplace-api mcp); every operation of /v1 as a tool (name: the operationId in snake_case), those of an account with a developer key
- [Drafts](${baseUrl}/v1/drafts): POST with a developer key: an agent prepares createJob, applyToJob, createBooking or createListing for a person, who confirms or declines it at the confirmation_url (no key); GET /v1/drafts/{id} shows the outcome; MCP tools do it with confirm_by_person: true
- [Live events](${baseUrl}/v1/events/stream): GET, Server-Sent Events of new and changed jobs and listings; filters category, lat, lng, radius; resumes with Last-Event-ID
- [Webhooks](${baseUrl}/v1/webhooks): POST with a developer key: url, events, filters; deliveries signed with HMAC-SHA256 (Marketplace-Signature), retried for more than a day

## Optional

- [Sandbox](${baseUrl}/v1/demo/jobs): every read endpoint over fake data, under /v1/demo
- [Readiness](${baseUrl}/readyz): 200 when this instance should get traffic
`;
}

/**
 * /.well-known/api-catalog (RFC 9727): one API, described by its OpenAPI document and, as a second
 * service-desc (RFC 8631: a machine-readable description of the service; the `type` tells them
 * apart), by its Arazzo workflows, which describe how its operations are used together. Not
 * service-meta: that names metadata about the service (llms.txt, policies), not descriptions a
 * tool executes. The OpenAPI document stays first for clients that read only one.
 */
export function apiCatalog({ baseUrl }: DiscoveryFacts, workflows: string) {
  return {
    linkset: [
      {
        anchor: `${baseUrl}/v1`,
        'service-desc': [
          { href: `${baseUrl}/v1/openapi.json`, type: 'application/vnd.oai.openapi+json;version=3.1' },
          { href: `${baseUrl}${WORKFLOWS_PATH}`, type: workflowsType(workflows) },
        ],
        'service-doc': [
          { href: `${baseUrl}/docs`, type: 'text/html' },
          { href: `${baseUrl}${DESCRIPTIONS_PAGE}`, type: 'text/markdown' },
        ],
        'service-meta': [{ href: `${baseUrl}/llms.txt`, type: 'text/markdown' }],
        status: [{ href: `${baseUrl}/readyz`, type: 'application/json' }],
      },
    ],
  };
}

/**
 * Discovery for agents and tools: GET /llms.txt, GET /.well-known/api-catalog and the workflows
 * (GET /v1/workflows.arazzo.yaml). Built once from
 * the configuration (links use PUBLIC_URL, never the Host header, so no one can make them point
 * elsewhere); documents like /docs: registered in the documents' scope (plugins/documents.ts).
 */
export function discoveryRoutes(app: Api, facts: DiscoveryFacts): void {
  const text = llmsTxt(facts);
  const workflows = readFileSync(WORKFLOWS_FILE, 'utf8');
  const workflowsContentType = workflowsType(workflows);
  const catalog = JSON.stringify(apiCatalog(facts, workflows));
  app.get(
    '/llms.txt',
    {
      schema: {
        operationId: 'getLlmsTxt',
        summary: 'llms.txt: the API for language models',
        description: `What the API is, how to authenticate, its limits and errors, and links to the OpenAPI document and the key endpoints, in Markdown after the llms.txt proposal (https://llmstxt.org). ${AS_A_DOCUMENT}`,
        tags: ['Platform'],
        querystring: NoQuery,
        response: {
          200: {
            description: 'The llms.txt file.',
            headers: BUDGET_HEADERS,
            content: { 'text/markdown': { schema: { type: 'string' } } },
          },
          ...DOCUMENT_ERRORS,
        },
      },
    },
    async (_request, reply) =>
      reply.header('cache-control', 'public, max-age=3600').type('text/markdown; charset=utf-8').send(text),
  );
  app.get(
    '/.well-known/api-catalog',
    {
      schema: {
        operationId: 'getApiCatalog',
        summary: 'API catalog (RFC 9727)',
        description: `A linkset (RFC 9264) naming this API, its OpenAPI document and its Arazzo workflows (service-desc), the reference (service-doc), llms.txt (service-meta) and readiness (status). ${AS_A_DOCUMENT}`,
        tags: ['Platform'],
        querystring: NoQuery,
        response: {
          200: {
            description: 'The catalog, as application/linkset+json with the RFC 9727 profile.',
            headers: BUDGET_HEADERS,
            content: { 'application/linkset+json': { schema: { type: 'object' } } },
          },
          ...DOCUMENT_ERRORS,
        },
      },
    },
    async (_request, reply) =>
      reply.header('cache-control', 'public, max-age=3600').type(API_CATALOG_TYPE).send(catalog),
  );
  app.get(
    WORKFLOWS_PATH,
    {
      schema: {
        operationId: 'getWorkflows',
        summary: 'Workflows (Arazzo 1.0)',
        description: `The main stories of this API as an Arazzo 1.0 document (https://spec.openapis.org/arazzo/latest.html): post a job and hire a helper through completion and the reviews (hireHelper), lend an item through pick-up, return and the reviews (lendItem), request a developer key (requestKey) and, with the key from the e-mail, subscribe to webhooks (subscribeToWebhooks), report a listing and follow the report (reportItem). Each step names an operationId of the OpenAPI document, which its sourceDescriptions entry finds at the relative URL openapi.json (this document's neighbour, /v1/openapi.json); a runner such as Redocly's \`respect\` executes them. Writes take their developer keys as inputs (two accounts for hiring and lending) and derive their Idempotency-Keys from the input run_id. ${AS_A_DOCUMENT}`,
        tags: ['Platform'],
        querystring: NoQuery,
        response: {
          200: {
            description: 'The Arazzo document, in YAML.',
            headers: BUDGET_HEADERS,
            content: { 'application/vnd.oai.workflows+yaml': { schema: { type: 'string' } } },
          },
          ...DOCUMENT_ERRORS,
        },
      },
    },
    async (_request, reply) =>
      reply.header('cache-control', 'public, max-age=3600').type(workflowsContentType).send(workflows),
  );
}
