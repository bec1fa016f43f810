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

  id += 1;
  const list = await fetch(`http://127.0.0.1:${port}/mcp`, {
    method: 'POST',
    headers: MCP_HEADERS,
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list' }),
  });
  const names = ((await list.json()) as { result: { tools: { name: string }[] } }).result.tools.map((x) => x.name);
  assert.ok(names.includes('search_jobs') && names.includes('get_categories'), names.join());
  for (const [params, given] of [
    [{ name: 'no_such_tool', arguments: {} }, "Unknown tool 'no_such_tool'"],
    [{ name: 5, arguments: {} }, 'params.name is missing'],
    [{ arguments: {} }, 'params.name is missing'],
  ] as const) {
    const answer = (await call(params)) as { id: number; error: { code: number; message: string; data: any } };
    const message = `${given}; tools: ${names.join(', ')}.`;
    assert.equal(answer.id, id);
    assert.equal(answer.error.code, -32602, JSON.stringify(params));
    assert.match(answer.error.message, new RegExp(`${given.replace(/[()']/g, '.')}; tools: search_jobs, `));
    assert.equal(answer.error.data.message, message);
    assert.equal(answer.error.data.error, 'invalid_parameter');
    assert.equal(answer.error.data.param, 'name');
    assert.equal(answer.error.data.suggestion, 'Send the name of one of the tools tools/list shows.');
    assert.equal(answer.error.data.alternatives_count, names.length);
    assert.deepEqual(answer.error.data.alternatives, names.slice(0, answer.error.data.alternatives.length));
  }

  // Without arguments, or with an object, the tool runs.
  for (const params of [{ name: 'get_categories' }, { name: 'get_categories', arguments: {} }]) {
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
  const refused = (await unknownMethod.json()) as { id: number; error: { code: number; message: string } };
  assert.equal(refused.id, id);
  assert.equal(refused.error.code, -32601);
  assert.match(refused.error.message, /Method not found/);
});
