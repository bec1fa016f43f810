/**
 * Operations: request ids, one JSON log line per request with secrets redacted, Prometheus
 * metrics for the operator only, security headers and the CORS policy on every answer.
 */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, type TestContext, test } from 'node:test';
import { Counter, Histogram, Registry } from 'prom-client';
import { generateApiKey } from '../../src/domain/api-keys.js';
import { LATENCY_BUCKETS, Metrics } from '../../src/http/metrics.js';
import { buildTestApp, createKey, NOW } from '../helpers/app.js';

const TOKEN = 'metrics-token-0123456789abcdefghijklmnop';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** An app whose log lines are collected, parsed. */
async function loggedApp(t: TestContext, config: Record<string, string> = {}) {
  const lines: string[] = [];
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  const built = await buildTestApp(t, NOW, { LOG_LEVEL: 'info', ...config }, { logStream });
  const records = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  return { ...built, lines, records, requestLines: () => records().filter((r) => r.msg === 'request') };
}

describe('X-Request-Id', () => {
  test('every answer carries one: a new UUID, or the tame id the caller sent', async (t) => {
    const { app } = await buildTestApp(t);
    const fresh = await app.inject({ url: '/v1/categories' });
    assert.match(String(fresh.headers['x-request-id']), UUID);
    const other = await app.inject({ url: '/v1/categories' });
    assert.notEqual(other.headers['x-request-id'], fresh.headers['x-request-id']);
    const given = await app.inject({ url: '/v1/categories', headers: { 'x-request-id': 'lb-7f3a.42' } });
    assert.equal(given.headers['x-request-id'], 'lb-7f3a.42');
    for (const hostile of ['a b', 'x'.repeat(129), '<script>', 'id\u00e9']) {
      const response = await app.inject({ url: '/v1/categories', headers: { 'x-request-id': hostile } });
      assert.match(String(response.headers['x-request-id']), UUID, `'${hostile}' replaced`);
    }
  });

  test('also on errors: 400, 401, 404, 405 and 429', async (t) => {
    const { app } = await buildTestApp(t, NOW, { RATE_LIMIT_ANONYMOUS_PER_MIN: '1' });
    const urls = ['/v1/jobs?limit=0', '/v1/nope', '/v1/jobs'];
    const statuses: number[] = [];
    for (const url of urls) {
      const response = await app.inject({ url, remoteAddress: `10.0.0.${statuses.length + 1}` });
      statuses.push(response.statusCode);
      assert.match(String(response.headers['x-request-id']), UUID, url);
    }
    const bad = await app.inject({
      url: '/v1/me',
      headers: { 'x-api-key': generateApiKey() },
      remoteAddress: '10.0.1.1',
    });
    const wrongMethod = await app.inject({ method: 'DELETE', url: '/v1/jobs', remoteAddress: '10.0.1.2' });
    const refused = await app.inject({ url: '/v1/jobs', remoteAddress: '10.0.0.3' });
    assert.deepEqual(
      [...statuses, bad.statusCode, wrongMethod.statusCode, refused.statusCode],
      [400, 404, 200, 401, 405, 429],
    );
    for (const response of [bad, wrongMethod, refused]) assert.match(String(response.headers['x-request-id']), UUID);
  });
});

describe('request logs', () => {
  test('one JSON line per request with its id, route, status and duration', async (t) => {
    const { app, requestLines } = await loggedApp(t);
    const sent = [
      { url: '/v1/jobs?limit=2', status: 200, route: '/v1/jobs' },
      { url: '/v1/jobs/job_nope', status: 404, route: '/v1/jobs/:id' },
      { url: '/v1/jobs?limit=0', status: 400, route: '/v1/jobs' },
      { url: '/nowhere', status: 404, route: null },
    ];
    const ids: string[] = [];
    for (const { url, status } of sent) {
      const response = await app.inject({ url });
      assert.equal(response.statusCode, status, url);
      ids.push(String(response.headers['x-request-id']));
    }
    const lines = requestLines();
    assert.equal(lines.length, sent.length, 'exactly one line per request');
    sent.forEach((expected, i) => {
      const line = lines[i] ?? {};
      assert.equal(line.request_id, ids[i]);
      assert.equal(line.method, 'GET');
      assert.equal(line.route, expected.route);
      assert.equal(line.url, expected.url);
      assert.equal(line.status, expected.status);
      assert.equal(typeof line.duration_ms, 'number');
      assert.ok((line.duration_ms as number) >= 0);
      assert.equal(line.tier, 'anonymous');
      assert.equal(line.level, 30);
    });
  });

  test('keys, tokens and emails never reach a line, wherever they were sent', async (t) => {
    const { app, db, lines } = await loggedApp(t, { LOG_LEVEL: 'trace', METRICS_TOKEN: TOKEN });
    const { key } = await createKey(db, { email: 'owner.secret@example.org' });
    const unknown = generateApiKey();
    const email = 'applicant.private@example.org';
    await app.inject({ url: '/v1/me', headers: { 'x-api-key': key } });
    await app.inject({ url: '/v1/me', headers: { 'x-api-key': unknown } });
    await app.inject({ url: `/v1/jobs?api_key=${key}&token=${TOKEN}&email=${email}` });
    await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}x` } });
    await app.inject({
      method: 'POST',
      url: '/v1/developer/key-requests',
      payload: {
        name: 'Ada',
        email,
        account_type: 'private',
        intended_use: 'A bot that lists garden jobs for my neighbours.',
      },
    });
    await app.inject({ method: 'POST', url: '/v1/developer/key-requests', payload: { email, name: 7 } });
    const log = lines.join('\n');
    assert.ok(lines.length >= 7, 'the requests were logged');
    for (const secret of [key, unknown, key.slice(4, 20), TOKEN, email, 'owner.secret@example.org']) {
      assert.ok(!log.includes(secret), `'${secret.slice(0, 12)}...' reached the log`);
    }
    assert.match(log, /api_key=\[redacted\]&token=\[redacted\]&email=\[redacted\]/);
  });

  test('a 5xx is logged at error level with the cause; the answer shows none of it', async (t) => {
    const { app, requestLines, records } = await loggedApp(t);
    app.get('/boom', async () => {
      throw new Error('secret internals: /srv/app/db.ts:42');
    });
    const response = await app.inject({ url: '/boom' });
    assert.equal(response.statusCode, 500);
    assert.equal(response.json().error, 'internal_error');
    assert.ok(!response.body.includes('secret internals') && !response.body.includes('.ts:'));
    const [line] = requestLines();
    assert.equal(line?.level, 50);
    assert.equal(line?.status, 500);
    const cause = records().find((r) => r.msg === 'unhandled error');
    assert.match(JSON.stringify(cause), /secret internals/, 'the cause is in the log for the operator');
    assert.equal(cause?.request_id, response.headers['x-request-id']);
  });
});

describe('GET /metrics', () => {
  test('off without METRICS_TOKEN: a 404 ApiError', async (t) => {
    const { app } = await buildTestApp(t);
    const response = await app.inject({ url: '/metrics' });
    assert.equal(response.statusCode, 404);
    assert.equal(response.json().error, 'not_found');
    assert.match(response.json().suggestion, /METRICS_TOKEN/);
  });

  test('with METRICS_TOKEN: 401 without the token or with another one', async (t) => {
    const { app } = await buildTestApp(t, NOW, { METRICS_TOKEN: TOKEN });
    for (const authorization of [undefined, 'Bearer wrong', `Bearer ${TOKEN.slice(0, -1)}`, TOKEN, `Basic ${TOKEN}`]) {
      const response = await app.inject({ url: '/metrics', headers: authorization ? { authorization } : {} });
      assert.equal(response.statusCode, 401, String(authorization));
      assert.equal(response.json().param, 'Authorization');
      assert.ok(!response.body.includes(TOKEN));
    }
  });

  test('requests and latency by route and status, refusals by tier, pool use; outside every budget', async (t) => {
    const { app, db } = await buildTestApp(t, NOW, {
      METRICS_TOKEN: TOKEN,
      RATE_LIMIT_ANONYMOUS_PER_MIN: '3',
      RATE_LIMIT_DEVELOPER_PER_MIN: '1',
    });
    const { key } = await createKey(db);
    for (let i = 0; i < 5; i++) await app.inject({ url: '/v1/categories', remoteAddress: '10.1.1.1' });
    await app.inject({ url: '/v1/jobs/job_nope', remoteAddress: '10.1.1.2' });
    await app.inject({ url: '/v1/me', headers: { 'x-api-key': key } });
    await app.inject({ url: '/v1/me', headers: { 'x-api-key': key } });
    let text = '';
    for (let i = 0; i < 5; i++) {
      // More scrapes than any budget allows: /metrics is counted against none.
      const response = await app.inject({
        url: '/metrics',
        headers: { authorization: `Bearer ${TOKEN}` },
        remoteAddress: '10.1.1.1',
      });
      assert.equal(response.statusCode, 200);
      assert.match(String(response.headers['content-type']), /^text\/plain; version=0\.0\.4/);
      assert.equal(response.headers['cache-control'], 'no-store');
      text = response.body;
    }
    const value = (series: string) => {
      const line = text.split('\n').find((l) => l.startsWith(`${series} `));
      return line === undefined ? undefined : Number(line.slice(series.length + 1));
    };
    assert.equal(value('http_requests_total{method="GET",route="/v1/categories",status="200"}'), 3);
    assert.equal(value('http_requests_total{method="GET",route="/v1/categories",status="429"}'), 2);
    assert.equal(value('http_requests_total{method="GET",route="/v1/jobs/:id",status="404"}'), 1);
    assert.equal(value('http_requests_total{method="GET",route="/metrics",status="200"}'), 4);
    assert.equal(value('http_request_duration_seconds_count{method="GET",route="/v1/categories",status="200"}'), 3);
    assert.equal(value('rate_limit_refusals_total{tier="anonymous"}'), 2);
    assert.equal(value('rate_limit_refusals_total{tier="developer"}'), 1);
    const total = value('db_pool_connections{state="total"}');
    assert.ok(total !== undefined && total >= 1, 'pool connections reported');
    assert.ok((value('db_pool_max_connections') ?? 0) >= 1);
    assert.ok(value('process_resident_memory_bytes') !== undefined, "the process's own figures");
    assert.ok(!/job_nope|10\.1\.1/.test(text), 'no raw URL or client address becomes a label');
  });
});

describe('the request series', () => {
  test('are written exactly as prom-client writes the same observations (counted in place, issue 34)', async () => {
    const registry = new Registry();
    const labelNames = ['method', 'route', 'status'] as const;
    const counter = new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status.',
      labelNames,
      registers: [registry],
    });
    const histogram = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from the request arriving to the response sent, by method, route pattern and status.',
      labelNames,
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    });
    const metrics = new Metrics();
    const observations: [string, string | undefined, number, number][] = [
      ['GET', '/v1/jobs/:id', 200, 0.0004],
      ['GET', '/v1/jobs/:id', 200, 0.0005],
      ['GET', '/v1/jobs/:id', 200, 0.02],
      ['GET', '/v1/jobs/:id', 304, 0.0001],
      ['POST', '/v1/jobs', 201, 0.3],
      ['GET', undefined, 404, 45],
      ['GET', '/odd"route\\\n', 200, 1],
    ];
    for (const [method, route, status, seconds] of observations) {
      metrics.observe(method, route, status, seconds);
      const labels = { method, route: route ?? 'unmatched', status: String(status) };
      counter.inc(labels);
      histogram.observe(labels, seconds);
    }
    const lines = (text: string) =>
      text
        .split('\n')
        .filter((line) => /^(# (HELP|TYPE) )?http_request(s_total|_duration_seconds)/.test(line))
        .sort();
    const ours = lines(await metrics.text());
    assert.equal(ours.length, 2 * 2 + 5 + 5 * (LATENCY_BUCKETS.length + 3));
    // The same lines (the series may come in another order).
    assert.deepEqual(ours, lines(await registry.metrics()));
  });
});

describe('security headers and CORS', () => {
  const SECURITY = {
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  };

  test('on every JSON answer, errors included; no Strict-Transport-Security over plain http', async (t) => {
    const { app } = await buildTestApp(t);
    for (const url of ['/v1/jobs?limit=1', '/v1/jobs?limit=0', '/v1/nope', '/healthz', '/v1/demo/stats']) {
      const response = await app.inject({ url });
      for (const [name, value] of Object.entries(SECURITY))
        assert.equal(response.headers[name], value, `${url} ${name}`);
      assert.equal(response.headers['strict-transport-security'], undefined);
      assert.equal(response.headers['x-powered-by'], undefined);
    }
    const docs = await app.inject({ url: '/developers' });
    assert.match(String(docs.headers['content-security-policy']), /form-action/, 'pages keep their own policy');
  });

  test('behind an https PUBLIC_URL, answers carry Strict-Transport-Security', async (t) => {
    const { app } = await buildTestApp(t, NOW, { PUBLIC_URL: 'https://api.example.org' });
    const response = await app.inject({ url: '/v1/categories' });
    assert.equal(response.headers['strict-transport-security'], 'max-age=31536000');
  });

  test('CORS_ORIGINS=* (default): any origin reads, never with credentials; preflights cost no budget', async (t) => {
    const { app } = await buildTestApp(t, NOW, { RATE_LIMIT_ANONYMOUS_PER_MIN: '1' });
    const origin = 'https://some-app.example';
    for (let i = 0; i < 3; i++) {
      const preflight = await app.inject({
        method: 'OPTIONS',
        url: '/v1/jobs',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-api-key' },
      });
      assert.equal(preflight.statusCode, 204);
      assert.equal(preflight.headers['access-control-allow-origin'], '*');
      assert.match(String(preflight.headers['access-control-allow-headers']), /X-API-Key/);
      assert.match(String(preflight.headers['access-control-allow-methods']), /POST/);
      assert.equal(preflight.headers['access-control-allow-credentials'], undefined);
    }
    const read = await app.inject({ url: '/v1/categories', headers: { origin } });
    assert.equal(read.statusCode, 200, 'the preflights spent nothing of the budget of 1');
    assert.equal(read.headers['access-control-allow-origin'], '*');
    assert.match(String(read.headers['access-control-expose-headers']), /X-Request-Id.*RateLimit/);
    const noOrigin = await app.inject({ url: '/v1/categories', remoteAddress: '10.9.9.9' });
    assert.equal(noOrigin.headers['access-control-allow-origin'], undefined);
  });

  test('CORS_ORIGINS as a list: only those origins read; Vary: Origin', async (t) => {
    const allowed = 'https://app.example.org';
    const { app } = await buildTestApp(t, NOW, { CORS_ORIGINS: `${allowed},https://admin.example.org` });
    const ok = await app.inject({ url: '/v1/categories', headers: { origin: allowed } });
    assert.equal(ok.headers['access-control-allow-origin'], allowed);
    assert.match(String(ok.headers.vary), /Origin/);
    const foreign = await app.inject({ url: '/v1/categories', headers: { origin: 'https://evil.example' } });
    assert.equal(foreign.headers['access-control-allow-origin'], undefined);
    const preflight = await app.inject({
      method: 'OPTIONS',
      url: '/v1/jobs',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    assert.equal(preflight.statusCode, 204);
    assert.equal(preflight.headers['access-control-allow-methods'], undefined, 'no permission for a foreign origin');
  });
});
