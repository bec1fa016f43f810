/**
 * "A listing is never booked twice for overlapping days", with real parallel requests: 20 accounts
 * ask for the same days at once, in one process (app.inject) and spread over two server processes
 * on one SQLite file, where only the database can keep them apart.
 */
import assert from 'node:assert/strict';
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { createDb, type Db } from '../../src/db/create-db.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { berlinDate } from '../../src/domain/berlin-time.js';
import { addDays } from '../../src/domain/booking-price.js';
import { buildTestApp, createKey } from '../helpers/app.js';
import { insert, listingFixture, ownerFixture } from '../helpers/fixtures.js';

const CONTENDERS = 20;
/** Rounds over the two processes: the more, the surer a race would show (without the lock, most rounds fail). */
const ROUNDS = 10;

/** 20 accounts with a key each, and an available listing that none of them owns. */
async function contenders(db: Db, now?: Date) {
  const owner = ownerFixture();
  const listing = listingFixture(owner.id, { instant_booking: 0 });
  await insert(db.kysely, { owners: [owner], listings: [listing] });
  const keys: string[] = [];
  for (let i = 0; i < CONTENDERS; i++) {
    keys.push((await createKey(db, { email: `renter${i}@example.org` }, now)).key);
  }
  return { listingId: listing.id, keys };
}

/** Exactly one 201; every other answer a 409 booking_conflict that names the range taken. */
function assertOneWinner(answers: { status: number; body: any }[], start: string, end: string): void {
  const statuses = answers.map((a) => a.status).sort();
  const seen = answers.map((a) => `${a.status} ${a.body.error ?? a.body.id}`);
  assert.deepEqual(statuses, [201, ...Array(CONTENDERS - 1).fill(409)], seen.join(', '));
  const winner = answers.find((a) => a.status === 201)?.body;
  assert.equal(winner.start_date, start);
  for (const loser of answers.filter((a) => a.status === 409)) {
    assert.equal(loser.body.error, 'booking_conflict');
    assert.equal(
      loser.body.message,
      `The listing is already booked from ${start} to ${end} (requested); the days overlap.`,
    );
  }
}

describe('20 concurrent bookings of the same days', () => {
  test('in one process: exactly one 201, 19 × 409 booking_conflict', async (t) => {
    const { app, db } = await buildTestApp(t);
    const { listingId, keys } = await contenders(db);
    const answers = await Promise.all(
      keys.map(async (key) => {
        const response = await app.inject({
          method: 'POST',
          url: `/v1/listings/${listingId}/bookings`,
          headers: { 'x-api-key': key },
          payload: { start_date: '2026-12-01', end_date: '2026-12-05' },
        });
        return { status: response.statusCode, body: response.json() as any };
      }),
    );
    assertOneWinner(answers, '2026-12-01', '2026-12-05');
    assert.equal((await db.kysely.selectFrom('bookings').select('id').execute()).length, 1);
  });
});

// ---------------------------------------------------------------------------------------------
// Two server processes on one SQLite file
// ---------------------------------------------------------------------------------------------

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const INHERITED_CONFIG = [
  'PORT',
  'HOST',
  'DATABASE_URL',
  'LOG_LEVEL',
  'SEED_ON_EMPTY',
  'REDIS_URL',
  'NODE_TEST_CONTEXT',
];

interface Server {
  child: ChildProcessWithoutNullStreams;
  baseUrl: string;
  closed: Promise<unknown>;
  /** Everything the process printed: with LOG_LEVEL=error, only errors are logged. */
  output: () => string;
}

const servers = new Set<Server>();
after(async () => {
  for (const server of servers) {
    if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
    await server.closed;
  }
});

async function freePort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const address = probe.address();
  assert.ok(address !== null && typeof address === 'object');
  await new Promise((resolve) => probe.close(resolve));
  return address.port;
}

async function startServer(databaseUrl: string): Promise<Server> {
  const port = await freePort();
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !INHERITED_CONFIG.includes(name)));
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: ROOT,
    env: {
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      SEED_ON_EMPTY: 'false',
      RATE_LIMIT_DEVELOPER_PER_MIN: '100000',
      LOG_LEVEL: 'error',
    },
  });
  let output = '';
  for (const stream of [child.stdout, child.stderr]) {
    stream.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
    });
  }
  const server: Server = {
    child,
    baseUrl: `http://127.0.0.1:${port}`,
    closed: once(child, 'close'),
    output: () => output,
  };
  servers.add(server);
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    assert.equal(child.exitCode, null, `the server exited:\n${output}`);
    const healthy = await fetch(`${server.baseUrl}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (healthy) return server;
    await sleep(100);
  }
  assert.fail(`the server did not become healthy:\n${output}`);
}

describe('20 concurrent bookings over two server processes on one SQLite file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'marketplace-bookings-'));
  const databaseUrl = `sqlite:${join(dir, 'm.db')}`;
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('exactly one 201 per round, no 5xx, one booking per range in the file', { timeout: 90_000 }, async () => {
    const db = createDb(databaseUrl);
    await migrateToLatest(db);
    const { listingId, keys } = await contenders(db, new Date());
    await db.close();

    const pair = [await startServer(databaseUrl), await startServer(databaseUrl)];
    // The servers run on the real clock: book some days a month ahead, in several rounds.
    const today = berlinDate(new Date());
    for (let round = 0; round < ROUNDS; round++) {
      const start = addDays(today, 30 + round * 7);
      const end = addDays(start, 4);
      const answers = await Promise.all(
        keys.map(async (key, i) => {
          const server = pair[i % 2] as Server;
          const response = await fetch(`${server.baseUrl}/v1/listings/${listingId}/bookings`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-api-key': key },
            body: JSON.stringify({ start_date: start, end_date: end }),
          });
          return { status: response.status, body: (await response.json()) as any };
        }),
      );
      assertOneWinner(answers, start, end);
    }

    for (const server of pair) {
      server.child.kill('SIGTERM');
      await server.closed;
      assert.equal(server.output(), '', 'no errors were logged');
    }
    const check = createDb(databaseUrl);
    const rows = await check.kysely.selectFrom('bookings').select(['start_date', 'end_date']).execute();
    await check.close();
    assert.equal(rows.length, ROUNDS);
  });
});
