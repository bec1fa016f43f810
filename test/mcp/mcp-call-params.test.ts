/**
 * Malformed tools/call params over raw JSON-RPC (POST /mcp on a listening server): arguments that
 * are not an object are a tool error carrying an ApiError that names `arguments`, and a missing or
 * unknown tool name is -32602 with an ApiError as its data; never -32603 with zod's issue list.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildTestApp } from '../helpers/app.js';
import { TEST_ENGINE } from '../helpers/database.js';

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

test(`tools/call with malformed params answers with ApiErrors (${TEST_ENGINE})`, async (t) => {
  const { app } = await buildTestApp(t);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  let id = 0;
  const call = async (params: unknown) => {
    id += 1;
    const response = await fetch(`http://127.0.0.1:${port}/mcp`, {
      method: 'POST',
      headers: MCP_HEADERS,
      body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params }),
    });
    assert.equal(response.status, 200);
    return (await response.json()) as { id: number; result?: unknown; error?: unknown };
  };

  for (const args of [null, [], 'x', 5]) {
    const answer = await call({ name: 'get_stats', arguments: args });
    const expected = {
      status: 400,
      error: 'invalid_parameter',
      message: `arguments must be an object of get_stats's parameters; got ${JSON.stringify(args)}.`,
      param: 'arguments',
      suggestion:
        'Send arguments as a JSON object, {} when the tool needs none, as its inputSchema in tools/list describes.',
      alternatives: [],
      alternatives_count: 0,
    };
    assert.deepEqual(
      answer,
      {
        jsonrpc: '2.0',
        id,
        result: {
          isError: true,
          content: [{ type: 'text', text: JSON.stringify(expected) }],
        },
      },
      JSON.stringify(args),
    );
  }

  const tools =
    'search_jobs, get_job, search_listings, get_listing, list_categories, estimate_price, check_availability, get_stats';
  for (const [params, given] of [
    [{ name: 'no_such_tool', arguments: {} }, "Unknown tool 'no_such_tool'"],
    [{ name: 5, arguments: {} }, 'params.name is missing'],
    [{ arguments: {} }, 'params.name is missing'],
  ] as const) {
    const answer = await call(params);
    const message = `${given}; tools: ${tools}.`;
    assert.deepEqual(
      answer,
      {
        jsonrpc: '2.0',
        id,
        error: {
          code: -32602,
          message: `MCP error -32602: ${message}`,
          data: {
            error: 'invalid_parameter',
            message,
            param: 'name',
            suggestion: 'Send the name of one of the tools tools/list shows.',
            alternatives: tools.split(', '),
            alternatives_count: 8,
          },
        },
      },
      JSON.stringify(params),
    );
  }

  // Without arguments, or with an object, the tool runs.
  for (const params of [{ name: 'list_categories' }, { name: 'list_categories', arguments: {} }]) {
    const answer = (await call(params)) as { result: { isError?: boolean; structuredContent: { data: unknown[] } } };
    assert.equal(answer.result.isError, undefined, JSON.stringify(answer));
    assert.equal(answer.result.structuredContent.data.length, 10);
  }
  // Other methods are still answered as the SDK would.
  id += 1;
  const unknownMethod = await fetch(`http://127.0.0.1:${port}/mcp`, {
    method: 'POST',
    headers: MCP_HEADERS,
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'resources/list' }),
  });
  assert.deepEqual(await unknownMethod.json(), {
    jsonrpc: '2.0',
    id,
    error: { code: -32601, message: 'MCP error -32601: Method not found' },
  });
});
