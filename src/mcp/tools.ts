/**
 * The MCP tools of the marketplace: one for each public REST operation of /v1, derived from the
 * route registry (operations.ts). A tool's name is its operationId in snake_case (createJob:
 * create_job), its title the route's summary, its description the route's own words (a few
 * operations agents use most have words of their own here), its input schema the very TypeBox
 * schemas the route validates with (path params, query string and body merged into one object)
 * and its output schema the route's success answer (tool-schemas.ts). Operations that are no
 * question-and-answer call are not tools, each for a reason written down in NOT_TOOLS.
 *
 * A tool is executed by calling the REST API itself (over HTTP for stdio, through app.inject for
 * POST /mcp), so tiers, rate limits, validation and ownership apply exactly as they do to REST,
 * and the API's JSON answer is the tool's result.
 */
import {
  type CallToolResult,
  inputRequired,
  type Tool,
  UrlElicitationRequiredError,
} from '@modelcontextprotocol/server';
import type { TSchema } from 'typebox';
import { DRAFT_OPERATIONS } from '../domain/drafts.js';
import { SANDBOX_BASE } from '../http/sandbox-naming.js';
import {
  IDEMPOTENCY_KEY_FORMAT,
  IDEMPOTENCY_KEY_PATTERN,
  IDEMPOTENCY_RETENTION,
  IdempotencyKeySchema,
} from '../schemas/idempotency.js';
import type { Operation } from './operations.js';
import { inputSchemaOf, outputSchemaOf } from './tool-schemas.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One REST request, as a tool makes it. `path` already has its ids filled in (URL-encoded). */
export interface ApiRequest {
  method: HttpMethod;
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
  /** Request headers the route reads (X-Report-Token): arguments under the header's name, sent as headers. */
  headers?: TSchema;
  /** The success answer's JSON object, where the route declares one (no outputSchema otherwise). */
  response?: TSchema;
}

/** A tool: what is said of it for agents, and what it takes from its route. */
export interface ToolSpec {
  name: string;
  title: string;
  description: string;
  /** The operationId of the REST operation the tool calls (see /v1/openapi.json). */
  operationId: string;
  method: HttpMethod;
  /** The route path with `{name}` placeholders for path parameters, e.g. /v1/jobs/{id}. */
  path: string;
  schemas: RouteSchemas;
  /** Anything but GET: changes something. */
  write: boolean;
  /** Listed and run only with a developer key (the operation needs one in REST). */
  keyRequired: boolean;
  /** POST tools take an idempotency_key (required where the operation needs a key). */
  idempotency: 'required' | 'optional' | 'none';
  /** Offers confirm_by_person: a draft the person confirms instead of the write itself. */
  draftable: boolean;
}

export const DEVELOPER_KEY_HINT =
  'Needs a developer key: start the MCP server with MARKETPLACE_API_KEY (stdio) or send X-API-Key to /mcp; request a free key at /developers.';

const IDEMPOTENCY_KEY = 'idempotency_key';
const CONFIRM_BY_PERSON = 'confirm_by_person';

const IDEMPOTENCY_KEY_SCHEMA = {
  ...IdempotencyKeySchema,
  description: `Sent as the Idempotency-Key header: ${IDEMPOTENCY_KEY_FORMAT}, fresh per operation (a UUID, say). Repeating the call with the same key and arguments within ${IDEMPOTENCY_RETENTION} answers the first result again without doing the work twice; the same key with other arguments is an error (422).`,
};

const CONFIRM_BY_PERSON_SCHEMA = {
  type: 'boolean',
  description:
    'true: do not write now; make a draft the person you act for confirms or declines on a web page (POST /v1/drafts). The result is the draft with its confirmation_url to show them; clients that support URL elicitation are asked to open it. Follow it with get_draft. Default false: write at once.',
};

/** The operations a person can be asked to confirm as a draft (POST /v1/drafts). */
const DRAFTABLE: readonly string[] = DRAFT_OPERATIONS;

/**
 * The documented /v1 operations that are no tool, and why. A tool call is one question and one
 * answer in JSON; a new operation that is neither a tool nor listed here fails
 * test/mcp/mcp.test.ts (the tools against the OpenAPI document), so it is a decision.
 */
export const NOT_TOOLS: Readonly<Record<string, string>> = {
  mcp: 'the MCP endpoint itself',
  streamEvents: 'a Server-Sent Events stream, open for minutes: no single answer',
  streamMyEvents: 'a Server-Sent Events stream, open for minutes: no single answer',
  getListingCalendar: 'an iCalendar document for calendar apps, not JSON',
  getCalendarFeed: 'an iCalendar document for calendar apps, authorised by its secret URL, not JSON',
  unsubscribeSavedSearchDigest: 'the link in a digest e-mail, authorised by its token, for the person who reads it',
  unsubscribeSavedSearchDigestOneClick: 'the one-click unsubscribe of mail clients (RFC 8058), authorised by its token',
  eraseMyAccount: 'irreversible: the person erases their own account (DELETE /v1/me), not an agent',
  listMyAuthorizations: "a person's connected apps are the person's to manage, not an agent's (issue 31)",
  revokeMyAuthorization: "a person's connected apps are the person's to manage, not an agent's (issue 31)",
  createOauthClient: 'registering OAuth clients is a developer’s work with a key, not an agent’s (issue 31)',
  listOauthClients: 'registering OAuth clients is a developer’s work with a key, not an agent’s (issue 31)',
  getOauthClient: 'registering OAuth clients is a developer’s work with a key, not an agent’s (issue 31)',
  updateOauthClient: 'registering OAuth clients is a developer’s work with a key, not an agent’s (issue 31)',
  deleteOauthClient: 'registering OAuth clients is a developer’s work with a key, not an agent’s (issue 31)',
  rotateOauthClientSecret: 'registering OAuth clients is a developer’s work with a key, not an agent’s (issue 31)',
  getWorkflows: 'the Arazzo document (YAML) that describes the API, not an operation of it',
};

/** Words for agents where the route's summary and description say too little or too much for them. */
const AGENT_WORDS: Readonly<Record<string, string>> = {
  searchJobs:
    'Search open jobs (gardening, cleaning, moving, tech repair, childcare, pet care, shopping, events, borrowing, other) around Karlsruhe: by words (`q`, German as typed: "Rasen mähen") within `radius` km (at most 50) of `lat`/`lng` (default: Karlsruhe centre 49.0069, 8.4037) or of a place name (`near`: "Durlach", "76227"), filtered by category, budget, date and urgency, sorted (relevance with q), one page at a time (`limit` up to 100, `offset`). Answers { data: Job[], total, limit, offset, has_more }.',
  getJob:
    'One job by id (job_...), whatever its status, with price range, pricing confidence and the quickest helper ETA. An unknown id answers not_found with similar ids in alternatives.',
  searchListings:
    'Search available listings (items lent or rented out by the day or week, with a deposit) by words (`q`: "bohrmaschine") within `radius` km of `lat`/`lng` or of a place name (`near`), filtered by category, maximum price per day, condition and instant booking, sorted and paged. Answers { data: Listing[], total, has_more }.',
  getListing: "One listing by id (lst_...), whatever its status, with its owner's reliability.",
  getCategories:
    'Every category value (GARDENING, CLEANING, ...) with its name and description in `lang` (de or en) and current price bands (10th percentile, median, 90th percentile): per helper-hour and per job for services, per day, per week and deposit for borrowing. Use it to learn the category values the other tools take.',
  getPriceEstimate:
    'A fair price for a job of a category: what helpers were paid per hour in completed jobs (near `lat`/`lng` when enough are there), scaled by duration_hours × helpers, as median with a low-high range.',
  checkAvailability:
    'How many verified, available helpers within `radius` km of `lat`/`lng` offer a category (value, or a German or English name such as "Garten") with at least `min_reliability`, with the top ones by reliability and distance.',
  getStats:
    "Coverage (centre, radius, the places served with their open jobs and listings), totals, per-category counts and medians, platform-wide price medians, and this API's capabilities (endpoints, tiers and rate limits, version).",
  createJob:
    'Posts a job for the calling account: title, description, category, price_eur and location ({lat, lng} within 50 km of Karlsruhe, or {plz}) are required. It is open and visible at once in search_jobs and get_job; answers the Job. Dates must lie ahead.',
  applyToJob:
    'Applies to an open job (id) with a helper profile the calling account registered (helper_id, hlp_...), with an optional message to the job owner; answers the pending application. A helper applies once per job; an account cannot apply to its own job.',
  createBooking:
    'Books a listing (id) from start_date to end_date (inclusive, YYYY-MM-DD, Europe/Berlin), or by the hour from start_at to end_at (full hours, a listing with price_per_hour_eur), for the calling account; answers the booking, confirmed (instant booking) or requested, with its price and deposit. Overlapping bookings are refused (booking_conflict).',
};

/** How long a description may be: the first sentences of the route's own, up to about this many characters. */
const DESCRIPTION_CHARS = 600;

/** Markdown as plain sentences: links as their text, no emphasis or code marks, one line. */
function plainText(markdown: string): string {
  return markdown
    .replace(/\[([^\]]+)\]\([^)]+\)/g, '$1')
    .replace(/\*\*|`/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The leading sentences of `text` that fit in `limit` characters (at least the first). */
function leadingSentences(text: string, limit: number): string {
  // A sentence ends at . ! or ? before a space or the end: job.created and v1.2 stay inside one.
  const sentences = text.match(/(?:[^.!?]|[.!?](?!\s|$))+(?:[.!?]+(?=\s|$)|$)/g) ?? [text];
  let out = '';
  for (const sentence of sentences) {
    if (out && out.length + sentence.length > limit) break;
    out += sentence;
  }
  return out.trim();
}

/** "createJob" as "create_job", "getMyProvider" as "get_my_provider". */
export const snakeCase = (operationId: string): string =>
  operationId.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`).replace(/^_/, '');

/** The names of a path's `{placeholders}`. */
const placeholdersOf = (path: string): string[] => [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? '');

/**
 * Whether an operation becomes a tool: a JSON operation of /v1 not in NOT_TOOLS. The sandbox's
 * twins under /v1/demo are not: their answers are canned, for trying the API by hand.
 */
export function isToolOperation(operation: Operation): boolean {
  return (
    operation.path.startsWith('/v1/') &&
    !operation.path.startsWith(`${SANDBOX_BASE}/`) &&
    operation.json &&
    !(operation.operationId in NOT_TOOLS) &&
    ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(operation.method)
  );
}

/** The tool an operation makes. */
function specOf(operation: Operation): ToolSpec {
  const { operationId, params, query, body, headers, response, keyRequired } = operation;
  const method = operation.method as HttpMethod;
  const write = method !== 'GET';
  const draftable = DRAFTABLE.includes(operationId);
  const own = AGENT_WORDS[operationId];
  const words = own ?? leadingSentences(plainText(`${operation.summary}. ${operation.description}`), DESCRIPTION_CHARS);
  const idempotency = method !== 'POST' ? 'none' : keyRequired ? 'required' : 'optional';
  const notes = [
    `REST: ${method} ${operation.path}.`,
    ...(keyRequired ? [DEVELOPER_KEY_HINT] : []),
    ...(draftable ? ['With confirm_by_person: true, the person you act for confirms it first (a draft).'] : []),
  ];
  return {
    name: snakeCase(operationId),
    title: operation.summary,
    description: `${words} ${notes.join(' ')}`,
    operationId,
    method,
    path: operation.path,
    schemas: {
      ...(params && { params }),
      ...(query && { query }),
      ...(body && { body }),
      ...(headers && { headers }),
      ...(response && { response }),
    },
    write,
    keyRequired,
    idempotency,
    draftable,
  };
}

/** Destructive: removes or ends something for good (deletes, cancels, declines, rejects, archives). */
const DESTRUCTIVE = /^(delete|cancel|decline|reject|archive)/;

/** `draftSchema`: the Draft answer (createDraft's), which draftable tools answer with confirm_by_person. */
function definitionOf(spec: ToolSpec, draftSchema: TSchema | undefined): Tool {
  const { params, query, body, headers, response } = spec.schemas;
  const properties: Record<string, object> = {};
  const required: string[] = [];
  if (spec.idempotency !== 'none') {
    properties[IDEMPOTENCY_KEY] = IDEMPOTENCY_KEY_SCHEMA;
    if (spec.idempotency === 'required') required.push(IDEMPOTENCY_KEY);
  }
  if (spec.draftable) properties[CONFIRM_BY_PERSON] = CONFIRM_BY_PERSON_SCHEMA;
  return {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    inputSchema: inputSchemaOf(
      spec.name,
      [params, query, body, headers],
      { properties, required },
      spec.method === 'PATCH' || spec.method === 'PUT',
    ),
    ...(response && { outputSchema: outputSchemaOf(spec.name, response, spec.draftable ? draftSchema : undefined) }),
    annotations: spec.write
      ? {
          title: spec.title,
          readOnlyHint: false,
          destructiveHint: spec.method === 'DELETE' || DESTRUCTIVE.test(spec.operationId),
          // A POST without a key has no idempotency (a key request, an anonymous report).
          idempotentHint: spec.idempotency !== 'optional',
          openWorldHint: false,
        }
      : { title: spec.title, readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  };
}

/** The marketplace's tools, made from a route registry: the app's routes (POST /mcp) or catalog.ts's (stdio). */
export class Tools {
  readonly specs: readonly ToolSpec[];
  private readonly definitions: ReadonlyMap<string, Tool>;
  private readonly byName: ReadonlyMap<string, ToolSpec>;

  constructor(operations: Iterable<Operation>) {
    const seen = new Set<string>();
    const specs: ToolSpec[] = [];
    for (const operation of operations) {
      if (seen.has(operation.operationId) || !isToolOperation(operation)) continue;
      seen.add(operation.operationId);
      specs.push(specOf(operation));
    }
    for (const operationId of DRAFTABLE) {
      if (!seen.has(operationId)) throw new Error(`tools: the draft operation '${operationId}' is not registered`);
    }
    this.specs = specs;
    this.byName = new Map(specs.map((spec) => [spec.name, spec]));
    const draftSchema = specs.find((spec) => spec.operationId === 'createDraft')?.schemas.response;
    if (!draftSchema) throw new Error('tools: the createDraft operation (POST /v1/drafts) is not registered');
    this.definitions = new Map(specs.map((spec) => [spec.name, definitionOf(spec, draftSchema)]));
  }

  /** The tools a caller may use: those open to everyone, and with a developer key those that need one. */
  list(developer: boolean): Tool[] {
    return this.specs
      .filter((spec) => developer || !spec.keyRequired)
      .map((spec) => this.definitions.get(spec.name) as Tool);
  }

  /** Looks a tool up by name; undefined when there is none (a protocol error for the caller). */
  named(name: string): ToolSpec | undefined {
    return this.byName.get(name);
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

/**
 * A success: the API's JSON as structuredContent (when the tool has an outputSchema, which is then
 * the answer's object) and as one text item. An answer without a body (204) is `{"status":204}`.
 */
function successResult(spec: ToolSpec, response: ApiResponse): CallToolResult {
  const text = JSON.stringify(response.body ?? { status: response.status });
  return {
    content: [{ type: 'text', text }],
    ...(spec.schemas.response && isObject(response.body) && { structuredContent: response.body }),
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

/** What a tool call is run with, besides its arguments. */
export interface CallContext {
  developer: boolean;
  execute: Executor;
  /** The client can open a URL for its user (URL-mode elicitation): drafts ask it to. */
  canOpenUrls?: boolean;
  /** The protocol era of the request: 2026-07-28 (modern) asks with input_required, 2025 with error -32042. */
  era?: 'modern' | 'legacy';
  /** The request state a 2026-07-28 client sent back with its retry (attacker-controlled: only a draft id). */
  requestState?: unknown;
}

/** A draft as POST and GET /v1/drafts answer it, as far as it is read here. */
interface Draft {
  id: string;
  status: string;
  confirmation_url: string | null;
  summary: { de: string; en: string };
}

const DRAFT_ID = /^drf_[A-Za-z0-9_-]{1,64}$/;

/**
 * confirm_by_person: the write becomes a draft (POST /v1/drafts, with the tool's idempotency_key),
 * and the result is the draft as GET /v1/drafts/{id} shows it now, with the confirmation_url
 * (which only the first answer to POST holds: the server keeps a hash of its token, and a replay
 * answers it as null, so a 2025 client's retry is not asked again). While it is
 * pending, a client that can open URLs for its user is asked to open it: on 2026-07-28 with an
 * input_required result whose requestState is the draft id, on 2025 with the URL elicitation error
 * -32042; either retries the call afterwards and gets the draft as it is then. The requestState
 * comes back from the client: it is only ever read as a draft id, fetched with the caller's key,
 * so a forged one is at most another account's draft, which answers 404.
 */
async function draftCall(
  spec: ToolSpec,
  input: { path: Record<string, string>; body: Record<string, unknown>; headers: Record<string, string> },
  context: CallContext,
): Promise<CallToolResult | ReturnType<typeof inputRequired>> {
  const retried = typeof context.requestState === 'string' && DRAFT_ID.test(context.requestState);
  let draftId = retried ? String(context.requestState) : undefined;
  let url: string | null = null;
  let fresh: Draft | undefined;
  if (!draftId) {
    const made = await context.execute({
      method: 'POST',
      path: '/v1/drafts',
      query: {},
      body: {
        operation: spec.operationId,
        ...(input.path.id !== undefined && { path: { id: input.path.id } }),
        body: input.body,
      },
      headers: input.headers,
    });
    if (made.status >= 400) return errorResult(made);
    const draft = made.body as Draft;
    draftId = draft.id;
    url = draft.confirmation_url;
    // A new draft is pending as answered; a replay (the same idempotency_key again) is as it was
    // then, so its state now is read.
    if (made.headers['idempotent-replayed'] !== 'true') fresh = draft;
  }
  const now = fresh
    ? { status: 200, headers: {}, body: fresh }
    : await context.execute({
        method: 'GET',
        path: `/v1/drafts/${encodeURIComponent(draftId)}`,
        query: {},
        headers: {},
      });
  if (now.status >= 400) return errorResult(now);
  const current = now.body as Draft;
  const draft = { ...current, ...(url && current.status === 'pending' && { confirmation_url: url }) };
  if (draft.status === 'pending' && url && context.canOpenUrls) {
    const message = `Please confirm or decline: ${draft.summary.en} / ${draft.summary.de}`;
    if (context.era === 'modern') {
      return inputRequired({
        inputRequests: { confirm: inputRequired.elicitUrl({ message, url }) },
        requestState: draft.id,
      });
    }
    throw new UrlElicitationRequiredError([{ mode: 'url', message, url, elicitationId: draft.id }]);
  }
  return { content: [{ type: 'text', text: JSON.stringify(draft) }], structuredContent: draft };
}

/**
 * Runs a tool: its arguments become the REST request (path parameters into the path, the body's
 * fields into a JSON body for POST, PUT and PATCH, everything else into the query string, where
 * the API names unknown ones), and the REST answer becomes the result. Only what cannot be sent at
 * all is refused here (a missing id, a tool that needs a developer key without one, a POST without
 * a usable idempotency_key where one is needed); everything else is for the API to judge, exactly
 * as for REST.
 */
export async function callTool(
  spec: ToolSpec,
  args: unknown,
  context: CallContext,
): Promise<CallToolResult | ReturnType<typeof inputRequired>> {
  if (spec.keyRequired && !context.developer) {
    return localError(
      401,
      'authentication_required',
      'X-API-Key',
      `The tool ${spec.name} acts for an account, which needs a developer key; this MCP client sent none.`,
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
  if (spec.idempotency !== 'none') {
    const key = rest[IDEMPOTENCY_KEY];
    delete rest[IDEMPOTENCY_KEY];
    if ((key === undefined || key === null) && spec.idempotency === 'required') {
      return localError(
        400,
        'missing_parameter',
        IDEMPOTENCY_KEY,
        `${spec.name} needs an idempotency_key.`,
        'Send a fresh random value per operation, e.g. a UUID, and the same value when you retry it.',
      );
    }
    if (key !== undefined && key !== null) {
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
  }
  let confirmByPerson = false;
  if (spec.draftable) {
    const value = rest[CONFIRM_BY_PERSON];
    delete rest[CONFIRM_BY_PERSON];
    if (value !== undefined && value !== null && typeof value !== 'boolean') {
      return localError(
        400,
        'invalid_parameter',
        CONFIRM_BY_PERSON,
        `confirm_by_person must be true or false; got ${JSON.stringify(value)?.slice(0, 50)}.`,
        'Send true to have the person confirm the write on a web page first, or leave it out to write at once.',
      );
    }
    confirmByPerson = value === true;
  }
  let path = spec.path;
  const pathValues: Record<string, string> = {};
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
    pathValues[name] = value;
    path = path.replace(`{${name}}`, encodeURIComponent(value));
  }
  for (const name of Object.keys((spec.schemas.headers as { properties?: object } | undefined)?.properties ?? {})) {
    const value = rest[name];
    delete rest[name];
    if (typeof value === 'string') headers[name] = value;
  }
  // A write's other arguments are its body's fields, a read's its query parameters; the API names
  // unknown ones (with a did-you-mean) as it does for REST.
  const hasBody = spec.method === 'POST' || spec.method === 'PUT' || spec.method === 'PATCH';
  const query: Record<string, string | string[]> = {};
  const body: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(rest)) {
    if (hasBody) body[name] = value;
    else if (value !== undefined && value !== null) query[name] = queryValue(value);
  }
  if (confirmByPerson) return draftCall(spec, { path: pathValues, body, headers }, context);
  const response = await context.execute({
    method: spec.method,
    path,
    query,
    ...(hasBody && { body }),
    headers,
  });
  return response.status >= 400 ? errorResult(response) : successResult(spec, response);
}
