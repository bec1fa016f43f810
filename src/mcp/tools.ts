/**
 * The MCP tools of the marketplace: each one is a REST operation of /v1, described for agents. Only
 * the wording for agents is written here (name, title, description) with the operationId it calls;
 * its method, path and input schema are those of the route registered under that operationId
 * (operations.ts), the input schema built from the very TypeBox schemas the route validates with
 * (path params, query string and body merged into one object), its output schema the route's
 * success answer (tool-schemas.ts). A tool is executed by calling the REST API itself (over HTTP
 * for stdio, through app.inject for POST /mcp), so tiers, rate limits, validation and ownership
 * apply exactly as they do to REST, and the API's JSON answer is the tool's result.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { TSchema } from 'typebox';
import {
  IDEMPOTENCY_KEY_FORMAT,
  IDEMPOTENCY_KEY_PATTERN,
  IDEMPOTENCY_RETENTION,
  IdempotencyKeySchema,
} from '../schemas/idempotency.js';
import type { Operation } from './operations.js';
import { inputSchemaOf, outputSchemaOf } from './tool-schemas.js';

/** One REST request, as a tool makes it. `path` already has its ids filled in (URL-encoded). */
export interface ApiRequest {
  method: 'GET' | 'POST';
  path: string;
  query: Record<string, string | string[]>;
  body?: unknown;
  headers: Record<string, string>;
}

/** The REST answer: status, headers (lower-case names) and the parsed JSON body (undefined when empty or not JSON). */
export interface ApiResponse {
  status: number;
  headers: Record<string, string | undefined>;
  body: unknown;
}

/** Makes one REST request on behalf of the MCP client: over HTTP (stdio) or in process (POST /mcp). */
export type Executor = (request: ApiRequest) => Promise<ApiResponse>;

/** The parts of a route's schema a tool's arguments and its structuredContent are taken from. */
interface RouteSchemas {
  params?: TSchema;
  query?: TSchema;
  body?: TSchema;
  /** The success answer (200 or 201). */
  response: TSchema;
}

/** What is said of a tool for agents, and the REST operation it calls. */
interface ToolWording {
  name: string;
  title: string;
  /** Without the REST operation, which is appended ("REST: GET /v1/jobs."). */
  description: string;
  /** The operationId of the REST operation the tool calls (see /v1/openapi.json). */
  operationId: string;
}

/** A tool: its wording, and what it takes from its route. */
export interface ToolSpec extends ToolWording {
  method: 'GET' | 'POST';
  /** The route path with `{name}` placeholders for path parameters, e.g. /v1/jobs/{id}. */
  path: string;
  schemas: RouteSchemas;
  /** Writes (POST) need a developer key and take an idempotency_key. */
  write: boolean;
}

export const DEVELOPER_KEY_HINT =
  'Needs a developer key: start the MCP server with MARKETPLACE_API_KEY (stdio) or send X-API-Key to /mcp; request a free key at /developers.';

const IDEMPOTENCY_KEY = 'idempotency_key';

const IDEMPOTENCY_KEY_SCHEMA = {
  ...IdempotencyKeySchema,
  description: `Sent as the Idempotency-Key header: ${IDEMPOTENCY_KEY_FORMAT}, fresh per operation (a UUID, say). Repeating the call with the same key and arguments within ${IDEMPOTENCY_RETENTION} answers the first result again without doing the work twice; the same key with other arguments is an error (422).`,
};

const TOOL_WORDING: readonly ToolWording[] = [
  {
    name: 'search_jobs',
    title: 'Search open jobs',
    description:
      'Search open jobs (gardening, cleaning, moving, tech repair, childcare, pet care, shopping, events, borrowing, other) around Karlsruhe: by words (`q`, German as typed: "Rasen mähen") within `radius` km (at most 50) of `lat`/`lng` (default: Karlsruhe centre 49.0069, 8.4037) or of a place name (`near`: "Durlach", "76227"), filtered by category, budget, date and urgency, sorted (relevance with q), one page at a time (`limit` up to 100, `offset`). Answers { data: Job[], total, limit, offset, has_more }.',
    operationId: 'searchJobs',
  },
  {
    name: 'get_job',
    title: 'Get a job',
    description:
      'One job by id (job_...), whatever its status, with price range, pricing confidence and the quickest helper ETA. An unknown id answers not_found with similar ids in alternatives.',
    operationId: 'getJob',
  },
  {
    name: 'search_listings',
    title: 'Search items to borrow',
    description:
      'Search available listings (items lent or rented out by the day or week, with a deposit) by words (`q`: "bohrmaschine") within `radius` km of `lat`/`lng` or of a place name (`near`), filtered by category, maximum price per day, condition and instant booking, sorted and paged. Answers { data: Listing[], total, has_more }.',
    operationId: 'searchListings',
  },
  {
    name: 'get_listing',
    title: 'Get a listing',
    description: "One listing by id (lst_...), whatever its status, with its owner's reliability.",
    operationId: 'getListing',
  },
  {
    name: 'list_categories',
    title: 'Categories with live price ranges',
    description:
      'Every category value (GARDENING, CLEANING, ...) with its name and description in `lang` (de or en) and current price bands (10th percentile, median, 90th percentile): per helper-hour and per job for services, per day, per week and deposit for borrowing. Use it to learn the category values the other tools take.',
    operationId: 'getCategories',
  },
  {
    name: 'estimate_price',
    title: 'Estimate a fair price',
    description:
      'A fair price for a job of a category: what helpers were paid per hour in completed jobs (near `lat`/`lng` when enough are there), scaled by duration_hours × helpers, as median with a low-high range.',
    operationId: 'getPriceEstimate',
  },
  {
    name: 'check_availability',
    title: 'Verified helpers available near a location',
    description:
      'How many verified, available helpers within `radius` km of `lat`/`lng` offer a category (value, or a German or English name such as "Garten") with at least `min_reliability`, with the top ones by reliability and distance.',
    operationId: 'checkAvailability',
  },
  {
    name: 'get_stats',
    title: 'Live platform statistics',
    description:
      "Coverage (centre, radius, the places served with their open jobs and listings), totals, per-category counts and medians, platform-wide price medians, and this API's capabilities (endpoints, tiers and rate limits, version).",
    operationId: 'getStats',
  },
  {
    name: 'create_job',
    title: 'Post a job',
    description: `Posts a job for the calling account: title, description, category, price_eur and location ({lat, lng} within 50 km of Karlsruhe, or {plz}) are required. It is open and visible at once in search_jobs and get_job; answers the Job. Dates must lie ahead. ${DEVELOPER_KEY_HINT}`,
    operationId: 'createJob',
  },
  {
    name: 'apply_to_job',
    title: 'Apply to a job as a helper',
    description: `Applies to an open job (id) with a helper profile the calling account registered (helper_id, hlp_...), with an optional message to the job owner; answers the pending application. A helper applies once per job; an account cannot apply to its own job. ${DEVELOPER_KEY_HINT}`,
    operationId: 'applyToJob',
  },
  {
    name: 'book_listing',
    title: 'Book a listing',
    description: `Books a listing (id) from start_date to end_date (inclusive, YYYY-MM-DD, Europe/Berlin) for the calling account; answers the booking, confirmed (instant booking) or requested, with its price and deposit. Overlapping bookings are refused (booking_conflict). ${DEVELOPER_KEY_HINT}`,
    operationId: 'createBooking',
  },
];

/** The names of a path's `{placeholders}`. */
const placeholdersOf = (path: string): string[] => [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? '');

/**
 * The tool a wording makes with the operation it names. An operation that is not registered, or
 * that a tool cannot call (neither GET nor POST), stops the process at start-up.
 */
function specOf(wording: ToolWording, operations: ReadonlyMap<string, Operation>): ToolSpec {
  const operation = operations.get(wording.operationId);
  if (!operation) {
    throw new Error(`tool ${wording.name}: no route with the operationId '${wording.operationId}' is registered`);
  }
  const { method, path, params, query, body, response } = operation;
  if (method !== 'GET' && method !== 'POST') {
    throw new Error(`tool ${wording.name}: ${method} ${path} is neither GET nor POST`);
  }
  if (!response) throw new Error(`tool ${wording.name}: ${method} ${path} declares no 200 or 201 answer`);
  return {
    ...wording,
    description: `${wording.description} REST: ${method} ${path}.`,
    method,
    path,
    schemas: { ...(params && { params }), ...(query && { query }), ...(body && { body }), response },
    write: method === 'POST',
  };
}

function definitionOf(spec: ToolSpec): Tool {
  const { params, query, body, response } = spec.schemas;
  const extra = spec.write
    ? { properties: { [IDEMPOTENCY_KEY]: IDEMPOTENCY_KEY_SCHEMA }, required: [IDEMPOTENCY_KEY] }
    : {};
  return {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    inputSchema: inputSchemaOf(spec.name, [params, query, body], extra),
    outputSchema: outputSchemaOf(spec.name, response),
    annotations: spec.write
      ? { title: spec.title, readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false }
      : { title: spec.title, readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  };
}

/** The marketplace's tools, made from a route registry: the app's routes (POST /mcp) or catalog.ts's (stdio). */
export class Tools {
  readonly specs: readonly ToolSpec[];
  private readonly definitions: ReadonlyMap<string, Tool>;

  constructor(operations: Iterable<Operation>) {
    const byId = new Map<string, Operation>();
    for (const operation of operations) {
      if (!byId.has(operation.operationId)) byId.set(operation.operationId, operation);
    }
    this.specs = TOOL_WORDING.map((wording) => specOf(wording, byId));
    this.definitions = new Map(this.specs.map((spec) => [spec.name, definitionOf(spec)]));
  }

  /** The tools a caller may use: the read tools for everyone, the write tools with a developer key too. */
  list(developer: boolean): Tool[] {
    return this.specs.filter((spec) => developer || !spec.write).map((spec) => this.definitions.get(spec.name) as Tool);
  }

  /** Looks a tool up by name; undefined when there is none (a protocol error for the caller). */
  named(name: string): ToolSpec | undefined {
    return this.specs.find((spec) => spec.name === name);
  }
}

/** An ApiError-shaped body for what is refused before any REST call is made. */
function localError(
  status: number,
  error: string,
  param: string | null,
  message: string,
  suggestion: string,
): CallToolResult {
  return errorResult({
    status,
    headers: {},
    body: { error, message, param, suggestion, alternatives: [], alternatives_count: 0 },
  });
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** A success: the API's JSON as structuredContent and as one text item. */
function successResult(response: ApiResponse): CallToolResult {
  const text = JSON.stringify(response.body ?? null);
  return {
    content: [{ type: 'text', text }],
    ...(isObject(response.body) && { structuredContent: response.body }),
  };
}

/**
 * An error answer: isError, with the ApiError's fields (error, message, param, suggestion,
 * alternatives) and the HTTP status, plus retry_after (seconds) when the API sent Retry-After
 * (429, 503, an idempotency key in progress). The Idempotency-Key header is the idempotency_key
 * argument here, so an error about it names the argument. As JSON text only: structuredContent is
 * the tool's outputSchema (the success answer), which clients check it against even on isError.
 */
function errorResult(response: ApiResponse): CallToolResult {
  const retryAfter = Number(response.headers['retry-after']);
  const apiError: Record<string, unknown> = isObject(response.body)
    ? { ...response.body }
    : { error: 'internal_error', message: `The API answered HTTP ${response.status} without an ApiError body.` };
  if (apiError.param === 'Idempotency-Key') apiError.param = IDEMPOTENCY_KEY;
  const result = {
    status: response.status,
    ...(Number.isFinite(retryAfter) && { retry_after: retryAfter }),
    ...apiError,
  };
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(result) }] };
}

/** An argument as query string value(s): numbers and booleans as text, a list as a repeated parameter. */
function queryValue(value: unknown): string | string[] {
  if (Array.isArray(value)) return value.map((item) => (typeof item === 'string' ? item : JSON.stringify(item)));
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * Runs a tool: its arguments become the REST request (path parameters into the path, the body's
 * fields into a JSON body, everything else into the query string, where the API names unknown
 * ones), and the REST answer becomes the result. Only what cannot be sent at all is refused here
 * (a missing id, a write without a developer key or without a usable idempotency_key); everything
 * else is for the API to judge, exactly as for REST.
 */
export async function callTool(
  spec: ToolSpec,
  args: unknown,
  context: { developer: boolean; execute: Executor },
): Promise<CallToolResult> {
  if (spec.write && !context.developer) {
    return localError(
      401,
      'authentication_required',
      'X-API-Key',
      `The tool ${spec.name} writes data, which needs a developer key; this MCP session has none.`,
      DEVELOPER_KEY_HINT,
    );
  }
  if (args !== undefined && !isObject(args)) {
    return localError(
      400,
      'invalid_parameter',
      'arguments',
      `arguments must be an object of ${spec.name}'s parameters; got ${JSON.stringify(args)?.slice(0, 100)}.`,
      'Send arguments as a JSON object, {} when the tool needs none, as its inputSchema in tools/list describes.',
    );
  }
  const rest = { ...args };
  const headers: Record<string, string> = {};
  if (spec.write) {
    const key = rest[IDEMPOTENCY_KEY];
    delete rest[IDEMPOTENCY_KEY];
    if (key === undefined || key === null) {
      return localError(
        400,
        'missing_parameter',
        IDEMPOTENCY_KEY,
        `${spec.name} needs an idempotency_key.`,
        'Send a fresh random value per operation, e.g. a UUID, and the same value when you retry it.',
      );
    }
    if (typeof key !== 'string' || !IDEMPOTENCY_KEY_PATTERN.test(key)) {
      return localError(
        400,
        'invalid_parameter',
        IDEMPOTENCY_KEY,
        `idempotency_key must be ${IDEMPOTENCY_KEY_FORMAT}.`,
        'Send a fresh random value per operation, e.g. a UUID, and the same value when you retry it.',
      );
    }
    headers['idempotency-key'] = key;
  }
  let path = spec.path;
  for (const name of placeholdersOf(spec.path)) {
    const value = rest[name];
    delete rest[name];
    if (typeof value !== 'string' || value.length === 0) {
      return localError(
        400,
        'missing_parameter',
        name,
        `${spec.name} needs ${name} as a non-empty string.`,
        `Send the ${name} of the object, as search or get tools show it.`,
      );
    }
    path = path.replace(`{${name}}`, encodeURIComponent(value));
  }
  // A write's other arguments are its body's fields, a read's its query parameters; the API names
  // unknown ones (with a did-you-mean) as it does for REST.
  const query: Record<string, string | string[]> = {};
  const body: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(rest)) {
    if (spec.method === 'POST') body[name] = value;
    else if (value !== undefined && value !== null) query[name] = queryValue(value);
  }
  const response = await context.execute({
    method: spec.method,
    path,
    query,
    ...(spec.method === 'POST' && { body }),
    headers,
  });
  return response.status >= 400 ? errorResult(response) : successResult(response);
}
