/**
 * The response cache (http/plugins/response-cache.ts) changes nothing but the speed: the same
 * random queries get the same answers from a cached and an uncached app on one database; every
 * write, through the API, straight into the database or through another connection, is in the next
 * read; a matching If-None-Match is a 304 that runs no query.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs } from 'kysely';
import { buildApp } from '../../src/app.js';
import { testConfig } from '../../src/config.js';
import { createDb, type Db } from '../../src/db/create-db.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { seedDatabase } from '../../src/seed/seed-database.js';
import { buildTestApp, createKey, NOW } from '../helpers/app.js';
import { freshDatabaseUrl } from '../helpers/database.js';
import { AT, insert, jobFixture } from '../helpers/fixtures.js';
import { seeded } from '../helpers/random.js';

const UNLIMITED = {
  RATE_LIMIT_ANONYMOUS_PER_MIN: '1000000',
  RATE_LIMIT_DEVELOPER_PER_MIN: '1000000',
  RATE_LIMIT_SANDBOX_PER_MIN: '1000000',
};

/** A deterministic stream of read URLs over every cached endpoint, with random filters. */
function randomReads(count: number, seed: number, ids: string[]): string[] {
  const { next, pick } = seeded(seed);
  const categories = ['gardening', 'cleaning', 'moving', 'tech_repair', 'petcare', 'events', 'other'];
  const lat = () => (48.9 + next() * 0.2).toFixed(4);
  const lng = () => (8.3 + next() * 0.3).toFixed(4);
  const makers = [
    () =>
      `/v1/jobs?lat=${lat()}&lng=${lng()}&radius=${1 + Math.floor(next() * 50)}&sort=${pick(['newest', 'price_asc', 'distance'])}`,
    () =>
      `/v1/jobs?category=${pick(categories)}&budget_max=${20 + Math.floor(next() * 200)}&limit=${1 + Math.floor(next() * 50)}`,
    () => `/v1/listings?lat=${lat()}&lng=${lng()}&radius=${1 + Math.floor(next() * 50)}&category=${pick(categories)}`,
    () => `/v1/jobs/${pick(ids)}`,
    () => `/v1/categories?lang=${pick(['de', 'en'])}`,
    () => `/v1/estimate?category=${pick(categories)}&duration_hours=${1 + Math.floor(next() * 8)}`,
    () => `/v1/helpers/availability?category=${pick(categories)}&lat=${lat()}&lng=${lng()}&radius=20`,
    () => '/v1/stats',
    () => `/v1/demo/jobs?category=${pick(categories)}`,
  ];
  return Array.from({ length: count }, () => pick(makers)());
}

/**
 * Runs `steps` until the data version stayed the same throughout (background work may write), at
 * most ten times; the last run counts.
 */
async function underOneVersion<T>(db: Db, steps: (attempt: number) => Promise<T>): Promise<T> {
  // Until PostgreSQL's change listener has connected, the version is the cluster's snapshot, which
  // every parallel test file's writes move: a loaded machine can take longer to connect than five
  // attempts last (a CI run failed so). Listening, only this schema's writes move it.
  for (let waited = 0; db.versionSource() === 'query'; waited++) {
    assert.ok(waited < 3_000, 'the change listener connects');
    await db.version(); // starts the listener if it has not started
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  let result: T | undefined;
  for (let attempt = 0; attempt < 10; attempt++) {
    const before = await db.version();
    result = await steps(attempt);
    if ((await db.version()) === before) break;
  }
  return result as T;
}

/**
 * The background sweeps (background.ts) read through the app's Kysely instance every EVENTS_POLL_MS
 * (500 ms by default) and would count as the requests' queries whenever a tick falls into a
 * measured stretch (a CI run on a loaded machine failed so): the apps that count queries tick once
 * a minute, longer than these tests take.
 */
const QUIET = { ...UNLIMITED, EVENTS_POLL_MS: '60000' };

/** Counts the SELECTs run through a Kysely instance: an observer on the real database. */
class SelectCounter implements KyselyPlugin {
  selects = 0;
  transformQuery({ node }: PluginTransformQueryArgs) {
    if (node.kind === 'SelectQueryNode' || node.kind === 'RawNode') this.selects += 1;
    return node;
  }
  async transformResult({ result }: PluginTransformResultArgs) {
    return result;
  }
}

describe('the response cache', () => {
  test('cached and uncached apps give the same answers to the same random reads', async (t) => {
    const { app: cached, db } = await buildTestApp(t, NOW, UNLIMITED);
    const options = { seed: 7, jobs: 300, listings: 150, helpers: 80, completedJobs: 200, anchor: NOW };
    await seedDatabase(db.kysely, options);
    const uncached = await buildApp(testConfig({ ...UNLIMITED, RESPONSE_CACHE_MS: '0' }), { db, now: () => NOW });
    t.after(() => uncached.close());
    const ids = (await db.kysely.selectFrom('jobs').select('id').limit(30).execute()).map((r) => r.id);
    let hits = 0;
    for (const url of randomReads(400, 11, ids)) {
      const first = await cached.inject({ url });
      const again = await cached.inject({ url });
      const plain = await uncached.inject({ url });
      assert.equal(first.statusCode, plain.statusCode, url);
      assert.equal(again.body, first.body, `${url}: the reused answer is the answer`);
      assert.equal(first.body, plain.body, `${url}: cached and uncached agree`);
      if (first.statusCode === 200) {
        assert.match(String(first.headers.etag), /^W\/"[\w-]{22}"$/);
        assert.equal(again.headers.etag, first.headers.etag);
        hits += 1;
      }
    }
    assert.ok(hits > 300, `most reads answered 200 (${hits})`);
  });

  test('an early answer (the fast path) is byte for byte the computed one: status, body, every header but Date and request id', async (t) => {
    const METRICS_TOKEN = 'early-answer-test-metrics-token-0123456789';
    const { app, db } = await buildTestApp(t, NOW, {
      ...QUIET,
      METRICS_TOKEN,
      CORS_ORIGINS: 'https://app.example.org',
      RATE_LIMIT_DEVELOPER_PER_MIN: '1000',
    });
    await seedDatabase(db.kysely, { seed: 5, jobs: 120, listings: 60, helpers: 30, completedJobs: 60, anchor: NOW });
    const early = async () => {
      const response = await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      const line = response.body.split('\n').find((l) => l.startsWith('response_cache_early_answers_total '));
      return Number(line?.split(' ')[1] ?? Number.NaN);
    };
    const ids = (await db.kysely.selectFrom('jobs').select('id').where('status', '=', 'open').limit(3).execute()).map(
      (r) => r.id,
    );
    const urls = [
      `/v1/jobs/${ids[0]}`,
      '/v1/jobs?category=gardening&limit=30',
      '/v1/listings?lat=49.0069&lng=8.4037&radius=20',
      '/v1/categories',
      '/v1/stats',
      '/v1/estimate?category=cleaning&duration_hours=3',
      '/v1/demo/jobs?limit=5',
    ];
    const variants: Record<string, Record<string, string>> = {
      plain: {},
      gzip: { 'accept-encoding': 'gzip' },
      brotli: { 'accept-encoding': 'br, gzip' },
      'a CORS origin that may read': { origin: 'https://app.example.org', 'accept-encoding': 'gzip' },
      'an origin that may not': { origin: 'https://elsewhere.example.org' },
    };
    const comparable = (headers: Record<string, unknown>) => {
      const { date: _date, 'x-request-id': _id, ...rest } = headers;
      return rest;
    };
    let compared = 0;
    let made = 0;
    await underOneVersion(db, async () => {}); // PostgreSQL: its change listener is connected
    /**
     * `count` new keys, one for each request, so the budget headers say the same (each key's first
     * request). Issuing them is a write, which makes every kept answer stale: they are made before
     * the requests, and the data version is awaited until it has moved and stays (PostgreSQL tells
     * of writes by LISTEN/NOTIFY, a moment later).
     */
    const freshKeys = async (count: number) => {
      const was = await db.version();
      const keys: string[] = [];
      for (let i = 0; i < count; i++) keys.push((await createKey(db, { email: `early-${made++}@example.org` })).key);
      let [last, since] = [await db.version(), Date.now()];
      for (let waited = 0; last === was || Date.now() - since < 50; waited++) {
        assert.ok(waited < 1_000, 'the writes move the data version');
        await new Promise((resolve) => setTimeout(resolve, 5));
        const now = await db.version();
        if (now !== last) [last, since] = [now, Date.now()];
      }
      return keys;
    };
    for (const url of urls) {
      for (const [variant, headers] of Object.entries(variants)) {
        let seen: { response: Awaited<ReturnType<typeof app.inject>>; early: boolean }[] = [];
        for (let attempt = 0; attempt < 10; attempt++) {
          const keys = await freshKeys(3);
          const version = await db.version();
          const answers: { response: Awaited<ReturnType<typeof app.inject>>; early: boolean }[] = [];
          // The first is computed; a body is kept from the second time a URL is asked for (or the
          // first, when a stale answer of it is known), and then answered from the earliest hook.
          for (let i = 0; i < 3; i++) {
            const key = keys.pop();
            assert.ok(key, 'enough keys');
            const before = await early();
            // And an address of its own: the sandbox counts per address.
            const n = made * 4 + i;
            const remoteAddress = `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
            const response = await app.inject({ url, remoteAddress, headers: { ...headers, 'x-api-key': key } });
            answers.push({ response, early: (await early()) > before });
          }
          seen = answers;
          // Background work may write meanwhile (PostgreSQL: other databases' too): then again.
          if ((await db.version()) === version) break;
        }
        const where = `${url} (${variant})`;
        const computed = seen.filter((a) => !a.early).map((a) => a.response);
        const fast = seen.filter((a) => a.early).map((a) => a.response);
        assert.equal(seen[0]?.early, false, `${where}: the first answer is computed`);
        assert.equal(seen[2]?.early, true, `${where}: the third answer took the fast path`);
        for (const slow of computed) {
          assert.equal(slow.statusCode, 200, `${where}: ${slow.body}`);
          for (const quick of fast) {
            assert.equal(quick.statusCode, slow.statusCode, where);
            assert.match(String(quick.headers['x-request-id']), /^[\w-]{8,}$/, `${where}: a request id of its own`);
            assert.ok(quick.headers.date, `${where}: a Date`);
            assert.deepEqual(quick.rawPayload, slow.rawPayload, `${where}: the same bytes`);
            assert.deepEqual(comparable(quick.headers), comparable(slow.headers), `${where}: the same headers`);
            assert.deepEqual(
              Object.keys(comparable(quick.headers)),
              Object.keys(comparable(slow.headers)),
              `${where}: in the same order`,
            );
          }
        }
        compared += 1;
      }
    }
    assert.equal(compared, urls.length * Object.keys(variants).length);

    // Metrics and the log line come from onResponse, which an early answer still runs.
    const counted = async () => {
      const response = await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      const line = response.body
        .split('\n')
        .find((l) => l.startsWith('http_requests_total{method="GET",route="/v1/jobs/:id",status="200"}'));
      return Number(line?.split(' ')[1] ?? 0);
    };
    const keys = await freshKeys(3);
    for (let i = 0; i < 2; i++)
      await app.inject({ url: urls[0] as string, headers: { 'x-api-key': keys.pop() as string } });
    const [requestsBefore, earlyBefore] = [await counted(), await early()];
    assert.equal(
      (await app.inject({ url: urls[0] as string, headers: { 'x-api-key': keys.pop() as string } })).statusCode,
      200,
    );
    assert.equal(await early(), earlyBefore + 1);
    assert.equal(await counted(), requestsBefore + 1, 'the early answer is counted');

    // What the fast path leaves to the others: a revalidation (304), a HEAD.
    const url = urls[0] as string;
    const { key } = await createKey(db, { email: 'early-last@example.org' });
    const tagged = await app.inject({ url, headers: { 'x-api-key': key } });
    const before = await early();
    const revalidated = await app.inject({
      url,
      headers: { 'x-api-key': key, 'if-none-match': String(tagged.headers.etag) },
    });
    assert.equal(revalidated.statusCode, 304);
    assert.equal((await app.inject({ method: 'HEAD', url, headers: { 'x-api-key': key } })).statusCode, 200);
    assert.equal(await early(), before, 'none of them took the fast path');
  });

  test('a write is in the next read: through the API, straight into the database, from another connection', async (t) => {
    const url = await freshDatabaseUrl(t, { file: true });
    const db = createDb(url);
    t.after(() => db.close());
    await migrateToLatest(db);
    const app = await buildApp(testConfig(UNLIMITED), { db, now: () => NOW });
    t.after(() => app.close());
    const total = async () => (await app.inject({ url: '/v1/jobs' })).json().total as number;
    assert.equal(await total(), 0);
    assert.equal(await total(), 0, 'now cached');

    const { key } = await createKey(db);
    const posted = await app.inject({
      method: 'POST',
      url: '/v1/jobs',
      headers: { 'x-api-key': key },
      payload: {
        title: 'Hecke schneiden',
        description: 'Zehn Meter Hecke.',
        category: 'GARDENING',
        price_eur: 50,
        location: { plz: '76227' },
      },
    });
    assert.equal(posted.statusCode, 201, posted.body);
    assert.equal(await total(), 1, 'a write through the API');

    await insert(db.kysely, { jobs: [jobFixture({ deadline: null, ...AT.durlach })] });
    assert.equal(await total(), 2, 'a write straight into the database');

    const other = createDb(url); // another connection (pool) to the same database, as another process has
    t.after(() => other.close());
    const before = await db.version();
    await insert(other.kysely, { jobs: [jobFixture({ deadline: null })] });
    // The data version is read once per turn of the event loop (db/create-db.ts), and PostgreSQL's
    // notification of another connection's commit arrives a moment after the commit: the first
    // read after this instance learned of the write must show it. inject() waits for neither.
    for (let turns = 0; (await db.version()) === before; turns++) {
      assert.ok(turns < 5_000, 'the data version moves after another connection wrote');
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    assert.equal(await total(), 3, 'a write through another connection');
  });

  test('If-None-Match matching a reusable answer: 304, no query run', async (t) => {
    const { db } = await buildTestApp(t);
    await insert(db.kysely, { jobs: [jobFixture({ deadline: null })] });
    const counter = new SelectCounter();
    // No search index: its background build would count queries too.
    const app = await buildApp(testConfig({ ...QUIET, SEARCH_INDEX: 'false' }), {
      db: { ...db, kysely: db.kysely.withPlugin(counter) },
      now: () => NOW,
    });
    t.after(() => app.close());
    const seen = await underOneVersion(db, async (attempt) => {
      const url = `/v1/jobs?category=gardening&limit=${20 - attempt}`;
      const start = counter.selects;
      const first = await app.inject({ url });
      const ran = counter.selects;
      const etag = String(first.headers.etag);
      const conditional = await app.inject({ url, headers: { 'if-none-match': etag } });
      const afterConditional = counter.selects;
      // Answered once, only its tag is kept; asked again, it is computed once more and kept.
      const second = await app.inject({ url, headers: { 'if-none-match': 'W/"other"' } });
      const afterSecond = counter.selects;
      const third = await app.inject({ url });
      return {
        start,
        first,
        ran,
        etag,
        conditional,
        afterConditional,
        second,
        afterSecond,
        third,
        end: counter.selects,
      };
    });
    assert.equal(seen.first.statusCode, 200);
    assert.ok(seen.ran > seen.start, 'the first answer ran the search');
    assert.equal(seen.conditional.statusCode, 304);
    assert.equal(seen.conditional.body, '');
    assert.equal(seen.conditional.headers.etag, seen.etag);
    assert.equal(seen.afterConditional, seen.ran, 'no query for the 304');
    assert.ok(seen.conditional.headers.ratelimit, 'still counted against the budget');
    assert.equal(seen.second.statusCode, 200);
    assert.equal(seen.second.body, seen.first.body);
    assert.ok(
      seen.afterSecond > seen.afterConditional,
      'the second ask computed the answer (one-off answers keep no body)',
    );
    assert.equal(seen.third.body, seen.first.body);
    assert.equal(seen.end, seen.afterSecond, 'the third ask is served from the cache');
  });

  test('the same read asked many times at once runs its queries once', async (t) => {
    const { db } = await buildTestApp(t);
    await seedDatabase(db.kysely, { seed: 3, jobs: 200, listings: 100, helpers: 30, completedJobs: 100, anchor: NOW });
    const counter = new SelectCounter();
    const app = await buildApp(testConfig({ ...QUIET, SEARCH_INDEX: 'false', RESPONSE_CACHE_MS: '60000' }), {
      db: { ...db, kysely: db.kysely.withPlugin(counter) },
      now: () => NOW,
    });
    t.after(() => app.close());
    const once = await app.inject({ url: '/v1/stats?x=1' });
    assert.equal(once.statusCode, 400, 'an unknown parameter is refused before any cache');
    const single = counter.selects;
    await app.inject({ url: '/v1/categories?lang=en' });
    const perAnswer = counter.selects - single;
    assert.ok(perAnswer > 3, `one /v1/categories answer runs several queries (${perAnswer})`);

    const burst = await underOneVersion(db, async (attempt) => {
      const before = counter.selects;
      const url = `/v1/categories?lang=${attempt % 2 === 0 ? 'de' : 'en'}&_=${attempt}`;
      const responses = await Promise.all(
        Array.from({ length: 20 }, () => app.inject({ url: url.replace(/&_=\d+$/, '') })),
      );
      return { responses, ran: counter.selects - before };
    });
    assert.deepEqual(new Set(burst.responses.map((r) => r.statusCode)), new Set([200]));
    assert.equal(new Set(burst.responses.map((r) => r.body)).size, 1, 'all got the same answer');
    assert.equal(burst.ran, perAnswer, 'twenty requests at once, one answer computed');

    // An answer that is not a 200 is not reused: the waiting requests go on to their own.
    const missing = await Promise.all(Array.from({ length: 5 }, () => app.inject({ url: '/v1/jobs/job_nope' })));
    assert.deepEqual(
      missing.map((r) => r.statusCode),
      [404, 404, 404, 404, 404],
    );
  });
});
