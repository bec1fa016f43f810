// Runs the test suite with Node's own test runner (TypeScript through tsx), once per database
// engine: every test file on SQLite, then the files that talk to the database through the app
// (BOTH_ENGINES) and the PostgreSQL-only ones (test/postgres/) on PostgreSQL, in a database
// created for the run and dropped afterwards.
//
//   npm test                              every engine there is (PostgreSQL when reachable)
//   npm test -- test/http/jobs.test.ts    one file, on every engine it belongs to
//   TEST_ENGINES=sqlite npm test          one engine
//
// PostgreSQL is found at TEST_POSTGRES_ADMIN_URL (default postgres://postgres@127.0.0.1:5432/postgres).
// When it does not answer, the run goes on with SQLite alone and says so, unless CI=true: then
// a missing PostgreSQL fails the run. Node 20 has no glob support in --test, hence the file list.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';

const BOTH_ENGINES = [
  'test/http/',
  'test/services/',
  'test/access/',
  'test/mcp/',
  'test/cli/key-lifecycle.test.ts',
  'test/hardening/crash.test.ts',
];
const POSTGRES_ONLY = 'test/postgres/';
const ADMIN_URL = process.env.TEST_POSTGRES_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const CI = /^(1|true)$/i.test(process.env.CI ?? '');

function testFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

const requested = process.argv.slice(2);
const all = requested.length > 0 ? requested : testFiles('test').sort();
const files = {
  sqlite: all.filter((f) => !f.startsWith(POSTGRES_ONLY)),
  postgres: all.filter((f) => f.startsWith(POSTGRES_ONLY) || BOTH_ENGINES.some((prefix) => f.startsWith(prefix))),
};
const wanted = (process.env.TEST_ENGINES ?? 'sqlite,postgres').split(',').map((e) => e.trim());

function run(engine, list, env) {
  if (list.length === 0) return 0;
  process.stdout.write(`\n=== ${engine}: ${list.length} test file(s) ===\n`);
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=2', ...list],
    { stdio: 'inherit', env: { ...process.env, TEST_DATABASE: engine, ...env } },
  );
  return result.status ?? 1;
}

async function withAdmin(action) {
  const client = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 3_000 });
  await client.connect();
  try {
    return await action(client);
  } finally {
    await client.end();
  }
}

const summary = [];
let failed = false;
let ran = 0;

if (wanted.includes('sqlite') && files.sqlite.length > 0) {
  const status = run('sqlite', files.sqlite, {});
  ran += 1;
  failed ||= status !== 0;
  summary.push(`sqlite: ${files.sqlite.length} file(s) ${status === 0 ? 'passed' : 'FAILED'}`);
}

if (wanted.includes('postgres') && files.postgres.length > 0) {
  const database = `kmp_test_${process.pid}_${Date.now().toString(36)}`;
  let created = false;
  try {
    await withAdmin((client) => client.query(`create database ${database}`));
    created = true;
  } catch (error) {
    const reason = `PostgreSQL at ${ADMIN_URL.replace(/:[^:@/]*@/, ':***@')} is not usable (${error.message})`;
    if (CI) {
      summary.push(`postgres: FAILED: ${reason}; CI=true requires it`);
      failed = true;
    } else {
      summary.push(`postgres: NOT RUN: ${reason}; start PostgreSQL to test it too`);
    }
  }
  if (created) {
    const url = new URL(ADMIN_URL);
    url.pathname = `/${database}`;
    try {
      const status = run('postgres', files.postgres, { TEST_POSTGRES_URL: url.toString() });
      ran += 1;
      failed ||= status !== 0;
      summary.push(`postgres: ${files.postgres.length} file(s) ${status === 0 ? 'passed' : 'FAILED'}`);
    } finally {
      // The run's database and the per-file ones next to it (test/helpers/database.ts), also those a crash left.
      await withAdmin(async (client) => {
        const { rows } = await client.query('select datname from pg_database where datname like $1', [`${database}%`]);
        for (const { datname } of rows) await client.query(`drop database if exists ${datname} with (force)`);
      });
    }
  }
}

process.stdout.write(`\nEngines tested:\n  ${summary.join('\n  ') || 'none (no test file matched)'}\n`);
// Nothing run is not a pass: e.g. only PostgreSQL files requested, and no PostgreSQL here.
process.exit(failed || ran === 0 ? 1 : 0);
