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
import { createDb } from '../../src/db/create-db.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { seedDatabase } from '../../src/seed/seed-database.js';
import { buildTestApp, createKey, NOW } from '../helpers/app.js';
import { freshDatabaseUrl } from '../helpers/database.js';
import { AT, insert, jobFixture } from '../helpers/fixtures.js';

const UNLIMITED = {
  RATE_LIMIT_ANONYMOUS_PER_MIN: '1000000',
  RATE_LIMIT_DEVELOPER_PER_MIN: '1000000',
  RATE_LIMIT_SANDBOX_PER_MIN: '1000000',
};

/** A deterministic stream of read URLs over every cached endpoint, with random filters. */
function randomReads(count: number, seed: number, ids: string[]): string[] {
  let state = seed;
  const next = () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
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
    await insert(other.kysely, { jobs: [jobFixture({ deadline: null })] });
    assert.equal(await total(), 3, 'a write through another connection');
  });

  test('If-None-Match matching a reusable answer: 304, no query run', async (t) => {
    const { db } = await buildTestApp(t);
    await insert(db.kysely, { jobs: [jobFixture({ deadline: null })] });
    const counter = new SelectCounter();
    const app = await buildApp(testConfig(UNLIMITED), {
      db: { ...db, kysely: db.kysely.withPlugin(counter) },
      now: () => NOW,
    });
    t.after(() => app.close());
    const first = await app.inject({ url: '/v1/jobs?category=gardening' });
    assert.equal(first.statusCode, 200);
    const etag = String(first.headers.etag);
    const ran = counter.selects;
    assert.ok(ran > 0, 'the first answer ran the search');

    const conditional = await app.inject({ url: '/v1/jobs?category=gardening', headers: { 'if-none-match': etag } });
    assert.equal(conditional.statusCode, 304);
    assert.equal(conditional.body, '');
    assert.equal(conditional.headers.etag, etag);
    assert.equal(counter.selects, ran, 'no query for the 304');
    assert.ok(conditional.headers.ratelimit, 'still counted against the budget');

    const stale = await app.inject({ url: '/v1/jobs?category=gardening', headers: { 'if-none-match': 'W/"other"' } });
    assert.equal(stale.statusCode, 200);
    assert.equal(stale.body, first.body);
  });
});
