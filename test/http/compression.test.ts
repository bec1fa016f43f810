/**
 * Compression of the API's JSON answers (http/compression.ts, plugins/compression.ts and the
 * response cache): brotli or gzip as Accept-Encoding prefers, from 1 KiB, every JSON answer with
 * Vary: Accept-Encoding, a tag per coding, and the compressed bytes of a reused answer kept (the
 * metrics count each compression). Decoded, every coding is byte for byte the answer as it is.
 * In-process for the many random reads; a real server process for the transport (Content-Length,
 * HEAD, the SSE stream, /mcp), which app.inject would not show.
 */
import assert from 'node:assert/strict';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { describe, type TestContext, test } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { buildApp } from '../../src/app.js';
import { testConfig } from '../../src/config.js';
import { createDb, type Db } from '../../src/db/create-db.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import type { Api } from '../../src/http/route-deps.js';
import { seedDatabase } from '../../src/seed/seed-database.js';
import { buildTestApp, NOW } from '../helpers/app.js';
import { freshDatabaseUrl } from '../helpers/database.js';
import { seeded } from '../helpers/random.js';
import { startServer } from '../helpers/server-process.js';

const UNLIMITED = {
  RATE_LIMIT_ANONYMOUS_PER_MIN: '1000000',
  RATE_LIMIT_DEVELOPER_PER_MIN: '1000000',
  RATE_LIMIT_SANDBOX_PER_MIN: '1000000',
};
const METRICS_TOKEN = 'compression-test-metrics-token-0123456789';
const SEED = { seed: 7, jobs: 300, listings: 150, helpers: 80, completedJobs: 200, anchor: NOW };
const PAGE = '/v1/jobs?limit=20';
const FROM_BYTES = 1024;

type Coding = 'identity' | 'gzip' | 'br';
const CODINGS: readonly Coding[] = ['identity', 'gzip', 'br'];

const decode = (coding: string | undefined, raw: Buffer): Buffer =>
  coding === 'br' ? brotliDecompressSync(raw) : coding === 'gzip' ? gunzipSync(raw) : raw;

const varies = (headers: { vary?: unknown }) => /(^|,)\s*accept-encoding\s*(,|$)/i.test(String(headers.vary ?? ''));

/** The tag of a coding: the identity's with the coding appended. */
const tagIn = (etag: string, coding: string | undefined) =>
  coding === undefined ? etag : `${etag.slice(0, -1)}-${coding}"`;

/** Ids of the seeded rows the reads ask for. */
async function seededIds(db: Db) {
  const ids = async (table: 'jobs' | 'listings' | 'helpers') =>
    (await db.kysely.selectFrom(table).select('id').limit(20).execute()).map((r) => r.id);
  return { jobs: await ids('jobs'), listings: await ids('listings'), helpers: await ids('helpers') };
}

/** Random GETs over the read endpoints, their sandbox twins and some errors (small and large). */
function randomReads(count: number, seed: number, ids: Awaited<ReturnType<typeof seededIds>>): string[] {
  const { next, pick } = seeded(seed);
  const categories = ['gardening', 'cleaning', 'moving', 'tech_repair', 'petcare', 'events', 'other'];
  const lat = () => (48.9 + next() * 0.2).toFixed(4);
  const lng = () => (8.3 + next() * 0.3).toFixed(4);
  const int = (from: number, to: number) => from + Math.floor(next() * (to - from + 1));
  const makers = [
    () => `/v1/jobs?lat=${lat()}&lng=${lng()}&radius=${int(1, 50)}&sort=${pick(['newest', 'price_asc', 'distance'])}`,
    () => `/v1/jobs?category=${pick(categories)}&budget_max=${int(20, 220)}&limit=${int(1, 50)}`,
    () => `/v1/jobs?limit=${int(1, 50)}&offset=${int(0, 100)}`,
    () => `/v1/listings?lat=${lat()}&lng=${lng()}&radius=${int(1, 50)}&category=${pick(categories)}`,
    () => `/v1/listings?limit=${int(1, 50)}`,
    () => `/v1/jobs/${pick(ids.jobs)}`,
    () => `/v1/listings/${pick(ids.listings)}`,
    () => `/v1/helpers/${pick(ids.helpers)}`,
    () => `/v1/categories?lang=${pick(['de', 'en'])}`,
    () => `/v1/estimate?category=${pick(categories)}&duration_hours=${int(1, 8)}`,
    () => `/v1/helpers/availability?category=${pick(categories)}&lat=${lat()}&lng=${lng()}&radius=${int(1, 50)}`,
    () => '/v1/stats',
    () => `/v1/demo/jobs?category=${pick(categories)}&limit=${int(1, 50)}`,
    () => `/v1/demo/listings?limit=${int(1, 50)}`,
    () => '/v1/demo/stats',
    () => `/v1/jobs?radius=${pick(['abc', '-1', '5000'])}`,
    () => `/v1/jobs/job_${int(1, 99)}nope`,
    () => `/v1/no-such-thing/${int(1, 9)}`,
  ];
  return Array.from({ length: count }, () => pick(makers)());
}

/** GET in-process with an Accept-Encoding (none for identity, or `identity` itself, alternately). */
function get(app: Api, url: string, coding: Coding, headers: Record<string, string> = {}) {
  const accept = coding === 'identity' ? (url.length % 2 === 0 ? { 'accept-encoding': 'identity' } : {}) : null;
  return app.inject({ url, headers: { ...(accept ?? { 'accept-encoding': coding }), ...headers } });
}

/** Reads a metric of /metrics (0 when the series is not there yet). */
async function metric(app: Api, series: string): Promise<number> {
  const response = await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  assert.equal(response.statusCode, 200);
  const line = response.body.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}
const compressions = (app: Api, coding: 'br' | 'gzip') =>
  metric(app, `http_response_compressions_total{encoding="${coding}"}`);

/** Runs `steps` until the data version stayed the same throughout (PostgreSQL: other databases move it). */
async function underOneVersion<T>(db: Db, steps: (attempt: number) => Promise<T>): Promise<T> {
  let result: T | undefined;
  for (let attempt = 0; attempt < 8; attempt++) {
    const before = await db.version();
    result = await steps(attempt);
    if ((await db.version()) === before) break;
  }
  return result as T;
}

describe('compression: the same answer in every coding', () => {
  test('240 random reads, each in identity, gzip and br, first asked and reused: decoded byte for byte the same', async (t) => {
    const { app, db } = await buildTestApp(t, NOW, UNLIMITED);
    await seedDatabase(db.kysely, SEED);
    const uncached = await buildApp(testConfig({ ...UNLIMITED, RESPONSE_CACHE_MS: '0' }), { db, now: () => NOW });
    t.after(() => uncached.close());
    const urls = randomReads(240, 16, await seededIds(db));
    const seen = { compressed: 0, small: 0, errors: 0, compressedErrors: 0 };
    for (const url of urls) {
      // Round 0 computes the answer (only its tag is kept), round 1 computes it again and keeps it,
      // round 2 reuses it; the uncached app compresses every answer anew.
      for (const [round, server] of [
        [0, app],
        [1, app],
        [2, app],
        [3, uncached],
      ] as const) {
        const plain = await get(server, url, 'identity');
        assert.equal(plain.headers['content-encoding'], undefined, url);
        assert.ok(varies(plain.headers), `${url}: Vary on the answer as it is`);
        for (const coding of CODINGS) {
          const what = `${url} round ${round} ${coding}`;
          const answer = await get(server, url, coding);
          assert.equal(answer.statusCode, plain.statusCode, what);
          assert.ok(varies(answer.headers), `${what}: Vary`);
          const expected = coding !== 'identity' && plain.rawPayload.length >= FROM_BYTES ? coding : undefined;
          assert.equal(answer.headers['content-encoding'], expected, what);
          assert.equal(Number(answer.headers['content-length']), answer.rawPayload.length, `${what}: Content-Length`);
          const decoded = decode(expected, answer.rawPayload);
          assert.ok(decoded.equals(plain.rawPayload), `${what}: decoded, the same bytes`);
          JSON.parse(decoded.toString('utf8')); // decoded once it is JSON: never encoded twice
          if (plain.headers.etag !== undefined) {
            assert.equal(answer.headers.etag, tagIn(String(plain.headers.etag), expected), `${what}: ETag`);
          }
          if (round === 0 && coding === 'br') {
            if (expected) seen.compressed += 1;
            else seen.small += 1;
            if (plain.statusCode >= 400) seen.errors += 1;
            if (plain.statusCode >= 400 && expected) seen.compressedErrors += 1;
          }
        }
      }
    }
    t.diagnostic(JSON.stringify(seen));
    assert.ok(seen.compressed > 120, `most reads are large enough to compress (${seen.compressed})`);
    assert.ok(seen.small > 20, `some are not (${seen.small})`);
    assert.ok(
      seen.compressedErrors > 5 && seen.errors > seen.compressedErrors,
      'errors: the large compressed, the small not',
    );
  });

  test('Accept-Encoding: q-values, *, identity and codings we do not have', async (t) => {
    const { app, db } = await buildTestApp(t, NOW, UNLIMITED);
    await seedDatabase(db.kysely, SEED);
    const plain = await app.inject({ url: PAGE });
    const cases: [string | undefined, string | undefined][] = [
      [undefined, undefined],
      ['', undefined],
      ['identity', undefined],
      ['gzip, deflate, br', 'br'],
      ['gzip, deflate', 'gzip'],
      ['GZIP', 'gzip'],
      ['br;q=0.5, gzip', 'gzip'],
      ['gzip;q=0.2, br;q=0.8', 'br'],
      ['br;q=1.0, gzip;q=0.9, *;q=0.1', 'br'],
      ['*', 'br'],
      ['br;q=0, *', 'gzip'],
      ['gzip;q=0, *', 'br'],
      ['br;q=0, gzip;q=0', undefined],
      ['*;q=0', undefined],
      ['identity;q=1, gzip;q=0.5', undefined],
      ['deflate, zstd', undefined],
      ['zstd, br;q=0.9', 'br'],
    ];
    for (const [header, expected] of cases) {
      const answer = await app.inject({
        url: PAGE,
        headers: header === undefined ? {} : { 'accept-encoding': header },
      });
      assert.equal(answer.statusCode, 200, String(header));
      assert.equal(answer.headers['content-encoding'], expected, `Accept-Encoding: ${header}`);
      assert.ok(varies(answer.headers), String(header));
      assert.ok(decode(expected, answer.rawPayload).equals(plain.rawPayload), String(header));
    }
  });

  test('not compressed: small answers, HEAD, text; Vary kept with a list of CORS origins', async (t) => {
    const origin = 'https://partner.example';
    const { app, db } = await buildTestApp(t, NOW, { ...UNLIMITED, METRICS_TOKEN, CORS_ORIGINS: origin });
    await seedDatabase(db.kysely, SEED);
    const br = { 'accept-encoding': 'br, gzip' };
    const small = await app.inject({ url: '/v1/estimate?category=gardening&duration_hours=2', headers: br });
    assert.equal(small.statusCode, 200);
    assert.ok(small.rawPayload.length < FROM_BYTES);
    assert.equal(small.headers['content-encoding'], undefined);
    assert.ok(varies(small.headers), 'a small JSON answer still says it varies');
    const smallError = await app.inject({ url: '/v1/jobs?radius=abc', headers: br });
    assert.equal(smallError.statusCode, 400);
    assert.equal(smallError.headers['content-encoding'], undefined);
    const largeError = await app.inject({ url: '/v1/nothing-here', headers: br });
    assert.equal(largeError.statusCode, 404);
    assert.equal(largeError.headers['content-encoding'], 'br');
    assert.equal(JSON.parse(decode('br', largeError.rawPayload).toString()).error, 'route_not_found');

    const plain = await app.inject({ method: 'GET', url: PAGE });
    const head = await app.inject({ method: 'HEAD', url: PAGE, headers: br });
    assert.equal(head.statusCode, 200);
    assert.equal(head.headers['content-encoding'], undefined, 'HEAD describes the answer as it is');
    assert.equal(head.headers['content-length'], String(plain.rawPayload.length));
    assert.equal(head.rawPayload.length, 0);
    assert.ok(varies(head.headers));

    const metrics = await app.inject({ url: '/metrics', headers: { ...br, authorization: `Bearer ${METRICS_TOKEN}` } });
    assert.equal(metrics.statusCode, 200);
    assert.ok(metrics.rawPayload.length > FROM_BYTES);
    assert.equal(metrics.headers['content-encoding'], undefined, 'text is not the API’s JSON');

    const cors = await app.inject({ url: PAGE, headers: { ...br, origin } });
    assert.equal(cors.headers['content-encoding'], 'br');
    assert.deepEqual(
      String(cors.headers.vary)
        .split(',')
        .map((v) => v.trim().toLowerCase()),
      ['origin', 'accept-encoding'],
    );
  });
});

describe('compression: ETag and 304 per coding', () => {
  test('each coding has its own tag; If-None-Match gives a 304 for the representation it names', async (t) => {
    let clock = NOW.getTime();
    const { app, db } = await buildTestApp(t, () => new Date(clock), UNLIMITED);
    await seedDatabase(db.kysely, SEED);
    const ask = (url: string, accept: string | undefined, ifNoneMatch?: string) =>
      app.inject({
        url,
        headers: {
          ...(accept === undefined ? {} : { 'accept-encoding': accept }),
          ...(ifNoneMatch === undefined ? {} : { 'if-none-match': ifNoneMatch }),
        },
      });
    await underOneVersion(db, async (attempt) => {
      const url = `${PAGE}&category=gardening&offset=${attempt}`;
      const plain = await ask(url, undefined);
      const identity = String(plain.headers.etag);
      assert.match(identity, /^W\/"[\w-]{22}"$/);
      const gzipTag = tagIn(identity, 'gzip');
      const brTag = tagIn(identity, 'br');
      // Only the tag is kept so far: the 304 comes before any query, for the coding it names.
      const gzip304 = await ask(url, 'gzip', gzipTag);
      assert.equal(gzip304.statusCode, 304);
      assert.equal(gzip304.headers.etag, gzipTag);
      assert.equal(gzip304.headers['content-encoding'], undefined);
      assert.equal(gzip304.rawPayload.length, 0);
      assert.ok(varies(gzip304.headers));
      // A tag of another coding is another representation: the answer in the coding asked for.
      const br = await ask(url, 'br', gzipTag);
      assert.equal(br.statusCode, 200);
      assert.equal(br.headers.etag, brTag);
      assert.equal(br.headers['content-encoding'], 'br');
      const identityToGzip = await ask(url, 'gzip', identity);
      assert.equal(identityToGzip.statusCode, 200);
      assert.equal(identityToGzip.headers['content-encoding'], 'gzip');
      // Now the body is kept: the same per coding.
      assert.equal((await ask(url, 'br', brTag)).statusCode, 304);
      assert.equal((await ask(url, 'br', `W/"other", ${brTag}`)).statusCode, 304);
      assert.equal((await ask(url, 'gzip, br;q=0.5', gzipTag)).statusCode, 304);
      assert.equal((await ask(url, 'identity', identity)).statusCode, 304);
      assert.equal((await ask(url, 'br', identity)).statusCode, 200);
      assert.equal((await ask(url, 'br', '*')).statusCode, 304);
      // A computed answer (the kept one has expired) matches per coding as well.
      clock += 60_000;
      const computed = await ask(url, 'br', brTag);
      assert.equal(computed.statusCode, 304);
      assert.equal(computed.headers.etag, brTag);
      assert.ok(varies(computed.headers));
      clock += 60_000;
      const other = await ask(url, 'gzip', brTag);
      assert.equal(other.statusCode, 200);
      assert.equal(other.headers.etag, gzipTag);
      assert.ok(gunzipSync(other.rawPayload).equals(plain.rawPayload));
    });
  });
});

describe('compression: the response cache keeps the compressed bytes', () => {
  test('a reused answer is compressed once per coding; its compressed bytes count in the cache', async (t) => {
    const { app, db } = await buildTestApp(t, NOW, { ...UNLIMITED, METRICS_TOKEN });
    await seedDatabase(db.kysely, SEED);
    const seen = await underOneVersion(db, async (attempt) => {
      const url = `${PAGE}&offset=${attempt}`;
      const counts = async () => ({
        br: await compressions(app, 'br'),
        gzip: await compressions(app, 'gzip'),
        bytes: await metric(app, 'response_cache_bytes'),
      });
      const start = await counts();
      const first = await get(app, url, 'br'); // computed; one-off: only its tag is kept
      const afterFirst = await counts();
      const second = await get(app, url, 'br'); // asked again: computed, kept, compressed once
      const afterSecond = await counts();
      const reused = [];
      for (let i = 0; i < 25; i++) reused.push(await get(app, url, 'br'));
      const afterReuse = await counts();
      const gzip = [await get(app, url, 'gzip'), await get(app, url, 'gzip'), await get(app, url, 'gzip')];
      const afterGzip = await counts();
      const plain = await get(app, url, 'identity');
      return { first, second, reused, gzip, plain, start, afterFirst, afterSecond, afterReuse, afterGzip };
    });
    const { first, second, reused, gzip, plain, start, afterFirst, afterSecond, afterReuse, afterGzip } = seen;
    assert.equal(afterFirst.br - start.br, 1, 'the first answer is compressed');
    assert.equal(afterFirst.bytes, start.bytes, 'a one-off answer keeps no bytes');
    assert.equal(afterSecond.br - afterFirst.br, 1, 'the kept answer is compressed once');
    assert.equal(
      afterSecond.bytes - afterFirst.bytes,
      plain.rawPayload.length + second.rawPayload.length,
      'kept: the bytes as they are and in brotli',
    );
    assert.equal(afterReuse.br, afterSecond.br, '25 reuses, no compression');
    for (const answer of [second, ...reused]) {
      assert.equal(answer.headers['content-encoding'], 'br');
      assert.ok(answer.rawPayload.equals(first.rawPayload), 'the same compressed bytes');
    }
    assert.equal(afterGzip.gzip - afterReuse.gzip, 1, 'gzip: compressed once, on first asking');
    assert.equal(afterGzip.br, afterReuse.br);
    assert.equal(afterGzip.bytes - afterReuse.bytes, gzip[0]?.rawPayload.length);
    assert.ok(gzip.every((g) => g.rawPayload.equals(gzip[0]?.rawPayload ?? Buffer.alloc(0))));
  });

  test('RESPONSE_CACHE_MB bounds the bytes, compressed ones included', async (t) => {
    const { app, db } = await buildTestApp(t, NOW, { ...UNLIMITED, METRICS_TOKEN, RESPONSE_CACHE_MB: '1' });
    await seedDatabase(db.kysely, SEED);
    let peak = 0;
    let held = 0;
    for (let i = 0; i < 60; i++) {
      const url = `/v1/jobs?limit=25&offset=${i}`;
      for (const coding of ['identity', 'identity', 'br', 'gzip'] as const) await get(app, url, coding);
      held = await metric(app, 'response_cache_bytes');
      peak = Math.max(peak, held);
    }
    assert.ok(peak <= 2 ** 20, `at most 1 MiB held (${peak})`);
    assert.ok(held > 0.75 * 2 ** 20, `and filled close to it (${held})`);
  });
});

/** One request over real HTTP (node:http, which decodes nothing): status, headers and the raw bytes. */
function rawRequest(
  baseUrl: string,
  path: string,
  headers: Record<string, string>,
  method = 'GET',
  body?: string,
): Promise<{ status: number; headers: IncomingHttpHeaders; raw: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${baseUrl}${path}`, { method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, raw: Buffer.concat(chunks) }),
      );
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(body);
  });
}

/** The first bytes of a streamed answer, then the connection is dropped. */
function firstBytes(baseUrl: string, path: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: IncomingHttpHeaders; first: Buffer }>((resolve, reject) => {
    const request = httpRequest(`${baseUrl}${path}`, { headers }, (response) => {
      response.once('data', (chunk: Buffer) => {
        resolve({ status: response.statusCode ?? 0, headers: response.headers, first: chunk });
        request.destroy();
      });
    });
    request.on('error', reject);
    request.end();
  });
}

async function seededServer(t: TestContext) {
  const url = await freshDatabaseUrl(t, { file: true });
  const db = createDb(url);
  await migrateToLatest(db);
  await seedDatabase(db.kysely, { ...SEED, anchor: new Date() });
  await db.close();
  return startServer(t, { DATABASE_URL: url, ...UNLIMITED, RESPONSE_CACHE_MS: '60000' });
}

describe('compression over real HTTP', () => {
  test('a server process: Content-Length of the bytes sent, HEAD, 304, the SSE stream as it is, /mcp compressed', {
    timeout: 120_000,
  }, async (t) => {
    const server = await seededServer(t);
    const base = server.baseUrl;
    const plain = await rawRequest(base, PAGE, {});
    assert.equal(plain.status, 200);
    assert.ok(plain.raw.length > 10_000);
    for (const coding of ['gzip', 'br'] as const) {
      for (const round of [1, 2, 3]) {
        const answer = await rawRequest(base, PAGE, { 'accept-encoding': coding });
        const what = `${coding}, ask ${round}`;
        assert.equal(answer.status, 200, what);
        assert.equal(answer.headers['content-encoding'], coding, what);
        assert.equal(answer.headers['transfer-encoding'], undefined, `${what}: not chunked`);
        assert.equal(Number(answer.headers['content-length']), answer.raw.length, `${what}: Content-Length`);
        assert.ok(answer.raw.length < plain.raw.length / 3, `${what}: ${answer.raw.length} bytes`);
        assert.ok(decode(coding, answer.raw).equals(plain.raw), what);
        assert.ok(varies(answer.headers), what);
        const etag = String(answer.headers.etag);
        assert.equal(etag, tagIn(String(plain.headers.etag), coding), what);
        const notModified = await rawRequest(base, PAGE, { 'accept-encoding': coding, 'if-none-match': etag });
        assert.equal(notModified.status, 304, what);
        assert.equal(notModified.raw.length, 0);
        assert.equal(notModified.headers['content-encoding'], undefined);
      }
    }
    // fetch (undici) decodes as a browser does: an integrator sees the same JSON.
    const fetched = await fetch(`${base}${PAGE}`, { headers: { 'accept-encoding': 'br' } });
    assert.equal(fetched.headers.get('content-encoding'), 'br');
    assert.deepEqual(await fetched.json(), JSON.parse(plain.raw.toString('utf8')));

    const head = await rawRequest(base, PAGE, { 'accept-encoding': 'br' }, 'HEAD');
    assert.equal(head.status, 200);
    assert.equal(head.headers['content-encoding'], undefined);
    assert.equal(Number(head.headers['content-length']), plain.raw.length);
    assert.equal(head.raw.length, 0);

    const stream = await firstBytes(base, '/v1/events/stream', {
      accept: 'text/event-stream',
      'accept-encoding': 'gzip, br',
    });
    assert.equal(stream.status, 200);
    assert.match(String(stream.headers['content-type']), /^text\/event-stream/);
    assert.equal(stream.headers['content-encoding'], undefined);
    assert.match(stream.first.toString('utf8'), /^(:|retry:|id:|event:|data:)/, 'SSE text as it is');

    const mcp = await rawRequest(
      base,
      '/mcp',
      { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'accept-encoding': 'br' },
      'POST',
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    );
    assert.equal(mcp.status, 200, mcp.raw.toString('utf8'));
    // /mcp answers are JSON answers like the others now (no longer hijacked): tools/list, some
    // 60 KB compressed instead of 240, goes in brotli to a client that accepts it.
    assert.equal(mcp.headers['content-encoding'], 'br', '/mcp answers compressed as asked');
    assert.ok(JSON.parse(brotliDecompressSync(mcp.raw).toString('utf8')).result.tools.length > 5);
  });
});
