/**
 * The documents (/docs with its assets, /docs/json, /docs/yaml, /v1/openapi.json, /llms.txt,
 * /.well-known/api-catalog): outside the tier budgets, but with a budget of their own per address,
 * an ETag (304 on If-None-Match) and brotli or gzip compression.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { buildTestApp, NOW } from '../helpers/app.js';

const DOCUMENTS = [
  '/docs',
  '/docs/json',
  '/docs/yaml',
  '/v1/openapi.json',
  '/llms.txt',
  '/.well-known/api-catalog',
  '/docs/static/swagger-initializer.js',
  '/docs/static/swagger-ui.css',
];

describe('documents: ETag and 304', () => {
  test('each document answers an ETag; sent back in If-None-Match it gives a 304 without a body', async (t) => {
    const { app } = await buildTestApp(t);
    for (const url of DOCUMENTS) {
      const first = await app.inject({ url });
      assert.equal(first.statusCode, 200, url);
      const etag = first.headers.etag;
      assert.match(String(etag), /^W\/"[^"]+"$/, `${url}: a weak ETag`);
      const again = await app.inject({ url, headers: { 'if-none-match': String(etag) } });
      assert.equal(again.statusCode, 304, url);
      assert.equal(again.body, '', url);
      assert.equal(again.headers.etag, etag, url);
      // Another tag (an older document) gets the whole document again.
      const other = await app.inject({ url, headers: { 'if-none-match': 'W/"older"' } });
      assert.equal(other.statusCode, 200, url);
      assert.equal(other.body, first.body, url);
    }
  });
});

describe('documents: compression', () => {
  test('brotli and gzip answers decompress to the same document; without Accept-Encoding it is sent as is', async (t) => {
    const { app } = await buildTestApp(t);
    for (const url of ['/v1/openapi.json', '/docs/json', '/docs/yaml', '/docs/static/swagger-ui-bundle.js']) {
      const plain = await app.inject({ url });
      assert.equal(plain.statusCode, 200, url);
      assert.equal(plain.headers['content-encoding'], undefined, url);
      const cases = [
        ['br', brotliDecompressSync],
        ['gzip', gunzipSync],
      ] as const;
      for (const [encoding, decompress] of cases) {
        const packed = await app.inject({ url, headers: { 'accept-encoding': encoding } });
        assert.equal(packed.statusCode, 200, `${url} ${encoding}`);
        assert.equal(packed.headers['content-encoding'], encoding, `${url} ${encoding}`);
        assert.match(String(packed.headers.vary), /accept-encoding/i, `${url} ${encoding}`);
        assert.ok(packed.rawPayload.length < plain.rawPayload.length / 2, `${url} ${encoding}: compressed`);
        assert.equal(decompress(packed.rawPayload).toString('utf8'), plain.body, `${url} ${encoding}`);
      }
    }
    const br = await app.inject({ url: '/v1/openapi.json', headers: { 'accept-encoding': 'br' } });
    assert.deepEqual(
      JSON.parse(brotliDecompressSync(br.rawPayload).toString('utf8')),
      (await app.inject({ url: '/v1/openapi.json' })).json(),
    );
  });

  test('a document is compressed once per coding, then its bytes are reused', async (t) => {
    const token = 'documents-test-metrics-token-0123456789';
    const { app } = await buildTestApp(t, undefined, { METRICS_TOKEN: token });
    const compressions = async (coding: string) => {
      const response = await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${token}` } });
      const series = `http_response_compressions_total{encoding="${coding}"}`;
      const line = response.body.split('\n').find((l) => l.startsWith(`${series} `));
      return line === undefined ? 0 : Number(line.slice(series.length + 1));
    };
    const bodies = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const response = await app.inject({ url: '/v1/openapi.json', headers: { 'accept-encoding': 'br' } });
      assert.equal(response.headers['content-encoding'], 'br');
      assert.equal(Number(response.headers['content-length']), response.rawPayload.length);
      bodies.add(response.rawPayload.toString('base64'));
    }
    assert.equal(bodies.size, 1);
    assert.equal(await compressions('br'), 1);
    await app.inject({ url: '/v1/openapi.json', headers: { 'accept-encoding': 'gzip' } });
    await app.inject({ url: '/v1/openapi.json', headers: { 'accept-encoding': 'gzip' } });
    assert.equal(await compressions('gzip'), 1);
  });
});

describe('documents: their own budget per address', () => {
  test('the N+1th document request of one address is a 429; API calls and other addresses are still served', async (t) => {
    const { app } = await buildTestApp(t, NOW, { DOCS_RATE_LIMIT_PER_MIN: '3', RATE_LIMIT_ANONYMOUS_PER_MIN: '2' });
    const urls = ['/docs/json', '/v1/openapi.json', '/llms.txt'];
    for (const [i, url] of urls.entries()) {
      const response = await app.inject({ url });
      assert.equal(response.statusCode, 200, url);
      assert.equal(response.headers['ratelimit-policy'], '"documents";q=3;w=60');
      assert.match(String(response.headers.ratelimit), new RegExp(`^"documents";r=${2 - i};t=\\d+$`));
    }

    const refused = await app.inject({ url: '/.well-known/api-catalog' });
    assert.equal(refused.statusCode, 429);
    assert.match(String(refused.headers['retry-after']), /^\d+$/);
    assert.equal(refused.headers['ratelimit-policy'], '"documents";q=3;w=60');
    assert.match(String(refused.headers.ratelimit), /^"documents";r=0;t=\d+$/);
    assert.deepEqual(refused.json(), {
      error: 'rate_limit_exceeded',
      message:
        'The documents (/docs, /v1/openapi.json, /llms.txt, /.well-known/api-catalog) allow 3 requests per minute per address; this one was over.',
      param: null,
      suggestion: `Wait ${refused.headers['retry-after']} s (Retry-After). Keep a copy and send its ETag in If-None-Match: a 304 is quick, though it counts too. API calls have their own budget and are still served.`,
      alternatives: [],
      alternatives_count: 0,
    });

    // The tier budget was not spent by the documents: this is the first of its 2 requests.
    const me = await app.inject({ url: '/v1/me' });
    assert.equal(me.statusCode, 200);
    assert.equal(me.headers['ratelimit-policy'], '"anonymous";q=2;w=60');
    assert.match(String(me.headers.ratelimit), /^"anonymous";r=1;t=\d+$/);

    // Another address has a budget of its own.
    const other = await app.inject({ url: '/docs/json', remoteAddress: '10.0.0.9' });
    assert.equal(other.statusCode, 200);
    assert.match(String(other.headers.ratelimit), /^"documents";r=2;t=\d+$/);
  });
});
