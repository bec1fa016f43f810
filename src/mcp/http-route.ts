/**
 * POST /mcp: the MCP server over Streamable HTTP, stateless (no sessions, one JSON answer per
 * request), for clients of protocol 2026-07-28 and of the 2025 revisions at the same endpoint.
 * The SDK v2 serves both from one server factory: `createMcpHandler` the 2026-07-28 requests
 * (server/discover, the per-request envelope), and for 2025 requests (the initialize handshake,
 * claim-less messages; `isLegacyRequest` tells them apart exactly as the handler would) the SDK's
 * stateless Streamable HTTP transport with JSON answers, as before (the handler's own legacy leg
 * would answer them as SSE streams). Each request gets a fresh Server; the tools it runs call the
 * REST routes of this same app through app.inject with the caller's X-API-Key and address, so
 * tiers, validation, ownership and rate limits are those of REST. Nothing is kept between
 * requests, so any instance answers any request (no sticky sessions).
 *
 * Budgets count work, not protocol: a tool call is one REST request, counted against the caller's
 * tier like any other (over the budget, its result is the 429 as isError with retry_after, in an
 * HTTP 200), exactly as over stdio. The messages around it (initialize, notifications, tools/list,
 * ping) and GET and DELETE /mcp count against the endpoint's own, generous budget per key or
 * address (`budget: 'mcp'`, MCP_RATE_LIMIT_PER_MIN), so an agent's handshake costs it no tool
 * calls. GET and DELETE answer 405 with Allow: POST (the not-found plugin's answer), as the spec
 * allows a server without streams or sessions.
 */
import { toWebRequest } from '@modelcontextprotocol/node';
import {
  type AuthInfo,
  createMcpHandler,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResponse,
  isLegacyRequest,
  type McpRequestContext,
  SUPPORTED_PROTOCOL_VERSIONS,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { type Config, publicBaseUrl } from '../config.js';
import { errorResponses } from '../http/error-catalogue.js';
import { MCP_FORWARD_HEADER, MCP_FORWARD_SECRET } from '../http/plugins/oauth-access.js';
import { ok } from '../http/responses.js';
import type { Api, RouteDeps } from '../http/route-deps.js';
import { NoQuery } from '../schemas/common.js';
import { ApiError } from '../services/errors.js';
import type { Operation } from './operations.js';
import { createMcpServer, type McpServerOptions, MODERN_PROTOCOL_VERSION } from './server.js';
import { type ApiResponse, type Executor, Tools } from './tools.js';

export const MCP_PATH = '/mcp';

/** Request headers passed on to the REST calls a tool makes (besides the tool's own). */
// Authorization too: `Bearer kmp_...` is a key as well (plugins/access.ts).
const FORWARDED = ['x-api-key', 'authorization', 'user-agent'] as const;

/**
 * Which Origin headers may use /mcp (the spec asks servers to check it against DNS rebinding):
 * none sent (not a browser) is fine; otherwise the origins CORS_ORIGINS lets read the REST API,
 * and the API's own PUBLIC_URL. With CORS_ORIGINS=* (the default) every origin may, as it may read
 * every REST answer: the API uses no cookies or other ambient credentials, so a page, rebound or
 * not, reaches nothing through /mcp that it could not read through REST with CORS.
 */
function originPolicy(config: Pick<Config, 'CORS_ORIGINS' | 'PUBLIC_URL' | 'HOST' | 'PORT'>) {
  if (config.CORS_ORIGINS === '*') return (_origin: string) => true;
  const allowed = new Set([...config.CORS_ORIGINS.split(','), new URL(publicBaseUrl(config)).origin]);
  return (origin: string) => allowed.has(origin);
}

function bodyError(message: string, suggestion: string): ApiError {
  return new ApiError(400, 'invalid_body', message, { suggestion });
}

/** Before schema validation: a batch gets its own answer, not "body must be object". */
function refuseBatch(body: unknown): void {
  if (Array.isArray(body)) {
    throw bodyError(
      'JSON-RPC batches (a JSON array) are not accepted: the MCP specification removed batching (2025-06-18).',
      'Send one JSON-RPC message per POST /mcp request.',
    );
  }
}

/** The body is one JSON-RPC message, or a 400 that says what to send. */
function checkMessage(body: unknown): void {
  if (!(isJSONRPCRequest(body) || isJSONRPCNotification(body) || isJSONRPCResponse(body))) {
    throw bodyError(
      'The body is not a JSON-RPC 2.0 message.',
      'Send one JSON-RPC message, e.g. {"jsonrpc":"2.0","id":1,"method":"tools/list"}, with Content-Type: application/json.',
    );
  }
}

/** The revisions /mcp serves: 2026-07-28, and the 2025 (and 2024) ones the SDK still speaks. */
export const PROTOCOL_VERSIONS: readonly string[] = [MODERN_PROTOCOL_VERSION, ...SUPPORTED_PROTOCOL_VERSIONS];

function checkHeaders(request: FastifyRequest): void {
  const accept = String(request.headers.accept ?? '');
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
    throw new ApiError(
      406,
      'invalid_parameter',
      'The Accept header must list application/json and text/event-stream.',
      {
        param: 'Accept',
        suggestion: 'Send Accept: application/json, text/event-stream, as the MCP Streamable HTTP transport requires.',
      },
    );
  }
  const version = request.headers['mcp-protocol-version'];
  if (version !== undefined && !PROTOCOL_VERSIONS.includes(String(version))) {
    throw new ApiError(400, 'invalid_parameter', `MCP protocol version '${String(version)}' is not supported.`, {
      param: 'MCP-Protocol-Version',
      suggestion: 'Send a supported version, or none before initialization.',
      alternatives: [...PROTOCOL_VERSIONS],
    });
  }
  if (request.headers['idempotency-key'] !== undefined) {
    throw new ApiError(400, 'invalid_parameter', 'POST /mcp takes no Idempotency-Key header.', {
      param: 'Idempotency-Key',
      suggestion:
        'Pass idempotency_key in the arguments of a write tool; it is sent with the REST call the tool makes.',
    });
  }
}

const TIER_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'] as const;

/** The budget of /mcp as the access plugin announced it for this request. */
interface OwnBudget {
  policy: string;
  left: string;
}

/**
 * After a tool's REST call, the answer shows the tier budget that call counted against: first in
 * RateLimit-Policy and RateLimit (lists), before /mcp's own, and in X-RateLimit-*, which hold one.
 */
function showTierBudget(reply: FastifyReply, rest: ApiResponse['headers'], own: OwnBudget): void {
  const policy = rest['ratelimit-policy'];
  const left = rest.ratelimit;
  if (reply.sent || policy === undefined || left === undefined) return;
  reply.header('ratelimit-policy', `${policy}, ${own.policy}`);
  reply.header('ratelimit', `${left}, ${own.left}`);
  for (const name of TIER_HEADERS) {
    const value = rest[name];
    if (value !== undefined) reply.header(name, value);
  }
}

/**
 * Runs a tool's REST request through this app, as the caller of /mcp (its key, its address, its
 * request id): counted against the caller's tier like any REST request.
 */
function injectExecutor(app: Api, request: FastifyRequest, reply: FastifyReply): Executor {
  const own = { policy: String(reply.getHeader('ratelimit-policy')), left: String(reply.getHeader('ratelimit')) };
  const forwarded: Record<string, string> = { 'x-request-id': request.id };
  // An access token for /mcp may make the REST requests of its tool calls (issue 31).
  if (request.access.oauth) forwarded[MCP_FORWARD_HEADER] = MCP_FORWARD_SECRET;
  for (const name of FORWARDED) {
    const value = request.headers[name];
    if (typeof value === 'string') forwarded[name] = value;
  }
  return async (call): Promise<ApiResponse> => {
    const response = await app.inject({
      method: call.method,
      url: call.path,
      query: call.query,
      headers: { ...forwarded, ...call.headers },
      remoteAddress: request.ip,
      ...(call.body !== undefined && { payload: call.body as object }),
    });
    let body: unknown;
    try {
      body = response.body === '' ? undefined : JSON.parse(response.body);
    } catch {
      body = undefined;
    }
    const headers = Object.fromEntries(
      Object.entries(response.headers).map(([name, value]) => [name, value === undefined ? undefined : String(value)]),
    );
    showTierBudget(reply, headers, own);
    return { status: response.statusCode, headers, body };
  };
}

function description(limits: RouteDeps['limits'], tools: Tools): string {
  const open = tools.specs.filter((t) => !t.keyRequired).length;
  return `The [Model Context Protocol](https://modelcontextprotocol.io) server of this API, for AI agents: protocol revision ${MODERN_PROTOCOL_VERSION} and the 2025 revisions at this one endpoint, over the Streamable HTTP transport without sessions: one JSON-RPC message per POST (no batches, no SSE streams; GET and DELETE answer 405), answered with one JSON-RPC message as application/json (a notification with 202 and no body). Send \`Accept: application/json, text/event-stream\`. The same server runs over stdio with \`npx karlsruhe-marketplace-api mcp\`.

Tools: one per operation of /v1 (${tools.specs.length}; not the event streams, calendar feeds, e-mail links or erasure), named after its operationId in snake_case (createJob: \`create_job\`), with the route's parameters as arguments and its answer as \`structuredContent\`. ${open} need no key; the others are listed with a developer key (X-API-Key) only. Every POST tool takes an \`idempotency_key\` (sent as Idempotency-Key). \`create_job\`, \`apply_to_job\`, \`create_booking\` and \`create_listing\` take \`confirm_by_person: true\`: a draft (POST /v1/drafts) the person confirms at its confirmation_url, asked for with URL elicitation where the client supports it. An error answer is a result with \`isError: true\` holding the ApiError and its HTTP \`status\`.

Rate limits: each tool call counts once against the caller's budget (a confirm_by_person retry twice: the draft and its state) (anonymous ${limits.anonymous}, developer ${limits.developer} per minute; beyond it, isError with \`retry_after\`); other messages only against /mcp's own limit (429). Browsers: an Origin header must be one CORS_ORIGINS allows (any with the default *), else 403.`;
}

const JsonRpcMessage = Type.Object(
  {
    jsonrpc: Type.Literal('2.0'),
    // Untyped on purpose: validation would coerce 3 to "3" (or "3" to 3); the answer must echo the id as sent.
    id: Type.Optional(Type.Unknown({ description: 'Request id, a string or an integer; none for notifications.' })),
    method: Type.Optional(Type.String({ description: 'e.g. initialize, tools/list, tools/call.' })),
    params: Type.Optional(Type.Object({}, { additionalProperties: true })),
  },
  {
    additionalProperties: true,
    description: 'One JSON-RPC 2.0 message (request, notification or response) of the Model Context Protocol.',
    examples: [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'search_jobs', arguments: { category: 'GARDENING', limit: 5 } },
      },
    ],
  },
);

const JsonRpcAnswer = Type.Object(
  { jsonrpc: Type.Literal('2.0') },
  { additionalProperties: true, description: 'The JSON-RPC 2.0 response: `result`, or `error` for a protocol error.' },
);

export interface McpRouteDeps extends Pick<RouteDeps, 'limits'> {
  /**
   * The app's route registry (app.ts, onRoute): the tools take their methods, paths and input
   * schemas from it, so the operations they call must be registered before this route.
   */
  operations: readonly Operation[];
}

/**
 * A tool that acts for someone, called without a key or token: HTTP 401 with the challenge of RFC
 * 9728 (`WWW-Authenticate: Bearer resource_metadata=...`), so an MCP client with OAuth support
 * sends the person through the authorization and calls again (issue 31). Other messages, and the
 * tools open to everyone, keep working without credentials.
 */
function refuseAnonymousPersonTool(request: FastifyRequest, tools: Tools, resourceMetadata: string): void {
  if (request.access.tier === 'developer') return;
  const message = request.body as { method?: unknown; params?: { name?: unknown } } | undefined;
  if (message?.method !== 'tools/call') return;
  const tool = tools.specs.find((spec) => spec.name === message.params?.name);
  if (!tool?.keyRequired) return;
  throw new ApiError(
    401,
    'authentication_required',
    `The tool ${tool.name} acts for a person: it needs a developer key or an access token.`,
    {
      param: 'Authorization',
      suggestion:
        'Authorize with OAuth (the protected resource metadata in WWW-Authenticate names the authorization server) and send Authorization: Bearer <access token>, or send a developer key in X-API-Key.',
      headers: { 'www-authenticate': `Bearer resource_metadata="${resourceMetadata}"` },
    },
  );
}

export function mcpRoutes(app: Api, deps: McpRouteDeps, config: Config): void {
  const originAllowed = originPolicy(config);
  const resourceMetadata = `${publicBaseUrl(config)}/.well-known/oauth-protected-resource/mcp`;
  const tools = new Tools(deps.operations);
  const modern = createMcpHandler(
    (context: McpRequestContext) => createMcpServer(context.authInfo?.extra?.options as McpServerOptions),
    {
      legacy: 'reject',
      // 'auto': one JSON body, as no tool sends a notification before its result (then it would be
      // an SSE stream); 'json' would do the same, but the SDK says so on the console at start-up.
      responseMode: 'auto',
      onerror: (error) => app.log.warn({ err: error }, 'mcp request refused or failed'),
    },
  );
  app.addHook('onClose', async () => modern.close());
  // GET (a stream) and DELETE (a session) are messages of the transport too: counted against the
  // budget of /mcp, not the tier's, and answered as an unknown method (405, Allow: POST).
  app.route({
    method: ['GET', 'DELETE'],
    url: MCP_PATH,
    exposeHeadRoute: false,
    schema: { hide: true },
    config: { budget: 'mcp', refusesMethod: true },
    handler: (_request, reply) => reply.callNotFound(),
  });
  app.post(
    MCP_PATH,
    {
      config: { budget: 'mcp' },
      // After the access plugin counted the request; before the body is validated or anything is done.
      preValidation: async (request) => {
        const origin = request.headers.origin;
        if (origin !== undefined && !originAllowed(origin)) {
          throw new ApiError(403, 'forbidden', `Requests from the origin '${origin.slice(0, 200)}' may not use /mcp.`, {
            param: 'Origin',
            suggestion:
              'Call /mcp from an origin CORS_ORIGINS lists, or from outside a browser (without an Origin header).',
          });
        }
        checkHeaders(request);
        refuseBatch(request.body);
      },
      schema: {
        operationId: 'mcp',
        summary: 'MCP server for AI agents (Streamable HTTP)',
        description: description(deps.limits, tools),
        tags: ['Agents'],
        querystring: NoQuery,
        body: JsonRpcMessage,
        response: {
          200: ok(JsonRpcAnswer, 'The JSON-RPC response to the request.'),
          202: { description: 'A notification or response was accepted; no body.', type: 'null' },
          ...errorResponses(400, 403, 406, 413, 415),
        },
      },
    },
    async (request, reply) => {
      checkMessage(request.body);
      refuseAnonymousPersonTool(request, tools, resourceMetadata);
      const options: McpServerOptions = {
        developer: request.access.tier === 'developer',
        execute: injectExecutor(app, request, reply),
        tools,
      };
      // The client went away before the answer was written (the request's own 'close' fires once its
      // body is read, on Node 20): abort the exchange.
      const abort = new AbortController();
      reply.raw.on('close', () => {
        if (!reply.raw.writableFinished) abort.abort();
      });
      const web = await toWebRequest(request.raw, request.body, { signal: abort.signal });
      // The per-request options ride in authInfo, which the SDK hands to the factory as it is
      // (no token: the access plugin has checked the key already).
      const authInfo: AuthInfo = { token: '', clientId: 'marketplace', scopes: [], extra: { options } };
      let answer: Response;
      if (await isLegacyRequest(web, request.body)) {
        const server = createMcpServer(options);
        server.onerror = (error) => request.log.warn({ err: error }, 'mcp server error');
        const transport = new WebStandardStreamableHTTPServerTransport({
          sessionIdGenerator: undefined,
          enableJsonResponse: true,
        });
        await server.connect(transport);
        try {
          answer = await transport.handleRequest(web, { parsedBody: request.body, authInfo });
        } finally {
          void transport.close();
          void server.close();
        }
      } else {
        answer = await modern.fetch(web, { parsedBody: request.body, authInfo });
      }
      // The SDK's answer as it is: its status (also its 4xx for protocol refusals), headers and body.
      const out = reply as unknown as FastifyReply;
      out.code(answer.status).header('cache-control', 'no-store');
      answer.headers.forEach((value, name) => {
        if (name !== 'content-length' && name !== 'transfer-encoding') out.header(name, value);
      });
      const text = await answer.text();
      return out.send(text === '' ? undefined : text);
    },
  );
}
