/**
 * Webhook delivery is fair: receivers that accept the connection and never answer hold at most
 * WEBHOOK_IN_FLIGHT_PER_WEBHOOK attempts each and WEBHOOK_IN_FLIGHT_PER_ACCOUNT per account, and
 * a free slot takes the next due delivery at once, so another account's fast receiver keeps
 * getting its events while theirs wait for their timeouts. Two real server processes on one
 * database, real receivers.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, createServer as createNetServer, type Socket } from 'node:net';
import { type TestContext, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createDb } from '../../src/db/create-db.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { createKey } from '../helpers/app.js';
import { JOB_BODY } from '../helpers/bodies.js';
import { freshDatabaseUrl, TEST_ENGINE } from '../helpers/database.js';
import { type ServerProcess, startServer, stopServer, until } from '../helpers/server-process.js';

const PER_WEBHOOK = 2;
const PER_ACCOUNT = 4;

/**
 * Receivers that accept connections and never answer, `perAccount` for each of `accounts`
 * accounts; counts the connections open at once per receiver and per account.
 */
async function silentReceivers(t: TestContext, accounts: number, perAccount: number) {
  const open = new Map<string, number>();
  const peak = new Map<string, number>();
  const count = (name: string, step: number) => {
    open.set(name, (open.get(name) ?? 0) + step);
    peak.set(name, Math.max(peak.get(name) ?? 0, open.get(name) ?? 0));
  };
  const sockets: Socket[] = [];
  const ports: number[][] = [];
  for (let a = 0; a < accounts; a++) {
    ports.push([]);
    for (let i = 0; i < perAccount; i++) {
      const server = createNetServer((socket) => {
        sockets.push(socket);
        count(`receiver ${port}`, 1);
        count(`account ${a}`, 1);
        socket.on('error', () => {});
        socket.on('close', () => {
          count(`receiver ${port}`, -1);
          count(`account ${a}`, -1);
        });
      });
      server.listen(0, '127.0.0.1');
      await once(server, 'listening');
      const port = (server.address() as AddressInfo).port;
      ports[a]?.push(port);
      t.after(() => {
        for (const socket of sockets) socket.destroy();
        server.close();
      });
    }
  }
  return { ports, peak };
}

/** A receiver that answers 200 at once and keeps the events it got, in order. */
async function fastReceiver(t: TestContext) {
  const received: { id: string; type: string; data: { object: { id: string } } }[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      response.writeHead(200).end('ok');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { received, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks` };
}

async function call(server: ServerProcess, method: string, path: string, key: string, body?: unknown) {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: { 'x-api-key': key, ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: JSON.parse(await response.text()) };
}

test(`twenty receivers that never answer do not delay another account's deliveries (${TEST_ENGINE})`, async (t) => {
  const silent = await silentReceivers(t, 2, 10);
  const fast = await fastReceiver(t);
  const url = await freshDatabaseUrl(t);
  const db = createDb(url);
  t.after(() => db.close());
  await migrateToLatest(db);
  const keys: string[] = [];
  for (const name of ['slow-a', 'slow-b', 'innocent'])
    keys.push((await createKey(db, { email: `${name}@example.org` })).key);
  const [slowA, slowB, innocent] = keys as [string, string, string];
  const config = {
    DATABASE_URL: url,
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    EVENTS_POLL_MS: '50',
    // The silent receivers' attempts hang for the whole timeout, then are due again soon after.
    WEBHOOK_TIMEOUT_MS: '10000',
    WEBHOOK_RETRY_BASE_MS: '100',
    WEBHOOK_CONCURRENCY: '16',
    WEBHOOK_IN_FLIGHT_PER_WEBHOOK: String(PER_WEBHOOK),
    WEBHOOK_IN_FLIGHT_PER_ACCOUNT: String(PER_ACCOUNT),
    RATE_LIMIT_DEVELOPER_PER_MIN: '100000',
  };
  // Two instances deliver from the one database: the limits hold across them.
  const [server, other] = await Promise.all([startServer(t, config), startServer(t, config)]);

  for (const [a, key] of [slowA, slowB].entries()) {
    for (const port of silent.ports[a] ?? []) {
      const created = await call(server, 'POST', '/v1/webhooks', key, {
        url: `http://127.0.0.1:${port}/hooks`,
        events: ['job.created'],
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
    }
  }
  const hook = await call(server, 'POST', '/v1/webhooks', innocent, { url: fast.url, events: ['job.created'] });
  assert.equal(hook.status, 201, JSON.stringify(hook.body));

  // Each job is an event for all 21 webhooks; the fast receiver gets each one within seconds,
  // while the silent ones hold their attempts (a whole batch of them held it back for 10 s).
  const jobs: string[] = [];
  for (let n = 0; n < 6; n++) {
    const job = await call(server, 'POST', '/v1/jobs', innocent, JOB_BODY);
    assert.equal(job.status, 201, JSON.stringify(job.body));
    jobs.push(job.body.id);
    const got = await until(`job ${n + 1} at the fast receiver`, () => fast.received[n], 5_000);
    assert.equal(got.type, 'job.created');
    assert.equal(got.data.object.id, job.body.id);
    await sleep(200);
  }
  assert.deepEqual(
    fast.received.map((event) => event.data.object.id),
    jobs,
  );
  // The receiver has the bytes before the sender records its answer: wait for the records.
  const deliveries = await until('six deliveries recorded', async () => {
    const listed = await call(server, 'GET', `/v1/webhooks/${hook.body.id}/deliveries`, innocent);
    assert.equal(listed.status, 200);
    const done = listed.body.data.every((d: { status: string }) => d.status !== 'pending');
    return listed.body.total === 6 && done ? listed : undefined;
  });
  assert.equal(deliveries.body.total, 6);
  for (const delivery of deliveries.body.data) {
    assert.equal(delivery.status, 'delivered');
    assert.equal(delivery.attempts, 1);
    assert.equal(delivery.response_status, 200);
  }

  // The silent receivers were tried, within the limits (for both instances together): never more
  // attempts open at once than allowed.
  const peaks = Object.fromEntries([...silent.peak].filter(([name]) => name.startsWith('account')));
  assert.deepEqual(peaks, { 'account 0': PER_ACCOUNT, 'account 1': PER_ACCOUNT });
  for (const port of silent.ports.flat()) {
    assert.ok((silent.peak.get(`receiver ${port}`) ?? 0) <= PER_WEBHOOK, `receiver ${port}`);
  }

  // Stopping cuts the eight attempts still hanging (well before their 10 s timeout) and lets them go
  // unrecorded: every silent receiver's delivery is pending, untried and free for the next start.
  for (const instance of [server, other]) {
    assert.deepEqual(await stopServer(instance, 8_000), { code: 0, signal: null });
  }
  const left = await db.kysely
    .selectFrom('webhook_deliveries')
    .select(['status', 'attempts', 'locked_until', (eb) => eb.fn.countAll<number>().as('n')])
    .where('webhook_id', '!=', hook.body.id)
    .groupBy(['status', 'attempts', 'locked_until'])
    .execute();
  assert.deepEqual(
    left.map((row) => ({ ...row, n: Number(row.n) })),
    [{ status: 'pending', attempts: 0, locked_until: null, n: 20 * 6 }],
  );
});
