/**
 * The MCP server over stdio, for MCP clients that start it as a process (Claude Desktop and the
 * like): `npm run mcp`, or `npx karlsruhe-marketplace-api mcp` after a build. Tools call the REST
 * API over HTTP at MARKETPLACE_API_URL (default http://127.0.0.1:3000) with MARKETPLACE_API_KEY as
 * X-API-Key when set: with a key the tools that need one are listed too. The SDK's `serveStdio`
 * speaks protocol 2026-07-28 to clients that discover it (server/discover) and the 2025 revisions
 * to clients that open with initialize, from one server factory. stdout carries nothing but the
 * MCP protocol; diagnostics go to stderr.
 */
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { API_VERSION } from '../domain/tiers.js';
import { routeCatalog } from './catalog.js';
import { createMcpServer, SERVER_NAME } from './server.js';
import { type ApiRequest, type ApiResponse, type Executor, Tools } from './tools.js';

const DEFAULT_API_URL = 'http://127.0.0.1:3000';
/** A tool call waits at most this long for the API. */
const TIMEOUT_MS = 30_000;

/** Calls the REST API over HTTP. A network failure becomes a 503-like answer the agent can read. */
function httpExecutor(baseUrl: string, apiKey: string | undefined): Executor {
  return async (request: ApiRequest): Promise<ApiResponse> => {
    const url = new URL(request.path, baseUrl);
    for (const [name, value] of Object.entries(request.query)) {
      for (const item of [value].flat()) url.searchParams.append(name, item);
    }
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': `${SERVER_NAME}-mcp/${API_VERSION}`,
      ...request.headers,
    };
    if (apiKey) headers['x-api-key'] = apiKey;
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await fetch(url, {
        method: request.method,
        headers,
        ...(request.body !== undefined && { body: JSON.stringify(request.body) }),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return {
        status: 503,
        headers: {},
        body: {
          error: 'service_unavailable',
          message: `The marketplace API at ${baseUrl} could not be reached: ${reason}.`,
          param: null,
          suggestion:
            'Check that the API runs and that MARKETPLACE_API_URL points at it (default http://127.0.0.1:3000), then try again.',
          alternatives: [],
          alternatives_count: 0,
        },
      };
    }
    const text = await response.text();
    let body: unknown;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      body = undefined;
    }
    return { status: response.status, headers: Object.fromEntries(response.headers), body };
  };
}

async function main(): Promise<void> {
  const baseUrl = process.env.MARKETPLACE_API_URL || DEFAULT_API_URL;
  try {
    new URL(baseUrl);
  } catch {
    process.stderr.write(`MARKETPLACE_API_URL is not a URL: '${baseUrl}'\n`);
    process.exit(2);
  }
  const apiKey = process.env.MARKETPLACE_API_KEY?.trim() || undefined;
  const options = {
    developer: apiKey !== undefined,
    execute: httpExecutor(baseUrl, apiKey),
    tools: new Tools(routeCatalog()),
  };
  const onerror = (error: Error) => process.stderr.write(`mcp: ${error.message}\n`);
  serveStdio(
    () => {
      const server = createMcpServer(options);
      server.onerror = onerror;
      return server;
    },
    { legacy: 'serve', onerror },
  );
  process.stderr.write(
    `${SERVER_NAME} MCP server ${API_VERSION} on stdio, API ${baseUrl}, ${apiKey ? 'developer key: read and write tools' : 'no key: read tools'}\n`,
  );
}

await main();
