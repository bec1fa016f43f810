// Runs the test suite with Node's own test runner (TypeScript through tsx), once per database
// engine: every test file on SQLite, then the files that talk to the database through the app
// (BOTH_ENGINES) and the PostgreSQL-only ones (test/postgres/) on PostgreSQL, in a database
// created for the run and dropped afterwards.
//
//   npm test                              every engine there is (PostgreSQL when reachable)
//   npm test -- test/http/jobs.test.ts    one file, on every engine it belongs to
//   npm test -- test/mcp test/access      the files of folders
//   TEST_ENGINES=sqlite npm test          one engine
//
// Each engine's run is followed by the request check (scripts/check-requests.mjs): every request the
// tests sent that the server accepted must be valid against the served OpenAPI document. The run
// logs them through test/helpers/request-log.mjs, loaded into every Node process it starts (NODE_OPTIONS).
// REQUEST_CHECK=off skips it.
//
// PostgreSQL is found at TEST_POSTGRES_ADMIN_URL (default postgres://postgres@127.0.0.1:5432/postgres).
// When it does not answer, the run goes on with SQLite alone and says so, unless CI=true: then
// a missing PostgreSQL fails the run. Node 20 has no glob support in --test, hence the file list.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';

const BOTH_ENGINES = [
  'test/http/',
  'test/services/',
  'test/access/',
  'test/mcp/',
  'test/cli/key-lifecycle.test.ts',
  'test/search/relevance.test.ts',
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

// A folder stands for its test files (Node 20's --test given a folder runs nothing, and passes).
const requested = process.argv
  .slice(2)
  .flatMap((arg) => (statSync(arg).isDirectory() ? testFiles(arg.replace(/\/+$/, '')).sort() : [arg]));
const all = requested.length > 0 ? requested : testFiles('test').sort();
const files = {
  sqlite: all.filter((f) => !f.startsWith(POSTGRES_ONLY)),
  postgres: all.filter((f) => f.startsWith(POSTGRES_ONLY) || BOTH_ENGINES.some((prefix) => f.startsWith(prefix))),
};
const wanted = (process.env.TEST_ENGINES ?? 'sqlite,postgres').split(',').map((e) => e.trim());

const REQUEST_CHECK = process.env.REQUEST_CHECK !== 'off';
const REQUEST_LOG = resolve('test/helpers/request-log.mjs');

/** Runs the files on one engine, then the request check over what they sent; 0 when both pass. */
function run(engine, list, env) {
  if (list.length === 0) return { status: 0, check: 'none' };
  process.stdout.write(`\n=== ${engine}: ${list.length} test file(s) ===\n`);
  const logDir = REQUEST_CHECK ? mkdtempSync(join(tmpdir(), `requests-${engine}-`)) : undefined;
  const logging = logDir
    ? {
        REQUEST_LOG_DIR: logDir,
        NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${REQUEST_LOG}`.trim(),
      }
    : {};
  try {
    const result = spawnSync(
      process.execPath,
      // A test that hangs fails after 15 minutes instead of holding the run (and CI) forever.
      ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=2', '--test-timeout=900000', ...list],
      { stdio: 'inherit', env: { ...process.env, TEST_DATABASE: engine, ...env, ...logging } },
    );
    if (!logDir) return { status: result.status ?? 1, check: 'off' };
    const checked = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/check-requests.mjs', logDir], {
      stdio: 'inherit',
    });
    return { status: result.status ?? 1, check: checked.status === 0 ? 'passed' : 'FAILED' };
  } finally {
    if (logDir) rmSync(logDir, { recursive: true, force: true });
  }
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
  const { status, check } = run('sqlite', files.sqlite, {});
  ran += 1;
  failed ||= status !== 0 || check === 'FAILED';
  summary.push(`sqlite: ${files.sqlite.length} file(s) ${status === 0 ? 'passed' : 'FAILED'}; request check ${check}`);
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
      const { status, check } = run('postgres', files.postgres, { TEST_POSTGRES_URL: url.toString() });
      ran += 1;
      failed ||= status !== 0 || check === 'FAILED';
      summary.push(
        `postgres: ${files.postgres.length} file(s) ${status === 0 ? 'passed' : 'FAILED'}; request check ${check}`,
      );
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
