/**
 * Several instances behind one load balancer: two server processes on ONE PostgreSQL schema and
 * ONE Redis. They start at once on the empty schema (the migrator's advisory lock lets one
 * migrate, the other wait), share one rate-limit budget exactly, see each other's writes at once,
 * keep the application limit across processes, and e-mail each notification once.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import { createDb } from '../../src/db/create-db.js';
import { pendingMigrations } from '../../src/db/migrate.js';
import { createKey } from '../helpers/app.js';
import { jobsWithApplicants } from '../helpers/applicants.js';
import { freshDatabaseUrl, TEST_ENGINE } from '../helpers/database.js';
import { type ServerProcess, startServer, stopServer, until } from '../helpers/server-process.js';
import { startSmtpServer } from '../helpers/smtp.js';

const REDIS_URL = 'redis://127.0.0.1:6379';

async function send(server: ServerProcess, path: string, init: { key?: string; body?: unknown } = {}) {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method: init.body === undefined ? 'GET' : 'POST',
    headers: {
      ...(init.key ? { 'x-api-key': init.key } : {}),
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    signal: AbortSignal.timeout(30_000),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as any };
}

/** The Redis keys under `prefix` and their values. */
async function redisKeys(redis: Redis, prefix: string): Promise<Record<string, string | null>> {
  const keys = await redis.keys(`${prefix}*`);
  return Object.fromEntries(await Promise.all(keys.map(async (key) => [key, await redis.get(key)] as const)));
}

test('two instances on one PostgreSQL schema and one Redis', { timeout: 300_000 }, async (t) => {
  assert.equal(TEST_ENGINE, 'postgres', 'test/postgres/ runs in the PostgreSQL pass only');
  const url = await freshDatabaseUrl(t);
  const prefix = `kmp-test-${randomBytes(6).toString('hex')}:`;
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  t.after(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });
  // One mail server for both: what each instance e-mails arrives here (notifications, issue 36).
  const smtp = await startSmtpServer();
  t.after(() => smtp.close());
  const config = {
    DATABASE_URL: url,
    REDIS_URL,
    REDIS_PREFIX: prefix,
    LOG_LEVEL: 'error',
    RATE_LIMIT_ANONYMOUS_PER_MIN: '20',
    RATE_LIMIT_DEVELOPER_PER_MIN: '100000',
    SMTP_URL: smtp.url,
    EVENTS_POLL_MS: '200',
  };
  // Both at once on the empty schema: each runs the migrator; its advisory lock lets one migrate.
  const [a, b] = (await Promise.all([startServer(t, config), startServer(t, config)])) as [
    ServerProcess,
    ServerProcess,
  ];
  const db = createDb(url);
  t.after(() => db.close());

  await t.test('both started at once on the empty schema; the migrations ran once', async () => {
    assert.deepEqual(await pendingMigrations(db), []);
    const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(db.kysely);
    assert.deepEqual(rows.map((row) => row.name).sort(), [
      '0001-initial',
      '0002-access',
      '0003-writes',
      '0004-booking-prices',
      '0005-geo-index',
      '0006-search-cover',
      '0007-hardening',
      '0008-events',
      '0009-booking-expiry',
      '0010-shown-places',
      '0011-idempotency-headers',
      '0012-conversations',
      '0013-reviews',
      '0014-calendar-feeds',
      '0015-saved-searches',
      '0016-account-erasure',
      '0017-providers',
      '0018-notices',
      '0019-change-notify',
      '0020-search-changes',
      '0021-drafts',
      '0022-place-releases',
      '0023-completion-confirmations',
      '0024-sign-in',
      '0025-passkeys',
      '0026-oauth',
      '0027-payments',
      '0028-bank-accounts',
      '0029-booking-money',
      '0030-no-shows-and-stripe',
      '0031-operators-and-audit',
      '0032-report-snapshots',
      '0033-console-decisions',
      '0034-job-series',
      '0035-booking-rules',
      '0036-hourly-lending',
      '0037-series-excusals',
      '0038-notifications',
      '0039-chosen-language',
    ]);
  });

  await t.test('/readyz on both: the database and Redis answer', async () => {
    for (const server of [a, b]) {
      await until(
        'the search index is built',
        async () => (await send(server, '/readyz')).body.search_index === 'ready',
      );
      const ready = await send(server, '/readyz');
      assert.deepEqual(
        { status: ready.status, body: ready.body },
        { status: 200, body: { status: 'ready', search_index: 'ready', checks: { database: 'ok', redis: 'ok' } } },
      );
    }
  });

  await t.test('one anonymous budget: 40 requests alternating between them, exactly 20 served', async () => {
    const answers = [];
    for (let i = 0; i < 40; i++) {
      const { status, headers, body } = await send(i % 2 === 0 ? a : b, '/v1/jobs?limit=1');
      answers.push({
        status,
        remaining: Number(headers.get('x-ratelimit-remaining')),
        r: headers.get('ratelimit')?.match(/;r=(\d+);/)?.[1],
        error: body.error,
        retryAfter: headers.get('retry-after') !== null,
      });
    }
    const expected = Array.from({ length: 40 }, (_, i) =>
      i < 20
        ? { status: 200, remaining: 19 - i, r: String(19 - i), error: undefined, retryAfter: false }
        : { status: 429, remaining: 0, r: '0', error: 'rate_limit_exceeded', retryAfter: true },
    );
    assert.deepEqual(answers, expected);
    const counters = await redisKeys(redis, `${prefix}rl:anonymous:`);
    assert.deepEqual(Object.values(counters), ['40'], 'one counter in Redis, for both instances');
  });

  await t.test('a job created through one instance is found at once through the other', async () => {
    const { key } = await createKey(db, { email: 'poster@example.org' }, new Date());
    // B answers this search before the write and may reuse its answer: the write must end that.
    const search = '/v1/jobs?lat=48.9921&lng=8.4684&radius=2&sort=distance';
    const before = await send(b, search, { key });
    assert.deepEqual(before.body.data, []);
    assert.equal((await send(b, search, { key })).headers.get('etag'), before.headers.get('etag'), 'reused');
    const created = await send(a, '/v1/jobs', {
      key,
      body: {
        title: 'Hecke schneiden in Durlach',
        description: 'Thujahecke, 20 m lang. Werkzeug ist vorhanden.',
        category: 'GARDENING',
        price_eur: 60,
        location: { plz: '76227' },
      },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const one = await send(b, `/v1/jobs/${created.body.id}`, { key });
    assert.deepEqual({ status: one.status, body: one.body }, { status: 200, body: created.body });
    const near = await send(b, search, { key });
    assert.equal(near.status, 200);
    assert.deepEqual(
      near.body.data.map((job: { id: string }) => job.id),
      [created.body.id],
    );
  });

  await t.test('50 concurrent applications over both for a job allowing 3: exactly 3 succeed', async () => {
    const { jobId, applicants: helpers } = await jobsWithApplicants(db, 50);
    const outcomes = await Promise.all(
      helpers.map(async ({ key, helperId }, i) => {
        const answer = await send(i % 2 === 0 ? a : b, `/v1/jobs/${jobId}/applications`, {
          key,
          body: { helper_id: helperId },
        });
        return answer.status === 201 ? '201' : `${answer.status} ${answer.body.error}`;
      }),
    );
    const tally: Record<string, number> = {};
    for (const outcome of outcomes) tally[outcome] = (tally[outcome] ?? 0) + 1;
    assert.deepEqual(tally, { 201: 3, '409 limit_reached': 47 });
    const job = await db.kysely
      .selectFrom('jobs')
      .select('applications_count')
      .where('id', '=', jobId)
      .executeTakeFirst();
    const rows = await db.kysely.selectFrom('applications').select('id').where('job_id', '=', jobId).execute();
    assert.deepEqual(
      { applications_count: job?.applications_count, rows: rows.length },
      { applications_count: 3, rows: 3 },
    );
  });

  await t.test(
    'the three applications reach the job owner by e-mail once each, with two instances sending',
    async () => {
      // Both instances plan from the same events (a shared cursor, one record per account, channel and
      // event) and send what is due (each record claimed by one instance): three e-mails, not six.
      const emails = () =>
        db.kysely
          .selectFrom('notifications')
          .select(['id', 'status', 'event_type'])
          .where('channel', '=', 'email')
          .execute();
      await until(
        'the notifications sent',
        async () => {
          const rows = await emails();
          return rows.length >= 3 && rows.every((row) => row.status === 'sent') && rows;
        },
        30_000,
      );
      // Some further rounds of both sweeps: a second send would show now.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const rows = await emails();
      assert.deepEqual(
        rows.map((row) => `${row.event_type} ${row.status}`),
        ['application.created sent', 'application.created sent', 'application.created sent'],
      );
      assert.equal(smtp.received.length, 3, smtp.received.map((mail) => mail.headers.subject).join('\n'));
      assert.ok(smtp.received.every((mail) => /^Neue Bewerbung für/.test(mail.headers.subject ?? '')));
    },
  );

  for (const server of [a, b]) {
    assert.deepEqual(await stopServer(server), { code: 0, signal: null }, server.output());
    assert.equal(server.output(), '', 'nothing was logged at level error');
  }
});

test('instances started together on an empty database seed it once', { timeout: 300_000 }, async (t) => {
  const url = await freshDatabaseUrl(t);
  const config = { DATABASE_URL: url, SEED_ON_EMPTY: 'true', LOG_LEVEL: 'error' };
  // Seeded ids are deterministic: a second seeding would collide with the first and that server
  // would fail to start. The emptiness check runs under the dataset lock instead.
  const servers = await Promise.all([startServer(t, config), startServer(t, config)]);
  const db = createDb(url);
  t.after(() => db.close());
  // (Not the notifications sweep's cursor, which either server may have made meanwhile, issue 36.)
  const seeds = await db.kysely.selectFrom('meta').select('key').where('key', '!=', 'notifications_cursor').execute();
  assert.deepEqual(
    seeds.map((row) => row.key),
    ['seed'],
    'one seed recorded, no lock row left',
  );
  const open = await fetch(`${servers[1]?.baseUrl}/v1/jobs?limit=1`).then(
    (r) => r.json() as Promise<{ total: number }>,
  );
  assert.equal(open.total, 2000, 'the default dataset, once');
  for (const server of servers) assert.deepEqual(await stopServer(server), { code: 0, signal: null }, server.output());
});
