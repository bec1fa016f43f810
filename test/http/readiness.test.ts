import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Socket } from 'node:net';
import { describe, test } from 'node:test';
import { buildApp } from '../../src/app.js';
import { testConfig } from '../../src/config.js';
import { createDb } from '../../src/db/create-db.js';
import { Readiness } from '../../src/http/readiness.js';
import { RedisRateLimitStore } from '../../src/rate-limit/redis-store.js';
import { SearchIndexes } from '../../src/search/search-indexes.js';
import { seedDatabase } from '../../src/seed/seed-database.js';
import { buildTestApp, getJson, NOW } from '../helpers/app.js';
import { openTestDb, TEST_ENGINE } from '../helpers/database.js';

const REDIS_URL = 'redis://127.0.0.1:6379';

/** The app on a database that cannot answer: a real connection attempt to a closed port, or a socket that never replies. */
async function appOn(databaseUrl: string) {
  const db = createDb(databaseUrl);
  const app = await buildApp(testConfig(), { db, now: () => NOW });
  const close = async () => {
    await app.close();
    await db.close();
  };
  return { app, close };
}

describe('GET /readyz', () => {
  test(`200 with each dependency checked (${TEST_ENGINE}, Redis)`, async (t) => {
    const store = await RedisRateLimitStore.connect(REDIS_URL, `test:${randomUUID()}:`);
    t.after(() => store.close());
    const { app } = await buildTestApp(t, NOW, {}, { rateLimitStore: store });
    const ready = await getJson(app, '/readyz');
    assert.equal(ready.status, 200);
    assert.deepEqual(ready.body, { status: 'ready', search_index: 'warming', checks: { database: 'ok', redis: 'ok' } });
    assert.equal(ready.headers['ratelimit-policy'], undefined, 'outside every budget');

    const memory = await buildTestApp(t);
    assert.deepEqual((await getJson(memory.app, '/readyz')).body, {
      status: 'ready',
      search_index: 'warming',
      checks: { database: 'ok' },
    });
  });

  test('search_index: warming (searches answered by SQL) until the index is built, then ready; off without one', async (t) => {
    const { db, dispose } = await openTestDb();
    t.after(dispose);
    await seedDatabase(db.kysely, { seed: 3, jobs: 200, listings: 50, helpers: 10, completedJobs: 10, anchor: NOW });
    const indexes = new SearchIndexes(db, { minGapMs: 3_600_000 });
    t.after(() => indexes.close());
    const app = await buildApp(testConfig(), { db, now: () => NOW, searchIndexes: indexes });
    t.after(() => app.close());
    const readyz = async () => {
      const answer = await getJson(app, '/readyz');
      assert.equal(answer.status, 200, 'a warming index withholds no traffic');
      return answer.body.search_index;
    };
    assert.equal(await readyz(), 'warming');
    const search = '/v1/jobs?lat=49.0069&lng=8.4037&radius=20&limit=5';
    const duringWarmUp = await getJson(app, search);
    assert.equal(duringWarmUp.status, 200);
    assert.equal(duringWarmUp.body.data.length, 5, 'the seeded jobs are found');
    assert.equal(indexes.counts.misses, 1, 'the search went to SQL');
    await indexes.refresh();
    assert.equal(await readyz(), 'ready');
    const indexed = await getJson(app, `${search}&offset=0`);
    assert.equal(indexes.counts.hits, 1, 'now the index answers');
    assert.deepEqual(indexed.body, duringWarmUp.body, 'the same page either way');

    const off = await buildTestApp(t, NOW, { SEARCH_INDEX: 'false' });
    assert.equal((await getJson(off.app, '/readyz')).body.search_index, 'off');
  });

  test('503 once the instance drains, while /healthz stays 200', async (t) => {
    const readiness = new Readiness();
    const { app } = await buildTestApp(t, NOW, {}, { readiness });
    assert.equal((await getJson(app, '/readyz')).status, 200);
    readiness.markDraining();
    const draining = await getJson(app, '/readyz');
    assert.equal(draining.status, 503);
    assert.equal(draining.body.error, 'service_unavailable');
    assert.equal(draining.body.message, 'This instance is shutting down.');
    assert.equal(draining.headers['retry-after'], '5');
    assert.equal((await getJson(app, '/healthz')).status, 200);
    assert.equal((await getJson(app, '/v1/jobs?limit=1')).status, 200, 'requests are still served while draining');
  });

  test('503 naming Redis when it is gone', async (t) => {
    const store = await RedisRateLimitStore.connect(REDIS_URL, `test:${randomUUID()}:`);
    const { app } = await buildTestApp(t, NOW, {}, { rateLimitStore: store });
    await store.close();
    const gone = await getJson(app, '/readyz');
    assert.equal(gone.status, 503);
    assert.equal(gone.body.message, 'Not ready: redis (unreachable) did not answer.');
  });

  test('503 naming the database when nothing listens at its address', async (t) => {
    const { app, close } = await appOn('postgres://postgres@127.0.0.1:1/none');
    t.after(close);
    const down = await getJson(app, '/readyz');
    assert.equal(down.status, 503);
    assert.deepEqual(
      { ...down.body },
      {
        error: 'service_unavailable',
        message: 'Not ready: database (unreachable) did not answer.',
        param: null,
        suggestion: 'Ask again in a few seconds.',
        alternatives: [],
        alternatives_count: 0,
      },
    );
    assert.equal((await getJson(app, '/healthz')).status, 200, 'liveness does not depend on the database');
    const search = await getJson(app, '/v1/jobs');
    assert.equal(search.status, 503, 'a request that needs the database is a 503, not a 500');
    assert.equal(search.body.error, 'service_unavailable');
    assert.equal(search.headers['retry-after'], '5');
  });

  test('503 with "timeout" when the database accepts the connection but never answers', async (t) => {
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => sockets.add(socket)).listen(0, '127.0.0.1');
    await once(silent, 'listening');
    t.after(() => {
      for (const socket of sockets) socket.destroy();
      silent.close();
    });
    const { port } = silent.address() as { port: number };
    const { app, close } = await appOn(`postgres://postgres@127.0.0.1:${port}/none`);
    t.after(close);
    const stuck = await getJson(app, '/readyz');
    assert.equal(stuck.status, 503);
    assert.equal(stuck.body.message, 'Not ready: database (timeout) did not answer.');
  });
});
