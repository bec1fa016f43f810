/**
 * PostgreSQL tells every instance of every write by NOTIFY (migration 0019, db/change-listener.ts),
 * so the data version costs no round trip; the PostgreSQL pass only. The multi-instance test shows
 * the same end to end (a write through one server process ends reuse in the other).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import pg from 'pg';
import { createDb, type Db } from '../../src/db/create-db.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { freshDatabaseUrl, TEST_ENGINE } from '../helpers/database.js';

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

async function listeningDb(t: { after: (fn: () => Promise<void>) => void }, url: string, poolSize = 10): Promise<Db> {
  const db = createDb(url, { poolSize });
  t.after(() => db.close());
  await migrateToLatest(db);
  await db.version(); // starts listening
  await until('the listener', () => (db.versionSource() === 'notify' ? true : undefined));
  return db;
}

test('every table of the schema tells of its writes', async (t) => {
  assert.equal(TEST_ENGINE, 'postgres', 'test/postgres/ runs in the PostgreSQL pass only');
  const db = createDb(await freshDatabaseUrl(t));
  t.after(() => db.close());
  await migrateToLatest(db);
  const { rows } = await sql<{ table: string; triggered: boolean }>`
    select c.relname as table,
      exists (select 1 from pg_trigger g where g.tgrelid = c.oid and g.tgname = 'kmp_notify_change') as triggered
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = current_schema() and c.relkind in ('r', 'p') and c.relname not like 'kysely_%'
    order by 1`.execute(db.kysely);
  assert.ok(rows.length >= 25, `${rows.length} tables`);
  assert.deepEqual(
    rows.filter((r) => !r.triggered).map((r) => r.table),
    [],
    'a table added by a migration needs notifyChanges (migrations/0019-change-notify.ts)',
  );
});

test('the data version: no round trip while listening, moved by any committed write', async (t) => {
  const url = await freshDatabaseUrl(t);
  const db = await listeningDb(t, url, 1);
  const other = new pg.Client({ connectionString: url });
  await other.connect();
  t.after(() => other.end());

  const v0 = await db.version();
  assert.equal(await db.version(), v0, 'no write, no change');

  // With the pool's only connection held, a version that needed a query could not be answered.
  const held = db.kysely.transaction().execute(async (trx) => {
    await sql`select pg_sleep(0.5)`.execute(trx);
  });
  const started = Date.now();
  assert.equal(await db.version(), v0);
  assert.ok(Date.now() - started < 400, 'answered without waiting for a connection');
  await held;
  assert.equal(await db.version(), v0, 'a transaction that only read moves nothing');
  await db.kysely.transaction().execute(async (trx) => {
    await trx.insertInto('meta').values({ key: 'own-write', value: '1' }).execute();
  });
  const v1 = await db.version();
  assert.notEqual(v1, v0, "the instance's own commit moves it at once");
  // Its own notification comes too; wait for it, so the counts below start from a quiet state.
  const settled = async () => {
    let last = await db.version();
    for (;;) {
      await sleep(150);
      const now = await db.version();
      if (now === last) return now;
      last = now;
    }
  };
  const v1Settled = await settled();

  // A statement that changes no row tells nothing (the sweeps send such updates every few seconds);
  // another client's write that changes one does.
  await other.query(`update jobs set title = title where id = 'none'`);
  await other.query(`insert into meta (key, value) values ('change-notify-test', '1')`);
  await until('the notification', async () => ((await db.version()) !== v1Settled ? true : undefined));
  const v2 = await settled();
  const changes = (version: string) => Number(version.split(':')[1]?.split('.')[1]);
  assert.equal(changes(v2), changes(v1Settled) + 1, 'the update of no row told nothing, the insert once');

  // A rolled-back write tells nothing; a write in another schema of the database neither.
  await other.query('begin');
  await other.query(`update meta set value = '2' where key = 'change-notify-test'`);
  await other.query('rollback');
  const elsewhere = await freshDatabaseUrl(t);
  const stranger = createDb(elsewhere);
  t.after(() => stranger.close());
  await migrateToLatest(stranger);
  await stranger.kysely.insertInto('meta').values({ key: 'stranger', value: '1' }).execute();
  // A notification that did count would have arrived long before a fresh write's, which comes next.
  await other.query(`update meta set value = '3' where key = 'change-notify-test'`);
  const v3 = await until('the notification of the next write', async () => {
    const v = await db.version();
    return v !== v2 ? v : undefined;
  });
  assert.equal(changes(v3), changes(v2) + 1, 'only the one committed write of this schema counted');
});

test('a lost listening connection: asks the database meanwhile, never reuses a version from before', async (t) => {
  const url = await freshDatabaseUrl(t);
  const db = await listeningDb(t, url);
  const before = await db.version();
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  t.after(() => admin.end());
  const { rows } = await admin.query<{ n: number }>(
    `select count(*)::int as n from (select pg_terminate_backend(pid) from pg_stat_activity
      where application_name = 'kmp-change-listener' and datname = current_database()) killed`,
  );
  assert.equal(rows[0]?.n, 1);
  await until('the loss', () => (db.versionSource() === 'query' ? true : undefined));
  const meanwhile = await db.version();
  assert.notEqual(meanwhile, before);
  assert.match(meanwhile, /:s\d+:\d+:/, 'the snapshot, asked of the database');
  await until('listening again', async () => {
    await db.version();
    return db.versionSource() === 'notify' ? true : undefined;
  });
  const after = await db.version();
  assert.notEqual(after, before, 'a new connection, a new generation: answers from before are not reused');
  await admin.query(`insert into meta (key, value) values ('after-reconnect', '1')`);
  await until('a notification on the new connection', async () => ((await db.version()) !== after ? true : undefined));
});
