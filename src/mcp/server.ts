/**
 * The MCP server of the marketplace, on the official TypeScript SDK v2 (`@modelcontextprotocol/server`).
 * One factory makes a low-level `Server` (the tools' input schemas are the routes' JSON Schemas as
 * they are) for each serving unit: the /mcp route calls it once per HTTP request, for protocol
 * 2026-07-28 and for the 2025 revisions alike (http-route.ts); stdio once per connection
 * (stdio.ts, `serveStdio`). The SDK speaks the protocol (server/discover, the per-request envelope,
 * the 2025 initialize handshake); nothing here is protocol code.
 */
import {
  type CallToolResult,
  CLIENT_CAPABILITIES_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { CATEGORIES } from '../domain/categories.js';
import { API_VERSION } from '../domain/tiers.js';
import { ApiError } from '../services/errors.js';
import { callTool, type Executor, type Tools } from './tools.js';

export const SERVER_NAME = 'karlsruhe-marketplace';

/** The protocol revision of 2026 the server speaks, besides the 2025 ones the SDK still serves. */
export const MODERN_PROTOCOL_VERSION = '2026-07-28';

export const INSTRUCTIONS = `Karlsruhe Marketplace: a local services marketplace and item-lending platform for Karlsruhe, Germany and the towns within 50 km. People post jobs for helpers (categories ${CATEGORIES.join(', ')}) and lend or rent out items by the day or week with a deposit.

Every tool is one REST operation of the API (/v1, see /v1/openapi.json), named after its operationId in snake_case (searchJobs: search_jobs), and returns its JSON answer unchanged; the tool description names the REST operation.
- Read tools (search_jobs, get_job, search_listings, get_listing, get_categories, get_stats, list_places, ...) work without a key: anonymous tier, a small per-address rate limit per minute.
- Tools about an account (your jobs, bookings, conversations, reviews, saved searches, reports, export, ...) appear only with a developer key (X-API-Key; a larger per-key rate limit). Every POST tool takes an idempotency_key: a fresh UUID per operation, the same one when you retry it, so a retry never does the work twice (required with a key).
- Acting for a person: create_job, apply_to_job, create_booking and create_listing take confirm_by_person: true. Then nothing is written yet: the tool answers a draft with a confirmation_url the person opens to confirm or decline (clients that support URL elicitation are asked to open it). get_draft tells whether it was confirmed, and the id of what was created.
- Ids are prefixed: job_ (jobs), lst_ (listings), hlp_ (helpers), app_ (applications), bkg_ (bookings). Searches centre on lat/lng (default 49.0069, 8.4037, Karlsruhe) or on a place name (near: Durlach, 76227) within radius km, and take words (q) (at most 50); the lat/lng of jobs and listings is an approximate point 200 to 500 m from the place (people's homes stay private); prices are in EUR; dates are Europe/Berlin calendar days (YYYY-MM-DD) or RFC 3339 date-times.
- The rate limit counts tool calls: each is one request of the per-minute budget (discovery, the handshake and listing the tools cost none of it).
- Errors come back as tool results with isError, as JSON text: the API's ApiError (error code, message, param naming the offending argument, suggestion, alternatives to try) and the HTTP status. On status 429 (rate limit) wait retry_after seconds before the next call. Fix the named param as suggested rather than retrying unchanged.
- Results are the JSON in structuredContent, described by each tool's outputSchema.
- Start with get_categories or get_stats to learn the category values, places and limits.`;

export interface McpServerOptions {
  /** Whether the caller holds a developer key: only then are the tools that need one listed and run. */
  developer: boolean;
  /** Makes the REST requests of tool calls. */
  execute: Executor;
  /** The tools, made from the route registry (the app's, or catalog.ts's for stdio). */
  tools: Tools;
}

/** Whether the client of this request said it can open a URL for its user (URL-mode elicitation). */
function canOpenUrls(server: Server, ctx: ServerContext): boolean {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const capabilities = envelope ? envelope[CLIENT_CAPABILITIES_META_KEY] : server.getClientCapabilities();
  return (capabilities as { elicitation?: { url?: unknown } } | undefined)?.elicitation?.url !== undefined;
}

/** A server with the marketplace's tools, ready for one of the SDK's serving entries. */
export function createMcpServer(options: McpServerOptions): Server {
  const server = new Server(
    { name: SERVER_NAME, title: 'Karlsruhe Marketplace API', version: API_VERSION },
    { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS },
  );
  server.setRequestHandler('tools/list', async () => ({ tools: options.tools.list(options.developer) }));
  // tools/call is answered by the fallback rather than setRequestHandler('tools/call'): the SDK
  // checks its schema first and answers a malformed call (e.g. "arguments": null) with -32602 and
  // zod's raw issue list. Here a bad name is -32602 with an ApiError, bad arguments a tool error.
  server.fallbackRequestHandler = async (request, ctx) => {
    if (request.method !== 'tools/call') throw new ProtocolError(ProtocolErrorCode.MethodNotFound, 'Method not found');
    const params = (request.params ?? {}) as { name?: unknown; arguments?: unknown };
    const spec = typeof params.name === 'string' ? options.tools.named(params.name) : undefined;
    if (!spec) {
      const known = options.tools.list(options.developer).map((tool) => tool.name);
      const given = typeof params.name === 'string' ? `Unknown tool '${params.name}'` : 'params.name is missing';
      const error = new ApiError(400, 'invalid_parameter', `${given}; tools: ${known.join(', ')}.`, {
        param: 'name',
        suggestion: 'Send the name of one of the tools tools/list shows.',
        alternatives: known,
      });
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, error.message, error.toBody());
    }
    const result: CallToolResult | object = await callTool(spec, params.arguments, {
      ...options,
      canOpenUrls: canOpenUrls(server, ctx as ServerContext),
      era: (ctx as ServerContext).mcpReq.envelope ? 'modern' : 'legacy',
      requestState: (ctx as ServerContext).mcpReq.requestState(),
    });
    return result as CallToolResult;
  };
  return server;
}
