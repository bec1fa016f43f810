import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  ClaimLostError,
  claimIdempotencyKey,
  IDEMPOTENCY_LEASE_MS,
  markCommitted,
} from '../../src/repositories/idempotency.js';
import { inWriteTransaction } from '../../src/repositories/write-transaction.js';
import { buildTestApp, createKey, NOW } from '../helpers/app.js';
import { JOB_BODY } from '../helpers/bodies.js';

/** An app with two test-only POST routes: one that counts its runs, one that waits to be released. */
async function appWithProbes(t: Parameters<typeof buildTestApp>[0]) {
  const built = await buildTestApp(t);
  let runs = 0;
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  built.app.post('/test/count', async (request, reply) => {
    runs++;
    const fail = (request.body as { fail?: boolean } | undefined)?.fail;
    if (fail) throw new Error('boom');
    return reply.code(201).send({ run: runs, echo: request.body });
  });
  built.app.post('/test/slow', async (_request, reply) => {
    await released;
    return reply.code(201).send({ done: true });
  });
  return { ...built, runs: () => runs, release };
}

const json = (key: string, idempotencyKey?: string) => ({
  'content-type': 'application/json',
  'x-api-key': key,
  ...(idempotencyKey !== undefined ? { 'idempotency-key': idempotencyKey } : {}),
});

describe('Idempotency-Key on POST', () => {
  test('a retry with the same key and body replays the first response without running again', async (t) => {
    const { app, db, runs } = await appWithProbes(t);
    const { key } = await createKey(db);
    const first = await app.inject({
      method: 'POST',
      url: '/test/count',
      headers: json(key, 'k-1'),
      payload: { a: 1 },
    });
    const retry = await app.inject({
      method: 'POST',
      url: '/test/count',
      headers: json(key, 'k-1'),
      payload: { a: 1 },
    });
    assert.equal(first.statusCode, 201);
    assert.equal(retry.statusCode, 201);
    assert.equal(retry.body, first.body);
    assert.equal(retry.headers['idempotent-replayed'], 'true');
    assert.equal(first.headers['idempotent-replayed'], undefined);
    assert.equal(runs(), 1);
  });

  test('the same key with another body is a 422; without a key every POST runs', async (t) => {
    const { app, db, runs } = await appWithProbes(t);
    const { key } = await createKey(db);
    await app.inject({ method: 'POST', url: '/test/count', headers: json(key, 'k-2'), payload: { a: 1 } });
    const other = await app.inject({
      method: 'POST',
      url: '/test/count',
      headers: json(key, 'k-2'),
      payload: { a: 2 },
    });
    assert.equal(other.statusCode, 422);
    assert.deepEqual(other.json(), {
      error: 'idempotency_key_reused',
      message: 'This Idempotency-Key was used for a different request.',
      param: 'Idempotency-Key',
      suggestion: 'Use a new key for a new operation; a key stays bound to its first request for 48 hours.',
      alternatives: [],
      alternatives_count: 0,
    });
    await app.inject({ method: 'POST', url: '/test/count', headers: json(key), payload: { a: 1 } });
    await app.inject({ method: 'POST', url: '/test/count', headers: json(key), payload: { a: 1 } });
    assert.equal(runs(), 3);
  });

  test('a retry while the first request still runs is a 409; afterwards it replays', async (t) => {
    const { app, db, release } = await appWithProbes(t);
    const { key } = await createKey(db);
    const first = app.inject({ method: 'POST', url: '/test/slow', headers: json(key, 'k-3'), payload: {} });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const during = await app.inject({ method: 'POST', url: '/test/slow', headers: json(key, 'k-3'), payload: {} });
    assert.equal(during.statusCode, 409);
    assert.equal(during.json().error, 'idempotency_in_progress');
    assert.equal(during.headers['retry-after'], '1');
    release();
    assert.equal((await first).statusCode, 201);
    const after = await app.inject({ method: 'POST', url: '/test/slow', headers: json(key, 'k-3'), payload: {} });
    assert.equal(after.statusCode, 201);
    assert.equal(after.headers['idempotent-replayed'], 'true');
  });

  test('a server failure is not kept: the retry does the work', async (t) => {
    const { app, db, runs } = await appWithProbes(t);
    const { key } = await createKey(db);
    const failed = await app.inject({
      method: 'POST',
      url: '/test/count',
      headers: json(key, 'k-4'),
      payload: { fail: true },
    });
    assert.equal(failed.statusCode, 500);
    const retry = await app.inject({
      method: 'POST',
      url: '/test/count',
      headers: json(key, 'k-4'),
      payload: { fail: true },
    });
    assert.equal(retry.statusCode, 500);
    assert.equal(retry.headers['idempotent-replayed'], undefined);
    assert.equal(runs(), 2);
  });

  test('keys belong to an account: another account may use the same key', async (t) => {
    const { app, db, runs } = await appWithProbes(t);
    const a = await createKey(db, { email: 'a@example.org' });
    const b = await createKey(db, { email: 'b@example.org' });
    await app.inject({ method: 'POST', url: '/test/count', headers: json(a.key, 'shared'), payload: { x: 1 } });
    const other = await app.inject({
      method: 'POST',
      url: '/test/count',
      headers: json(b.key, 'shared'),
      payload: { x: 2 },
    });
    assert.equal(other.statusCode, 201);
    assert.equal(other.headers['idempotent-replayed'], undefined);
    assert.equal(runs(), 2);
  });

  test('a malformed key is a 400 naming the header', async (t) => {
    const { app, db } = await appWithProbes(t);
    const { key } = await createKey(db);
    for (const bad of ['', 'x'.repeat(256), 'with space']) {
      const response = await app.inject({ method: 'POST', url: '/test/count', headers: json(key, bad), payload: {} });
      assert.equal(response.statusCode, 400, JSON.stringify(bad));
      assert.equal(response.json().param, 'Idempotency-Key');
    }
  });
});

describe('Idempotency-Key across a crash', () => {
  const JOB = JOB_BODY;
  /** The hash the plugin binds a key to (method, URL and the body as validated), read off a probe by another account. */
  async function hashOfJob(
    app: Awaited<ReturnType<typeof buildTestApp>>['app'],
    db: Awaited<ReturnType<typeof buildTestApp>>['db'],
  ) {
    const probe = await createKey(db, { email: 'probe@example.org' });
    const response = await app.inject({
      method: 'POST',
      url: '/v1/jobs',
      headers: json(probe.key, 'probe'),
      payload: JOB,
    });
    assert.equal(response.statusCode, 201);
    const row = await db.kysely
      .selectFrom('idempotency_keys')
      .select('request_hash')
      .where('account_id', '=', probe.accountId)
      .executeTakeFirstOrThrow();
    return row.request_hash;
  }
  const before = (ms: number) => new Date(NOW.getTime() - ms).toISOString();

  /** A key row as a process that died would leave it. */
  async function leftBehind(
    db: Awaited<ReturnType<typeof buildTestApp>>['db'],
    accountId: string,
    row: { key: string; state: 'running' | 'committed'; hash: string; ageMs: number },
  ) {
    await db.kysely
      .insertInto('idempotency_keys')
      .values({
        account_id: accountId,
        key: row.key,
        request_hash: row.hash,
        state: row.state,
        response_status: null,
        response_body: null,
        created_at: before(row.ageMs),
        claim_token: 'dead-process',
      })
      .execute();
  }

  test('the write transaction commits the key with it: a failure after the commit keeps it committed', async (t) => {
    const { app, db } = await buildTestApp(t);
    const { key, accountId } = await createKey(db);
    app.post('/test/write-then-fail', async (request) => {
      await inWriteTransaction({ db: db.kysely, now: new Date(), claim: request.idempotency }, (trx) =>
        trx.insertInto('meta').values({ key: 'written-once', value: 'yes' }).execute(),
      );
      throw new Error('the process dies here, after the commit');
    });
    const failed = await app.inject({
      method: 'POST',
      url: '/test/write-then-fail',
      headers: json(key, 'c-1'),
      payload: {},
    });
    assert.equal(failed.statusCode, 500);
    const row = await db.kysely
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('key', '=', 'c-1')
      .executeTakeFirstOrThrow();
    assert.equal(row.state, 'committed', 'not released: the work was done');
    const retry = await app.inject({
      method: 'POST',
      url: '/test/write-then-fail',
      headers: json(key, 'c-1'),
      payload: {},
    });
    assert.equal(retry.statusCode, 409, 'within the lease: still in progress, never done twice');
    assert.equal(retry.json().error, 'idempotency_in_progress');
    const rows = await db.kysely.selectFrom('meta').select('key').where('key', '=', 'written-once').execute();
    assert.equal(rows.length, 1);
  });

  test('a running key past its lease is taken over and the work done once', async (t) => {
    const { app, db } = await buildTestApp(t);
    const { key, accountId } = await createKey(db);
    const hash = await hashOfJob(app, db);
    await leftBehind(db, accountId, {
      key: 'r-1',
      state: 'running',
      hash,
      ageMs: IDEMPOTENCY_LEASE_MS,
    });
    const young = {
      key: 'r-2',
      state: 'running' as const,
      hash,
      ageMs: IDEMPOTENCY_LEASE_MS - 1_000,
    };
    await leftBehind(db, accountId, young);
    const retry = await app.inject({ method: 'POST', url: '/v1/jobs', headers: json(key, 'r-1'), payload: JOB });
    assert.equal(retry.statusCode, 201);
    const again = await app.inject({ method: 'POST', url: '/v1/jobs', headers: json(key, 'r-1'), payload: JOB });
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.equal(again.body, retry.body);
    const fresh = await app.inject({ method: 'POST', url: '/v1/jobs', headers: json(key, 'r-2'), payload: JOB });
    assert.equal(fresh.statusCode, 409, 'a claim within its lease may still be running');
    assert.equal(fresh.json().error, 'idempotency_in_progress');
    const other = await app.inject({
      method: 'POST',
      url: '/v1/jobs',
      headers: json(key, 'r-1'),
      payload: { ...JOB, price_eur: 41 },
    });
    assert.equal(other.statusCode, 422, 'a takeover is for the same request only');
    const jobs = await db.kysely.selectFrom('jobs').select('id').where('owner_account_id', '=', accountId).execute();
    assert.equal(jobs.length, 1);
  });

  test('a committed key past its lease answers 409 idempotency_response_lost, and nothing is done again', async (t) => {
    const { app, db } = await buildTestApp(t);
    const { key, accountId } = await createKey(db);
    const hash = await hashOfJob(app, db);
    await leftBehind(db, accountId, {
      key: 'l-1',
      state: 'committed',
      hash,
      ageMs: IDEMPOTENCY_LEASE_MS,
    });
    const retry = await app.inject({ method: 'POST', url: '/v1/jobs', headers: json(key, 'l-1'), payload: JOB });
    assert.equal(retry.statusCode, 409);
    assert.equal(retry.json().error, 'idempotency_response_lost');
    assert.match(retry.json().suggestion, /look the result up/);
    const jobs = await db.kysely.selectFrom('jobs').select('id').where('owner_account_id', '=', accountId).execute();
    assert.equal(jobs.length, 0);
  });

  test('an attempt whose key was taken over cannot commit its write', async (t) => {
    const { db } = await buildTestApp(t);
    const { accountId } = await createKey(db);
    const request = { accountId, key: 't-1', requestHash: 'h' };
    const first = await claimIdempotencyKey(db.kysely, request, new Date(NOW.getTime() - IDEMPOTENCY_LEASE_MS));
    const second = await claimIdempotencyKey(db.kysely, request, NOW);
    assert.ok(first.claimed && second.claimed && second.takeover);
    await assert.rejects(
      db.kysely.transaction().execute(async (trx) => {
        await trx.insertInto('meta').values({ key: 'late-write', value: 'x' }).execute();
        await markCommitted(trx, first.claim);
      }),
      ClaimLostError,
    );
    const late = await db.kysely.selectFrom('meta').select('key').where('key', '=', 'late-write').execute();
    assert.deepEqual(late, [], 'rolled back');
    await db.kysely.transaction().execute((trx) => markCommitted(trx, second.claim));
  });
});
