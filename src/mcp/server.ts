/**
 * The MCP server of the marketplace (low-level SDK Server: the tools' input schemas are the routes'
 * JSON Schemas as they are). Both transports build it: stdio.ts once per process, the /mcp route
 * once per HTTP request.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { CATEGORIES } from '../domain/categories.js';
import { API_VERSION } from '../domain/tiers.js';
import { ApiError } from '../services/errors.js';
import { callTool, type Executor, type Tools } from './tools.js';

export const SERVER_NAME = 'karlsruhe-marketplace';

export const INSTRUCTIONS = `Karlsruhe Marketplace: a local services marketplace and item-lending platform for Karlsruhe, Germany and the towns within 50 km. People post jobs for helpers (categories ${CATEGORIES.join(', ')}) and lend or rent out items by the day or week with a deposit.

Every tool calls the REST API (/v1, see /v1/openapi.json) and returns its JSON answer unchanged; the tool description names the REST operation.
- Read tools (search_jobs, get_job, search_listings, get_listing, list_categories, estimate_price, check_availability, get_stats) work without a key: anonymous tier, a small per-address rate limit per minute.
- Write tools (create_job, apply_to_job, book_listing) appear only with a developer key (X-API-Key; a larger per-key rate limit). Each needs an idempotency_key: a fresh UUID per operation, the same one when you retry it, so a retry never does the work twice.
- Ids are prefixed: job_ (jobs), lst_ (listings), hlp_ (helpers), app_ (applications), bkg_ (bookings). Searches centre on lat/lng (default 49.0069, 8.4037, Karlsruhe) or on a place name (near: Durlach, 76227) within radius km, and take words (q) (at most 50); the lat/lng of jobs and listings is an approximate point 200 to 500 m from the place (people's homes stay private), and distances and radius filters use it; prices are in EUR; dates are Europe/Berlin calendar days (YYYY-MM-DD) or RFC 3339 date-times.
- The rate limit counts tool calls: each is one request of the per-minute budget (the handshake and listing the tools cost none of it).
- Errors come back as tool results with isError, as JSON text: the API's ApiError (error code, message, param naming the offending argument, suggestion, alternatives to try) and the HTTP status. On status 429 (rate limit) wait retry_after seconds before the next call. Fix the named param as suggested rather than retrying unchanged.
- Results are the JSON in structuredContent, described by each tool's outputSchema.
- Start with list_categories or get_stats to learn the category values, places and limits.`;

export interface McpServerOptions {
  /** Whether the caller holds a developer key: only then are the write tools listed and run. */
  developer: boolean;
  /** Makes the REST requests of tool calls. */
  execute: Executor;
  /** The tools, made from the route registry (the app's, or catalog.ts's for stdio). */
  tools: Tools;
}

/** A server with the marketplace's tools, ready to be connected to a transport. */
export function createMcpServer(options: McpServerOptions): Server {
  const server = new Server(
    { name: SERVER_NAME, title: 'Karlsruhe Marketplace API', version: API_VERSION },
    { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: options.tools.list(options.developer) }));
  // tools/call is answered here rather than by setRequestHandler(CallToolRequestSchema): the SDK
  // checks that schema first and answers a malformed call (e.g. "arguments": null) with -32603 and
  // zod's raw issue list. Here a bad name is -32602 and bad arguments a tool error, both ApiErrors.
  server.fallbackRequestHandler = async (request) => {
    if (request.method !== 'tools/call') throw new McpError(ErrorCode.MethodNotFound, 'Method not found');
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
      throw new McpError(ErrorCode.InvalidParams, error.message, error.toBody());
    }
    return callTool(spec, params.arguments, options);
  };
  return server;
}
