import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../../config.js';
import type { Database } from '../../db/schema.js';
import { DEMO_ID_PREFIX } from '../../domain/ids.js';
import type { TierLimits } from '../../domain/tiers.js';
import type { AccountQuotas } from '../../repositories/account-quotas.js';
import type { Endpoint } from '../../schemas/stats.js';
import type { IndexSnapshot } from '../../search/search-indexes.js';

/** The Fastify instance routes are written against: TypeBox schemas give the handler types. */
export type Api = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** Where a set of read endpoints is served: the real API, or its sandbox twin over fake data. */
export type Base = '/v1' | '/v1/demo';

export const SANDBOX_BASE = '/v1/demo';

/** What handlers need from the outside world; tests pass their own clock. */
export interface RouteDeps {
  /** The path every route of the set starts with; error advice points at paths under it. */
  base: Base;
  db: Kysely<Database>;
  now: () => Date;
  /** Documented operations, filled as routes register (for /v1/stats and 404 advice). */
  endpoints: readonly Endpoint[];
  /** Requests per minute of each tier, as configured. */
  limits: TierLimits;
  /** Applications and bookings each account may start per hour, as configured. */
  quotas: AccountQuotas;
  /** Hours a booking request waits for the owner's answer before it expires (BOOKING_REQUEST_TTL_HOURS). */
  bookingRequestTtlHours: number;
  /** Days after completion or return in which both sides may review (REVIEW_WINDOW_DAYS). */
  reviewWindowDays: number;
  /** Saved searches an account may keep (SAVED_SEARCHES_PER_ACCOUNT). */
  savedSearchesPerAccount: number;
  /** Counts a report (POST /v1/reports) against its sender's hourly budget; throws 429 past it. */
  countReport?: (request: FastifyRequest) => Promise<void>;
  /** The in-memory search index, when it is current for the request's data version (else SQL answers). */
  searchIndex?: (request: FastifyRequest) => Promise<IndexSnapshot | undefined>;
}

/** What of RouteDeps the configuration sets: the numbers the routes enforce and document. */
export type ConfiguredLimits = Pick<
  RouteDeps,
  'limits' | 'quotas' | 'bookingRequestTtlHours' | 'reviewWindowDays' | 'savedSearchesPerAccount'
>;

/** The configured limits of the routes, for the app (app.ts) and the stdio server's catalog (mcp/catalog.ts). */
export function configuredLimits(config: Config): ConfiguredLimits {
  return {
    limits: {
      anonymous: config.RATE_LIMIT_ANONYMOUS_PER_MIN,
      developer: config.RATE_LIMIT_DEVELOPER_PER_MIN,
      sandbox: config.RATE_LIMIT_SANDBOX_PER_MIN,
    },
    quotas: {
      applications: config.APPLICATIONS_PER_ACCOUNT_PER_HOUR,
      bookings: config.BOOKINGS_PER_ACCOUNT_PER_HOUR,
      messages: config.MESSAGES_PER_ACCOUNT_PER_HOUR,
      conversations: config.NEW_CONVERSATIONS_PER_ACCOUNT_PER_HOUR,
    },
    bookingRequestTtlHours: config.BOOKING_REQUEST_TTL_HOURS,
    reviewWindowDays: config.REVIEW_WINDOW_DAYS,
    savedSearchesPerAccount: config.SAVED_SEARCHES_PER_ACCOUNT,
  };
}

/** The id prefix of the data served under `base`. */
export function idPrefixOf(base: Base): string {
  return base === SANDBOX_BASE ? DEMO_ID_PREFIX : '';
}

interface OperationDocs {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
}

/** The Sandbox section of the document: what every sandbox twin shares. */
export const SANDBOX_TAG = {
  name: 'Sandbox',
  description: `Every read endpoint under /v1/demo, with the same parameters and answers, over a fixed, fake dataset (ids start with \`${DEMO_ID_PREFIX}\`, titles with "[Demo] ") that never touches real data. No key needed; the sandbox has its own per-address rate limit.`,
};

/**
 * The OpenAPI naming of an operation served under `base`: as written for /v1; for the sandbox twin
 * `demo`-prefixed operationIds (unique in the document), the Sandbox tag and a description saying
 * the data is fake.
 */
export function documented<S extends OperationDocs>(base: Base, schema: S): S {
  if (base !== SANDBOX_BASE) return schema;
  const name = schema.operationId;
  return {
    ...schema,
    operationId: `demo${name.charAt(0).toUpperCase()}${name.slice(1)}`,
    summary: `${schema.summary} (sandbox, fake data)`,
    // What every twin shares (fake data, no key, its own budget) is said once, in the Sandbox tag (SANDBOX_TAG).
    description: `Sandbox twin of ${name}.\n\n${schema.description}`,
    tags: ['Sandbox'],
  };
}

/**
 * The error responses every operation of a tier budget shares, by status: each is one entry of
 * components.responses in the document (named here), referenced by the operations that answer it.
 */
const TIER_ERRORS: Record<number, { name: string; description: string }> = {
  400: {
    name: 'BadRequest',
    description:
      'Invalid request parameters: the ApiError names the parameter, what is allowed and what to send instead.',
  },
  404: { name: 'NotFound', description: 'Not found.' },
  401: {
    name: 'Unauthorized',
    description:
      'The key (X-API-Key or Authorization: Bearer kmp_...) is unknown, malformed, revoked or expired, or a write was sent without one.',
  },
  405: {
    name: 'MethodNotAllowed',
    description: 'Method not allowed on this path; the Allow header lists the methods that are.',
  },
  403: { name: 'Forbidden', description: 'You may see this, but this action is for the other party.' },
  409: {
    name: 'Conflict',
    description: 'Conflicts with the current state: the ApiError names it and lists the actions allowed from it.',
  },
  413: { name: 'PayloadTooLarge', description: 'The body is larger than 64 KiB.' },
  415: { name: 'UnsupportedMediaType', description: 'Only application/json bodies are accepted.' },
  422: { name: 'IdempotencyKeyReused', description: 'This Idempotency-Key was used for a different request.' },
  429: { name: 'TooManyRequests', description: 'Rate limit exceeded: Retry-After says when to try again.' },
  500: { name: 'InternalError', description: 'Unexpected server error; no details are shown.' },
  503: {
    name: 'ServiceUnavailable',
    description:
      'The database, or Redis where rate limits are counted, cannot be reached right now: nothing was done. Retry-After says when to try again; the service recovers by itself when they return.',
  },
};

/** A header of a response, as route schemas declare it (the document turns it into a Header Object). */
export interface HeaderSchema {
  type: 'string' | 'integer';
  description: string;
}

/**
 * The budget every rate-limited response carries (see the ApiKeyAuth scheme); each header is one
 * entry of components.headers in the document.
 */
export const BUDGET_HEADERS: Record<string, HeaderSchema> = {
  'RateLimit-Policy': {
    type: 'string',
    description: 'The policy of the caller\'s tier, e.g. "anonymous";q=20;w=60 (quota per window of w seconds).',
  },
  RateLimit: {
    type: 'string',
    description: 'What is left: "anonymous";r=17;t=42 (r requests remaining, t seconds until the window ends).',
  },
  'X-RateLimit-Limit': { type: 'integer', description: 'Requests allowed per window.' },
  'X-RateLimit-Remaining': { type: 'integer', description: 'Requests left in this window.' },
  'X-RateLimit-Reset': { type: 'integer', description: 'When the window ends, in Unix seconds.' },
};

const RETRY_AFTER: Record<string, HeaderSchema> = {
  'Retry-After': { type: 'integer', description: 'Seconds to wait before the next request.' },
};

/** The headers the document shares as components.headers, by name. */
/** The Location of a 201: what was created. */
const LOCATION = {
  Location: { type: 'string', description: "What was created, to GET (an application: its job's applications)." },
} satisfies Record<string, HeaderSchema>;

export const SHARED_HEADERS: Readonly<Record<string, HeaderSchema>> = {
  ...BUDGET_HEADERS,
  ...RETRY_AFTER,
  ...LOCATION,
};

/** An error response of a route schema: the one ApiError schema, a description and the headers it carries. */
export interface ErrorResponse {
  $ref: 'ApiError';
  description: string;
  headers?: Record<string, HeaderSchema>;
}

const apiError = (description: string, headers?: Record<string, HeaderSchema>): ErrorResponse =>
  headers ? { $ref: 'ApiError', description, headers } : { $ref: 'ApiError', description };

/**
 * The errors of the platform routes outside every budget (health, readiness, metrics, discovery):
 * they take no parameters and answer no 401 or 429.
 */
export const PLATFORM_ERRORS = {
  400: apiError('A query parameter was given; this endpoint takes none.'),
  500: apiError('Unexpected server error.'),
} as const;

/** The errors of a document (llms.txt, the API catalog): outside the tier budgets, in the documents budget. */
export const DOCUMENT_ERRORS = {
  ...PLATFORM_ERRORS,
  429: apiError(
    'The documents budget of this address is spent (by default 60 requests per minute over /docs, /v1/openapi.json, /llms.txt and /.well-known/api-catalog; RateLimit-Policy "documents"). The tier budgets are not touched.',
    { ...BUDGET_HEADERS, ...RETRY_AFTER },
  ),
  503: apiError('The shared rate-limit store (Redis) does not answer, so the request cannot be counted.', RETRY_AFTER),
} as const;

/** The error response of a status in a tier budget, with the headers that status carries. */
function tierError(status: number): ErrorResponse {
  const headers =
    status === 429 ? { ...BUDGET_HEADERS, ...RETRY_AFTER } : status === 503 ? RETRY_AFTER : BUDGET_HEADERS;
  return apiError(TIER_ERRORS[status]?.description ?? 'Error.', headers);
}

/**
 * The error responses the document shares as components.responses, by name: every error an
 * operation answers is written once there and referenced (src/http/openapi/compact.ts).
 */
export const SHARED_ERRORS: Readonly<Record<string, { status: number; response: ErrorResponse }>> = {
  ...Object.fromEntries(
    Object.entries(TIER_ERRORS).map(([status, { name }]) => [
      name,
      { status: Number(status), response: tierError(Number(status)) },
    ]),
  ),
  NoParametersAllowed: { status: 400, response: PLATFORM_ERRORS[400] },
  PlatformInternalError: { status: 500, response: PLATFORM_ERRORS[500] },
  DocumentsBudgetSpent: { status: 429, response: DOCUMENT_ERRORS[429] },
  RateLimitStoreUnavailable: { status: 503, response: DOCUMENT_ERRORS[503] },
};

/** A success response schema with its description and the budget headers, for the OpenAPI document. */
export function ok<T extends object>(schema: T, description: string): T & { description: string } {
  return { ...schema, description, headers: BUDGET_HEADERS };
}

/** A 201's response schema: as ok(), with the Location of what was created. */
export function created<T extends object>(schema: T, description: string): T & { description: string } {
  return {
    ...schema,
    description,
    headers: {
      ...LOCATION,
      ...BUDGET_HEADERS,
    },
  };
}

/** Answers 201 with the Location of what was created. */
export function sendCreated<T>(reply: FastifyReply, location: string, body: T): FastifyReply {
  return reply.code(201).header('location', location).send(body);
}

/** Response entries for error statuses, all with the one ApiError schema. */
export function errorResponses(...statuses: number[]): Record<number, ErrorResponse> {
  return Object.fromEntries([...statuses, 401, 429, 500, 503].map((status) => [status, tierError(status)]));
}

/**
 * An answer only its caller may see on a route whose answers are otherwise public (a removed item
 * for its owner): kept out of the shared response cache and out of every other cache.
 */
export function privately<T>(request: FastifyRequest, reply: FastifyReply, body: T): T {
  request.cacheVersion = null;
  reply.header('cache-control', 'private, no-store');
  return body;
}
