// Runs the test suite with Node's own test runner (TypeScript through tsx) on every database engine:
// every test file on SQLite, and the files that talk to the database through the app (BOTH_ENGINES)
// and the PostgreSQL-only ones (test/postgres/) on PostgreSQL as well, in a database created for
// the run and dropped afterwards.
//
//   npm test                              every engine there is (PostgreSQL when reachable)
//   npm test -- test/http/jobs.test.ts    one file, on every engine it belongs to
//   npm test -- test/mcp test/access      the files of folders
//   TEST_ENGINES=sqlite npm test          one engine
//   TEST_CONCURRENCY=3 npm test           files run at once (default: one and a half per core)
//
// Each (engine, file) pair runs in a `node --test` process, short files of an engine several to a
// process (batched(), below); a pool keeps TEST_CONCURRENCY of them running, both engines mixed,
// the slowest first (test/durations.json, written by `TEST_DURATIONS=write npm test`), so the run
// ends when its longest file does and not later. A process's output is printed whole when it ends,
// under its engine, files and seconds; the 15 slowest close the run, then the request check (scripts/check-requests.mjs: every request the tests
// sent that the server accepted must be valid against the served OpenAPI document; the run logs
// them through test/helpers/request-log.mjs, loaded into every Node process it starts through
// NODE_OPTIONS; REQUEST_CHECK=off skips it), and last the counts as `N passed, N failed`.
//
// A test process ends once its tests have (--test-force-exit), whatever they left referenced; a job
// that runs longer than TEST_FILE_LIMIT_SECONDS (900) is killed with every process it started, after
// its diagnostic report named what kept it running, and run once more (a second hang fails).
//
// PostgreSQL is found at TEST_POSTGRES_ADMIN_URL (default postgres://postgres@127.0.0.1:5432/postgres).
// When it does not answer, the run goes on with SQLite alone and says so, unless CI=true: then a
// missing PostgreSQL fails the run, and so does a run longer than TEST_BUDGET_MINUTES (30), so a
// suite that grows towards CI's hard limit is seen long before it reaches it.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { buildIfStale } from './build.mjs';

const BOTH_ENGINES = [
  'test/http/',
  'test/services/',
  'test/access/',
  'test/mcp/',
  'test/cli/key-lifecycle.test.ts',
  // Operators and the audit log: its append-only trigger is the engine's own (issue 33).
  'test/cli/admin-operators.test.ts',
  'test/search/relevance.test.ts',
  'test/hardening/crash.test.ts',
  // Sign-up, sign-in, passkeys and OAuth in Chromium: sessions, codes, passkeys and grants are stored on both (issue 31).
  'test/browser/sign-in.test.ts',
  'test/browser/passkeys.test.ts',
  'test/browser/mcp-oauth.test.ts',
  // The operators' console: roles, sessions and the audit log are stored on both (issue 33).
  'test/browser/console.test.ts',
  'test/browser/console-queues.test.ts',
];
/**
 * Files in those folders that no database engine can change the outcome of: they test the OpenAPI
 * document, the documents' serving, the request check's own machinery, the compression of answers
 * and the tool schemas, all built from the route registry. Their SQLite pass proves everything
 * they prove; a second pass on PostgreSQL cost four minutes of file time and proved it again.
 */
const ENGINE_INDEPENDENT = [
  'test/http/openapi.test.ts',
  'test/http/openapi-size.test.ts',
  'test/http/request-check.test.ts',
  'test/http/documents.test.ts',
  'test/http/discovery.test.ts',
  'test/http/compression.test.ts',
  'test/mcp/tool-schemas.test.ts',
];
const POSTGRES_ONLY = 'test/postgres/';
const ADMIN_URL = process.env.TEST_POSTGRES_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const CI = /^(1|true)$/i.test(process.env.CI ?? '');
// Test files wait much of their time (servers starting, SMTP, timers, the database): with one file
// per core the fresh-clone run kept the two cores 63 % busy (issue 29), so half a file more per core.
const CONCURRENCY = Math.max(1, Number(process.env.TEST_CONCURRENCY) || Math.ceil(availableParallelism() * 1.5));
const BUDGET_MINUTES = Number(process.env.TEST_BUDGET_MINUTES) || 30;
const DURATIONS = 'test/durations.json';
const REQUEST_CHECK = process.env.REQUEST_CHECK !== 'off';
const REQUEST_LOG = resolve('test/helpers/request-log.mjs');

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
  postgres: all.filter(
    (f) =>
      f.startsWith(POSTGRES_ONLY) ||
      (BOTH_ENGINES.some((prefix) => f.startsWith(prefix)) && !ENGINE_INDEPENDENT.includes(f)),
  ),
};
const wanted = (process.env.TEST_ENGINES ?? 'sqlite,postgres').split(',').map((e) => e.trim());

async function withAdmin(action) {
  const client = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 3_000 });
  await client.connect();
  try {
    return await action(client);
  } finally {
    await client.end();
  }
}

/** Seconds each (engine, file) took in an earlier run, to start the slowest first. */
const known = existsSync(DURATIONS) ? JSON.parse(readFileSync(DURATIONS, 'utf8')) : {};
const keyOf = (job) => `${job.engine} ${job.file}`;

/**
 * Where this Node has it (24; 20 has not), `--test-isolation=none` runs the file's tests in
 * the `node --test` process itself instead of a second process it would start for the one file:
 * about 0.3 s of CPU and 0.5 s less per file (issue 29), and lets short files share it (batched()).
 */
const IN_PROCESS = process.allowedNodeEnvironmentFlags.has('--test-isolation') ? ['--test-isolation=none'] : [];

/** The test files of a job, as its header and the summaries name them. */
const labelOf = (job) => (job.files.length === 1 ? job.files[0] : `${job.files.length} files: ${job.files.join(', ')}`);

/** The files a failed run names in the spec reporter's failure list (`test at <file>:line:col`). */
function failedFiles(job, text) {
  const named = new Set();
  for (const match of text.matchAll(/test at (?:file:\/\/)?(\S+?):\d+:\d+/g)) {
    const file = job.files.find((f) => match[1].endsWith(f));
    if (file) named.add(file);
  }
  return named.size > 0 ? [...named] : job.files;
}

/**
 * A job's wall-clock limit (TEST_FILE_LIMIT_SECONDS, default 900): a process still running then is
 * killed with everything it started, its output kept with the tests it had begun but not ended and
 * the handles that kept it running, and the job is run once more (runPool; a second hang fails),
 * instead of holding the run until CI's hard limit. Stop 50's CI met such a hang: one PostgreSQL
 * batch never ended and the run was stopped at 90 minutes without naming it (the races test's
 * workers had inherited --test: docs/development.md). A job takes about 100 s at most: 900 s leaves
 * room for a slow day, and a hang and its second run still end far within CI's 90 minutes.
 */
const FILE_LIMIT_SECONDS = Number(process.env.TEST_FILE_LIMIT_SECONDS) || 900;
/** After a test process exits, how long its output may stay open (held by a process it started). */
const OUTPUT_GRACE_MS = 5_000;
/** The process groups of the jobs running, killed when the run itself is stopped (then `stopping`). */
const running = new Set();
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, async () => {
    stopping = true;
    for (const pid of running) killGroup(pid);
    for (const check of checking) check.kill('SIGKILL');
    for (const dir of Object.values(logDirs)) rmSync(dir, { recursive: true, force: true });
    await dropRunDatabases().catch(() => {});
    process.exit(130);
  });

/** Where a job that overruns writes its diagnostic report. */
const REPORTS = mkdtempSync(join(tmpdir(), 'test-reports-'));
process.on('exit', () => rmSync(REPORTS, { recursive: true, force: true }));

/**
 * The active handles (sockets, timers, child processes) of a test process, from the diagnostic
 * report it writes on SIGUSR2: what keeps a hung process alive, in a line each.
 */
async function handlesOf(pid) {
  try {
    process.kill(pid, 'SIGUSR2');
  } catch {
    return '  (the process has ended)';
  }
  for (let waited = 0; waited < 5_000; waited += 250) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const file = readdirSync(REPORTS).find((name) => name.includes(`.${pid}.`) && name.endsWith('.json'));
    if (!file) continue;
    try {
      const report = JSON.parse(readFileSync(join(REPORTS, file), 'utf8'));
      const lines = (report.libuv ?? [])
        .filter((h) => h.is_active && h.is_referenced !== false && h.type !== 'async' && h.type !== 'loop')
        .map(({ type, localEndpoint, remoteEndpoint, pid: child, fd, ...rest }) => {
          const where = [
            localEndpoint && `local ${localEndpoint.host}:${localEndpoint.port}`,
            remoteEndpoint && `remote ${remoteEndpoint.host}:${remoteEndpoint.port}`,
            child && `pid ${child}`,
            fd !== undefined && fd >= 0 && `fd ${fd}`,
            rest.repeat !== undefined && `repeat ${rest.repeat} ms, due in ${rest.firesInMsFromNow} ms`,
          ].filter(Boolean);
          return `  ${type}${where.length > 0 ? ` (${where.join(', ')})` : ''}`;
        });
      return lines.join('\n') || '  none referenced';
    } catch {
      // still being written
    }
  }
  return '  (no report within 5 s)';
}

/**
 * The processes (pid and name) of a process group still alive, zombies aside, from /proc (Linux;
 * elsewhere none are known): what a job's tests started and left running.
 */
function processesInGroup(pgid) {
  if (!existsSync('/proc')) return [];
  const found = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(group) === pgid && state !== 'Z') found.push(`${entry} ${name}`);
    } catch {
      // ended meanwhile
    }
  }
  return found;
}

/** Kills a job's process group: the `node --test` process and every process it started. */
function killGroup(pid) {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // the group has ended already
  }
}

/** The tests a spec reporter's output began (`▶ name`) but ended neither as passed nor as failed. */
function unfinished(text) {
  const begun = [...text.matchAll(/^\s*▶ (.+)$/gm)].map((m) => m[1]);
  const ended = new Set([...text.matchAll(/^\s*[✔✖﹣] (.+?)(?: \([\d.]+m?s\))?(?: # .*)?$/gm)].map((m) => m[1]));
  return begun.filter((name) => !ended.has(name));
}

/** One job (a test file, or a batch of short ones) on one engine: one `node --test` process, output kept until it ends. */
function runFile(job) {
  return new Promise((done) => {
    const started = performance.now();
    const child = spawn(
      process.execPath,
      [
        // A young generation of 64 MiB: the tests allocate much that dies young (apps, answers); with
        // Node's default the scavenges took about a tenth of a test process's CPU (issue 29).
        '--max-semi-space-size=64',
        '--import',
        'tsx',
        '--test',
        ...IN_PROCESS,
        '--test-reporter=spec',
        // The process ends once its tests (and their after hooks) have, even if a timer, socket or
        // child process is still referenced: such a leftover can no longer hold the job after its
        // tests passed (Node 20.14 and later, 22, 24). A test that hangs meets the job's limit.
        '--test-force-exit',
        // On SIGUSR2 a diagnostic report (handles, stacks) for an overrun job (handlesOf).
        '--report-on-signal',
        '--report-signal=SIGUSR2',
        `--report-directory=${REPORTS}`,
        // Longer than the job's limit (FILE_LIMIT_SECONDS), so a test that hangs is caught by that
        // limit: killed, reported with what kept it and run once more. A test's own timeout stays.
        '--test-timeout=1200000',
        ...job.files,
      ],
      {
        env: {
          ...process.env,
          TEST_DATABASE: job.engine,
          FORCE_COLOR: '0',
          ...job.env,
          ...(job.files.length > 1 && { REQUEST_LOG_SOURCE: job.files.join(' + ') }),
        },
        // A process group of its own: killed whole when the job ends or overruns (killGroup).
        detached: true,
      },
    );
    running.add(child.pid);
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    let overran = false;
    const limit = setTimeout(async () => {
      overran = true;
      const begun = unfinished(Buffer.concat(output).toString());
      const handles = await handlesOf(child.pid);
      output.push(
        Buffer.from(
          `\nrun-tests: the job did not end within ${FILE_LIMIT_SECONDS} s (TEST_FILE_LIMIT_SECONDS): killed with every process it started.` +
            `\nrun-tests: begun and not ended: ${begun.length > 0 ? begun.join(' > ') : 'none (hung after its tests, e.g. a handle left open)'}` +
            `\nrun-tests: what kept it running (its diagnostic report's active handles):\n${handles}\n`,
        ),
      );
      killGroup(child.pid);
    }, FILE_LIMIT_SECONDS * 1000);
    // Whatever the job started and left running (a server, a browser) goes with it, and so does
    // the output such a process still holds open: 'close' waits for that, 'exit' does not.
    let grace;
    let leftovers = [];
    child.on('exit', () => {
      clearTimeout(limit);
      leftovers = processesInGroup(child.pid);
      if (leftovers.length > 0)
        output.push(
          Buffer.from(`\nrun-tests: left running when the test process ended, now killed: ${leftovers.join(', ')}\n`),
        );
      killGroup(child.pid);
      grace = setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
      }, OUTPUT_GRACE_MS);
    });
    child.on('close', (code, signal) => {
      clearTimeout(limit);
      clearTimeout(grace);
      running.delete(child.pid);
      const text = Buffer.concat(output).toString();
      // The last summary is the process's own: a test's child processes may print theirs before it
      // (test/access/races.test.ts: each child's empty one), which the first match took (issue 29).
      const count = (name) => Number([...text.matchAll(new RegExp(`^[ℹ#] ${name} (\\d+)$`, 'gm'))].at(-1)?.[1] ?? 0);
      done({
        ...job,
        ok: code === 0 && !overran,
        overran,
        leftovers,
        status: overran ? `killed after ${FILE_LIMIT_SECONDS} s` : (code ?? signal),
        seconds: (performance.now() - started) / 1000,
        passed: count('pass'),
        failed: count('fail') + count('cancelled') + (code === 0 ? 0 : count('fail') === 0 ? 1 : 0),
        failedFiles: code === 0 ? [] : failedFiles(job, text),
        skipped: count('skipped') + count('todo'),
        text,
      });
    });
  });
}

/**
 * Batches of short files (issue 29): where the files run in the `node --test` process itself
 * (IN_PROCESS), short files of one engine share a process, up to TEST_BATCH_SECONDS (120) of their
 * known seconds, so the modules load and the app's schemas compile once for the batch instead of
 * once per file (about 3.5 CPU-seconds each, measured in a CPU profile). Files of TEST_SOLO_SECONDS
 * (40) and more, files with hooks at their top level (before/after on the run's root would span the
 * batch) and unknown files run alone. TEST_BATCH_SECONDS=0 runs every file alone.
 */
const BATCH_SECONDS = Number(process.env.TEST_BATCH_SECONDS ?? 120);
const SOLO_SECONDS = Number(process.env.TEST_SOLO_SECONDS ?? 40);
const ROOT_HOOK = /^(before|after|beforeEach|afterEach)\(/m;

function batched(jobs) {
  const alone = (job) =>
    IN_PROCESS.length === 0 ||
    BATCH_SECONDS <= 0 ||
    !(keyOf(job) in known) ||
    known[keyOf(job)] >= SOLO_SECONDS ||
    ROOT_HOOK.test(readFileSync(job.file, 'utf8'));
  const result = [];
  const open = {};
  // The longest first, each into the first batch of its engine it fits (first-fit decreasing).
  for (const job of [...jobs].sort((a, b) => (known[keyOf(b)] ?? 0) - (known[keyOf(a)] ?? 0))) {
    if (alone(job)) {
      result.push({ ...job, files: [job.file] });
      continue;
    }
    open[job.engine] ??= [];
    const seconds = known[keyOf(job)];
    let batch = open[job.engine].find((b) => b.seconds + seconds <= BATCH_SECONDS);
    if (!batch) {
      batch = { ...job, files: [], seconds: 0 };
      open[job.engine].push(batch);
      result.push(batch);
    }
    batch.files.push(job.file);
    batch.seconds += seconds;
  }
  return result.map(({ seconds, file, ...job }) => job);
}

/**
 * Runs the jobs TEST_CONCURRENCY at a time, the slowest known first; prints each as it ends, and
 * calls `engineDone(engine)` once the last job of an engine has ended.
 */
/** The seconds of the runs killed as hung: said, and not counted against TEST_BUDGET_MINUTES. */
let hungSeconds = 0;

async function runPool(jobs, engineDone = () => {}) {
  const left = {};
  for (const job of jobs) left[job.engine] = (left[job.engine] ?? 0) + 1;
  const average = Object.values(known).reduce((a, b) => a + b, 0) / Math.max(1, Object.keys(known).length) || 10;
  const estimate = (job) => job.files.reduce((sum, file) => sum + (known[`${job.engine} ${file}`] ?? average * 2), 0);
  const queue = [...jobs].sort((a, b) => estimate(b) - estimate(a));
  const results = [];
  const worker = async () => {
    for (let job = queue.shift(); job && !stopping; job = queue.shift()) {
      let result = await runFile(job);
      if (result.overran) {
        // A hang is run once more, in full, and named in the summary (hungOnce); a second hang fails.
        process.stdout.write(
          `\n=== ${result.engine}: ${labelOf(result)} HUNG (${result.status}); its output, then a second run ===\n${result.text}`,
        );
        hungSeconds += result.seconds;
        result = { ...(await runFile(job)), hungOnce: true };
      }
      results.push(result);
      const verdict = result.ok ? 'passed' : `FAILED (exit ${result.status})`;
      process.stdout.write(
        `\n=== ${result.engine}: ${labelOf(result)} ${verdict} in ${result.seconds.toFixed(1)} s [${results.length}/${jobs.length}] ===\n${result.text}`,
      );
      if (--left[job.engine] === 0) engineDone(job.engine);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, jobs.length) }, worker));
  return results;
}

const startedAt = performance.now();
const summary = [];
const jobs = [];
const logDirs = {};
let failed = false;
let runDatabase;

for (const engine of ['sqlite', 'postgres']) {
  if (!wanted.includes(engine) || files[engine].length === 0) continue;
  let env = {};
  if (engine === 'postgres') {
    const database = `kmp_test_${process.pid}_${Date.now().toString(36)}`;
    try {
      await withAdmin((client) => client.query(`create database ${database}`));
    } catch (error) {
      const reason = `PostgreSQL at ${ADMIN_URL.replace(/:[^:@/]*@/, ':***@')} is not usable (${error.message})`;
      summary.push(
        CI
          ? `postgres: FAILED: ${reason}; CI=true requires it`
          : `postgres: NOT RUN: ${reason}; start PostgreSQL to test it too`,
      );
      failed ||= CI;
      continue;
    }
    runDatabase = database;
    const url = new URL(ADMIN_URL);
    url.pathname = `/${database}`;
    env = { TEST_POSTGRES_URL: url.toString() };
  }
  if (REQUEST_CHECK) {
    logDirs[engine] = mkdtempSync(join(tmpdir(), `requests-${engine}-`));
    env.REQUEST_LOG_DIR = logDirs[engine];
    env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} --import=${REQUEST_LOG}`.trim();
  }
  for (const file of files[engine]) jobs.push({ engine, file, env });
}

// Server and command processes start from the build (test/helpers/server-process.ts entryArgs):
// built once here instead of compiled by tsx in every process. TEST_BUILD=off keeps tsx.
if (process.env.TEST_BUILD !== 'off' && jobs.length > 0) {
  buildIfStale({ typeErrors: 'ignore', log: (line) => process.stdout.write(`${line}\n`) });
  for (const job of jobs) job.env = { ...job.env, TEST_DIST: resolve('dist') };
}
const runs = batched(jobs);
process.stdout.write(
  `${jobs.length} test file run(s) in ${runs.length} process(es) (short files batched), ${CONCURRENCY} at a time\n`,
);
/**
 * An engine's request check (scripts/check-requests.mjs) starts as soon as its last test file has
 * ended, beside the other engine's files still running, instead of both after the whole run
 * (about 24 s each); its output is printed whole when it ends.
 */
const checks = {};
/** The request checks running, stopped with the run. */
const checking = new Set();
function startCheck(engine) {
  if (!logDirs[engine] || stopping) return;
  checks[engine] = new Promise((done) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/check-requests.mjs', logDirs[engine]], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    checking.add(child);
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('close', (code) => {
      checking.delete(child);
      process.stdout.write(`\n${Buffer.concat(output).toString()}`);
      rmSync(logDirs[engine], { recursive: true, force: true });
      done(code === 0 ? 'passed' : 'FAILED');
    });
  });
}
/** The run's database and the per-file ones next to it (test/helpers/database.ts), also those a crash left; also when the run is stopped. */
async function dropRunDatabases() {
  if (!runDatabase) return;
  await withAdmin(async (client) => {
    const { rows } = await client.query('select datname from pg_database where datname like $1', [`${runDatabase}%`]);
    for (const { datname } of rows) await client.query(`drop database if exists ${datname} with (force)`);
  });
}

let results = [];
try {
  results = await runPool(runs, startCheck);
} finally {
  await dropRunDatabases();
}

for (const engine of ['sqlite', 'postgres']) {
  const ran = results.filter((r) => r.engine === engine);
  if (ran.length === 0) continue;
  const bad = ran.flatMap((r) => r.failedFiles);
  const check = checks[engine] ? await checks[engine] : 'off';
  failed ||= bad.length > 0 || check === 'FAILED';
  const fileCount = ran.reduce((sum, r) => sum + r.files.length, 0);
  const leaving = ran.filter((r) => r.leftovers.length > 0).map((r) => `${labelOf(r)} (${r.leftovers.join(', ')})`);
  const hung = ran
    .filter((r) => r.hungOnce)
    .map((r) => `${labelOf(r)} (${r.ok ? 'passed' : 'FAILED'} the second time)`);
  summary.push(
    `${engine}: ${fileCount} file(s) ${bad.length === 0 ? 'passed' : `FAILED: ${bad.join(', ')}`}; request check ${check}` +
      (hung.length > 0
        ? `\n  ${engine}: HUNG, killed after ${FILE_LIMIT_SECONDS} s and run again: ${hung.join(', ')}; the first run's output is above`
        : '') +
      (leaving.length > 0
        ? `\n  ${engine}: LEFT PROCESSES RUNNING after their tests (killed; a test to mend): ${leaving.join('; ')}`
        : ''),
  );
}

if (process.env.TEST_DURATIONS === 'write' && results.length > 0) {
  const durations = { ...known };
  // A file's own seconds are known only when it ran alone; a batch's files keep their earlier ones
  // (a new file in no batch ran alone: unknown files are never batched).
  for (const r of results)
    if (r.files.length === 1) durations[`${r.engine} ${r.files[0]}`] = Math.round(r.seconds * 10) / 10;
  const sorted = Object.fromEntries(Object.entries(durations).sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(DURATIONS, `${JSON.stringify(sorted, null, 2)}\n`);
}

const minutes = (performance.now() - startedAt) / 60_000;
const slowest = [...results].sort((a, b) => b.seconds - a.seconds).slice(0, 15);
process.stdout.write(`\nThe ${slowest.length} slowest test files (seconds):\n`);
for (const r of slowest)
  process.stdout.write(`  ${r.seconds.toFixed(1).padStart(7)}  ${r.engine.padEnd(8)} ${labelOf(r)}\n`);
const fileSeconds = results.reduce((sum, r) => sum + r.seconds, 0);
process.stdout.write(
  `\nEngines tested (${minutes.toFixed(1)} min, ${(fileSeconds / 60).toFixed(1)} min of file time, ${CONCURRENCY} at a time):\n  ${summary.join('\n  ') || 'none (no test file matched)'}\n`,
);
// The budget measures the suite, not a hang: the seconds of killed runs (reported above, and at
// most what they cost the run, the other jobs going on beside them) are not counted against it.
const budgeted = minutes - hungSeconds / 60;
if (hungSeconds > 0)
  process.stdout.write(
    `\n${(hungSeconds / 60).toFixed(1)} min of it in runs killed as hung; ${budgeted.toFixed(1)} min count against the budget\n`,
  );
if (CI && budgeted > BUDGET_MINUTES) {
  process.stdout.write(
    `\nnpm test took ${budgeted.toFixed(1)} min, over its budget of ${BUDGET_MINUTES} min (TEST_BUDGET_MINUTES): CI stops at 90 min for everything and our target is 30. Make the slowest files above faster before adding more.\n`,
  );
  failed = true;
}
const total = (key) => results.reduce((sum, r) => sum + r[key], 0);
process.stdout.write(`\n${total('passed')} passed, ${total('failed')} failed, ${total('skipped')} skipped\n`);
// Nothing run is not a pass: e.g. only PostgreSQL files requested, and no PostgreSQL here.
process.exit(failed || results.length === 0 ? 1 : 0);
