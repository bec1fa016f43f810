import assert from 'node:assert/strict';
import { once } from 'node:events';
import { describe, type TestContext, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { createDb } from '../../src/db/create-db.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import type { Queryable } from '../../src/db/queryable.js';
import type { KeyRequestRow } from '../../src/db/schema.js';
import { findOrCreateAccount, issueKey, keyState, revokeKey, rotateKey } from '../../src/repositories/access.js';
import {
  approveRequest,
  findRequest,
  type KeyRequestInput,
  rejectRequest,
  SUPERSEDED_REASON,
  undoApproval,
} from '../../src/repositories/key-requests.js';
import { freshDatabaseUrl, TEST_ENGINE } from '../helpers/database.js';
import { insertKeyRequest } from '../helpers/fixtures.js';

const NOW = new Date('2026-11-20T12:00:00.000Z');

/*
 * Real concurrency needs two connections that can wait for each other. better-sqlite3 is
 * synchronous: a connection waiting for SQLite's write lock blocks its whole thread, so the
 * contenders run in worker threads (this very file, started as a worker), each with a connection
 * of its own to one database: a SQLite file, or one PostgreSQL schema in the PostgreSQL pass
 * (where the second waits for the first's row lock instead).
 */

type Operation = { op: 'approve'; id: string } | { op: 'reject'; id: string } | { op: 'rotate'; id: string };

interface Job {
  url: string;
  operation: Operation;
  /** Set for the first contender: it holds its transaction open (and the write lock) until released. */
  hold?: SharedArrayBuffer;
}

/** What a contender achieved: the key it issued, the status it set, or nothing (the row changed meanwhile). */
type Outcome = { keyId: string } | { status: string } | null;

async function perform(db: Queryable, operation: Operation): Promise<Outcome> {
  if (operation.op === 'approve') {
    const approved = await approveRequest(db, operation.id, NOW);
    return approved ? { keyId: approved.issued.row.id } : null;
  }
  if (operation.op === 'reject') {
    const rejected = await rejectRequest(db, operation.id, 'spam', NOW);
    return rejected ? { status: rejected.status } : null;
  }
  const rotated = await rotateKey(db, operation.id, 24, NOW);
  return rotated ? { keyId: rotated.row.id } : null;
}

async function work({ url, operation, hold }: Job): Promise<Outcome> {
  const db = createDb(url);
  try {
    if (!hold) {
      parentPort?.postMessage({ type: 'starting' });
      return await perform(db.kysely, operation);
    }
    return await db.kysely.transaction().execute(async (trx) => {
      const outcome = await perform(trx, operation);
      parentPort?.postMessage({ type: 'holding' });
      Atomics.wait(new Int32Array(hold), 0, 0);
      return outcome;
    });
  } finally {
    await db.close();
  }
}

if (!isMainThread && workerData?.raceJob) {
  parentPort?.postMessage({ type: 'done', outcome: await work(workerData.raceJob as Job) });
}

const TSX_API = import.meta.resolve('tsx/esm/api');

/** A worker running one job; `next(type)` resolves with the first message of that type. */
function contender(job: Job) {
  // This file is TypeScript, and Node 20 does not hand `--import tsx` on to workers: register it first.
  const boot = `import(${JSON.stringify(TSX_API)}).then(({ register }) => { register(); return import(${JSON.stringify(import.meta.url)}); })`;
  // None of the test process's options: a worker inherits them otherwise, and with `--test` among
  // them (npm test runs short files several to a process) each worker ran the process's test files
  // once more on its own (their servers and commands too, left running), a run nobody waited for
  // that ate memory and CPU until the process ended, or held it forever: stop 50's CI hang.
  const worker = new Worker(boot, { eval: true, workerData: { raceJob: job }, execArgv: [] });
  const messages: { type: string; outcome?: Outcome }[] = [];
  const failed = once(worker, 'error').then(([error]) => {
    throw error;
  });
  failed.catch(() => {});
  worker.on('message', (message) => messages.push(message));
  // Its messages are delivered before 'exit' (Node drains the port first).
  let exitCode: number | undefined;
  worker.once('exit', (code) => {
    exitCode = code;
  });
  async function next(type: string) {
    for (;;) {
      const message = messages.find((m) => m.type === type);
      if (message) return message;
      if (exitCode !== undefined) throw new Error(`the contender ended (exit code ${exitCode}) without '${type}'`);
      await Promise.race([once(worker, 'message'), once(worker, 'exit'), failed]);
    }
  }
  return { next, outcome: async () => (await next('done')).outcome as Outcome };
}

/**
 * The first operation runs and keeps its transaction (and the write lock) open; the second starts
 * and waits for the lock; then the first commits. Returns both outcomes.
 */
async function race(url: string, first: Operation, second: Operation): Promise<[Outcome, Outcome]> {
  const hold = new SharedArrayBuffer(4);
  const a = contender({ url, operation: first, hold });
  await a.next('holding');
  const b = contender({ url, operation: second });
  await b.next('starting');
  await sleep(200); // the second is now waiting for the write lock
  const flag = new Int32Array(hold);
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
  return Promise.all([a.outcome(), b.outcome()]);
}

/**
 * A migrated database of its own that other threads can open too (a SQLite file or a PostgreSQL
 * schema), and a connection to it; both gone when the test ends.
 */
async function fileDatabase(t: TestContext) {
  const url = await freshDatabaseUrl(t, { file: true });
  const db = createDb(url);
  t.after(() => db.close());
  await migrateToLatest(db);
  return { url, db: db.kysely };
}

const REQUEST: KeyRequestInput = {
  name: 'Jana Müller',
  email: 'jana@example.org',
  organisation: null,
  account_type: 'private',
  intended_use: 'A bot that posts new gardening jobs to our club chat.',
};

const allKeys = (db: Queryable) => db.selectFrom('api_keys').selectAll().orderBy('created_at').execute();

if (isMainThread) {
  describe(`key request decisions are made once (${TEST_ENGINE})`, () => {
    test('reject after an approval: undefined, and the approval stands', async (t) => {
      const { db } = await fileDatabase(t);
      const request = await insertKeyRequest(db, REQUEST, NOW);
      const approved = await approveRequest(db, request.id, NOW);
      assert.ok(approved);
      assert.equal(await rejectRequest(db, request.id, 'too late', NOW), undefined);
      const stored = await findRequest(db, request.id);
      assert.deepEqual(stored, {
        ...request,
        status: 'approved',
        decided_at: NOW.toISOString(),
        key_id: approved.issued.row.id,
      });
      assert.deepEqual(approved.request, stored);
    });

    test('approve after a rejection: undefined, no account and no key', async (t) => {
      const { db } = await fileDatabase(t);
      const request = await insertKeyRequest(db, REQUEST, NOW);
      assert.equal((await rejectRequest(db, request.id, 'spam', NOW))?.status, 'rejected');
      assert.equal(await approveRequest(db, request.id, NOW), undefined);
      assert.equal((await findRequest(db, request.id))?.status, 'rejected');
      assert.deepEqual(await allKeys(db), []);
      assert.deepEqual(await db.selectFrom('accounts').selectAll().execute(), []);
    });

    test('two approvals one after the other: the second is undefined, one key', async (t) => {
      const { db } = await fileDatabase(t);
      const request = await insertKeyRequest(db, REQUEST, NOW);
      assert.ok(await approveRequest(db, request.id, NOW));
      assert.equal(await approveRequest(db, request.id, NOW), undefined);
      assert.equal((await allKeys(db)).length, 1);
    });

    test('two approvals at once, on two connections: exactly one issues a key', async (t) => {
      const { url, db } = await fileDatabase(t);
      const request = await insertKeyRequest(db, REQUEST, NOW);
      const [first, second] = await race(url, { op: 'approve', id: request.id }, { op: 'approve', id: request.id });
      assert.ok(first && 'keyId' in first, 'the first approval issued a key');
      assert.equal(second, null, 'the second saw the request decided and issued nothing');
      const keys = await allKeys(db);
      assert.deepEqual(
        keys.map((key) => key.id),
        [first.keyId],
      );
      assert.equal((await findRequest(db, request.id))?.key_id, first.keyId);
      assert.equal((await db.selectFrom('accounts').selectAll().execute()).length, 1);
    });

    test('a rejection while an approval commits: the rejection is refused, the approval stands', async (t) => {
      const { url, db } = await fileDatabase(t);
      const request = await insertKeyRequest(db, REQUEST, NOW);
      const [approved, rejected] = await race(url, { op: 'approve', id: request.id }, { op: 'reject', id: request.id });
      assert.ok(approved && 'keyId' in approved);
      assert.equal(rejected, null);
      const stored = await findRequest(db, request.id);
      assert.deepEqual([stored?.status, stored?.reason, stored?.key_id], ['approved', null, approved.keyId]);
    });

    test('an approval while a rejection commits: no key is issued', async (t) => {
      const { url, db } = await fileDatabase(t);
      const request = await insertKeyRequest(db, REQUEST, NOW);
      const [rejected, approved] = await race(url, { op: 'reject', id: request.id }, { op: 'approve', id: request.id });
      assert.deepEqual(rejected, { status: 'rejected' });
      assert.equal(approved, null);
      assert.deepEqual(await allKeys(db), []);
      assert.equal((await findRequest(db, request.id))?.status, 'rejected');
    });
  });

  describe(`taking back an approval whose key was not sent (${TEST_ENGINE})`, () => {
    test('the key is revoked and the request is pending again, as filed', async (t) => {
      const { db } = await fileDatabase(t);
      const request = await insertKeyRequest(db, REQUEST, NOW);
      const approved = await approveRequest(db, request.id, NOW);
      assert.ok(approved);
      assert.equal(await undoApproval(db, request.id, approved.issued.row.id, NOW), 'pending');
      assert.deepEqual(await findRequest(db, request.id), request);
      const [key] = await allKeys(db);
      assert.ok(key);
      assert.equal(keyState(key, NOW), 'revoked');
      // The next approval reuses the account and issues a fresh key.
      const again = await approveRequest(db, request.id, NOW);
      assert.ok(again);
      assert.equal(again.accountCreated, false);
      assert.equal(again.account.id, approved.account.id);
      assert.notEqual(again.issued.row.id, approved.issued.row.id);
    });

    test('a newer request from the same address was filed meanwhile: this one is closed, the newer one stays', async (t) => {
      const { db } = await fileDatabase(t);
      const request = await insertKeyRequest(db, REQUEST, NOW);
      const approved = await approveRequest(db, request.id, NOW);
      assert.ok(approved);
      const newer = await insertKeyRequest(db, REQUEST, NOW);
      assert.equal(await undoApproval(db, request.id, approved.issued.row.id, NOW), 'superseded');
      const closed = await findRequest(db, request.id);
      assert.deepEqual<Partial<KeyRequestRow> | undefined>(
        { status: closed?.status, reason: closed?.reason, key_id: closed?.key_id },
        { status: 'rejected', reason: SUPERSEDED_REASON, key_id: null },
      );
      assert.equal((await findRequest(db, newer.id))?.status, 'pending');
      assert.equal((await allKeys(db))[0]?.revoked_at, NOW.toISOString());
    });
  });

  describe(`accounts (${TEST_ENGINE})`, () => {
    test('findOrCreateAccount says whether it created the account; an existing one is kept as it is', async (t) => {
      const { db } = await fileDatabase(t);
      const account = { name: 'Jana', email: 'Jana@Example.org', organisation: null, account_type: 'private' } as const;
      const first = await findOrCreateAccount(db, account, NOW);
      assert.equal(first.created, true);
      assert.equal(first.row.email, 'jana@example.org');
      const second = await findOrCreateAccount(
        db,
        { ...account, name: 'Other', email: 'JANA@example.org', account_type: 'commercial' },
        new Date(NOW.getTime() + 1000),
      );
      assert.deepEqual(second, { row: first.row, created: false });
    });

    test('an approval for an address with an account of another type keeps that type', async (t) => {
      const { db } = await fileDatabase(t);
      const existing = await findOrCreateAccount(db, { ...REQUEST, account_type: 'commercial' }, NOW);
      const request = await insertKeyRequest(db, REQUEST, NOW);
      const approved = await approveRequest(db, request.id, NOW);
      assert.ok(approved);
      assert.equal(approved.accountCreated, false);
      assert.deepEqual(approved.account, existing.row);
      assert.equal(approved.request.account_type, 'private');
    });
  });

  describe(`rotation happens once (${TEST_ENGINE})`, () => {
    async function withKey(t: TestContext) {
      const fresh = await fileDatabase(t);
      const { row: account } = await findOrCreateAccount(fresh.db, REQUEST, NOW);
      const { row } = await issueKey(fresh.db, account.id, NOW);
      return { ...fresh, key: row };
    }

    test('rotating twice: undefined the second time, one successor in the lineage', async (t) => {
      const { db, key } = await withKey(t);
      const successor = await rotateKey(db, key.id, 24, NOW);
      assert.ok(successor);
      assert.equal(successor.row.lineage_id, key.lineage_id);
      assert.equal(await rotateKey(db, key.id, 24, NOW), undefined);
      const keys = await allKeys(db);
      assert.equal(keys.length, 2);
      const old = keys.find((row) => row.id === key.id);
      assert.equal(old?.replaced_by, successor.row.id);
      assert.equal(old?.expires_at, new Date(NOW.getTime() + 24 * 3_600_000).toISOString());
    });

    test('rotating a revoked or an unknown key: undefined, nothing issued', async (t) => {
      const { db, key } = await withKey(t);
      assert.equal(await revokeKey(db, key.id, NOW), true);
      assert.equal(await rotateKey(db, key.id, 24, NOW), undefined);
      assert.equal(await rotateKey(db, 'key_0000000000000000', 24, NOW), undefined);
      const keys = await allKeys(db);
      assert.equal(keys.length, 1);
      assert.deepEqual([keys[0]?.expires_at, keys[0]?.replaced_by], [null, null]);
    });

    test('two rotations at once, on two connections: exactly one successor', async (t) => {
      const { url, db, key } = await withKey(t);
      const [first, second] = await race(url, { op: 'rotate', id: key.id }, { op: 'rotate', id: key.id });
      assert.ok(first && 'keyId' in first);
      assert.equal(second, null);
      const keys = await allKeys(db);
      assert.deepEqual(keys.map((row) => row.id).sort(), [key.id, first.keyId].sort());
      assert.equal(keys.find((row) => row.id === key.id)?.replaced_by, first.keyId);
    });
  });
}
