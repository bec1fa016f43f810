/**
 * The MCP server (src/mcp) with the SDK's own client over both transports, against real server
 * processes: Streamable HTTP at POST /mcp, and stdio (`node --import tsx src/mcp/stdio.ts`, which
 * calls the REST API over HTTP). Tools must list the routes' own parameters and answers (the SDK
 * client checks every structuredContent against the tool's outputSchema, and so does ajv here),
 * answer what REST answers, write only with a developer key (idempotently), turn API errors into
 * isError results, and count against the caller's tier exactly once per tool call, whatever the
 * protocol around it.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { describe, type TestContext, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { createDb } from '../../src/db/create-db.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { JobSearchQuery } from '../../src/schemas/job.js';
import { JobCreateBody } from '../../src/schemas/job-writes.js';
import { createKey } from '../helpers/app.js';
import { JOB_BODY } from '../helpers/bodies.js';
import { freshDatabaseUrl } from '../helpers/database.js';
import { AT, helperFixture, insert, listingFixture, ownerFixture } from '../helpers/fixtures.js';
import { declaredForms, resolveShared } from '../helpers/openapi.js';
import { childEnv, type ServerProcess, startServer } from '../helpers/server-process.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const READ_TOOLS = [
  'search_jobs',
  'get_job',
  'search_listings',
  'get_listing',
  'list_categories',
  'estimate_price',
  'check_availability',
  'get_stats',
];
const WRITE_TOOLS = ['create_job', 'apply_to_job', 'book_listing'];

/** The REST operation each tool calls, as the OpenAPI document names it. */
const OPERATION_OF: Record<string, { method: string; path: string }> = {
  search_jobs: { method: 'get', path: '/v1/jobs' },
  get_job: { method: 'get', path: '/v1/jobs/{id}' },
  search_listings: { method: 'get', path: '/v1/listings' },
  get_listing: { method: 'get', path: '/v1/listings/{id}' },
  list_categories: { method: 'get', path: '/v1/categories' },
  estimate_price: { method: 'get', path: '/v1/estimate' },
  check_availability: { method: 'get', path: '/v1/helpers/availability' },
  get_stats: { method: 'get', path: '/v1/stats' },
  create_job: { method: 'post', path: '/v1/jobs' },
  apply_to_job: { method: 'post', path: '/v1/jobs/{id}/applications' },
  book_listing: { method: 'post', path: '/v1/listings/{id}/bookings' },
};

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** Budgets no test here meets by accident (the rate-limit tests set their own). */
const UNLIMITED = { RATE_LIMIT_ANONYMOUS_PER_MIN: '100000', RATE_LIMIT_DEVELOPER_PER_MIN: '100000' };

interface World {
  server: ServerProcess;
  /** Developer keys: one per client that writes, so their writes and budgets stay apart. */
  keys: string[];
  listingId: string;
}

/** A fresh database with a listing, a helper and developer keys, and a server process on it. */
async function world(t: TestContext, config: Record<string, string>, keyCount = 2): Promise<World> {
  const url = await freshDatabaseUrl(t);
  const db = createDb(url);
  await migrateToLatest(db);
  const owner = ownerFixture();
  const listing = listingFixture(owner.id);
  await insert(db.kysely, { owners: [owner], listings: [listing], helpers: [helperFixture(['GARDENING'])] });
  const keys: string[] = [];
  for (let i = 0; i < keyCount; i++) keys.push((await createKey(db, { email: `mcp${i}@example.org` }, new Date())).key);
  await db.close();
  const server = await startServer(t, { DATABASE_URL: url, ...config });
  return { server, keys, listingId: listing.id };
}

type Transport = 'http' | 'stdio';

/** An MCP client over Streamable HTTP (POST /mcp, X-API-Key as given) or stdio (a process of src/mcp/stdio.ts). */
async function connect(t: TestContext, via: Transport, baseUrl: string, key?: string): Promise<Client> {
  const client = new Client({ name: 'mcp-test', version: '1.0.0' });
  if (via === 'http') {
    const headers: Record<string, string> = key ? { 'x-api-key': key } : {};
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', baseUrl), { requestInit: { headers } }));
  } else {
    const env = childEnv({ MARKETPLACE_API_URL: baseUrl, ...(key && { MARKETPLACE_API_KEY: key }) });
    if (!key) delete env.MARKETPLACE_API_KEY;
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', 'src/mcp/stdio.ts'],
      cwd: ROOT,
      env: env as Record<string, string>,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    await client.connect(transport);
    t.after(() => {
      if (stderr) t.diagnostic(`stdio server stderr: ${stderr.trim()}`);
    });
  }
  t.after(() => client.close());
  return client;
}

interface ToolResult {
  isError?: boolean;
  content: { type: string; text: string }[];
  structuredContent?: any;
}

/** Strict ajv (unknown keywords are errors) with the formats the schemas use. */
const ajv = new Ajv({ allErrors: true, strict: true });
addFormats.default(ajv);

/** The output schemas of the tools as tools/list announced them, compiled (filled by outputsOf). */
const outputs = new Map<string, ValidateFunction>();

/** Every tool declares an outputSchema, an object, which compiles; the validators are kept for call(). */
function outputsOf(tools: Tool[]): void {
  for (const tool of tools) {
    assert.equal(tool.outputSchema?.type, 'object', `${tool.name}: outputSchema`);
    outputs.set(tool.name, ajv.compile(tool.outputSchema ?? {}));
  }
}

/**
 * A tool call through the SDK client, which checks structuredContent against the tool's
 * outputSchema itself (after listTools); a success is checked here once more with strict ajv.
 */
async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolResult> {
  const result = (await client.callTool({ name, arguments: args })) as ToolResult;
  const validate = outputs.get(name);
  if (result.isError !== true && validate && !validate(result.structuredContent)) {
    assert.fail(`${name}: structuredContent does not match its outputSchema: ${ajv.errorsText(validate.errors)}`);
  }
  return result;
}

/** A successful tool result: its text item and structuredContent are the same JSON. */
function okJson(result: ToolResult, what: string): any {
  assert.notEqual(result.isError, true, `${what}: ${result.content[0]?.text}`);
  assert.equal(result.content.length, 1, what);
  assert.equal(result.content[0]?.type, 'text', what);
  assert.deepEqual(JSON.parse(result.content[0]?.text ?? ''), result.structuredContent, what);
  return result.structuredContent;
}

/**
 * An error result: isError, with the ApiError and its HTTP status as JSON text; no structuredContent,
 * which is the tool's outputSchema (its success answer).
 */
function errorJson(result: ToolResult, what: string): any {
  assert.equal(result.isError, true, `${what}: ${JSON.stringify(result)}`);
  const body = JSON.parse(result.content[0]?.text ?? '');
  assert.equal(result.structuredContent, undefined, what);
  for (const field of ['status', 'error', 'message', 'param', 'suggestion'])
    assert.ok(field in body, `${what}: ${field}`);
  return body;
}

async function rest(
  baseUrl: string,
  path: string,
  init: { key?: string; method?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { ...init.headers };
  if (init.key) headers['x-api-key'] = init.key;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(new URL(path, baseUrl), {
    method: init.method ?? 'GET',
    headers,
    ...(init.body !== undefined && { body: JSON.stringify(init.body) }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

/** One raw JSON-RPC POST to /mcp. */
async function rawMcp(baseUrl: string, message: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(new URL('/mcp', baseUrl), {
    method: 'POST',
    headers: { ...MCP_HEADERS, ...headers },
    body: JSON.stringify(message),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

const toolsCall = (id: number, name: string, args: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});

describe('the MCP server against a real server process', () => {
  test('tools, answers, writes and errors over Streamable HTTP and stdio', { timeout: 180_000 }, async (t) => {
    const started = performance.now();
    const { server, keys, listingId } = await world(t, { ...UNLIMITED, LOG_LEVEL: 'info' });
    const base = server.baseUrl;
    // The tools take the parameters as the routes declare them; the document adds any-case alternatives.
    const doc = declaredForms(resolveShared((await rest(base, '/v1/openapi.json')).body));
    // A job posted over REST before any client connects: both transports must see it.
    const posted = await rest(base, '/v1/jobs', {
      method: 'POST',
      key: keys[0],
      headers: { 'idempotency-key': randomUUID() },
      body: { ...JOB_BODY, title: 'Über REST gepostet' },
    });
    assert.equal(posted.status, 201, JSON.stringify(posted.body));

    const listed: Partial<Record<Transport, Tool[]>> = {};
    for (const via of ['http', 'stdio'] as const) {
      const anonymous = await connect(t, via, base);
      const developer = await connect(t, via, base, via === 'http' ? keys[0] : keys[1]);

      await t.test(`${via}: server info and instructions`, () => {
        assert.deepEqual(anonymous.getServerVersion(), {
          name: 'karlsruhe-marketplace',
          title: 'Karlsruhe Marketplace API',
          version: '1.1.0',
        });
        assert.match(anonymous.getInstructions() ?? '', /idempotency_key/);
        assert.match(anonymous.getInstructions() ?? '', /X-API-Key/);
      });

      await t.test(`${via}: without a key, the read tools only, read-only, with the routes' parameters`, async () => {
        const { tools } = await anonymous.listTools();
        assert.deepEqual(
          tools.map((tool) => tool.name),
          READ_TOOLS,
        );
        for (const tool of tools) {
          assert.deepEqual(
            tool.annotations,
            { title: tool.title, readOnlyHint: true, idempotentHint: true, openWorldHint: false },
            tool.name,
          );
          assert.ok(tool.title && (tool.description ?? '').length > 50, `${tool.name}: title and description`);
          // The REST operation's parameters, no more and no fewer, with the same schemas.
          const { method, path } = OPERATION_OF[tool.name] ?? { method: '', path: '' };
          const parameters: any[] = doc.paths[path][method].parameters ?? [];
          assert.deepEqual(
            Object.keys(tool.inputSchema.properties ?? {}).sort(),
            parameters.map((p) => p.name).sort(),
            tool.name,
          );
          for (const p of parameters) {
            const property = (tool.inputSchema.properties as any)[p.name];
            assert.equal(property.type, p.schema.type, `${tool.name}.${p.name}: type`);
            assert.deepEqual(property.enum, p.schema.enum, `${tool.name}.${p.name}: enum`);
            assert.equal(property.maximum, p.schema.maximum, `${tool.name}.${p.name}: maximum`);
            assert.equal(property.description, p.description, `${tool.name}.${p.name}: description`);
            assert.equal(
              tool.inputSchema.required?.includes(p.name) ?? false,
              p.required ?? false,
              `${p.name}: required`,
            );
          }
        }
        const search = tools.find((tool) => tool.name === 'search_jobs');
        assert.deepEqual(Object.keys(search?.inputSchema.properties ?? {}), Object.keys(JobSearchQuery.properties));
        for (const name of ['category', 'lat', 'lng', 'radius'])
          assert.ok(search?.inputSchema.properties?.[name], name);
        assert.equal((search?.inputSchema.properties?.radius as any)?.maximum, 50);
        assert.deepEqual(tools.find((tool) => tool.name === 'get_job')?.inputSchema.required, ['id']);
        assert.deepEqual(tools.find((tool) => tool.name === 'estimate_price')?.inputSchema.required, ['category']);
      });

      await t.test(
        `${via}: with a developer key, the write tools too, each with a required idempotency_key`,
        async () => {
          const { tools } = await developer.listTools();
          assert.deepEqual(
            tools.map((tool) => tool.name),
            [...READ_TOOLS, ...WRITE_TOOLS],
          );
          outputsOf(tools);
          listed[via] = tools;
          for (const tool of tools.filter((x) => WRITE_TOOLS.includes(x.name))) {
            assert.deepEqual(
              tool.annotations,
              {
                title: tool.title,
                readOnlyHint: false,
                destructiveHint: false,
                idempotentHint: true,
                openWorldHint: false,
              },
              tool.name,
            );
            assert.ok(tool.inputSchema.required?.includes('idempotency_key'), tool.name);
            assert.equal((tool.inputSchema.properties?.idempotency_key as any)?.type, 'string', tool.name);
          }
          const create = tools.find((tool) => tool.name === 'create_job');
          assert.deepEqual(Object.keys(create?.inputSchema.properties ?? {}), [
            ...Object.keys(JobCreateBody.properties),
            'idempotency_key',
          ]);
          assert.deepEqual(create?.inputSchema.required, [...(JobCreateBody.required ?? []), 'idempotency_key']);
          const apply = tools.find((tool) => tool.name === 'apply_to_job');
          assert.deepEqual(apply?.inputSchema.required, ['id', 'helper_id', 'idempotency_key']);
          const book = tools.find((tool) => tool.name === 'book_listing');
          assert.deepEqual(book?.inputSchema.required, ['id', 'start_date', 'end_date', 'idempotency_key']);
        },
      );

      await t.test(`${via}: searches and gets answer the REST JSON, the job posted over REST included`, async () => {
        const jobs = okJson(
          await call(anonymous, 'search_jobs', { category: 'gardening', lat: 49, lng: 8.4, radius: 30 }),
          'search_jobs',
        );
        assert.deepEqual(jobs, (await rest(base, '/v1/jobs?category=gardening&lat=49&lng=8.4&radius=30')).body);
        assert.ok(
          jobs.data.some((job: any) => job.id === posted.body.id),
          'the job posted over REST is found',
        );
        const job = okJson(await call(anonymous, 'get_job', { id: posted.body.id }), 'get_job');
        assert.deepEqual(job, (await rest(base, `/v1/jobs/${posted.body.id}`)).body);
        assert.equal(job.title, 'Über REST gepostet');

        const listings = okJson(await call(anonymous, 'search_listings', { limit: 5 }), 'search_listings');
        assert.deepEqual(listings, (await rest(base, '/v1/listings?limit=5')).body);
        assert.equal(listings.data[0]?.id, listingId);
        const listing = okJson(await call(anonymous, 'get_listing', { id: listingId }), 'get_listing');
        assert.deepEqual(listing, (await rest(base, `/v1/listings/${listingId}`)).body);

        const categories = okJson(
          await call(anonymous, 'list_categories', { lang: 'de', type: 'service' }),
          'categories',
        );
        assert.deepEqual(categories, (await rest(base, '/v1/categories?lang=de&type=service')).body);
        const estimate = okJson(
          await call(anonymous, 'estimate_price', { category: 'GARDENING', duration_hours: 3, helpers: 2 }),
          'estimate',
        );
        assert.deepEqual(
          estimate,
          (await rest(base, '/v1/estimate?category=GARDENING&duration_hours=3&helpers=2')).body,
        );
        const available = okJson(
          await call(anonymous, 'check_availability', {
            category: 'Garten',
            lat: AT.innenstadtOst.lat,
            lng: AT.innenstadtOst.lng,
            radius: 5,
          }),
          'availability',
        );
        const query = `category=Garten&lat=${AT.innenstadtOst.lat}&lng=${AT.innenstadtOst.lng}&radius=5`;
        assert.deepEqual(available, (await rest(base, `/v1/helpers/availability?${query}`)).body);
        assert.equal(available.available_helpers, 1);
        const { generated_at: _a, ...stats } = okJson(await call(anonymous, 'get_stats'), 'get_stats');
        const { generated_at: _b, ...restStats } = (await rest(base, '/v1/stats')).body;
        assert.deepEqual(stats, restStats);
        assert.ok(stats.capabilities.endpoints.some((e: any) => e.path === '/mcp' && e.operation_id === 'mcp'));
      });

      await t.test(
        `${via}: create_job writes a job REST shows; the same idempotency_key gives the same job`,
        async () => {
          const before = (await rest(base, '/v1/jobs?category=GARDENING')).body.total;
          const key = randomUUID();
          const args = { ...JOB_BODY, title: `Über MCP (${via}) gepostet`, idempotency_key: key };
          const created = okJson(await call(developer, 'create_job', args), 'create_job');
          assert.match(created.id, /^job_/);
          assert.equal(created.title, `Über MCP (${via}) gepostet`);
          assert.deepEqual(created, (await rest(base, `/v1/jobs/${created.id}`)).body);
          const again = okJson(await call(developer, 'create_job', args), 'create_job again');
          assert.equal(again.id, created.id, 'the retry answers the first job');
          assert.equal((await rest(base, '/v1/jobs?category=GARDENING')).body.total, before + 1, 'one job, not two');
          const found = okJson(await call(anonymous, 'search_jobs', { category: 'GARDENING', limit: 100 }), 'search');
          assert.ok(found.data.some((job: any) => job.id === created.id));
          // The same key for other arguments: the API's 422, naming the argument.
          const reused = errorJson(await call(developer, 'create_job', { ...args, price_eur: 61 }), 'reused key');
          assert.equal(reused.status, 422);
          assert.equal(reused.error, 'idempotency_key_reused');
          assert.equal(reused.param, 'idempotency_key');
          const missing = errorJson(await call(developer, 'create_job', { ...JOB_BODY }), 'no key');
          assert.equal(missing.error, 'missing_parameter');
          assert.equal(missing.param, 'idempotency_key');
          // desired_at, deadline and time_preference are optional in the tool's schema, not nullable
          // (some providers refuse type arrays); left out they mean what null means, and an
          // explicit null, as older clients send it, is still taken.
          const { tools } = await developer.listTools();
          const inputs = tools.find((tool) => tool.name === 'create_job')?.inputSchema.properties as any;
          for (const name of ['desired_at', 'deadline', 'time_preference']) {
            assert.equal(inputs[name].type, 'string', name);
            assert.ok(!JSON.stringify(inputs[name]).includes('null'), `${name}: ${JSON.stringify(inputs[name])}`);
          }
          const nulls = { desired_at: null, deadline: null, time_preference: null };
          const withNulls = okJson(
            await call(developer, 'create_job', { ...JOB_BODY, ...nulls, idempotency_key: randomUUID() }),
            'explicit nulls',
          );
          assert.deepEqual(
            {
              desired_at: withNulls.desired_at,
              deadline: withNulls.deadline,
              time_preference: withNulls.time_preference,
            },
            nulls,
          );
          assert.deepEqual(
            { desired_at: created.desired_at, deadline: created.deadline, time_preference: created.time_preference },
            nulls,
            'left out: the same',
          );
        },
      );

      await t.test(`${via}: write tools without a developer key are errors that say a key is needed`, async () => {
        const result = errorJson(
          await call(anonymous, 'create_job', { ...JOB_BODY, idempotency_key: randomUUID() }),
          'anonymous create_job',
        );
        assert.equal(result.status, 401);
        assert.equal(result.error, 'authentication_required');
        assert.match(result.message, /developer key/);
        assert.match(result.suggestion, /developer key|MARKETPLACE_API_KEY/);
        const booking = errorJson(
          await call(anonymous, 'book_listing', {
            id: listingId,
            start_date: '2030-01-01',
            end_date: '2030-01-02',
            idempotency_key: randomUUID(),
          }),
          'anonymous book_listing',
        );
        assert.equal(booking.status, 401);
      });

      await t.test(`${via}: bad arguments are isError results with the ApiError and its param`, async () => {
        const radius = errorJson(await call(anonymous, 'search_jobs', { radius: 500 }), 'radius 500');
        assert.equal(radius.status, 400);
        assert.equal(radius.param, 'radius');
        assert.match(radius.error, /parameter_out_of_range|invalid_parameter/);
        const unknown = errorJson(await call(anonymous, 'search_jobs', { categroy: 'GARDENING' }), 'misspelt');
        assert.equal(unknown.error, 'unknown_parameter');
        assert.equal(unknown.param, 'categroy');
        assert.match(unknown.suggestion, /category/);
        const missing = errorJson(await call(anonymous, 'get_job', { id: 'job_00000000000000ff' }), 'unknown id');
        assert.equal(missing.status, 404);
        assert.equal(missing.error, 'not_found');
        assert.equal(missing.param, 'id');
        const body = errorJson(
          await call(developer, 'create_job', { ...JOB_BODY, price_eur: 'sixty', idempotency_key: randomUUID() }),
          'price as text',
        );
        assert.equal(body.status, 400);
        assert.equal(body.param, 'price_eur');
        const foreign = errorJson(
          await call(developer, 'apply_to_job', {
            id: posted.body.id,
            helper_id: 'hlp_nope',
            idempotency_key: randomUUID(),
          }),
          'apply with a helper that is not yours',
        );
        assert.equal(foreign.status, 404);
        assert.equal(foreign.param, 'helper_id');
        await assert.rejects(call(anonymous, 'no_such_tool'), /Unknown tool 'no_such_tool'/);
      });
    }

    await t.test('both transports list the same tools, each with an outputSchema', () => {
      assert.ok(listed.http && listed.stdio);
      assert.deepEqual(listed.stdio, listed.http);
    });

    await t.test('POST /mcp keeps the headers and the log line of every request', async () => {
      const requestId = `mcp-test-${randomUUID()}`;
      const answer = await rawMcp(base, toolsCall(7, 'get_stats', {}), { 'x-request-id': requestId });
      assert.equal(answer.status, 200);
      assert.equal(answer.body.id, 7);
      assert.equal(answer.headers.get('x-request-id'), requestId);
      assert.equal(answer.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(answer.headers.get('content-security-policy'), "default-src 'none'; frame-ancestors 'none'");
      // The tier budget the tool call counted against, then /mcp's own.
      assert.match(answer.headers.get('ratelimit') ?? '', /^"anonymous";r=\d+;t=\d+, "mcp";r=\d+;t=\d+$/);
      assert.equal(answer.headers.get('x-ratelimit-limit'), '100000');
      // One line for POST /mcp, one for the REST call its tool made, under the same request id.
      let lines: any[] = [];
      for (let i = 0; i < 50 && lines.length < 2; i++) {
        lines = server
          .stdout()
          .split('\n')
          .filter((line) => line.includes(requestId))
          .map((line) => JSON.parse(line));
        if (lines.length < 2) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.deepEqual(lines.map((l) => `${l.method} ${l.route} ${l.status} ${l.tier}`).sort(), [
        'GET /v1/stats 200 anonymous',
        'POST /mcp 200 anonymous',
      ]);
      assert.ok(!server.stdout().includes(keys[0] ?? 'no key'), 'keys never reach the log');
    });

    await t.test('a JSON-RPC batch is a 400; GET and DELETE /mcp are 405 with Allow: POST', async () => {
      const batch = await rawMcp(base, [
        { jsonrpc: '2.0', id: 1, method: 'tools/list' },
        { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      ]);
      assert.equal(batch.status, 400);
      assert.equal(batch.body.error, 'invalid_body');
      assert.match(batch.body.message, /batch/i);
      const notJsonRpc = await rawMcp(base, { jsonrpc: '2.0', id: 1 });
      assert.equal(notJsonRpc.status, 400);
      assert.equal(notJsonRpc.body.error, 'invalid_body');
      const wrongAccept = await rawMcp(
        base,
        { jsonrpc: '2.0', id: 1, method: 'tools/list' },
        { accept: 'application/json' },
      );
      assert.equal(wrongAccept.status, 406);
      assert.equal(wrongAccept.body.param, 'Accept');
      for (const method of ['GET', 'DELETE']) {
        const response = await fetch(new URL('/mcp', base), { method, headers: { accept: 'text/event-stream' } });
        assert.equal(response.status, 405, method);
        assert.equal(response.headers.get('allow'), 'POST', method);
        assert.equal(((await response.json()) as any).error, 'method_not_allowed');
      }
    });
    t.diagnostic(`${((performance.now() - started) / 1000).toFixed(1)} s`);
  });
});

describe('rate limits through MCP', () => {
  test('over HTTP an agent spends one tier request per tool call, the handshake none; past the budget a tool result in an HTTP 200', {
    timeout: 120_000,
  }, async (t) => {
    const { server, keys } = await world(t, {
      RATE_LIMIT_ANONYMOUS_PER_MIN: '5',
      RATE_LIMIT_DEVELOPER_PER_MIN: '6',
      MCP_RATE_LIMIT_PER_MIN: '40',
      CORS_ORIGINS: 'https://app.example.org',
    });
    const base = server.baseUrl;
    // The SDK client: initialize, the initialized notification, GET /mcp for a stream (405), tools/list.
    const client = await connect(t, 'http', base);
    assert.equal((await client.listTools()).tools.length, READ_TOOLS.length);
    for (let i = 1; i <= 5; i++) okJson(await call(client, 'search_jobs', { limit: 1 }), `call ${i}`);
    const refused = errorJson(await call(client, 'get_stats'), 'the sixth call');
    assert.equal(refused.status, 429);
    assert.equal(refused.error, 'rate_limit_exceeded');
    assert.ok(refused.retry_after > 0 && refused.retry_after <= 60, `retry_after ${refused.retry_after}`);
    // As the HTTP exchange sees it: 200, the tool result, and both budgets in the headers.
    const raw = await rawMcp(base, toolsCall(7, 'search_jobs', {}));
    assert.equal(raw.status, 200);
    assert.equal(raw.body.result.isError, true);
    assert.equal(JSON.parse(raw.body.result.content[0].text).retry_after, refused.retry_after);
    assert.equal(raw.headers.get('x-ratelimit-remaining'), '0');
    const left = /^"anonymous";r=0;t=\d+, "mcp";r=(\d+);t=\d+$/.exec(raw.headers.get('ratelimit') ?? '');
    assert.ok(left, String(raw.headers.get('ratelimit')));
    // The handshake went to /mcp's budget: at least initialize and its notification, besides 7 calls and a list.
    assert.ok(Number(left[1]) <= 40 - 2 - 1 - 7, `mcp budget left: ${left[1]}`);
    assert.equal((await rest(base, '/v1/stats')).status, 429, 'REST and MCP share the tier budget');

    // A developer key: its own budget; a write counts once, tools/list not at all.
    const key = keys[0] ?? '';
    const created = await rawMcp(base, toolsCall(1, 'create_job', { ...JOB_BODY, idempotency_key: randomUUID() }), {
      'x-api-key': key,
    });
    assert.equal(created.status, 200);
    assert.match(JSON.parse(created.body.result.content[0].text).id, /^job_/);
    assert.match(created.headers.get('ratelimit') ?? '', /^"developer";r=5;t=\d+, "mcp";r=\d+;t=\d+$/);
    const listed = await rawMcp(base, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { 'x-api-key': key });
    assert.equal(listed.body.result.tools.length, READ_TOOLS.length + WRITE_TOOLS.length);
    assert.equal(listed.headers.get('ratelimit-policy'), '"mcp";q=40;w=60');
    assert.equal((await rest(base, '/v1/stats', { key })).headers.get('x-ratelimit-remaining'), '4');

    // Origins: CORS_ORIGINS decides.
    const hello = { jsonrpc: '2.0', id: 3, method: 'tools/list' };
    const foreign = await rawMcp(base, hello, { 'x-api-key': key, origin: 'https://evil.example' });
    assert.equal(foreign.status, 403);
    assert.equal(foreign.body.error, 'forbidden');
    assert.equal(foreign.body.param, 'Origin');
    const allowed = await rawMcp(base, hello, { 'x-api-key': key, origin: 'https://app.example.org' });
    assert.equal(allowed.status, 200);
    assert.equal(allowed.headers.get('access-control-allow-origin'), 'https://app.example.org');

    // A client that only talks protocol meets /mcp's own limit: an HTTP 429 with the ApiError.
    let answer = await rawMcp(base, { jsonrpc: '2.0', id: 4, method: 'ping' });
    for (let i = 0; i < 40 && answer.status === 200; i++)
      answer = await rawMcp(base, { jsonrpc: '2.0', id: 5, method: 'ping' });
    assert.equal(answer.status, 429);
    assert.equal(answer.body.error, 'rate_limit_exceeded');
    assert.equal(answer.headers.get('ratelimit-policy'), '"mcp";q=40;w=60');
    assert.ok(Number(answer.headers.get('retry-after')) > 0);
    const get = await fetch(new URL('/mcp', base), { headers: { accept: 'text/event-stream' } });
    assert.equal(get.status, 429, 'GET /mcp counts there too');
    assert.equal(
      (await rest(base, '/v1/stats', { key })).headers.get('x-ratelimit-remaining'),
      '3',
      'the pings cost the key nothing',
    );
  });

  test('over stdio each tool call is one REST request; past the budget the tool answers isError 429', {
    timeout: 120_000,
  }, async (t) => {
    const { server } = await world(t, { RATE_LIMIT_ANONYMOUS_PER_MIN: '3' }, 0);
    const client = await connect(t, 'stdio', server.baseUrl);
    await client.listTools(); // no REST request
    for (let i = 0; i < 3; i++) okJson(await call(client, 'get_stats'), `call ${i + 1}`);
    const refused = errorJson(await call(client, 'search_jobs', { limit: 1 }), 'over the budget');
    assert.equal(refused.status, 429);
    assert.equal(refused.error, 'rate_limit_exceeded');
    assert.ok(refused.retry_after > 0 && refused.retry_after <= 60, `retry_after ${refused.retry_after}`);
    assert.match(refused.suggestion, /Retry-After/);
  });
});

describe('bin/karlsruhe-marketplace-api.mjs', () => {
  test('prints its usage without a command, and refuses an unknown one', () => {
    const run = (...args: string[]) =>
      spawnSync(process.execPath, ['bin/karlsruhe-marketplace-api.mjs', ...args], { cwd: ROOT, encoding: 'utf8' });
    const usage = run();
    assert.equal(usage.status, 0);
    assert.equal(usage.stdout, '', 'stdout is left to the MCP protocol');
    assert.match(usage.stderr, /Usage: karlsruhe-marketplace-api mcp/);
    assert.match(usage.stderr, /MARKETPLACE_API_URL/);
    const unknown = run('serve');
    assert.equal(unknown.status, 2);
    assert.match(unknown.stderr, /Usage:/);
  });
});
