import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { createDb } from '../../src/db/create-db.js';
import { exitWithin, type ServerProcess, spawnServer, startServer, stopServer } from '../helpers/server-process.js';

async function get(server: ServerProcess, path: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`${server.baseUrl}${path}`, { signal: AbortSignal.timeout(10_000) });
  return { status: response.status, body: await response.json() };
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
    // The seed's own records; not the sweeps' bookkeeping (the notifications' cursor, made by the
    // first planning round, which a start may or may not reach before it is stopped).
    const meta = await db.kysely
      .selectFrom('meta')
      .selectAll()
      .where('key', 'not in', ['notifications_cursor', 'vapid_keys'])
      .execute();
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

describe('server process over real HTTP', () => {
  const dir = mkdtempSync(join(tmpdir(), 'marketplace-server-'));
  const databaseUrl = `sqlite:${join(dir, 'm.db')}`;
  after(() => rmSync(dir, { recursive: true, force: true }));

  let firstJobs: any;
  let firstTotals: any;
  let firstCounts: Awaited<ReturnType<typeof rowCounts>>;

  test('the first start creates and seeds the database, serves it, and exits 0 on SIGTERM', {
    timeout: 40_000,
  }, async (t) => {
    const server = await startServer(t, { DATABASE_URL: databaseUrl, SEED_ON_EMPTY: 'true', LOG_LEVEL: 'info' });

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

    assert.deepEqual(await stopServer(server), { code: 0, signal: null });
    // The first start is not silent while it seeds: a line when it starts, one per phase, one at
    // the end, all before the server listens; on a Node.js past its end of life, a warning first.
    const lines = server
      .output()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { level: number; msg: string; phase?: string; rows?: number });
    const messages = lines.map((line) => line.msg);
    const eol = Number(process.versions.node.split('.')[0]) < 22;
    assert.equal(messages.filter((m) => /past its end of life/.test(m)).length, eol ? 1 : 0, messages.join('\n'));
    const start = messages.indexOf(
      'empty database: seeding demo data (SEED_ON_EMPTY=true), this takes a while on first start',
    );
    const done = messages.indexOf('seeding done');
    const listening = messages.findIndex((m) => m.startsWith('Server listening at'));
    assert.ok(start >= 0 && start < done && done < listening, messages.join('\n'));
    assert.deepEqual(
      lines
        .slice(start + 1, done)
        .filter((line) => line.msg.startsWith('seeded '))
        .map((line) => [line.msg, line.rows]),
      [
        ['seeded helpers', 400],
        ['seeded completed jobs', 1500],
        ['seeded cancelled jobs', lines.find((l) => l.phase === 'cancelled jobs')?.rows],
        ['seeded helper history', lines.find((l) => l.phase === 'helper history')?.rows],
        ['seeded open jobs', 2000],
        ['seeded assigned and expired jobs', 160],
        ['seeded listings', 1500],
        ['seeded lending history', lines.find((l) => l.phase === 'lending history')?.rows],
      ],
    );
    assert.ok(
      lines.every((line) => line.level < 50),
      'no errors',
    );

    firstCounts = await rowCounts(databaseUrl);
    assert.equal(firstCounts.listings, 1500);
    assert.equal(firstCounts.helpers, 400);
  });

  test('a second start on the same file does not seed again', { timeout: 40_000 }, async (t) => {
    assert.ok(firstJobs, 'needs the first start');
    const server = await startServer(t, { DATABASE_URL: databaseUrl, SEED_ON_EMPTY: 'true' });

    const jobs = await get(server, '/v1/jobs?limit=5');
    assert.equal(jobs.status, 200);
    assert.deepEqual(jobs.body, firstJobs);
    const stats = await get(server, '/v1/stats');
    assert.deepEqual(stats.body.totals, firstTotals);

    assert.deepEqual(await stopServer(server), { code: 0, signal: null });
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
      const server = await spawnServer(t, { DATABASE_URL: `sqlite:${file}`, ...config });

      const { code, signal } = await exitWithin(server, 20_000);
      const [stdout, stderr] = [server.stdout(), server.stderr()];
      assert.deepEqual({ code, signal, stdout }, { code: 1, signal: null, stdout: '' });
      assert.ok(stderr.startsWith(`Invalid configuration:\n  ${name}=${JSON.stringify(value)}: `), stderr);
      assert.equal(existsSync(file), false, 'the database is not opened with a bad configuration');
    });
  }
});

test('TRUST_PROXY as a hop count stops the server with one line, before the database is opened', {
  timeout: 30_000,
}, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'marketplace-server-hops-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'm.db');
  const server = await spawnServer(t, { DATABASE_URL: `sqlite:${file}`, TRUST_PROXY: '1' });
  const { code, signal } = await exitWithin(server, 20_000);
  const [stdout, stderr] = [server.stdout(), server.stderr()];
  assert.deepEqual({ code, signal, stdout }, { code: 1, signal: null, stdout: '' });
  assert.match(
    stderr,
    /^Failed to start: TRUST_PROXY=1 is a hop count, under which a client that reaches this instance directly picks its own rate-limit address with X-Forwarded-For\. .*TRUST_PROXY_ALLOW_HOP_COUNT=true .*\.\n$/,
  );
  assert.equal(stderr.split('\n').length, 2, 'one line');
  assert.equal(existsSync(file), false, 'the database is not opened');
});
