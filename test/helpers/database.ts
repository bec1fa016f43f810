/**
 * The engine a test file runs on. `npm test` (scripts/run-tests.mjs) runs the suite once on SQLite
 * and once more on PostgreSQL with TEST_DATABASE=postgres and TEST_POSTGRES_URL naming a database
 * it created for the run. Each test database is a fresh in-memory SQLite database or a fresh
 * PostgreSQL schema, dropped when the test ends.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import pg from 'pg';
import { createDb, type Db, type DialectName } from '../../src/db/create-db.js';
import { migrateToLatest } from '../../src/db/migrate.js';

export const TEST_ENGINE: DialectName = process.env.TEST_DATABASE === 'postgres' ? 'postgres' : 'sqlite';

function postgresUrl(): string {
  const url = process.env.TEST_POSTGRES_URL;
  if (!url) throw new Error('TEST_DATABASE=postgres needs TEST_POSTGRES_URL (npm test sets both).');
  return url;
}

let admin: pg.Pool | undefined;

/** One small pool per test process for creating and dropping schemas. */
function adminPool(): pg.Pool {
  admin ??= new pg.Pool({ connectionString: postgresUrl(), max: 1 });
  return admin;
}

/** Closes the schema pool; test files that use PostgreSQL schemas end with it (see below). */
async function closeAdmin(): Promise<void> {
  const pool = admin;
  admin = undefined;
  await pool?.end();
}

interface FreshDatabase {
  url: string;
  /** Removes the database; call after everything using it has closed. */
  drop(): Promise<void>;
}

let liveSchemas = 0;

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
  const schema = `t_${randomBytes(6).toString('hex')}`;
  await adminPool().query(`create schema ${schema}`);
  liveSchemas += 1;
  const url = new URL(postgresUrl());
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: url.toString(),
    drop: async () => {
      await adminPool().query(`drop schema ${schema} cascade`);
      // The last schema of a file closes the pool, so the test process can exit.
      if (--liveSchemas === 0) await closeAdmin();
    },
  };
}

/**
 * The DATABASE_URL of a fresh, empty database for this test, for server processes the test starts;
 * dropped when the test ends. Start the processes after calling this, so they stop first.
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
