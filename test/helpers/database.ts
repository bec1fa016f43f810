/**
 * The engine a test file runs on. `npm test` (scripts/run-tests.mjs) runs the suite once on SQLite
 * and once more on PostgreSQL with TEST_DATABASE=postgres and TEST_POSTGRES_URL naming a database
 * it created for the run. Each test database is a fresh in-memory SQLite database (or file) or a
 * fresh PostgreSQL schema, dropped when the test ends.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, type TestContext } from 'node:test';
import pg from 'pg';
import { createDb, type Db, type DialectName } from '../../src/db/create-db.js';
import { migrateToLatest } from '../../src/db/migrate.js';

export const TEST_ENGINE: DialectName = process.env.TEST_DATABASE === 'postgres' ? 'postgres' : 'sqlite';

function runDatabaseUrl(): URL {
  const url = process.env.TEST_POSTGRES_URL;
  if (!url) throw new Error('TEST_DATABASE=postgres needs TEST_POSTGRES_URL (npm test sets both).');
  return new URL(url);
}

/**
 * Each test process (one per test file) gets a database of its own, next to the run's database,
 * and a schema per test inside it. Files run in parallel; sharing one database, one file's
 * dropping a schema could break another's catalog scan (Kysely's migrator introspects every
 * schema). Dropped when the file's tests end; the runner drops any left behind by a crash.
 */
interface ProcessDatabase {
  url: URL;
  admin: pg.Client;
}

/** Created once, on first use; concurrent first uses share the one creation. */
let processDb: Promise<ProcessDatabase> | undefined;

/** Runs one statement on the run's database, on a connection of its own. */
async function onRunDatabase(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: runDatabaseUrl().toString() });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

async function createProcessDatabase(): Promise<ProcessDatabase> {
  const url = runDatabaseUrl();
  url.pathname = `${url.pathname}_p${process.pid}`;
  await onRunDatabase(`create database ${url.pathname.slice(1)}`);
  // A client, not a pool: its end() resolves once the connection is closed, so dropping the
  // database afterwards never terminates it under a live handler.
  const admin = new pg.Client({ connectionString: url.toString() });
  await admin.connect();
  return { url, admin };
}

if (TEST_ENGINE === 'postgres') {
  after(async () => {
    const created = processDb;
    processDb = undefined;
    if (!created) return;
    const { url, admin } = await created;
    await admin.end();
    await onRunDatabase(`drop database if exists ${url.pathname.slice(1)} with (force)`);
  });
}

interface FreshDatabase {
  url: string;
  /** Removes the database; call after everything using it has closed. */
  drop(): Promise<void>;
}

/**
 * A fresh, empty database (no tables yet): in-memory SQLite, a SQLite file in a temporary folder
 * (shared by processes, unlike :memory:), or a new PostgreSQL schema put first on the search_path of
 * every connection through the URL's `options`, so server processes given the URL use it too.
 */
async function freshDatabase(file: boolean): Promise<FreshDatabase> {
  if (TEST_ENGINE === 'sqlite') {
    if (!file) return { url: 'sqlite::memory:', drop: async () => {} };
    const dir = mkdtempSync(join(tmpdir(), 'kmp-test-'));
    return { url: `sqlite:${join(dir, 'test.db')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  processDb ??= createProcessDatabase();
  const { url: base, admin } = await processDb;
  const schema = `t_${randomBytes(6).toString('hex')}`;
  await admin.query(`create schema ${schema}`);
  const url = new URL(base);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return { url: url.toString(), drop: async () => void (await admin.query(`drop schema ${schema} cascade`)) };
}

/**
 * The DATABASE_URL of a fresh, empty database for this test, for server processes the test starts;
 * dropped when the test ends. `t.after` hooks run in the order they were added, so the database
 * goes before processes started later are killed: stop them in the test (as the tests here do);
 * after a failure, the kill comes a moment later and harms nothing.
 */
export async function freshDatabaseUrl(t: Pick<TestContext, 'after'>, { file = true } = {}): Promise<string> {
  const fresh = await freshDatabase(file);
  t.after(() => fresh.drop());
  return fresh.url;
}

/** A fresh, migrated database and how to close and drop it. */
export async function openTestDb({ file = false } = {}): Promise<{ db: Db; url: string; dispose(): Promise<void> }> {
  const fresh = await freshDatabase(file);
  const db = createDb(fresh.url);
  const dispose = async () => {
    await db.close();
    await fresh.drop();
  };
  try {
    await migrateToLatest(db);
  } catch (error) {
    await dispose();
    throw error;
  }
  return { db, url: fresh.url, dispose };
}

/** A fresh, migrated database, closed and dropped when the test ends. */
export async function createTestDb(t: Pick<TestContext, 'after'>, options: { file?: boolean } = {}): Promise<Db> {
  const { db, dispose } = await openTestDb(options);
  t.after(dispose);
  return db;
}
