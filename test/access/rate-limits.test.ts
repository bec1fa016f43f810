import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import { RedisRateLimitStore } from '../../src/rate-limit/redis-store.js';
import { MemoryRateLimitStore } from '../../src/rate-limit/store.js';
import { buildTestApp, createKey, NOW } from '../helpers/app.js';

const LIMITS = {
  RATE_LIMIT_ANONYMOUS_PER_MIN: '20',
  RATE_LIMIT_DEVELOPER_PER_MIN: '100',
  RATE_LIMIT_SANDBOX_PER_MIN: '20',
};

/** A memory store on a clock the test moves. */
function steppedStore() {
  let now = 1_000_000;
  return { store: new MemoryRateLimitStore(() => now), advance: (ms: number) => (now += ms) };
}

describe('rate limits', () => {
  test('anonymous: 20 per minute, the 21st is a 429; the headers count down truthfully', async (t) => {
    const { store } = steppedStore();
    const { app } = await buildTestApp(t, NOW, LIMITS, { rateLimitStore: store });
    for (let i = 1; i <= 20; i++) {
      const response = await app.inject({ url: '/v1/categories' });
      assert.equal(response.statusCode, 200, `request ${i}`);
      assert.equal(response.headers['x-ratelimit-limit'], '20');
      assert.equal(response.headers['x-ratelimit-remaining'], String(20 - i));
      assert.equal(response.headers.ratelimit, `"anonymous";r=${20 - i};t=60`);
      assert.equal(response.headers['ratelimit-policy'], '"anonymous";q=20;w=60');
      assert.equal(response.headers['x-ratelimit-reset'], String(Math.ceil(NOW.getTime() / 1000) + 60));
    }
    const refused = await app.inject({ url: '/v1/categories' });
    assert.equal(refused.statusCode, 429);
    assert.equal(refused.headers['retry-after'], '60');
    assert.equal(refused.headers['x-ratelimit-remaining'], '0');
    assert.deepEqual(refused.json(), {
      error: 'rate_limit_exceeded',
      message: 'The anonymous tier allows 20 requests per minute; this one was over.',
      param: null,
      suggestion: 'Wait 60 s (Retry-After), or get a free developer key (100 requests per minute) at /developers.',
      alternatives: [],
      alternatives_count: 0,
    });
  });

  test('a client that waits as long as the headers say is never refused', async (t) => {
    const { store, advance } = steppedStore();
    const { app } = await buildTestApp(t, NOW, LIMITS, { rateLimitStore: store });
    let sent = 0;
    for (let round = 0; round < 3; round++) {
      let response = await app.inject({ url: '/v1/stats' });
      sent++;
      while (Number(response.headers['x-ratelimit-remaining']) > 0) {
        assert.equal(response.statusCode, 200);
        advance(700); // requests spread over the window
        response = await app.inject({ url: '/v1/stats' });
        sent++;
      }
      assert.equal(response.statusCode, 200, 'the last request of the budget is served');
      const wait = /t=(\d+)/.exec(String(response.headers.ratelimit))?.[1];
      advance(Number(wait) * 1000);
    }
    assert.equal(sent, 60);
  });

  test('developer keys get 100 per key; the anonymous budget of the same address is separate', async (t) => {
    const { app, db } = await buildTestApp(t, NOW, LIMITS);
    const { key } = await createKey(db);
    const headers = { 'x-api-key': key };
    const statuses: number[] = [];
    for (let i = 0; i < 101; i++) statuses.push((await app.inject({ url: '/v1/me', headers })).statusCode);
    assert.deepEqual(statuses.slice(0, 100), Array(100).fill(200));
    assert.equal(statuses[100], 429);
    const refused = await app.inject({ url: '/v1/me', headers });
    assert.match(refused.json().suggestion, /^Wait \d+ s \(Retry-After\) and keep to the budget/);
    const anonymous = await app.inject({ url: '/v1/me' });
    assert.equal(anonymous.statusCode, 200);
    assert.equal(anonymous.json().rate_limit.remaining, 19);
  });

  test('the sandbox budget is counted apart from the anonymous one', async (t) => {
    const { app } = await buildTestApp(t, NOW, LIMITS);
    for (let i = 0; i < 20; i++) await app.inject({ url: '/v1/jobs?limit=1' });
    assert.equal((await app.inject({ url: '/v1/jobs?limit=1' })).statusCode, 429);
    const sandbox = await app.inject({ url: '/v1/demo/stats' });
    assert.equal(sandbox.headers['ratelimit-policy'], '"sandbox";q=20;w=60');
    assert.equal(sandbox.headers['x-ratelimit-remaining'], '19');
  });

  test('the sandbox 429 says what helps: waiting, not a key (a key does not raise the sandbox budget)', async (t) => {
    const { app, db } = await buildTestApp(t, NOW, LIMITS);
    const { key } = await createKey(db);
    for (let i = 0; i < 20; i++) await app.inject({ url: '/v1/demo/stats', headers: { 'x-api-key': key } });
    const refused = await app.inject({ url: '/v1/demo/stats', headers: { 'x-api-key': key } });
    assert.equal(refused.statusCode, 429);
    assert.equal(refused.headers['ratelimit-policy'], '"sandbox";q=20;w=60');
    assert.match(
      refused.json().suggestion,
      /^Wait \d+ s \(Retry-After\): the sandbox allows 20 requests per minute per address, with or without a key\./,
    );
  });

  test('clients are told apart by address', async (t) => {
    const { app } = await buildTestApp(t, NOW, LIMITS);
    for (let i = 0; i < 21; i++) await app.inject({ url: '/v1/me', remoteAddress: '10.0.0.1' });
    assert.equal((await app.inject({ url: '/v1/me', remoteAddress: '10.0.0.1' })).statusCode, 429);
    assert.equal((await app.inject({ url: '/v1/me', remoteAddress: '10.0.0.2' })).statusCode, 200);
  });

  test('behind one trusted proxy, a client cannot mint budgets by writing X-Forwarded-For', async (t) => {
    const { app } = await buildTestApp(t, NOW, { ...LIMITS, TRUST_PROXY: '10.0.0.5' });
    const via = (forwarded: string) =>
      app.inject({ url: '/v1/me', remoteAddress: '10.0.0.5', headers: { 'x-forwarded-for': forwarded } });
    // The proxy appends the address it saw (9.9.9.9); whatever the client put before it is ignored.
    for (let i = 0; i < 20; i++) assert.equal((await via(`6.6.6.${i}, 9.9.9.9`)).statusCode, 200);
    assert.equal((await via('6.6.6.99, 9.9.9.9')).statusCode, 429);
    assert.equal((await via('6.6.6.1, 9.9.9.8')).statusCode, 200);
  });

  test('TRUST_PROXY names the proxy: a client reaching the instance directly is counted by its own address', async (t) => {
    const { app } = await buildTestApp(t, NOW, { ...LIMITS, TRUST_PROXY: '10.0.0.5,10.1.0.0/16' });
    const direct = (forwarded: string) =>
      app.inject({ url: '/v1/me', remoteAddress: '9.9.9.9', headers: { 'x-forwarded-for': forwarded } });
    for (let i = 0; i < 20; i++) assert.equal((await direct(`6.6.6.${i}`)).statusCode, 200);
    assert.equal((await direct('6.6.6.99')).statusCode, 429, 'X-Forwarded-For of a direct client buys nothing');
    // Through a proxy of the list (an address of the CIDR too), the address it appended counts.
    const viaProxy = await app.inject({
      url: '/v1/me',
      remoteAddress: '10.1.2.3',
      headers: { 'x-forwarded-for': '6.6.6.1, 8.8.8.8' },
    });
    assert.equal(viaProxy.statusCode, 200);
    const viaAgain = await app.inject({
      url: '/v1/me',
      remoteAddress: '10.0.0.5',
      headers: { 'x-forwarded-for': '9.9.9.9' },
    });
    assert.equal(
      viaAgain.statusCode,
      429,
      'the direct client’s address, reached through the proxy, is the same budget',
    );
  });

  test('without TRUST_PROXY, X-Forwarded-For is ignored', async (t) => {
    const { app } = await buildTestApp(t, NOW, LIMITS);
    for (let i = 0; i < 20; i++) {
      await app.inject({ url: '/v1/me', remoteAddress: '10.0.0.5', headers: { 'x-forwarded-for': `6.6.6.${i}` } });
    }
    const refused = await app.inject({
      url: '/v1/me',
      remoteAddress: '10.0.0.5',
      headers: { 'x-forwarded-for': '1.1.1.1' },
    });
    assert.equal(refused.statusCode, 429);
  });

  test('an IPv6 client is counted per /64, not per address', async (t) => {
    const { app } = await buildTestApp(t, NOW, LIMITS);
    for (let i = 1; i <= 20; i++) {
      assert.equal(
        (await app.inject({ url: '/v1/me', remoteAddress: `2001:db8:1:2::${i.toString(16)}` })).statusCode,
        200,
      );
    }
    assert.equal((await app.inject({ url: '/v1/me', remoteAddress: '2001:db8:1:2:ffff::1' })).statusCode, 429);
    assert.equal((await app.inject({ url: '/v1/me', remoteAddress: '2001:db8:1:3::1' })).statusCode, 200);
  });

  test('the sandbox is recognised by its route, however the path is encoded', async (t) => {
    const { app } = await buildTestApp(t, NOW, LIMITS);
    const encoded = await app.inject({ url: '/v1/%64emo/stats' });
    assert.equal(encoded.statusCode, 200);
    assert.equal(encoded.headers['ratelimit-policy'], '"sandbox";q=20;w=60');
  });

  test('the in-memory store stays bounded under a flood of new clients', async () => {
    let now = 0;
    const store = new MemoryRateLimitStore(() => now, 100);
    for (let i = 0; i < 1000; i++) await store.hit(`anonymous:10.0.${i >> 8}.${i & 255}`, 60_000);
    assert.ok(store.size <= 100, `size ${store.size}`);
    now = 60_001;
    await store.hit('anonymous:fresh', 60_000);
    for (let i = 0; i < 10_000; i++) await store.hit('anonymous:fresh', 60_000);
    assert.ok(store.size <= 2, `expired windows are swept: size ${store.size}`);
  });

  test('liveness and the docs page are outside every budget', async (t) => {
    const { app } = await buildTestApp(t, NOW, { ...LIMITS, RATE_LIMIT_ANONYMOUS_PER_MIN: '1' });
    for (let i = 0; i < 5; i++) {
      const health = await app.inject({ url: '/healthz' });
      assert.equal(health.statusCode, 200);
      assert.equal(health.headers['ratelimit-policy'], undefined);
    }
    assert.equal((await app.inject({ url: '/docs/json' })).statusCode, 200);
    assert.equal((await app.inject({ url: '/v1/me' })).statusCode, 200);
    assert.equal((await app.inject({ url: '/v1/me' })).statusCode, 429);
  });
});

describe('RedisRateLimitStore against a real Redis', () => {
  const url = 'redis://127.0.0.1:6379';

  test('counts concurrent hits exactly and expires the window', async (t) => {
    const prefix = `test:${randomUUID()}:`;
    const store = await RedisRateLimitStore.connect(url, prefix);
    t.after(() => store.close());
    const hits = await Promise.all(Array.from({ length: 50 }, () => store.hit('anonymous:1.2.3.4', 400)));
    assert.deepEqual(
      hits.map((h) => h.count).sort((a, b) => a - b),
      Array.from({ length: 50 }, (_, i) => i + 1),
    );
    assert.ok(hits.every((h) => h.resetMs > 0 && h.resetMs <= 400));
    await new Promise((resolve) => setTimeout(resolve, 450));
    assert.equal((await store.hit('anonymous:1.2.3.4', 400)).count, 1);
  });

  test('two apps on one Redis share one budget exactly', async (t) => {
    const prefix = `test:${randomUUID()}:`;
    const stores = [await RedisRateLimitStore.connect(url, prefix), await RedisRateLimitStore.connect(url, prefix)];
    t.after(() => Promise.all(stores.map((s) => s.close())));
    const apps = await Promise.all(
      stores.map(async (store) => (await buildTestApp(t, NOW, LIMITS, { rateLimitStore: store })).app),
    );
    const statuses = await Promise.all(
      Array.from({ length: 30 }, (_, i) => apps[i % 2]?.inject({ url: '/v1/me' }).then((r) => r.statusCode)),
    );
    assert.equal(statuses.filter((s) => s === 200).length, 20);
    assert.equal(statuses.filter((s) => s === 429).length, 10);
  });

  test('an unreachable Redis fails start-up instead of serving without limits', async () => {
    await assert.rejects(RedisRateLimitStore.connect('redis://127.0.0.1:1', 'x:'));
  });
});
