/**
 * The MCP server (src/mcp) with the official clients over both transports, against real server
 * processes: Streamable HTTP at POST /mcp, and stdio (`node --import tsx src/mcp/stdio.ts`, which
 * calls the REST API over HTTP). Each transport is used by the SDK v2 client pinned to protocol
 * 2026-07-28 and by the v1 SDK client, which speaks the 2025 revisions, against the same server. Tools must list the routes' own parameters and answers (the SDK
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
import { Client, StreamableHTTPClientTransport, type Tool } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as Client2025 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as Stdio2025 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as Http2025 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { createDb } from '../../src/db/create-db.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { NOT_TOOLS, snakeCase } from '../../src/mcp/tools.js';
import { JobCreateBody } from '../../src/schemas/job-writes.js';
import { JobSearchQuery } from '../../src/schemas/jobs.js';
import { createKey } from '../helpers/app.js';
import { JOB_BODY, LISTING_BODY } from '../helpers/bodies.js';
import { freshDatabaseUrl } from '../helpers/database.js';
import { AT, helperFixture, insert, listingFixture, ownerFixture } from '../helpers/fixtures.js';
import { declaredForms, resolveShared } from '../helpers/openapi.js';
import { childEnv, entryArgs, type ServerProcess, startServer } from '../helpers/server-process.js';
import { signedInAs } from '../helpers/sessions.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The protocol revision the v2 client is pinned to; the v1 client speaks 2025-11-25 and older. */
const MODERN = '2026-07-28';

interface DocumentedTool {
  name: string;
  method: string;
  path: string;
  /** The operation declares no security requirement that lets it be called without a key. */
  keyRequired: boolean;
}

/**
 * The tools the OpenAPI document says there must be: one per JSON operation of /v1 (not of the
 * sandbox /v1/demo), named after its operationId, except the ones NOT_TOOLS names with a reason.
 */
function documentedTools(doc: any): DocumentedTool[] {
  const tools: DocumentedTool[] = [];
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    if (!path.startsWith('/v1/') || path.startsWith('/v1/demo/')) continue;
    for (const [method, operation] of Object.entries<any>(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method) || !operation.operationId) continue;
      if (operation.operationId in NOT_TOOLS) continue;
      const security: Record<string, unknown>[] | undefined = operation.security;
      tools.push({
        name: snakeCase(operation.operationId),
        method: method.toUpperCase(),
        path,
        keyRequired: security !== undefined && !security.some((r) => Object.keys(r).length === 0),
      });
    }
  }
  return tools;
}

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** Budgets no test here meets by accident (the rate-limit tests set their own). */
const UNLIMITED = { RATE_LIMIT_ANONYMOUS_PER_MIN: '100000', RATE_LIMIT_DEVELOPER_PER_MIN: '100000' };

interface World {
  server: ServerProcess;
  databaseUrl: string;
  /** Developer keys: one per client that writes, so their writes and budgets stay apart. */
  keys: string[];
  /** The session cookie of each key's account, signed in: the person who decides its drafts. */
  people: string[];
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
  const people: string[] = [];
  for (let i = 0; i < keyCount; i++) {
    const made = await createKey(db, { email: `mcp${i}@example.org` }, new Date());
    keys.push(made.key);
    people.push((await signedInAs(db.kysely, made.accountId)).cookie);
  }
  await db.close();
  const server = await startServer(t, { DATABASE_URL: url, ...config });
  return { server, databaseUrl: url, keys, people, listingId: listing.id };
}

type Transport = 'http' | 'stdio';
type Era = 'modern' | 'legacy';

/** What both clients offer the tests. */
interface AnyClient {
  listTools(): Promise<{ tools: Tool[] }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
  getServerVersion(): unknown;
  getInstructions(): string | undefined;
  close(): Promise<void>;
}

/**
 * An MCP client over Streamable HTTP (POST /mcp, X-API-Key as given) or stdio (a process of
 * src/mcp/stdio.ts): the SDK v2 client pinned to 2026-07-28 (`modern`), or the v1 SDK client,
 * which speaks the 2025 revisions (`legacy`).
 */
async function connect(
  t: TestContext,
  via: Transport,
  baseUrl: string,
  key?: string,
  era: Era = 'modern',
): Promise<AnyClient> {
  const info = { name: 'mcp-test', version: '1.0.0' };
  const client = (era === 'modern'
    ? new Client(info, { versionNegotiation: { mode: { pin: MODERN } } })
    : new Client2025(info)) as unknown as AnyClient;
  const connectTo = (transport: unknown) =>
    (client as unknown as { connect(t: unknown): Promise<void> }).connect(transport);
  if (via === 'http') {
    const headers: Record<string, string> = key ? { 'x-api-key': key } : {};
    const url = new URL('/mcp', baseUrl);
    await connectTo(
      era === 'modern'
        ? new StreamableHTTPClientTransport(url, { requestInit: { headers } })
        : new Http2025(url, { requestInit: { headers } }),
    );
  } else {
    const env = childEnv({ MARKETPLACE_API_URL: baseUrl, ...(key && { MARKETPLACE_API_KEY: key }) });
    if (!key) delete env.MARKETPLACE_API_KEY;
    const options = {
      command: process.execPath,
      args: entryArgs('src/mcp/stdio.ts'),
      cwd: ROOT,
      env: env as Record<string, string>,
      stderr: 'pipe' as const,
    };
    const transport = era === 'modern' ? new StdioClientTransport(options) : new Stdio2025(options);
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    await connectTo(transport);
    t.after(() => {
      if (stderr) t.diagnostic(`stdio server stderr: ${stderr.trim()}`);
    });
  }
  if (era === 'modern') {
    assert.equal(
      (client as unknown as Client).getNegotiatedProtocolVersion(),
      MODERN,
      `${via}: the v2 client speaks ${MODERN}`,
    );
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

/** Every tool whose answer has a body declares an outputSchema, an object, which compiles; the validators are kept for call(). */
function outputsOf(tools: Tool[]): void {
  for (const tool of tools) {
    if (tool.name.startsWith('delete_')) {
      assert.equal(tool.outputSchema, undefined, `${tool.name}: no body, no outputSchema`);
      continue;
    }
    assert.equal(tool.outputSchema?.type, 'object', `${tool.name}: outputSchema`);
    outputs.set(tool.name, ajv.compile(tool.outputSchema ?? {}));
  }
}

/**
 * A tool call through the SDK client, which checks structuredContent against the tool's
 * outputSchema itself (after listTools); a success is checked here once more with strict ajv.
 */
async function call(client: AnyClient, name: string, args: Record<string, unknown> = {}): Promise<ToolResult> {
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
    const { server, keys, listingId } = await world(t, { ...UNLIMITED, LOG_LEVEL: 'info' }, 4);
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

    const documented = documentedTools((await rest(base, '/v1/openapi.json')).body);
    const openTools = documented.filter((tool) => !tool.keyRequired).map((tool) => tool.name);
    const allTools = documented.map((tool) => tool.name);
    assert.ok(allTools.length > 60, `tools for every capability: ${allTools.length}`);
    for (const name of [
      'search_jobs',
      'list_places',
      'list_conversations',
      'post_message',
      'review_booking',
      'create_saved_search',
      'file_report',
      'export_my_data',
      'create_webhook',
      'create_draft',
      'get_draft',
    ]) {
      assert.ok(allTools.includes(name), name);
    }

    const listed: Record<string, Tool[]> = {};
    const CLIENTS: { via: Transport; era: Era }[] = [
      { via: 'http', era: 'modern' },
      { via: 'stdio', era: 'modern' },
      { via: 'http', era: 'legacy' },
      { via: 'stdio', era: 'legacy' },
    ];
    for (const [index, { via: transport, era }] of CLIENTS.entries()) {
      const via = `${transport} ${era === 'modern' ? MODERN : '2025'}`;
      const anonymous = await connect(t, transport, base, undefined, era);
      const developer = await connect(t, transport, base, keys[index], era);

      await t.test(`${via}: server info and instructions`, () => {
        assert.deepEqual(anonymous.getServerVersion(), {
          name: 'karlsruhe-marketplace',
          title: 'Karlsruhe Marketplace API',
          version: '1.1.0',
        });
        assert.match(anonymous.getInstructions() ?? '', /idempotency_key/);
        assert.match(anonymous.getInstructions() ?? '', /X-API-Key/);
        assert.match(anonymous.getInstructions() ?? '', /confirm_by_person/);
      });

      await t.test(
        `${via}: without a key, the tools open to everyone, reads marked read-only, with the routes' parameters`,
        async () => {
          const { tools } = await anonymous.listTools();
          assert.deepEqual(tools.map((tool) => tool.name).sort(), [...openTools].sort());
          for (const tool of tools) {
            const { method, path } = documented.find((d) => d.name === tool.name) ?? { method: '', path: '' };
            assert.match(
              tool.description ?? '',
              new RegExp(`REST: ${method} ${path.replace(/[{}]/g, '\\$&')}\\.`),
              tool.name,
            );
            if (method === 'GET') {
              assert.deepEqual(
                tool.annotations,
                { title: tool.title, readOnlyHint: true, idempotentHint: true, openWorldHint: false },
                tool.name,
              );
            } else {
              assert.equal(tool.annotations?.readOnlyHint, false, tool.name);
            }
            assert.ok(tool.title && (tool.description ?? '').length > 30, `${tool.name}: title and description`);
            if (method !== 'GET') continue;
            // The REST operation's parameters, no more and no fewer, with the same schemas.
            const parameters: any[] = doc.paths[path][method.toLowerCase()].parameters ?? [];
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
          for (const name of ['category', 'lat', 'lng', 'radius', 'q', 'near'])
            assert.ok(search?.inputSchema.properties?.[name], name);
          assert.equal((search?.inputSchema.properties?.radius as any)?.maximum, 50);
          assert.deepEqual(tools.find((tool) => tool.name === 'get_job')?.inputSchema.required, ['id']);
          assert.deepEqual(tools.find((tool) => tool.name === 'get_price_estimate')?.inputSchema.required, [
            'category',
          ]);
        },
      );

      await t.test(
        `${via}: with a developer key, every tool; each POST that needs a key with a required idempotency_key`,
        async () => {
          const { tools } = await developer.listTools();
          assert.deepEqual(tools.map((tool) => tool.name).sort(), [...allTools].sort());
          outputsOf(tools);
          listed[via] = tools;
          for (const tool of tools) {
            const { method, keyRequired } = documented.find((d) => d.name === tool.name) ?? {};
            if (method === 'GET') continue;
            assert.equal(tool.annotations?.readOnlyHint, false, tool.name);
            // POSTs open to anonymous callers (a key request, a report) have no idempotency without a key.
            assert.equal(tool.annotations?.idempotentHint, method !== 'POST' || keyRequired, tool.name);
            assert.equal(
              tool.annotations?.destructiveHint,
              method === 'DELETE' || /^(cancel|decline|reject|archive)_/.test(tool.name),
              tool.name,
            );
            const idempotency = (tool.inputSchema.properties as any)?.idempotency_key;
            if (method === 'POST') {
              assert.equal(idempotency?.type, 'string', tool.name);
              assert.equal(tool.inputSchema.required?.includes('idempotency_key') ?? false, keyRequired, tool.name);
            } else {
              assert.equal(idempotency, undefined, `${tool.name}: ${method} is idempotent by its method`);
            }
          }
          const create = tools.find((tool) => tool.name === 'create_job');
          assert.deepEqual(Object.keys(create?.inputSchema.properties ?? {}), [
            ...Object.keys(JobCreateBody.properties),
            'idempotency_key',
            'confirm_by_person',
          ]);
          assert.deepEqual(create?.inputSchema.required, [...(JobCreateBody.required ?? []), 'idempotency_key']);
          const apply = tools.find((tool) => tool.name === 'apply_to_job');
          assert.deepEqual(apply?.inputSchema.required, ['id', 'helper_id', 'idempotency_key']);
          const book = tools.find((tool) => tool.name === 'create_booking');
          // Days or hours: the body's pairs are each optional, the service asks for one of them.
          assert.deepEqual(book?.inputSchema.required, ['id', 'idempotency_key']);
          for (const name of ['start_date', 'end_date', 'start_at', 'end_at']) {
            assert.ok(name in (book?.inputSchema.properties ?? {}), name);
          }
          const drafted = tools.filter((tool) => 'confirm_by_person' in (tool.inputSchema.properties ?? {}));
          assert.deepEqual(drafted.map((tool) => tool.name).sort(), [
            'apply_to_job',
            'create_booking',
            'create_job',
            'create_listing',
          ]);
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
          await call(anonymous, 'get_categories', { lang: 'de', type: 'service' }),
          'categories',
        );
        assert.deepEqual(categories, (await rest(base, '/v1/categories?lang=de&type=service')).body);
        const estimate = okJson(
          await call(anonymous, 'get_price_estimate', { category: 'GARDENING', duration_hours: 3, helpers: 2 }),
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
        if (via.startsWith('http')) {
          // Over HTTP, a tool that acts for someone called without a key or token is an HTTP 401
          // with the RFC 9728 challenge, so an MCP client with OAuth support authorizes (issue 31;
          // test/browser/mcp-oauth.test.ts runs the whole flow).
          await assert.rejects(
            call(anonymous, 'create_job', { ...JOB_BODY, idempotency_key: randomUUID() }),
            (error: { code?: unknown; data?: { status?: number }; message?: string }) =>
              (error.data?.status === 401 || error.code === 401) && /acts for a person/.test(error.message ?? ''),
          );
          return;
        }
        const result = errorJson(
          await call(anonymous, 'create_job', { ...JOB_BODY, idempotency_key: randomUUID() }),
          'anonymous create_job',
        );
        assert.equal(result.status, 401);
        assert.equal(result.error, 'authentication_required');
        assert.match(result.message, /developer key/);
        assert.match(result.suggestion, /developer key|MARKETPLACE_API_KEY/);
        const booking = errorJson(
          await call(anonymous, 'create_booking', {
            id: listingId,
            start_date: '2030-01-01',
            end_date: '2030-01-02',
            idempotency_key: randomUUID(),
          }),
          'anonymous create_booking',
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

    await t.test('both transports and both protocol eras list the same tools', () => {
      const lists = Object.values(listed);
      assert.equal(lists.length, 4);
      for (const list of lists) {
        assert.deepEqual(
          list.map((tool) => tool.name),
          lists[0]?.map((tool) => tool.name),
        );
        for (const [i, tool] of list.entries()) assert.deepEqual(tool, lists[0]?.[i], tool.name);
      }
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

/** The person at the confirmation page, signed in: the form's POST, as the browser sends it (same site). */
async function decide(url: string, decision: 'confirm' | 'decline', cookie: string): Promise<number> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
    body: `decision=${decision}`,
  });
  await response.text();
  return response.status;
}

describe('confirm_by_person: drafts a person confirms, through MCP', () => {
  test('2026-07-28 asks with URL elicitation, 2025 with error -32042, a client that cannot open URLs gets the link', {
    timeout: 120_000,
  }, async (t) => {
    const { server, keys, people } = await world(t, UNLIMITED, 3);
    const base = server.baseUrl;

    await t.test('2026-07-28 over HTTP: input_required with the URL; after the person confirms, the job', async () => {
      const client = new Client(
        { name: 'mcp-test', version: '1.0.0' },
        { capabilities: { elicitation: { url: {} } }, versionNegotiation: { mode: { pin: MODERN } } },
      );
      const asked: { url?: string; message?: string }[] = [];
      client.setRequestHandler('elicitation/create', async (request) => {
        const params = request.params as { mode?: string; url?: string; message?: string };
        asked.push(params);
        assert.equal(params.mode, 'url');
        // The URL alone (the agent posting it) confirms nothing: the page wants the person signed in.
        assert.equal(await decide(params.url ?? '', 'confirm', ''), 403);
        // The person opens the page and confirms; the agent's client then says it was opened.
        assert.equal(await decide(params.url ?? '', 'confirm', people[0] ?? ''), 200);
        return { action: 'accept' };
      });
      await client.connect(
        new StreamableHTTPClientTransport(new URL('/mcp', base), {
          requestInit: { headers: { 'x-api-key': keys[0] ?? '' } },
        }),
      );
      t.after(() => client.close());
      const before = (await rest(base, '/v1/jobs?limit=1')).body.total;
      const key = randomUUID();
      const args = { ...JOB_BODY, title: 'Von einer Person bestätigt', confirm_by_person: true, idempotency_key: key };
      const result = (await client.callTool({ name: 'create_job', arguments: args })) as ToolResult;
      assert.notEqual(result.isError, true, JSON.stringify(result));
      assert.equal(asked.length, 1, 'asked once');
      assert.match(asked[0]?.url ?? '', /\/confirm\/[A-Za-z0-9_-]+$/);
      assert.match(asked[0]?.message ?? '', /Von einer Person bestätigt/);
      const draft = result.structuredContent;
      assert.match(draft.id, /^drf_/);
      assert.equal(draft.status, 'confirmed');
      assert.match(draft.result.id, /^job_/);
      const job = await rest(base, `/v1/jobs/${draft.result.id}`);
      assert.equal(job.body.title, 'Von einer Person bestätigt');
      assert.equal((await rest(base, '/v1/jobs?limit=1')).body.total, before + 1);
      // The same call again (a retry): the same draft, nothing asked or created twice.
      const again = (await client.callTool({ name: 'create_job', arguments: args })) as ToolResult;
      assert.equal(again.structuredContent.id, draft.id);
      assert.equal(again.structuredContent.status, 'confirmed');
      assert.equal(asked.length, 1);
      assert.equal((await rest(base, '/v1/jobs?limit=1')).body.total, before + 1);
    });

    await t.test(
      '2025 over stdio: URL elicitation required (-32042); the person declines; the retry says so',
      async () => {
        const client = new Client2025(
          { name: 'mcp-test', version: '1.0.0' },
          { capabilities: { elicitation: { url: {} } } },
        );
        const env = childEnv({ MARKETPLACE_API_URL: base, MARKETPLACE_API_KEY: keys[1] ?? '' });
        await client.connect(
          new Stdio2025({
            command: process.execPath,
            args: entryArgs('src/mcp/stdio.ts'),
            cwd: ROOT,
            env: env as Record<string, string>,
          }),
        );
        t.after(() => client.close());
        const args = {
          ...LISTING_BODY,
          title: 'Nie bestätigt',
          confirm_by_person: true,
          idempotency_key: randomUUID(),
        };
        let url = '';
        await assert.rejects(client.callTool({ name: 'create_listing', arguments: args }), (error: any) => {
          assert.equal(error.code, -32042, String(error));
          url = error.data?.elicitations?.[0]?.url ?? '';
          assert.equal(error.data.elicitations[0].mode, 'url');
          assert.match(error.data.elicitations[0].elicitationId, /^drf_/);
          return true;
        });
        assert.match(url, /\/confirm\//);
        assert.equal(await decide(url, 'decline', people[1] ?? ''), 200);
        const result = (await client.callTool({ name: 'create_listing', arguments: args })) as ToolResult;
        const draft = okJson(result, 'after declining');
        assert.equal(draft.status, 'declined');
        assert.equal(draft.result, null);
        assert.equal(draft.confirmation_url, null, 'a decided draft shows no link');
        const mine = await rest(base, '/v1/me/export', { key: keys[1] });
        assert.deepEqual(mine.body.listings, [], 'nothing was listed');
      },
    );

    await t.test(
      '2025 over HTTP, a client that cannot open URLs: the draft with its link, pending; nothing written',
      async () => {
        const client = await connect(t, 'http', base, keys[2], 'legacy');
        const args = {
          ...JOB_BODY,
          title: 'Wartet auf Bestätigung',
          confirm_by_person: true,
          idempotency_key: randomUUID(),
        };
        const draft = okJson(await call(client, 'create_job', args), 'draft');
        assert.equal(draft.status, 'pending');
        assert.match(draft.confirmation_url, /^http:\/\/.+\/confirm\/[A-Za-z0-9_-]+$/);
        assert.equal(draft.summary.de.length > 0 && draft.summary.en.length > 0, true);
        const shown = okJson(await call(client, 'get_draft', { id: draft.id }), 'get_draft');
        assert.equal(shown.status, 'pending');
        assert.equal(shown.confirmation_url, null);
        // Validated as the operation validates: the same error, the same param.
        const bad = errorJson(
          await call(client, 'create_job', {
            ...JOB_BODY,
            price_eur: -5,
            confirm_by_person: true,
            idempotency_key: randomUUID(),
          }),
          'bad price',
        );
        const direct = errorJson(
          await call(client, 'create_job', { ...JOB_BODY, price_eur: -5, idempotency_key: randomUUID() }),
          'direct',
        );
        assert.deepEqual(
          { status: bad.status, error: bad.error, param: bad.param },
          { status: direct.status, error: direct.error, param: direct.param },
        );
        const notBoolean = errorJson(
          await call(client, 'create_job', { ...JOB_BODY, confirm_by_person: 'yes', idempotency_key: randomUUID() }),
          'yes',
        );
        assert.equal(notBoolean.param, 'confirm_by_person');
        // Another account's draft: not found, as over REST.
        const foreign = errorJson(
          await call(await connect(t, 'http', base, keys[0], 'legacy'), 'get_draft', { id: draft.id }),
          'foreign',
        );
        assert.equal(foreign.status, 404);
      },
    );
  });
});

describe('no sessions: any instance answers any request', () => {
  test('a 2026-07-28 client and a 2025 client whose requests alternate between two server processes', {
    timeout: 120_000,
  }, async (t) => {
    const { server: first, databaseUrl, keys } = await world(t, UNLIMITED, 1);
    const second = await startServer(t, { DATABASE_URL: databaseUrl, ...UNLIMITED });
    // Every request of the client goes to the other instance than the one before.
    const bases = [first.baseUrl, second.baseUrl].map((base) => new URL(base));
    const served: string[] = [];
    let next = 0;
    const alternate = (input: string | URL | Request, init?: RequestInit) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      const target = bases[next++ % 2] as URL;
      url.host = target.host;
      served.push(url.host);
      return fetch(url, init);
    };
    const headers = { 'x-api-key': keys[0] ?? '' };
    const modern = new Client(
      { name: 'mcp-test', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: MODERN } } },
    );
    await modern.connect(
      new StreamableHTTPClientTransport(new URL('/mcp', first.baseUrl), { requestInit: { headers }, fetch: alternate }),
    );
    t.after(() => modern.close());
    const legacy = new Client2025({ name: 'mcp-test', version: '1.0.0' });
    await legacy.connect(new Http2025(new URL('/mcp', first.baseUrl), { requestInit: { headers }, fetch: alternate }));
    t.after(() => legacy.close());
    for (const client of [modern, legacy] as unknown as AnyClient[]) {
      assert.ok((await client.listTools()).tools.length > 60);
      const created = okJson(
        await call(client, 'create_job', { ...JOB_BODY, title: 'Zwei Instanzen', idempotency_key: randomUUID() }),
        'create_job',
      );
      const read = okJson(await call(client, 'get_job', { id: created.id }), 'get_job');
      assert.equal(read.title, 'Zwei Instanzen');
    }
    assert.ok(new Set(served).size === 2, `both instances answered: ${served.join(', ')}`);
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
    // The 2025 client: initialize, the initialized notification, GET /mcp for a stream (405), tools/list.
    const client = await connect(t, 'http', base, undefined, 'legacy');
    const openTools = (await client.listTools()).tools.length;
    assert.ok(openTools > 10, `${openTools} tools without a key`);
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
    assert.ok(listed.body.result.tools.length > openTools + 40, `${listed.body.result.tools.length} tools with a key`);
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
