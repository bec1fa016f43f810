/**
 * SIGKILL in the middle of a write load, on SQLite and on PostgreSQL (npm test runs this file on
 * both). Several rounds: start the server, run concurrent writes (jobs, changes, applications,
 * listings, bookings, each POST with an Idempotency-Key), kill it at a random moment, start again.
 * Then: every write acknowledged with a 2xx is there as acknowledged; every acknowledged POST
 * replays its response byte for byte; a retry of each request that was cut off never does the
 * work twice; the database passes its integrity check and its invariants hold (nothing
 * half-written is visible).
 *
 *   CRASH_ROUNDS=10 npm test -- test/hardening/crash.test.ts   more kills
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { createDb, type Db } from '../../src/db/create-db.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { IDEMPOTENCY_LEASE_MS } from '../../src/repositories/idempotency.js';
import { createKey } from '../helpers/app.js';
import { helperBody, JOB_BODY, LISTING_BODY } from '../helpers/bodies.js';
import { freshDatabaseUrl, TEST_ENGINE } from '../helpers/database.js';
import { seeded } from '../helpers/random.js';
import { type ServerProcess, startServer, stopServer, until } from '../helpers/server-process.js';

const ROUNDS = Number(process.env.CRASH_ROUNDS ?? 3);
const WORKERS = 12;
const ACCOUNTS = 6;

const JOB = JOB_BODY;
const LISTING = { ...LISTING_BODY, instant_booking: true };
const HELPER = helperBody('Crash T.');

interface Sent {
  method: 'POST' | 'PATCH';
  path: string;
  key: string;
  idempotencyKey: string | null;
  body: Record<string, unknown>;
}

interface Acked extends Sent {
  status: number;
  response: string;
}

interface Account {
  key: string;
  accountId: string;
  helperId: string;
}

function berlinToday(): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(new Date());
}

function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Sends one write; the answer, or null when the connection broke (the server died). */
async function send(baseUrl: string, request: Sent): Promise<{ status: number; body: string } | null> {
  try {
    const response = await fetch(`${baseUrl}${request.path}`, {
      method: request.method,
      headers: {
        'content-type': 'application/json',
        'x-api-key': request.key,
        ...(request.idempotencyKey ? { 'idempotency-key': request.idempotencyKey } : {}),
      },
      body: JSON.stringify(request.body),
      signal: AbortSignal.timeout(30_000),
    });
    return { status: response.status, body: await response.text() };
  } catch {
    return null;
  }
}

/** What the load acknowledged and what it sent without an answer. */
class Ledger {
  acked: Acked[] = [];
  cut: Sent[] = [];
  /** Titles sent by PATCH per job, in order, with whether each was acknowledged. */
  titles = new Map<string, { title: string; acked: boolean }[]>();
  jobs: { id: string; owner: number }[] = [];
  listings: { id: string; owner: number }[] = [];
  statuses = new Map<number, number>();

  ackedOf(path: RegExp): Acked[] {
    return this.acked.filter((a) => a.method === 'POST' && path.test(a.path) && a.status < 300);
  }
}

async function writeLoad(server: ServerProcess, accounts: Account[], ledger: Ledger, round: number, seed: number) {
  const random = seeded(seed);
  const today = berlinToday();
  const worker = async (w: number) => {
    const me = w % ACCOUNTS;
    const account = accounts[me] as Account;
    const myJobs: string[] = [];
    for (let n = 0; server.running(); n++) {
      const roll = random.next();
      let request: Sent;
      const others = <T extends { owner: number }>(list: T[]) => list.filter((x) => x.owner !== me);
      const post = (path: string, body: Record<string, unknown>): Sent => ({
        method: 'POST',
        path,
        key: account.key,
        idempotencyKey: randomUUID(),
        body,
      });
      if (roll < 0.3 || ledger.jobs.length < 3) {
        request = post('/v1/jobs', { ...JOB, title: `Kartons r${round} w${w} n${n}` });
      } else if (roll < 0.4 && myJobs.length > 0) {
        const id = random.pick(myJobs);
        const title = `Kartons r${round} w${w} n${n} (geändert)`;
        ledger.titles.get(id)?.push({ title, acked: false });
        request = { method: 'PATCH', path: `/v1/jobs/${id}`, key: account.key, idempotencyKey: null, body: { title } };
      } else if (roll < 0.65 && others(ledger.jobs).length > 0) {
        const job = random.pick(others(ledger.jobs));
        request = post(`/v1/jobs/${job.id}/applications`, { helper_id: account.helperId });
      } else if (roll < 0.8 || others(ledger.listings).length === 0) {
        request = post('/v1/listings', { ...LISTING, title: `Garnitur r${round} w${w} n${n}` });
      } else {
        const listing = random.pick(others(ledger.listings));
        const start = addDays(today, 1 + Math.floor(random.next() * 300));
        request = post(`/v1/listings/${listing.id}/bookings`, {
          start_date: start,
          end_date: addDays(start, Math.floor(random.next() * 3)),
        });
      }
      const answer = await send(server.baseUrl, request);
      if (!answer) {
        ledger.cut.push(request);
        return;
      }
      ledger.statuses.set(answer.status, (ledger.statuses.get(answer.status) ?? 0) + 1);
      assert.ok(answer.status < 500, `${request.method} ${request.path}: ${answer.status} ${answer.body}`);
      if (answer.status >= 300) continue;
      ledger.acked.push({ ...request, status: answer.status, response: answer.body });
      const created = JSON.parse(answer.body) as { id: string };
      if (request.method === 'PATCH') {
        const sent = ledger.titles.get(request.path.split('/')[3] as string) ?? [];
        const entry = sent.find((s) => s.title === request.body.title);
        if (entry) entry.acked = true;
      } else if (request.path === '/v1/jobs') {
        ledger.jobs.push({ id: created.id, owner: me });
        ledger.titles.set(created.id, [{ title: String(request.body.title), acked: true }]);
        myJobs.push(created.id);
      } else if (request.path === '/v1/listings') {
        ledger.listings.push({ id: created.id, owner: me });
      }
    }
  };
  await Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)));
}

async function integrityProblems(db: Db): Promise<string[]> {
  if (db.dialect === 'sqlite') {
    const check = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(db.kysely);
    const foreign = await sql<Record<string, unknown>>`pragma foreign_key_check`.execute(db.kysely);
    return [
      ...check.rows.map((r) => r.integrity_check).filter((r) => r !== 'ok'),
      ...foreign.rows.map((r) => `foreign key: ${JSON.stringify(r)}`),
    ];
  }
  // PostgreSQL: amcheck verifies every B-tree index of the schema, and that each heap tuple is in it.
  await sql`create extension if not exists amcheck with schema public`.execute(db.kysely);
  const indexes = await sql<{ oid: number; name: string }>`
    select c.oid::int as oid, c.relname as name
    from pg_index i join pg_class c on c.oid = i.indexrelid join pg_am a on a.oid = c.relam
    where a.amname = 'btree' and c.relnamespace = current_schema()::regnamespace`.execute(db.kysely);
  assert.ok(indexes.rows.length > 10, 'the schema has its indexes');
  const problems: string[] = [];
  for (const { oid, name } of indexes.rows) {
    try {
      await sql`select public.bt_index_check(${oid}::regclass, true)`.execute(db.kysely);
    } catch (error) {
      problems.push(`${name}: ${(error as Error).message}`);
    }
  }
  return problems;
}

/** Invariants a half-written request would break. */
async function invariantProblems(db: Db): Promise<string[]> {
  const problems: string[] = [];
  const counts = await db.kysely
    .selectFrom('jobs')
    .leftJoin('applications', 'applications.job_id', 'jobs.id')
    .select(['jobs.id', 'jobs.applications_count', (eb) => eb.fn.count<number>('applications.id').as('n')])
    .where('jobs.owner_account_id', 'is not', null)
    .groupBy(['jobs.id', 'jobs.applications_count'])
    .execute();
  for (const row of counts) {
    if (Number(row.applications_count) !== Number(row.n)) {
      problems.push(`${row.id}: applications_count ${row.applications_count}, applications ${row.n}`);
    }
  }
  const overlaps = await db.kysely
    .selectFrom('bookings as a')
    .innerJoin('bookings as b', (join) =>
      join
        .onRef('a.listing_id', '=', 'b.listing_id')
        .onRef('a.id', '<', 'b.id')
        .onRef('a.start_date', '<=', 'b.end_date')
        .onRef('b.start_date', '<=', 'a.end_date'),
    )
    .select(['a.id as a', 'b.id as b'])
    .where('a.status', 'in', ['requested', 'confirmed', 'active'])
    .where('b.status', 'in', ['requested', 'confirmed', 'active'])
    .execute();
  for (const { a, b } of overlaps) problems.push(`bookings ${a} and ${b} hold the same day`);
  const orphans = await db.kysely
    .selectFrom('idempotency_keys')
    .select(['key', 'state'])
    .where('state', 'not in', ['running', 'committed', 'done'])
    .execute();
  for (const o of orphans) problems.push(`idempotency key ${o.key} in state ${o.state}`);
  return problems;
}

test(`SIGKILL under write load (${TEST_ENGINE}): nothing acknowledged is lost`, { timeout: 600_000 }, async (t) => {
  const url = await freshDatabaseUrl(t);
  const db = createDb(url);
  t.after(() => db.close());
  await migrateToLatest(db);
  const config = {
    DATABASE_URL: url,
    RATE_LIMIT_DEVELOPER_PER_MIN: '1000000',
    BOOKINGS_PER_ACCOUNT_PER_HOUR: '100000',
    APPLICATIONS_PER_ACCOUNT_PER_HOUR: '100000',
  };
  let server = await startServer(t, config);

  const accounts: Account[] = [];
  for (let i = 0; i < ACCOUNTS; i++) {
    const { key, accountId } = await createKey(db, { email: `crash${i}@example.org` });
    const answer = await send(server.baseUrl, {
      method: 'POST',
      path: '/v1/helpers',
      key,
      idempotencyKey: null,
      body: { ...HELPER, display_name: `Crash ${i}.` },
    });
    assert.equal(answer?.status, 201, answer?.body);
    accounts.push({ key, accountId, helperId: (JSON.parse(answer.body) as { id: string }).id });
  }

  const ledger = new Ledger();
  const random = seeded(20261121);
  let kills = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const before = ledger.acked.length;
    const load = writeLoad(server, accounts, ledger, round, 1000 + round);
    // Killed while writing: after this round's first acknowledged write (on a loaded machine the
    // first answers can take longer than the wait below), then at a random moment.
    await until('a write of this round is acknowledged', () => ledger.acked.length > before, 60_000);
    await sleep(400 + Math.floor(random.next() * 1200));
    server.child.kill('SIGKILL');
    const exit = await server.exited;
    assert.equal(exit.signal, 'SIGKILL');
    kills += 1;
    await load;
    server = await startServer(t, config);
  }
  assert.ok(ledger.cut.length > 0, 'some requests were cut off by the kills');

  // 1. Every acknowledged write is there, as acknowledged.
  const get = async (path: string, key: string) => {
    const response = await fetch(`${server.baseUrl}${path}`, { headers: { 'x-api-key': key } });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  for (const job of ledger.jobs) {
    const { status, body } = await get(`/v1/jobs/${job.id}`, (accounts[job.owner] as Account).key);
    assert.equal(status, 200, `acknowledged job ${job.id} is gone`);
    const sent = ledger.titles.get(job.id) ?? [];
    const lastAcked = sent.map((s) => s.acked).lastIndexOf(true);
    const allowed = sent.slice(lastAcked).map((s) => s.title); // the last acknowledged, or a later one that was cut off
    assert.ok(allowed.includes(String(body.title)), `job ${job.id}: title '${body.title}', expected one of ${allowed}`);
    assert.equal(body.description, JOB.description);
    assert.equal(body.price_eur, JOB.price_eur);
  }
  for (const listing of ledger.listings) {
    const { status } = await get(`/v1/listings/${listing.id}`, (accounts[listing.owner] as Account).key);
    assert.equal(status, 200, `acknowledged listing ${listing.id} is gone`);
  }
  for (const booking of ledger.ackedOf(/\/bookings$/)) {
    const created = JSON.parse(booking.response) as { id: string; start_date: string; end_date: string };
    const { status, body } = await get(`/v1/bookings/${created.id}`, booking.key);
    assert.equal(status, 200, `acknowledged booking ${created.id} is gone`);
    assert.deepEqual([body.start_date, body.end_date], [created.start_date, created.end_date]);
  }
  const applications = ledger.ackedOf(/\/applications$/);
  for (const application of applications) {
    const created = JSON.parse(application.response) as { id: string; job_id: string };
    const row = await db.kysely
      .selectFrom('applications')
      .select(['id', 'job_id', 'helper_id'])
      .where('id', '=', created.id)
      .executeTakeFirst();
    assert.deepEqual(row, { id: created.id, job_id: created.job_id, helper_id: application.body.helper_id });
  }

  // 2. Every acknowledged POST replays its response byte for byte (its key and response were kept).
  for (const acked of ledger.acked.filter((a) => a.idempotencyKey)) {
    const answer = await send(server.baseUrl, acked);
    assert.equal(answer?.status, acked.status, `${acked.path} replay`);
    assert.equal(answer?.body, acked.response, `${acked.path} replay body`);
  }

  // 3. The requests cut off, retried with their keys once the lease has passed: done at most once.
  await sleep(IDEMPOTENCY_LEASE_MS + 500);
  const retried = new Map<string, number>();
  for (const cut of ledger.cut.filter((c) => c.idempotencyKey)) {
    const answer = await send(server.baseUrl, cut);
    assert.ok(answer && answer.status < 500, `retry of ${cut.path}: ${answer?.status} ${answer?.body}`);
    const error = answer.status >= 400 ? (JSON.parse(answer.body) as { error: string }).error : String(answer.status);
    assert.notEqual(error, 'idempotency_in_progress', `a retry of ${cut.path} found its key held for good`);
    retried.set(error, (retried.get(error) ?? 0) + 1);
  }
  const titles = await db.kysely
    .selectFrom('jobs')
    .select((eb) => ['title', eb.fn.countAll<number>().as('n')])
    .where('owner_account_id', 'is not', null)
    .groupBy('title')
    .having((eb) => eb.fn.countAll(), '>', 1)
    .execute();
  assert.deepEqual(titles, [], 'no job was created twice');

  // 4. Integrity and invariants.
  assert.deepEqual(await integrityProblems(db), []);
  assert.deepEqual(await invariantProblems(db), []);

  const statuses = [...ledger.statuses.entries()].sort(([a], [b]) => a - b).map(([s, n]) => `${s}: ${n}`);
  t.diagnostic(
    `${kills} kills survived on ${TEST_ENGINE}; ${ledger.acked.length} acknowledged writes checked (${ledger.jobs.length} jobs, ${ledger.listings.length} listings, ${applications.length} applications, ${ledger.ackedOf(/\/bookings$/).length} bookings, ${ledger.acked.filter((a) => a.method === 'PATCH').length} changes), none lost; ${ledger.cut.length} cut off, retried: ${[...retried.entries()].map(([k, n]) => `${k} ${n}`).join(', ')}; statuses ${statuses.join(', ')}`,
  );
  await stopServer(server);
});
