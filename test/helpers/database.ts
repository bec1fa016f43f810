/**
 * The engine a test file runs on. `npm test` (scripts/run-tests.mjs) runs the suite once on SQLite
 * and once more on PostgreSQL with TEST_DATABASE=postgres and TEST_POSTGRES_URL naming a database
 * it created for the run. Each test database is a fresh in-memory SQLite database (or file) or a
 * fresh PostgreSQL schema, dropped when the test ends. A migrated database is not migrated per test:
 * it is a copy of one migrated once (migratedSqliteImage, dumpMigratedSchema), a fraction of the cost.
 */
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, type TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { sql } from 'kysely';
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
  /** The PostgreSQL schema, empty. */
  schema?: string;
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
  return { url: url.toString(), schema, drop: async () => void (await admin.query(`drop schema ${schema} cascade`)) };
}

/**
 * Fills the empty `schema` with a copy of the migrated one (dumpMigratedSchema): false when there is
 * no dump to copy, and the caller migrates.
 */
async function copyMigratedSchema(schema: string): Promise<boolean> {
  processDb ??= createProcessDatabase();
  const processDatabase = await processDb;
  migratedSql ??= dumpMigratedSchema(processDatabase);
  const sql = await migratedSql;
  if (sql === undefined) return false;
  // Into the empty schema; the dump's SETs change only the admin connection's session.
  await processDatabase.admin.query(sql.replaceAll(TEMPLATE_SCHEMA, schema));
  return true;
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

/** What names the migrated schema in its dump (dumpMigratedSchema): replaced by each copy's own name. */
const TEMPLATE_SCHEMA = 'kmp_migrated_template';
const MIGRATION_SOURCES = fileURLToPath(new URL('../../src/db/', import.meta.url));

/**
 * The migrated schema as SQL: `pg_dump --schema` of a schema migrated once (tables, indexes,
 * functions, triggers, and the rows migrations write, kysely_migration among them, as INSERTs),
 * with the schema named TEMPLATE_SCHEMA. Replaying it makes a schema identical to a migrated one in
 * a quarter to a third of the time of running the 20-odd migrations (issue 29). Kept in the
 * temporary folder under a hash of src/db/migrations and migrate.ts, so one process of a run dumps
 * and the others read it; a changed migration makes a new file. Undefined when pg_dump cannot run
 * (not installed, or older than the server): each test then migrates its schema as before.
 */
let migratedSql: Promise<string | undefined> | undefined;

function migrationsHash(): string {
  const hash = createHash('sha256');
  const files = [
    join(MIGRATION_SOURCES, 'migrate.ts'),
    ...readdirSync(join(MIGRATION_SOURCES, 'migrations'))
      .sort()
      .map((name) => join(MIGRATION_SOURCES, 'migrations', name)),
  ];
  for (const file of files) hash.update(file).update(readFileSync(file));
  return hash.digest('hex').slice(0, 16);
}

async function dumpMigratedSchema({ url: base, admin }: ProcessDatabase): Promise<string | undefined> {
  const version =
    (await admin.query<{ v: string }>("select current_setting('server_version_num') as v")).rows[0]?.v ?? '';
  const cached = join(tmpdir(), `kmp-migrated-2-${migrationsHash()}-${version}.sql`);
  try {
    return readFileSync(cached, 'utf8');
  } catch {
    // not dumped yet in this run (or an earlier one with these migrations)
  }
  const schema = `${TEMPLATE_SCHEMA}_${process.pid}`;
  await admin.query(`create schema ${schema}`);
  try {
    const url = new URL(base);
    url.searchParams.set('options', `-c search_path=${schema}`);
    const db = createDb(url.toString());
    try {
      await migrateToLatest(db);
    } finally {
      await db.close();
    }
    const { stdout } = await promisify(execFile)(
      'pg_dump',
      ['--schema', schema, '--no-owner', '--no-privileges', '--inserts', '--dbname', base.toString()],
      { maxBuffer: 64 * 1024 * 1024 },
    );
    // pg_dump's psql meta-commands (\restrict since 15.14) are no SQL.
    const sql = stdout
      .split('\n')
      .filter((line) => !line.startsWith('\\'))
      .join('\n')
      .replaceAll(schema, TEMPLATE_SCHEMA)
      // The copy goes into the fresh schema freshDatabase made: not created twice.
      .replace(`CREATE SCHEMA ${TEMPLATE_SCHEMA};`, '');
    const partial = `${cached}.${process.pid}`;
    writeFileSync(partial, sql);
    renameSync(partial, cached);
    return sql;
  } catch (error) {
    process.stderr.write(
      `test database: migrating per test, pg_dump did not give a migrated schema: ${String(error)}\n`,
    );
    return undefined;
  } finally {
    await admin.query(`drop schema if exists ${schema} cascade`);
  }
}

/**
 * A migrated SQLite database as a file's bytes, made once per process: each test's database is a
 * copy (in memory, or written to its file) instead of running the migrations again, which took
 * about a seventh of an HTTP test file's CPU time in a profile (issue 29). Rollback-journal mode,
 * so that the image opens in memory; createDb switches a file copy to WAL as always.
 */
let sqliteImage: Promise<Buffer> | undefined;

async function migratedSqliteImage(): Promise<Buffer> {
  const dir = mkdtempSync(join(tmpdir(), 'kmp-migrated-'));
  try {
    const path = join(dir, 'migrated.db');
    const db = createDb(`sqlite:${path}`);
    try {
      await migrateToLatest(db);
      await sql`pragma journal_mode = delete`.execute(db.kysely);
    } finally {
      await db.close();
    }
    return readFileSync(path);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A fresh, migrated database and how to close and drop it. */
export async function openTestDb({ file = false } = {}): Promise<{ db: Db; url: string; dispose(): Promise<void> }> {
  const fresh = await freshDatabase(file);
  // SQLite: a copy of the database migrated once in this process, in memory or written to the file.
  if (TEST_ENGINE === 'sqlite') sqliteImage ??= migratedSqliteImage();
  const image = await sqliteImage;
  if (image && file) writeFileSync(fresh.url.slice('sqlite:'.length), image);
  const db = createDb(fresh.url, image && !file ? { sqliteImage: image } : {});
  const dispose = async () => {
    await db.close();
    await fresh.drop();
  };
  try {
    const copy =
      image !== undefined ||
      (TEST_ENGINE === 'postgres' && fresh.schema ? await copyMigratedSchema(fresh.schema) : false);
    if (!copy) await migrateToLatest(db);
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
