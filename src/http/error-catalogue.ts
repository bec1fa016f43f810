/**
 * The error responses and headers the OpenAPI document shares (components.responses and
 * components.headers): written once here, referenced by every route schema.
 */

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
 * entry of components.headers in the document. X-RateLimit-* are the legacy aliases of RateLimit:
 * the document declares RateLimit on every response and the other four once, on the 429 answers
 * (openapi/budget.ts), as RateLimit's description says.
 */
export const BUDGET_HEADERS: Record<string, HeaderSchema> = {
  'RateLimit-Policy': {
    type: 'string',
    description: 'The policy of the caller\'s tier, e.g. "anonymous";q=20;w=60 (quota per window of w seconds).',
  },
  RateLimit: {
    type: 'string',
    description:
      'What is left: "anonymous";r=17;t=42 (r requests remaining, t seconds until the window ends). Every answer that carries it carries RateLimit-Policy and the legacy aliases X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset too; the document declares those once, on the 429 answers.',
  },
  'X-RateLimit-Limit': { type: 'integer', description: 'Requests allowed per window.' },
  'X-RateLimit-Remaining': { type: 'integer', description: 'Requests left in this window.' },
  'X-RateLimit-Reset': { type: 'integer', description: 'When the window ends, in Unix seconds.' },
};

const RETRY_AFTER: Record<string, HeaderSchema> = {
  'Retry-After': { type: 'integer', description: 'Seconds to wait before the next request.' },
};

/** The Location of a 201: what was created. */
export const LOCATION = {
  Location: { type: 'string', description: "What was created, to GET (an application: its job's applications)." },
} satisfies Record<string, HeaderSchema>;

/** The headers the document shares as components.headers, by name. */
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
    'The documents budget of this address is spent (by default 60 requests per minute over /docs (with /docs/descriptions.md), /v1/openapi.json, /llms.txt and /.well-known/api-catalog; RateLimit-Policy "documents"). The tier budgets are not touched.',
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

/** Response entries for error statuses, all with the one ApiError schema. */
export function errorResponses(...statuses: number[]): Record<number, ErrorResponse> {
  return Object.fromEntries([...statuses, 401, 429, 500, 503].map((status) => [status, tierError(status)]));
}
