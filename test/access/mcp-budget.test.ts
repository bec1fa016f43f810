/**
 * Budgets that count work on POST /mcp (issue 16): a tool call costs one request of the caller's
 * tier (the REST request it makes, counted once), the protocol around it (initialize, the
 * initialized notification, tools/list, ping, GET and DELETE /mcp) costs none of it but counts
 * against /mcp's own budget per key or address. A tool call over the tier budget is a tool result
 * (isError, the ApiError, retry_after) in an HTTP 200; /mcp's own budget answers HTTP 429. Both
 * with the in-memory store and with a real Redis, in process (app.inject).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, type TestContext, test } from 'node:test';
import type { Api } from '../../src/http/route-deps.js';
import { routeCatalog } from '../../src/mcp/catalog.js';
import { Tools } from '../../src/mcp/tools.js';
import { RedisRateLimitStore } from '../../src/rate-limit/redis-store.js';
import { MemoryRateLimitStore, type RateLimitStore } from '../../src/rate-limit/store.js';
import { buildTestApp, createKey, NOW } from '../helpers/app.js';

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

const LIMITS = {
  RATE_LIMIT_ANONYMOUS_PER_MIN: '4',
  RATE_LIMIT_DEVELOPER_PER_MIN: '6',
  MCP_RATE_LIMIT_PER_MIN: '30',
};

const STORES: Record<string, (t: TestContext) => Promise<RateLimitStore>> = {
  memory: async () => new MemoryRateLimitStore(),
  redis: async (t) => {
    const store = await RedisRateLimitStore.connect('redis://127.0.0.1:6379', `test:${randomUUID()}:`);
    t.after(() => store.close());
    return store;
  },
};

interface Answer {
  status: number;
  headers: Record<string, string | undefined>;
  body: any;
}

/** One request to /mcp: a JSON-RPC message (or batch) POSTed, or another method with no body. */
async function mcp(app: Api, message: unknown, headers: Record<string, string> = {}, method = 'POST') {
  const response = await app.inject({
    method: method as 'POST',
    url: '/mcp',
    headers: method === 'POST' ? { ...MCP_HEADERS, ...headers } : { accept: 'text/event-stream', ...headers },
    ...(method === 'POST' && { payload: JSON.stringify(message) }),
  });
  const headersOut = Object.fromEntries(Object.entries(response.headers).map(([k, v]) => [k, v?.toString()]));
  return { status: response.statusCode, headers: headersOut, body: response.body ? response.json() : undefined };
}

const initialize = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'budget-test', version: '1.0.0' } },
});
const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };
const toolsCall = (id: number, name: string, args: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});

/** What an MCP client does before its first tool call, as the MCP Inspector does it: every step off the tier. */
async function handshake(app: Api, headers: Record<string, string> = {}): Promise<Answer[]> {
  return [
    await mcp(app, initialize(1), headers),
    await mcp(app, initialized, headers),
    await mcp(app, undefined, headers, 'GET'),
    await mcp(app, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, headers),
    await mcp(app, { jsonrpc: '2.0', id: 3, method: 'ping' }, headers),
    await mcp(app, undefined, headers, 'DELETE'),
  ];
}

/** The tool result of an answer, parsed: its JSON text item (success or ApiError). */
function toolResult(answer: Answer): { isError: boolean; json: any } {
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  const result = answer.body.result;
  return { isError: result.isError === true, json: JSON.parse(result.content[0].text) };
}

for (const [kind, makeStore] of Object.entries(STORES)) {
  describe(`MCP budgets (${kind} store)`, () => {
    test('an anonymous agent: the handshake and tools/list cost no tier budget, each tool call one', async (t) => {
      const { app } = await buildTestApp(t, NOW, LIMITS, { rateLimitStore: await makeStore(t) });
      const steps = await handshake(app);
      assert.deepEqual(
        steps.map((a) => a.status),
        [200, 202, 405, 200, 200, 405],
      );
      // Each step counted once, against /mcp's own budget only.
      assert.deepEqual(
        steps.map((a) => [a.headers['ratelimit-policy'], a.headers.ratelimit]),
        [30 - 1, 30 - 2, 30 - 3, 30 - 4, 30 - 5, 30 - 6].map((r) => ['"mcp";q=30;w=60', `"mcp";r=${r};t=60`]),
      );
      assert.equal(steps[2]?.headers.allow, 'POST');
      assert.equal(steps[2]?.body.error, 'method_not_allowed');

      // N = 4 tool calls spend exactly the anonymous budget of 4; each answer shows both budgets.
      for (let i = 1; i <= 4; i++) {
        const answer = await mcp(app, toolsCall(10 + i, 'get_categories', { lang: 'en' }));
        const { isError, json } = toolResult(answer);
        assert.equal(isError, false, JSON.stringify(json));
        assert.equal(json.lang, 'en');
        assert.equal(answer.headers['ratelimit-policy'], '"anonymous";q=4;w=60, "mcp";q=30;w=60');
        assert.equal(answer.headers.ratelimit, `"anonymous";r=${4 - i};t=60, "mcp";r=${30 - 6 - i};t=60`);
        assert.equal(answer.headers['x-ratelimit-limit'], '4');
        assert.equal(answer.headers['x-ratelimit-remaining'], String(4 - i));
      }

      // The fifth: a tool result with the 429 ApiError and retry_after, in an HTTP 200.
      const refused = await mcp(app, toolsCall(20, 'search_jobs', { limit: 1 }));
      const { isError, json } = toolResult(refused);
      assert.equal(isError, true);
      assert.equal(refused.body.result.structuredContent, undefined, 'an error is no structuredContent');
      assert.deepEqual(json, {
        status: 429,
        retry_after: 60,
        error: 'rate_limit_exceeded',
        message: 'The anonymous tier allows 4 requests per minute; this one was over.',
        param: null,
        suggestion: 'Wait 60 s (Retry-After), or get a free developer key (6 requests per minute) at /developers.',
        alternatives: [],
        alternatives_count: 0,
      });
      assert.equal(refused.headers.ratelimit, '"anonymous";r=0;t=60, "mcp";r=19;t=60');
      assert.equal(refused.headers['retry-after'], undefined, 'the HTTP exchange itself succeeded');
      // The protocol goes on: listing the tools again is not refused.
      assert.equal((await mcp(app, { jsonrpc: '2.0', id: 21, method: 'tools/list' })).status, 200);
      // REST and MCP share the tier budget: spent by the tool calls.
      const rest = await app.inject({ url: '/v1/stats' });
      assert.equal(rest.statusCode, 429);
      assert.equal(rest.headers.ratelimit, '"anonymous";r=0;t=60');
    });

    test('a tool call refused before any REST request (a write without a key) costs no tier budget', async (t) => {
      const { app } = await buildTestApp(t, NOW, LIMITS, { rateLimitStore: await makeStore(t) });
      for (let i = 0; i < 6; i++) {
        // An HTTP 401 with the OAuth challenge (issue 31), before any REST request is made.
        const answer = await mcp(app, toolsCall(i, 'create_job', { idempotency_key: randomUUID() }));
        assert.equal(answer.status, 401);
        assert.equal(answer.body.error, 'authentication_required');
        assert.match(String(answer.headers['www-authenticate']), /^Bearer resource_metadata=/);
        assert.equal(answer.headers['ratelimit-policy'], '"mcp";q=30;w=60');
      }
      const rest = await app.inject({ url: '/v1/stats' });
      assert.equal(rest.headers.ratelimit, '"anonymous";r=3;t=60');
    });

    test("/mcp's own budget: a 429 ApiError beyond it, GET and DELETE included; the tier is untouched", async (t) => {
      const { app } = await buildTestApp(
        t,
        NOW,
        { ...LIMITS, MCP_RATE_LIMIT_PER_MIN: '6' },
        { rateLimitStore: await makeStore(t) },
      );
      const steps = await handshake(app);
      assert.deepEqual(
        steps.map((a) => a.status),
        [200, 202, 405, 200, 200, 405],
      );
      for (const [message, method] of [
        [initialize(9), 'POST'],
        [toolsCall(10, 'get_stats'), 'POST'],
        [undefined, 'GET'],
      ] as const) {
        const refused = await mcp(app, message, {}, method);
        assert.equal(refused.status, 429, method);
        assert.equal(refused.headers['ratelimit-policy'], '"mcp";q=6;w=60');
        assert.equal(refused.headers.ratelimit, '"mcp";r=0;t=60');
        assert.equal(refused.headers['retry-after'], '60');
        assert.deepEqual(refused.body, {
          error: 'rate_limit_exceeded',
          message: '/mcp allows 6 requests per minute per key or address; this one was over.',
          param: null,
          suggestion:
            'Wait 60 s (Retry-After). Tool calls count against your tier budget, every other message only against this one: initialize once, list the tools once, and do not poll.',
          alternatives: [],
          alternatives_count: 0,
        });
      }
      const rest = await app.inject({ url: '/v1/stats' });
      assert.equal(rest.statusCode, 200);
      assert.equal(rest.headers.ratelimit, '"anonymous";r=3;t=60', 'the refused tool call made no REST request');
    });

    test('a developer key: its own budgets, apart from its address; writes count once', async (t) => {
      const { app, db } = await buildTestApp(t, NOW, LIMITS, { rateLimitStore: await makeStore(t) });
      const { key } = await createKey(db);
      const headers = { 'x-api-key': key };
      await handshake(app); // the address's anonymous handshake
      const steps = await handshake(app, headers);
      assert.equal(steps[3]?.body.result.tools.length, new Tools(routeCatalog()).list(true).length, 'every tool');
      assert.equal(steps[5]?.headers.ratelimit, '"mcp";r=24;t=60', 'per key, not per address');
      const job = {
        title: 'Hecke schneiden',
        description: 'Zwei Meter Thuja am Gartenzaun.',
        category: 'GARDENING',
        price_eur: 60,
        location: { plz: '76131' },
        idempotency_key: randomUUID(),
      };
      const created = await mcp(app, toolsCall(4, 'create_job', job), headers);
      assert.match(toolResult(created).json.id, /^job_/);
      assert.equal(created.headers.ratelimit, '"developer";r=5;t=60, "mcp";r=23;t=60');
      const again = await mcp(app, toolsCall(5, 'create_job', job), headers);
      assert.equal(toolResult(again).json.id, toolResult(created).json.id, 'an idempotent replay');
      assert.equal(again.headers.ratelimit, '"developer";r=4;t=60, "mcp";r=22;t=60');
    });

    test('a JSON-RPC batch of tool calls is refused (400) before any call runs: no tier budget spent', async (t) => {
      const { app } = await buildTestApp(t, NOW, LIMITS, { rateLimitStore: await makeStore(t) });
      const batch = await mcp(app, [toolsCall(1, 'get_stats'), toolsCall(2, 'get_stats'), toolsCall(3, 'get_stats')]);
      assert.equal(batch.status, 400);
      assert.equal(batch.body.error, 'invalid_body');
      assert.equal(batch.headers.ratelimit, '"mcp";r=29;t=60');
      assert.equal((await app.inject({ url: '/v1/stats' })).headers.ratelimit, '"anonymous";r=3;t=60');
    });
  });
}

describe('MCP budgets across two instances on one Redis', () => {
  test('the tier budget of tool calls and the budget of /mcp are shared exactly', async (t) => {
    const prefix = `test:${randomUUID()}:`;
    const stores = await Promise.all([0, 1].map(() => RedisRateLimitStore.connect('redis://127.0.0.1:6379', prefix)));
    t.after(() => Promise.all(stores.map((store) => store.close())));
    const apps = await Promise.all(
      stores.map(async (store) => (await buildTestApp(t, NOW, LIMITS, { rateLimitStore: store })).app),
    );
    const calls = await Promise.all(
      Array.from({ length: 10 }, (_, i) => mcp(apps[i % 2] as Api, toolsCall(i, 'get_stats'))),
    );
    const results = calls.map(toolResult);
    assert.equal(results.filter((r) => !r.isError).length, 4);
    assert.deepEqual(
      results.filter((r) => r.isError).map((r) => r.json.status),
      Array(6).fill(429),
    );
    const protocol = await Promise.all(
      Array.from({ length: 25 }, (_, i) => mcp(apps[i % 2] as Api, { jsonrpc: '2.0', id: i, method: 'ping' })),
    );
    assert.equal(protocol.filter((a) => a.status === 200).length, 20, '30 per minute, 10 spent by the calls');
    assert.equal(protocol.filter((a) => a.status === 429).length, 5);
  });
});
