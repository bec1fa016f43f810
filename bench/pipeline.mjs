// `npm run bench:pipeline`: what the request pipeline costs a reused answer (issue 34), in a few
// minutes instead of the full bench's hour. On a fresh database of each engine (an SQLite file, a
// PostgreSQL database at BENCH_POSTGRES_URL, dropped after) seeded with the default dataset,
// the service answers the reused reads (get job by id, categories, stats, estimate, availability,
// a hot job search) while a bare node:http hello and a bare Fastify hello answer theirs, each in
// turn for ROUNDS rounds of SECONDS s, with wrk on one core and every server on the other
// (taskset). It prints, per scenario, the median req/s and its ratio to hello, and the CPU each
// request cost the serving process in user and system time (/proc/<pid>/stat over the run): the
// CPU per request moves far less between runs of a noisy virtual machine than the throughput does.
//
//   BENCH_ENGINES=sqlite,postgres  BENCH_PIPELINE_ROUNDS=3  BENCH_SECONDS=5
//   BENCH_LOAD_CORE=0  BENCH_SERVICE_CORE=1  BENCH_POSTGRES_URL=postgres://postgres@127.0.0.1:5432/postgres
import { execFileSync, fork, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDatabase } from './databases.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ROUNDS = Number(process.env.BENCH_PIPELINE_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const LOAD_CORE = process.env.BENCH_LOAD_CORE ?? '0';
const SERVICE_CORE = process.env.BENCH_SERVICE_CORE ?? '1';
const ENGINES = (process.env.BENCH_ENGINES ?? 'sqlite,postgres').split(',').map((e) => e.trim());
const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** Clock ticks per second of /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const TICKS = 100;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

if (availableParallelism() < 2)
  throw new Error('bench:pipeline pins wrk and the servers to two cores: this machine has one');
for (const tool of ['wrk', 'taskset']) {
  try {
    execFileSync('sh', ['-c', `command -v ${tool}`]);
  } catch {
    throw new Error(`bench:pipeline needs ${tool} (Debian: apt-get install ${tool === 'wrk' ? 'wrk' : 'util-linux'})`);
  }
}

const dir = mkdtempSync(join(tmpdir(), 'kmp-pipeline-'));
const children = [];
process.on('exit', () => {
  for (const child of children) child.kill();
  rmSync(dir, { recursive: true, force: true });
});

/** User and system CPU seconds a process has spent so far. */
function cpuOf(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return { user: Number(fields[11]) / TICKS, system: Number(fields[12]) / TICKS };
}

/** One wrk run, pinned: requests per second, requests, non-2xx answers, and the CPU the server spent. */
function load(pid, url, headers = []) {
  const before = cpuOf(pid);
  const out = execFileSync('taskset', [
    '-c',
    LOAD_CORE,
    'wrk',
    '-t1',
    '-c32',
    `-d${SECONDS}s`,
    ...headers.flatMap((h) => ['-H', h]),
    url,
  ]).toString();
  const after = cpuOf(pid);
  const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? 0);
  const bad = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0),
    bad,
    userUs: ((after.user - before.user) * 1e6) / requests,
    systemUs: ((after.system - before.system) * 1e6) / requests,
  };
}

async function baseline(script, port) {
  const child = fork(join(ROOT, 'bench/servers', script), [String(port)], { stdio: 'ignore' });
  children.push(child);
  await once(child, 'message');
  execFileSync('taskset', ['-pc', SERVICE_CORE, String(child.pid)], { stdio: 'ignore' });
  return child;
}

/** The service on a seeded database of the engine, ready with its search index; its key and a job's id. */
async function startService(engine, databaseUrl, port) {
  process.stdout.write(`${engine}: seeding the default dataset...\n`);
  execFileSync(process.execPath, ['dist/cli/seed.js'], {
    cwd: ROOT,
    stdio: 'ignore',
    env: { PATH: process.env.PATH, DATABASE_URL: databaseUrl },
  });
  const { createDb } = await import(join(ROOT, 'dist/db/create-db.js'));
  const { findOrCreateAccount, issueKey } = await import(join(ROOT, 'dist/repositories/access.js'));
  const db = createDb(databaseUrl);
  const { row } = await findOrCreateAccount(
    db.kysely,
    { name: 'Pipeline bench', email: 'pipeline-bench@example.org', organisation: null, account_type: 'commercial' },
    new Date(),
  );
  const key = (await issueKey(db.kysely, row.id, new Date())).key;
  const job = await db.kysely.selectFrom('jobs').select('id').where('status', '=', 'open').limit(1).executeTakeFirst();
  await db.close();
  const service = spawn(
    'taskset',
    ['-c', SERVICE_CORE, process.execPath, '--max-semi-space-size=4', '--max-old-space-size=256', 'dist/server.js'],
    {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: {
        PATH: process.env.PATH,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: databaseUrl,
        LOG_LEVEL: 'warn',
        RATE_LIMIT_DEVELOPER_PER_MIN: '1000000',
        SEED_ON_EMPTY: 'false',
      },
    },
  );
  children.push(service);
  for (let waited = 0; ; waited++) {
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (r) => r.json(),
      () => null,
    );
    if (ready?.search_index === 'ready') break;
    if (waited > 1200) throw new Error('the service did not get ready within a minute');
    await sleep(50);
  }
  return { service, key, job };
}

const port = 4500;
const hello = await baseline('hello.mjs', port + 1);
const fastify = await baseline('fastify-hello.mjs', port + 2);
const median = (values) => values.slice().sort((a, b) => a - b)[values.length >> 1];

for (const engine of ENGINES) {
  const database = await createDatabase(engine, 'pipeline', dir, POSTGRES_URL);
  try {
    const { service, key, job } = await startService(engine, database.url, port);
    const scenarios = [
      ['hello (node:http)', hello.pid, `http://127.0.0.1:${port + 1}/`, []],
      ['hello (bare Fastify)', fastify.pid, `http://127.0.0.1:${port + 2}/`, []],
      ...[
        ['get job by id', `/v1/jobs/${job.id}`],
        ['categories', '/v1/categories'],
        ['stats', '/v1/stats'],
        ['estimate', '/v1/estimate?category=gardening&duration_hours=3&lat=48.9921&lng=8.4684'],
        ['availability', '/v1/helpers/availability?category=gardening&lat=49.0069&lng=8.4037&radius=20'],
        ['hot job search', '/v1/jobs?lat=49.0069&lng=8.4037&radius=10&limit=20'],
      ].map(([title, path]) => [title, service.pid, `http://127.0.0.1:${port}${path}`, [`X-API-Key: ${key}`]]),
    ];
    const runs = new Map(scenarios.map(([title]) => [title, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const [title, pid, url, headers] of scenarios) runs.get(title).push(load(pid, url, headers));
    }
    const helloRps = median(runs.get('hello (node:http)').map((r) => r.rps));
    const lines = [
      '',
      `${engine === 'sqlite' ? 'SQLite' : 'PostgreSQL'}, default dataset. Pinned: wrk on core ${LOAD_CORE}, each server on core ${SERVICE_CORE}; ${ROUNDS} rounds of ${SECONDS} s, 32 connections; Node ${process.versions.node}; ${new Date().toISOString()}.`,
      '',
      '| scenario | req/s (median) | × hello | user µs per request | system µs per request | non-2xx |',
      '| --- | ---: | ---: | ---: | ---: | ---: |',
    ];
    for (const [title, results] of runs) {
      const rps = median(results.map((r) => r.rps));
      lines.push(
        `| ${title} | ${Math.round(rps)} | ${(rps / helloRps).toFixed(2)} | ${median(results.map((r) => r.userUs)).toFixed(1)} | ${median(results.map((r) => r.systemUs)).toFixed(1)} | ${results.reduce((sum, r) => sum + r.bad, 0)} |`,
      );
    }
    process.stdout.write(`${lines.join('\n')}\n`);
    service.kill('SIGTERM');
    await once(service, 'exit');
  } finally {
    await database.drop();
  }
}
process.exit(0);
