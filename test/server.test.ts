import assert from 'node:assert/strict';
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { createDb } from '../src/db/create-db.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CONFIG_VARIABLES = ['PORT', 'HOST', 'DATABASE_URL', 'LOG_LEVEL', 'SEED_ON_EMPTY', 'NODE_TEST_CONTEXT'];

/** A port nobody listens on right now: bind port 0, read the port, close. */
async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  assert.ok(address !== null && typeof address === 'object');
  await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
  return address.port;
}

interface ServerProcess {
  child: ChildProcessWithoutNullStreams;
  baseUrl: string;
  /** Exit code and signal, once the process has exited and its output is complete. */
  closed: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output(): { stdout: string; stderr: string };
}

const running = new Set<ServerProcess>();

/** Starts `node --import tsx src/server.ts` with only the given configuration variables set. */
function startServer(config: Record<string, string>): ServerProcess {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !CONFIG_VARIABLES.includes(key)));
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: ROOT,
    env: { ...env, HOST: '127.0.0.1', LOG_LEVEL: 'silent', ...config },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('close', (code, signal) => resolve({ code, signal })),
  );
  const server: ServerProcess = {
    child,
    baseUrl: `http://127.0.0.1:${config.PORT}`,
    closed,
    output: () => ({ stdout, stderr }),
  };
  running.add(server);
  void closed.then(() => running.delete(server));
  return server;
}

function stillRunning(server: ServerProcess): boolean {
  return server.child.exitCode === null && server.child.signalCode === null;
}

/** Kills a child this file started (by its own handle) and waits for it. */
async function kill(server: ServerProcess): Promise<void> {
  if (stillRunning(server)) server.child.kill('SIGKILL');
  await server.closed;
}

/** Polls GET /healthz until it answers 200; fails early if the process exits, after `ms` at the latest. */
async function waitUntilHealthy(server: ServerProcess, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (!stillRunning(server)) {
      const { code } = await server.closed;
      assert.fail(`server exited with code ${code} before it was healthy:\n${server.output().stderr}`);
    }
    try {
      const response = await fetch(`${server.baseUrl}/healthz`, { signal: AbortSignal.timeout(2_000) });
      if (response.status === 200) {
        assert.deepEqual(await response.json(), { status: 'ok' });
        return;
      }
    } catch {
      // Not listening yet (still migrating and seeding).
    }
    await sleep(100);
  }
  assert.fail(`server not healthy after ${ms} ms:\n${server.output().stderr}`);
}

/** The promise's value, or a failure after `ms` (a timer that does not keep the process alive). */
async function within<T>(promise: Promise<T>, ms: number, message: () => string): Promise<T> {
  const timeout = sleep(ms, undefined, { ref: false }).then(() => assert.fail(message()));
  return Promise.race([promise, timeout]);
}

async function get(server: ServerProcess, path: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`${server.baseUrl}${path}`, { signal: AbortSignal.timeout(10_000) });
  return { status: response.status, body: await response.json() };
}

async function stop(server: ServerProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  server.child.kill('SIGTERM');
  return within(server.closed, 15_000, () => `server did not exit within 15 s of SIGTERM:\n${server.output().stderr}`);
}

/** Row counts of the file, read directly (the server must have exited). */
async function rowCounts(url: string) {
  const db = createDb(url);
  try {
    const count = async (table: 'jobs' | 'listings' | 'helpers' | 'owners') =>
      Number(
        (
          await db.kysely
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const meta = await db.kysely.selectFrom('meta').selectAll().execute();
    return {
      jobs: await count('jobs'),
      listings: await count('listings'),
      helpers: await count('helpers'),
      owners: await count('owners'),
      meta,
    };
  } finally {
    await db.close();
  }
}

after(async () => {
  await Promise.all([...running].map(kill));
});

describe('server process over real HTTP', () => {
  const dir = mkdtempSync(join(tmpdir(), 'marketplace-server-'));
  const databaseUrl = `sqlite:${join(dir, 'm.db')}`;
  after(async () => {
    await Promise.all([...running].map(kill));
    rmSync(dir, { recursive: true, force: true });
  });

  let firstJobs: any;
  let firstTotals: any;
  let firstCounts: Awaited<ReturnType<typeof rowCounts>>;

  test('the first start creates and seeds the database, serves it, and exits 0 on SIGTERM', {
    timeout: 40_000,
  }, async (t) => {
    const server = startServer({ PORT: String(await freePort()), DATABASE_URL: databaseUrl });
    t.after(() => kill(server));
    await waitUntilHealthy(server);

    const stats = await get(server, '/v1/stats');
    assert.equal(stats.status, 200);
    // The seed anchor is today in Karlsruhe, so every seeded open job is open now.
    assert.equal(stats.body.totals.open_jobs, 2000);
    assert.equal(stats.body.totals.helpers, 400);
    firstTotals = stats.body.totals;

    const jobs = await get(server, '/v1/jobs?limit=5');
    assert.equal(jobs.status, 200);
    assert.deepEqual(
      { ...jobs.body, data: jobs.body.data.length },
      { data: 5, total: 2000, limit: 5, offset: 0, has_more: true },
    );
    firstJobs = jobs.body;

    const [job] = jobs.body.data;
    const one = await get(server, `/v1/jobs/${job.id}`);
    assert.equal(one.status, 200);
    assert.deepEqual(one.body, job);

    const missing = await get(server, '/v1/jobs/job_doesnotexist0000');
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error, 'not_found');

    assert.deepEqual(await stop(server), { code: 0, signal: null });
    assert.deepEqual(server.output(), { stdout: '', stderr: '' });

    firstCounts = await rowCounts(databaseUrl);
    assert.equal(firstCounts.listings, 1500);
    assert.equal(firstCounts.helpers, 400);
  });

  test('a second start on the same file does not seed again', { timeout: 40_000 }, async (t) => {
    assert.ok(firstJobs, 'needs the first start');
    const server = startServer({ PORT: String(await freePort()), DATABASE_URL: databaseUrl });
    t.after(() => kill(server));
    await waitUntilHealthy(server);

    const jobs = await get(server, '/v1/jobs?limit=5');
    assert.equal(jobs.status, 200);
    assert.deepEqual(jobs.body, firstJobs);
    const stats = await get(server, '/v1/stats');
    assert.deepEqual(stats.body.totals, firstTotals);

    assert.deepEqual(await stop(server), { code: 0, signal: null });
    assert.deepEqual(await rowCounts(databaseUrl), firstCounts);
  });
});

describe('a bad configuration stops the server with a message naming the variable', () => {
  const cases: [string, Record<string, string>][] = [
    ['PORT', { PORT: '99999' }],
    ['PORT', { PORT: 'abc' }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://x' }],
    ['LOG_LEVEL', { LOG_LEVEL: 'loud' }],
  ];
  for (const [name, config] of cases) {
    const value = config[name] as string;
    test(`${name}=${value}`, { timeout: 30_000 }, async (t) => {
      const dir = mkdtempSync(join(tmpdir(), 'marketplace-server-bad-'));
      t.after(() => rmSync(dir, { recursive: true, force: true }));
      const file = join(dir, 'm.db');
      const server = startServer({ PORT: '0', DATABASE_URL: `sqlite:${file}`, ...config });
      t.after(() => kill(server));

      const { code, signal } = await within(server.closed, 20_000, () => `still running after 20 s`);
      const { stdout, stderr } = server.output();
      assert.deepEqual({ code, signal, stdout }, { code: 1, signal: null, stdout: '' });
      assert.ok(stderr.startsWith(`Invalid configuration:\n  ${name}=${JSON.stringify(value)}: `), stderr);
      assert.equal(existsSync(file), false, 'the database is not opened with a bad configuration');
    });
  }
});
