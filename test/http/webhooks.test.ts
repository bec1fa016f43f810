/**
 * Webhooks: subscriptions (POST/GET/DELETE /v1/webhooks), signed deliveries to a real receiver from
 * a real server process, retries with backoff, the outbox across a SIGKILL and restart, deliveries
 * listed and sent again, filters and private events, and the guard against internal addresses.
 */
import assert from 'node:assert/strict';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { type AddressInfo, createServer as createNetServer, type Socket } from 'node:net';
import { type TestContext, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildApp } from '../../src/app.js';
import { testConfig } from '../../src/config.js';
import { createDb } from '../../src/db/create-db.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { pendingDelivery } from '../../src/repositories/outbox.js';
import { pruneEvents } from '../../src/repositories/webhooks.js';
import { sendDelivery, signatureOf, verifySignature } from '../../src/webhooks/delivery.js';
import { isPrivateAddress } from '../../src/webhooks/url-guard.js';
import { HOLD_MARGIN_MS, retryDelayMs } from '../../src/webhooks/worker.js';
import { buildTestApp, createKey, NOW } from '../helpers/app.js';
import { helperBody, JOB_BODY } from '../helpers/bodies.js';
import { createTestDb, freshDatabaseUrl, TEST_ENGINE } from '../helpers/database.js';
import { freePort, type ServerProcess, startServer, stopServer, until } from '../helpers/server-process.js';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  json: { id: string; type: string; created_at: string; data: { object: Record<string, unknown> } };
  /** Whether the signature verified with the secret, computed here as a receiver would. */
  verified: boolean;
  at: number;
}

/**
 * A webhook receiver as an integrator would write it: it recomputes HMAC-SHA256 over
 * "<t>.<raw body>" with the secret, compares in constant time and checks the timestamp's age.
 * `answer` decides each status (default 200).
 */
async function receiver(port = 0) {
  const received: Received[] = [];
  const secrets: string[] = [];
  let answer: (n: number) => number = () => 200;
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const header = String(request.headers['marketplace-signature'] ?? '');
      const t = Number(/(?:^|,)t=(\d+)/.exec(header)?.[1]);
      const given = /(?:^|,)v1=([0-9a-f]{64})/.exec(header)?.[1] ?? '';
      const fresh = Math.abs(Date.now() / 1000 - t) <= 300;
      const verified =
        fresh &&
        secrets.some((secret) => {
          const mac = createHmac('sha256', secret).update(`${t}.${body}`).digest();
          return given.length === 64 && timingSafeEqual(mac, Buffer.from(given, 'hex'));
        });
      received.push({ headers: request.headers, body, json: JSON.parse(body), verified, at: Date.now() });
      response.writeHead(answer(received.length)).end('ok');
    });
  });
  server.listen(port, '127.0.0.1');
  await once(server, 'listening');
  return {
    received,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    port: (server.address() as AddressInfo).port,
    trust: (secret: string) => secrets.push(secret),
    answerWith: (fn: (n: number) => number) => {
      answer = fn;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function call(base: string, method: string, path: string, key?: string, body?: unknown) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { ...(key && { 'x-api-key': key }), ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

/** A fresh database with developer keys, and a server process on it (delivery every 50 ms, fast retries). */
async function setUp(t: TestContext, extra: Record<string, string> = {}) {
  const url = await freshDatabaseUrl(t);
  const db = createDb(url);
  t.after(() => db.close());
  await migrateToLatest(db);
  const keys = [];
  for (const name of ['owner', 'helper', 'stranger'])
    keys.push((await createKey(db, { email: `${name}@example.org` })).key);
  const config = {
    DATABASE_URL: url,
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    EVENTS_POLL_MS: '50',
    WEBHOOK_RETRY_BASE_MS: '150',
    WEBHOOK_MAX_ATTEMPTS: '4',
    WEBHOOK_TIMEOUT_MS: '2000',
    RATE_LIMIT_DEVELOPER_PER_MIN: '100000',
    ...extra,
  };
  const server = await startServer(t, config);
  return { db, config, server, keys: keys as [string, string, string] };
}

async function subscribe(server: ServerProcess, key: string, body: object) {
  const created = await call(server.baseUrl, 'POST', '/v1/webhooks', key, body);
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return created.body as { id: string; secret: string };
}

test(`a signature-verifying receiver gets a job created through REST, signed, then its changes (${TEST_ENGINE})`, async (t) => {
  const hook = await receiver();
  t.after(() => hook.close());
  const { server, keys } = await setUp(t);
  t.after(() => stopServer(server));
  const [owner] = keys;
  const webhook = await subscribe(server, owner, {
    url: hook.url,
    events: ['job.created', 'job.updated', 'job.status_changed'],
  });
  assert.match(webhook.secret, /^whsec_[A-Za-z0-9_-]{43}$/);
  hook.trust(webhook.secret);

  const job = await call(server.baseUrl, 'POST', '/v1/jobs', owner, JOB_BODY);
  assert.equal(job.status, 201);
  const first = await until('job.created delivery', () => hook.received[0]);
  assert.equal(first.verified, true, 'the signature verifies with the secret');
  assert.equal(first.json.type, 'job.created');
  assert.match(first.json.id, /^evt_\d+$/);
  assert.equal(first.headers['marketplace-event-id'], first.json.id);
  assert.equal(first.headers['marketplace-event-type'], 'job.created');
  assert.equal(first.headers['content-type'], 'application/json');
  const shown = await call(server.baseUrl, 'GET', `/v1/jobs/${job.body.id}`);
  assert.deepEqual(first.json.data.object, shown.body, 'the event carries the job as GET shows it');
  // A body changed in transit does not verify.
  assert.equal(
    verifySignature(String(first.headers['marketplace-signature']), first.body, webhook.secret, new Date()),
    true,
  );
  assert.equal(
    verifySignature(
      String(first.headers['marketplace-signature']),
      first.body.replace('Hecke', 'Hacke'),
      webhook.secret,
      new Date(),
    ),
    false,
  );

  assert.equal((await call(server.baseUrl, 'PATCH', `/v1/jobs/${job.body.id}`, owner, { price_eur: 75 })).status, 200);
  assert.equal((await call(server.baseUrl, 'POST', `/v1/jobs/${job.body.id}/cancel`, owner)).status, 200);
  await until('three deliveries', () => hook.received.length >= 3 || undefined);
  const byType = new Map(hook.received.map((r) => [r.json.type, r]));
  assert.equal(byType.get('job.updated')?.json.data.object.price_eur, 75);
  assert.equal(byType.get('job.status_changed')?.json.data.object.status, 'cancelled');
  assert.ok(hook.received.every((r) => r.verified));
  const ids = hook.received.map((r) => Number(r.json.id.slice(4)));
  assert.equal(new Set(ids).size, 3, 'each event has its own id');

  // Listed with their outcome; one sent again is the same event, signed anew.
  // The receiver has the bytes before the sender records its answer: wait for the record.
  const deliveries = await until('three deliveries recorded as delivered', async () => {
    const listed = await call(server.baseUrl, 'GET', `/v1/webhooks/${webhook.id}/deliveries`, owner);
    assert.equal(listed.status, 200);
    const done = listed.body.data.every((d: { status: string }) => d.status !== 'pending');
    return listed.body.total === 3 && done ? listed : undefined;
  });
  assert.equal(deliveries.body.total, 3);
  for (const d of deliveries.body.data) {
    assert.equal(d.status, 'delivered');
    assert.equal(d.attempts, 1);
    assert.equal(d.response_status, 200);
    assert.equal(d.next_attempt_at, null);
  }
  const createdDelivery = deliveries.body.data.find((d: { event_type: string }) => d.event_type === 'job.created');
  assert.equal(createdDelivery.event_id, first.json.id);
  const again = await call(
    server.baseUrl,
    'POST',
    `/v1/webhooks/${webhook.id}/deliveries/${createdDelivery.id}/redeliver`,
    owner,
  );
  assert.equal(again.status, 202, JSON.stringify(again.body));
  assert.equal(again.body.status, 'pending');
  assert.equal(again.body.redelivery_of, createdDelivery.id);
  const repeated = await until('the redelivery', () => hook.received[3]);
  assert.equal(repeated.json.id, first.json.id);
  assert.equal(repeated.body, first.body, 'the same bytes');
  assert.equal(repeated.verified, true);
  assert.equal(repeated.headers['marketplace-delivery-id'], again.body.id);
  const failedOnly = await call(server.baseUrl, 'GET', `/v1/webhooks/${webhook.id}/deliveries?status=failed`, owner);
  assert.equal(failedOnly.body.total, 0);

  // After DELETE nothing more arrives, and the webhook is gone.
  assert.equal((await call(server.baseUrl, 'DELETE', `/v1/webhooks/${webhook.id}`, owner)).status, 204);
  assert.equal((await call(server.baseUrl, 'GET', `/v1/webhooks/${webhook.id}`, owner)).status, 404);
  const before = hook.received.length;
  assert.equal((await call(server.baseUrl, 'POST', '/v1/jobs', owner, JOB_BODY)).status, 201);
  await sleep(400);
  assert.equal(hook.received.length, before);
});

test(`failed attempts are retried with growing waits, then given up (${TEST_ENGINE})`, async (t) => {
  const hook = await receiver();
  t.after(() => hook.close());
  hook.answerWith((n) => (n <= 2 ? 503 : 200));
  const { server, keys } = await setUp(t);
  t.after(() => stopServer(server));
  const [owner] = keys;
  const webhook = await subscribe(server, owner, { url: hook.url, events: ['job.created'] });
  hook.trust(webhook.secret);
  assert.equal((await call(server.baseUrl, 'POST', '/v1/jobs', owner, JOB_BODY)).status, 201);
  await until('three attempts', () => hook.received[2]);
  const [a, b, c] = hook.received as [Received, Received, Received];
  assert.equal(a.json.id, c.json.id, 'the same event each time');
  // Waits: about 150 ms, then about 300 ms (±10 %, plus up to one 50 ms poll).
  assert.ok(b.at - a.at >= 130, `first wait ${b.at - a.at} ms`);
  assert.ok(c.at - b.at >= 265, `second wait ${c.at - b.at} ms`);
  assert.ok(c.at - b.at > b.at - a.at, 'the wait grows');
  const delivered = await until('the delivery recorded', async () => {
    const list = await call(server.baseUrl, 'GET', `/v1/webhooks/${webhook.id}/deliveries`, owner);
    return list.body.data[0]?.status === 'delivered' ? list.body.data[0] : undefined;
  });
  assert.equal(delivered.attempts, 3);

  // A receiver that never answers 2xx: WEBHOOK_MAX_ATTEMPTS (4) attempts, then failed for good.
  hook.answerWith(() => 500);
  const seen = hook.received.length;
  assert.equal((await call(server.baseUrl, 'POST', '/v1/jobs', owner, JOB_BODY)).status, 201);
  const failed = await until('the delivery failed', async () => {
    const list = await call(server.baseUrl, 'GET', `/v1/webhooks/${webhook.id}/deliveries?status=failed`, owner);
    return list.body.data[0];
  });
  assert.equal(failed.attempts, 4);
  assert.equal(failed.response_status, 500);
  assert.equal(failed.last_error, 'HTTP 500');
  assert.equal(failed.next_attempt_at, null);
  assert.equal(hook.received.length - seen, 4);
});

test(`deliveries survive a SIGKILL and a restart: the outbox is in the database (${TEST_ENGINE})`, async (t) => {
  const port = await freePort();
  const { server, keys, config } = await setUp(t, { WEBHOOK_RETRY_BASE_MS: '100' });
  const [owner] = keys;
  // The receiver is down: the first attempts fail, the delivery waits in the outbox.
  const webhook = await subscribe(server, owner, {
    url: `http://127.0.0.1:${port}/hooks`,
    events: ['job.created'],
  });
  const job = await call(server.baseUrl, 'POST', '/v1/jobs', owner, JOB_BODY);
  assert.equal(job.status, 201);
  await until('a failed attempt', async () => {
    const list = await call(server.baseUrl, 'GET', `/v1/webhooks/${webhook.id}/deliveries`, owner);
    return list.body.data[0]?.attempts >= 1 ? true : undefined;
  });
  server.child.kill('SIGKILL');
  await server.exited;

  const hook = await receiver(port);
  t.after(() => hook.close());
  hook.trust(webhook.secret);
  const restarted = await startServer(t, config);
  t.after(() => stopServer(restarted));
  // The killed server may have held the delivery (claimed, attempt under way): the claim lasts the
  // attempt's timeout and HOLD_MARGIN_MS, then the new one takes it (plus a retry wait).
  const held = Number(config.WEBHOOK_TIMEOUT_MS) + HOLD_MARGIN_MS;
  const got = await until('the delivery after the restart', () => hook.received[0], held + 15_000);
  assert.equal(got.verified, true);
  assert.equal(got.json.data.object.id, job.body.id);
  const recorded = await until('the delivery recorded after the restart', async () => {
    const list = await call(restarted.baseUrl, 'GET', `/v1/webhooks/${webhook.id}/deliveries`, owner);
    return list.body.data[0]?.status === 'delivered' ? list.body.data[0] : undefined;
  });
  assert.ok(recorded.attempts >= 2);
});

test(`filters and private events: each webhook gets what it subscribed to and may see (${TEST_ENGINE})`, async (t) => {
  const ownerHook = await receiver();
  const strangerHook = await receiver();
  t.after(() => ownerHook.close());
  t.after(() => strangerHook.close());
  const { server, keys } = await setUp(t);
  t.after(() => stopServer(server));
  const [owner, helper, stranger] = keys;
  await subscribe(server, owner, { url: ownerHook.url, events: ['application.created'] });
  const cleaning = await subscribe(server, stranger, {
    url: strangerHook.url,
    events: ['application.created', 'job.created'],
    filters: { category: 'cleaning' },
  });
  const far = await subscribe(server, stranger, {
    url: strangerHook.url,
    events: ['job.created'],
    filters: { lat: 52.52, lng: 13.405, radius: 20 },
  });
  const near = await subscribe(server, stranger, {
    url: strangerHook.url,
    events: ['job.created'],
    filters: { category: 'GARDENING', lat: 49.0, lng: 8.47, radius: 10 },
  });
  const job = await call(server.baseUrl, 'POST', '/v1/jobs', owner, JOB_BODY);
  const profile = await call(server.baseUrl, 'POST', '/v1/helpers', helper, helperBody('Hanna Helfer'));
  assert.equal(profile.status, 201, JSON.stringify(profile.body));
  const application = await call(server.baseUrl, 'POST', `/v1/jobs/${job.body.id}/applications`, helper, {
    helper_id: profile.body.id,
  });
  assert.equal(application.status, 201, JSON.stringify(application.body));

  const got = await until('application.created at the owner', () => ownerHook.received[0]);
  assert.equal(got.json.type, 'application.created');
  assert.equal(got.json.data.object.id, application.body.id);
  await until('job.created near', () => strangerHook.received[0]);
  // Deliveries are written with the event: what is not listed now is never sent.
  const totals = [];
  for (const hook of [cleaning, far, near]) {
    totals.push((await call(server.baseUrl, 'GET', `/v1/webhooks/${hook.id}/deliveries`, stranger)).body.total);
  }
  assert.deepEqual(totals, [0, 0, 1], 'a category filter, an area far away, a matching filter');
  assert.equal(strangerHook.received.length, 1);
  assert.equal(strangerHook.received[0]?.json.type, 'job.created');
  assert.equal(ownerHook.received.length, 1, 'the owner subscribed to applications only');
});

test(`webhooks API: keys, ownership, validation, limits and the guard against internal addresses (${TEST_ENGINE})`, async (t) => {
  const { app, db } = await buildTestApp(t, undefined, { WEBHOOKS_PER_ACCOUNT: '2', WEBHOOK_DELIVERY: 'false' });
  const { key } = await createKey(db, { email: 'a@example.org' });
  const { key: other } = await createKey(db, { email: 'b@example.org' });
  const post = (body: unknown, k: string | null = key) =>
    app.inject({ method: 'POST', url: '/v1/webhooks', headers: k ? { 'x-api-key': k } : {}, payload: body as object });
  const good = { url: 'https://93.184.215.14/hooks', events: ['job.created'] };

  assert.equal((await post(good, null)).statusCode, 401);
  for (const url of [
    'http://127.0.0.1/x',
    'http://10.1.2.3/x',
    'http://172.20.0.1/x',
    'http://192.168.1.1/x',
    'http://169.254.169.254/latest/meta-data',
    'http://100.64.0.1/x',
    'http://0.0.0.0/x',
    'http://[::1]/x',
    'http://[::ffff:127.0.0.1]/x',
    'http://[fd00::1]/x',
    'http://[fe80::1]/x',
    'http://localhost:8080/x',
    'http://api.localhost/x',
    'ftp://93.184.215.14/x',
    'file:///etc/passwd',
    'https://user:pass@93.184.215.14/x',
  ]) {
    const refused = await post({ ...good, url });
    assert.equal(refused.statusCode, 400, url);
    assert.equal(refused.json().error, 'webhook_url_not_allowed', url);
    assert.equal(refused.json().param, 'url');
  }
  const notUrl = await post({ ...good, url: 'not a url' });
  assert.equal(notUrl.statusCode, 400);
  assert.equal(notUrl.json().param, 'url');
  for (const [body, param] of [
    [{ ...good, events: [] }, 'events'],
    [{ ...good, events: ['job.deleted'] }, 'events'],
    [{ ...good, filters: { lat: 49 } }, 'filters.lng'],
    [{ ...good, filters: { radius: 5 } }, 'filters.radius'],
    [{ ...good, filters: { lat: 49, lng: 8.4, radius: 80 } }, 'filters.radius'],
  ] as const) {
    const refused = await post(body);
    assert.equal(refused.statusCode, 400, JSON.stringify(body));
    assert.match(String(refused.json().param), new RegExp(param.replace('.', '.')), JSON.stringify(refused.json()));
  }

  const created = await post({ ...good, filters: { category: 'gardening', lat: 49, lng: 8.4 } });
  assert.equal(created.statusCode, 201, created.body);
  const webhook = created.json();
  assert.deepEqual(webhook.filters, { category: 'GARDENING', lat: 49, lng: 8.4, radius: 50 });
  assert.ok(webhook.secret);
  const shown = await app.inject({ method: 'GET', url: `/v1/webhooks/${webhook.id}`, headers: { 'x-api-key': key } });
  assert.equal(shown.statusCode, 200);
  assert.equal(shown.json().secret, undefined, 'the secret is shown once');
  assert.ok(!shown.body.includes(webhook.secret));
  const listed = await app.inject({ method: 'GET', url: '/v1/webhooks', headers: { 'x-api-key': key } });
  assert.deepEqual(
    listed.json().data.map((w: { id: string }) => w.id),
    [webhook.id],
  );
  assert.ok(!listed.body.includes(webhook.secret));

  // Another account sees none of it and changes nothing.
  for (const [method, url] of [
    ['GET', `/v1/webhooks/${webhook.id}`],
    ['DELETE', `/v1/webhooks/${webhook.id}`],
    ['GET', `/v1/webhooks/${webhook.id}/deliveries`],
    ['POST', `/v1/webhooks/${webhook.id}/deliveries/whd_0000000000000000/redeliver`],
  ] as const) {
    const answer = await app.inject({ method, url, headers: { 'x-api-key': other } });
    assert.equal(answer.statusCode, 404, `${method} ${url}`);
    assert.equal(answer.json().error, 'not_found');
  }
  assert.deepEqual((await app.inject({ method: 'GET', url: '/v1/webhooks', headers: { 'x-api-key': other } })).json(), {
    data: [],
  });
  const missing = await app.inject({
    method: 'POST',
    url: `/v1/webhooks/${webhook.id}/deliveries/whd_0000000000000000/redeliver`,
    headers: { 'x-api-key': key },
  });
  assert.equal(missing.statusCode, 404);
  assert.equal(missing.json().param, 'delivery_id');

  assert.equal((await post(good)).statusCode, 201);
  const third = await post(good);
  assert.equal(third.statusCode, 409);
  assert.equal(third.json().error, 'limit_reached');
});

test('delivery refuses internal addresses at connect time, also behind a host name', async (t) => {
  const hook = await receiver();
  t.after(() => hook.close());
  const options = { timeoutMs: 2_000, allowPrivate: false };
  for (const url of [
    `http://localhost:${hook.port}/hooks`,
    `http://127.0.0.1:${hook.port}/hooks`,
    `http://[::ffff:7f00:1]:${hook.port}/hooks`,
  ]) {
    const result = await sendDelivery(url, '{}', {}, options);
    assert.equal(result.status, null, url);
    assert.match(String(result.error), /is not a public address or does not resolve to one; not delivered/, url);
  }
  assert.equal(hook.received.length, 0, 'nothing reached the receiver');
  const allowed = await sendDelivery(hook.url, '{"a":1}', {}, { ...options, allowPrivate: true });
  assert.equal(allowed.status, 200);
  assert.equal(hook.received.length, 1);
  assert.equal(isPrivateAddress('93.184.215.14'), false);
  assert.equal(isPrivateAddress('2a00:1450:4001:80b::200e'), false);
  assert.equal(isPrivateAddress('64:ff9b::a00:1'), true, 'NAT64 of 10.0.0.1');
});

test('signatures and backoff: Stripe-style HMAC with a timestamp, retries for more than a day by default', () => {
  const body = '{"id":"evt_1"}';
  const header = signatureOf('whsec_test', 1_800_000_000, body);
  assert.equal(
    header,
    `t=1800000000,v1=${createHmac('sha256', 'whsec_test').update(`1800000000.${body}`).digest('hex')}`,
  );
  const at = new Date(1_800_000_000_000);
  assert.equal(verifySignature(header, body, 'whsec_test', at), true);
  assert.equal(verifySignature(header, body, 'whsec_other', at), false);
  assert.equal(verifySignature(header, body, 'whsec_test', new Date(at.getTime() + 301_000)), false, 'too old');
  assert.equal(verifySignature('t=1800000000,v1=00', body, 'whsec_test', at), false);
  // Defaults: WEBHOOK_RETRY_BASE_MS 30 s, WEBHOOK_MAX_ATTEMPTS 13: 12 waits, doubling.
  const waits = Array.from({ length: 12 }, (_, i) => retryDelayMs(i + 1, 30_000, 0.5));
  assert.deepEqual(waits.slice(0, 3), [30_000, 60_000, 120_000]);
  const total = waits.reduce((sum, ms) => sum + ms, 0);
  assert.ok(total >= 24 * 3_600_000, `${total / 3_600_000} h`);
  assert.ok(retryDelayMs(40, 30_000, 1) <= 24 * 3_600_000 * 1.1, 'a wait is at most a day (+jitter)');
});

test(`old events and finished deliveries are pruned; pending ones are kept (${TEST_ENGINE})`, async (t) => {
  const db = await createTestDb(t);
  const { accountId } = await createKey(db, { email: 'prune@example.org' });
  const event = (created_at: string) =>
    db.kysely
      .insertInto('events')
      .values({
        type: 'job.created',
        subject_id: 'job_x',
        category: null,
        lat: null,
        lng: null,
        audience: null,
        payload: '{}',
        created_at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
  const old = [
    await event('2026-01-01T00:00:00.000Z'),
    await event('2026-01-02T00:00:00.000Z'),
    await event('2026-01-03T00:00:00.000Z'),
  ];
  const recent = await event('2026-11-20T00:00:00.000Z');
  await db.kysely
    .insertInto('webhooks')
    .values({
      id: 'wh_1',
      account_id: accountId,
      url: 'https://93.184.215.14/',
      events: ',job.created,',
      filter_category: null,
      filter_lat: null,
      filter_lng: null,
      filter_radius_km: null,
      secret: 'whsec_x',
      created_at: '2026-01-01T00:00:00.000Z',
    })
    .execute();
  const pendingOld = { ...pendingDelivery('wh_1', Number(old[1]?.id), '2026-01-02T00:00:00.000Z'), id: 'whd_pending' };
  const deliveredOld = {
    ...pendingDelivery('wh_1', Number(old[2]?.id), '2026-01-03T00:00:00.000Z'),
    id: 'whd_done',
    status: 'delivered' as const,
  };
  await db.kysely.insertInto('webhook_deliveries').values([pendingOld, deliveredOld]).execute();

  assert.equal(await pruneEvents(db.kysely, new Date('2026-10-21T00:00:00.000Z')), 2);
  const ids = (await db.kysely.selectFrom('events').select('id').orderBy('id').execute()).map((row) => Number(row.id));
  assert.deepEqual(
    ids,
    [Number(old[1]?.id), Number(recent.id)],
    'the one with a pending delivery and the recent one stay',
  );
  const deliveries = (await db.kysely.selectFrom('webhook_deliveries').select('id').execute()).map((row) => row.id);
  assert.deepEqual(deliveries, ['whd_pending']);
});

test(`stopping the app cuts a delivery in flight and lets it go, unrecorded, for the next start (${TEST_ENGINE})`, async (t) => {
  // A receiver that accepts the connection and never answers.
  let connected = 0;
  const sockets: Socket[] = [];
  const silent = createNetServer((socket) => {
    connected++;
    sockets.push(socket);
    socket.on('error', () => {});
  });
  silent.listen(0, '127.0.0.1');
  await once(silent, 'listening');
  t.after(() => {
    for (const socket of sockets) socket.destroy();
    silent.close();
  });
  // Built here, not with buildTestApp: this test closes the app itself, and only once.
  const db = await createTestDb(t);
  const app = await buildApp(
    testConfig({
      WEBHOOK_DELIVERY: 'true',
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      WEBHOOK_TIMEOUT_MS: '60000',
      EVENTS_POLL_MS: '20',
      LOG_LEVEL: 'silent',
    }),
    { db, now: () => NOW },
  );
  const { key } = await createKey(db, { email: 'stop@example.org' });
  const port = (silent.address() as AddressInfo).port;
  const headers = { 'x-api-key': key };
  const hook = await app.inject({
    method: 'POST',
    url: '/v1/webhooks',
    headers,
    payload: { url: `http://127.0.0.1:${port}/`, events: ['job.created'] },
  });
  assert.equal(hook.statusCode, 201, hook.body);
  assert.equal((await app.inject({ method: 'POST', url: '/v1/jobs', headers, payload: JOB_BODY })).statusCode, 201);
  await until('the delivery connects', () => connected > 0 || undefined);
  const started = Date.now();
  await app.close();
  assert.ok(Date.now() - started < 10_000, 'the close did not wait for the 60 s delivery timeout');
  const row = await db.kysely.selectFrom('webhook_deliveries').selectAll().executeTakeFirstOrThrow();
  assert.equal(row.status, 'pending');
  assert.equal(row.attempts, 0, 'a cut attempt is not counted');
  assert.equal(row.locked_until, null, 'let go: due again at once');
});
