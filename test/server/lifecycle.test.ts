/**
 * The process's life around its traffic, over real HTTP (src/server.ts): /readyz; on SIGTERM it is
 * not ready at once but still serves for SHUTDOWN_DELAY_MS, then refuses new connections, lets the
 * requests in flight finish and exits 0; a request that never ends does not keep it alive past
 * SHUTDOWN_TIMEOUT_MS. Draining does not depend on the engine, so this runs on SQLite only.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { Agent, type ClientRequest, type IncomingMessage, request } from 'node:http';
import { connect } from 'node:net';
import { type TestContext, test } from 'node:test';
import { runCli } from '../helpers/admin-cli.js';
import { freshDatabaseUrl } from '../helpers/database.js';
import { exitWithin, type ServerProcess, spawnServer, startServer, until } from '../helpers/server-process.js';

const UNLIMITED = { RATE_LIMIT_ANONYMOUS_PER_MIN: '1000000' };

async function serve(t: TestContext, config: Record<string, string> = {}): Promise<ServerProcess> {
  const url = await freshDatabaseUrl(t, { file: true });
  return startServer(t, { DATABASE_URL: url, ...UNLIMITED, ...config });
}

async function get(server: ServerProcess, path: string) {
  const response = await fetch(`${server.baseUrl}${path}`, { signal: AbortSignal.timeout(20_000) });
  return { status: response.status, headers: response.headers, body: (await response.json()) as any };
}

/** Whether a new TCP connection to the server is refused (its listener is closed). */
async function refusesConnections(server: ServerProcess): Promise<boolean> {
  const socket = connect(server.port, '127.0.0.1');
  try {
    await once(socket, 'connect');
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ECONNREFUSED';
  } finally {
    socket.destroy();
  }
}

const KEY_REQUEST = JSON.stringify({
  name: 'Lena Schmidt',
  email: 'lena@example.org',
  account_type: 'private',
  intended_use: 'A dashboard of gardening jobs in Durlach for our neighbourhood.',
});

/**
 * A POST whose headers and first `sent` bytes of body go out now. Resolves once the server has
 * read the headers (its 100 Continue): the request is in flight there, waiting for the rest. Its
 * connection is kept alive afterwards for as long as the server keeps it, as a proxy in front would.
 */
async function slowPost(t: TestContext, server: ServerProcess, body: string, sent: number) {
  const agent = new Agent({ keepAlive: true });
  t.after(() => agent.destroy());
  const req: ClientRequest = request({
    agent,
    host: '127.0.0.1',
    port: server.port,
    method: 'POST',
    path: '/v1/developer/key-requests',
    headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), expect: '100-continue' },
  });
  const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.once('error', reject);
    req.once('response', (res: IncomingMessage) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => {
        text += chunk;
      });
      res.once('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      res.once('error', reject);
    });
  });
  response.catch(() => {});
  req.write(body.slice(0, sent));
  await once(req, 'continue');
  const finish = () => {
    req.end(body.slice(sent));
    return response;
  };
  return { finish };
}

test('GET /readyz: ready, the database answers; the search index is built after the start', {
  timeout: 120_000,
}, async (t) => {
  const server = await serve(t);
  const first = await get(server, '/readyz');
  assert.equal(first.status, 200, 'ready while the index may still be warming');
  assert.ok(['warming', 'ready'].includes(first.body.search_index), JSON.stringify(first.body));
  await until('the search index is built', async () => (await get(server, '/readyz')).body.search_index === 'ready');
  const ready = await get(server, '/readyz');
  assert.deepEqual(
    { status: ready.status, body: ready.body },
    { status: 200, body: { status: 'ready', search_index: 'ready', checks: { database: 'ok' } } },
  );
});

test('SIGTERM with SHUTDOWN_DELAY_MS: not ready at once, still serving during the delay, then exit 0', {
  timeout: 120_000,
}, async (t) => {
  const server = await serve(t, { SHUTDOWN_DELAY_MS: '3000' });
  assert.equal((await get(server, '/readyz')).status, 200);
  server.child.kill('SIGTERM');
  await until('/readyz answers 503', async () => (await get(server, '/readyz')).status === 503, 20_000);
  const readyz = await get(server, '/readyz');
  const jobs = await get(server, '/v1/jobs');
  assert.equal(readyz.headers.get('retry-after'), '5');
  assert.deepEqual(readyz.body, {
    error: 'service_unavailable',
    message: 'This instance is shutting down.',
    param: null,
    suggestion: 'Send requests to another instance.',
    alternatives: [],
    alternatives_count: 0,
  });
  assert.equal(jobs.status, 200, 'requests are still served while not ready');
  assert.deepEqual(await exitWithin(server, 30_000), { code: 0, signal: null });
});

test('SIGTERM: requests in flight finish, new connections are refused, exit 0', { timeout: 120_000 }, async (t) => {
  // The delay lets the GETs fired just before SIGTERM be accepted: a connection the kernel holds
  // when the listener closes is reset, which is what the delay (and /readyz) exist to avoid.
  const server = await serve(t, { SHUTDOWN_DELAY_MS: '2000', LOG_LEVEL: 'error' });
  const post = await slowPost(t, server, KEY_REQUEST, Math.floor(KEY_REQUEST.length / 2));
  const gets = Array.from({ length: 100 }, (_, i) =>
    fetch(`${server.baseUrl}/v1/jobs?limit=1&offset=${i}`).then(
      async (response) => ({ status: response.status, complete: Array.isArray(((await response.json()) as any).data) }),
      (error: Error) => ({
        status: 0,
        complete: false,
        error: String((error.cause as Error | undefined)?.message ?? error),
      }),
    ),
  );
  server.child.kill('SIGTERM');
  // The listener is closed while the POST still waits for half of its body.
  await until('new connections are refused', () => refusesConnections(server), 20_000);
  const posted = await post.finish();
  assert.equal(posted.status, 202, posted.body);
  assert.equal(JSON.parse(posted.body).status, 'pending');
  const answers = await Promise.all(gets);
  assert.deepEqual(
    answers.filter((a) => a.status !== 200 || !a.complete),
    [],
    'every GET got a complete 200',
  );
  // The POST's connection stays open (kept alive) after its answer: the server must close it itself.
  assert.deepEqual(await exitWithin(server, 30_000), { code: 0, signal: null }, server.output());
  assert.equal(server.output(), '');
});

test('SIGTERM with a request that never completes: exit 1 after SHUTDOWN_TIMEOUT_MS', {
  timeout: 120_000,
}, async (t) => {
  const server = await serve(t, { SHUTDOWN_TIMEOUT_MS: '1000', LOG_LEVEL: 'error' });
  await slowPost(t, server, KEY_REQUEST, 10);
  server.child.kill('SIGTERM');
  assert.deepEqual(await exitWithin(server, 30_000), { code: 1, signal: null });
  assert.match(server.output(), /requests still running at the shutdown timeout/);
});

test('MIGRATE_ON_START=false on a schema that is behind: no start, until `npm run migrate`', {
  timeout: 120_000,
}, async (t) => {
  const url = await freshDatabaseUrl(t, { file: true });
  const config = { DATABASE_URL: url, MIGRATE_ON_START: 'false' };
  const refused = await spawnServer(t, config);
  assert.deepEqual(await exitWithin(refused, 60_000), { code: 1, signal: null });
  assert.match(
    refused.stderr(),
    /The database schema of sqlite:.* is behind: 0001-initial, .* pending\. Run `npm run migrate`/,
  );

  const migrated = await runCli('src/cli/migrate.ts', [], { DATABASE_URL: url });
  assert.equal(migrated.code, 0, migrated.stderr);
  assert.match(
    migrated.stdout,
    /^Applied 39 migration\(s\) to sqlite:.*: 0001-initial, .*0033-console-decisions, 0034-job-series, 0035-booking-rules, 0036-hourly-lending, 0037-series-excusals, 0038-notifications, 0039-chosen-language\n$/,
  );
  const again = await runCli('src/cli/migrate.ts', [], { DATABASE_URL: url });
  assert.match(again.stdout, /is up to date; nothing to apply/);

  const server = await startServer(t, config);
  assert.equal((await get(server, '/readyz')).status, 200);
});
