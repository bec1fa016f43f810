// `npm run bench`: the read endpoints against two baselines, side by side in one run, each for the
// same duration and concurrency, so the ratios hold on a noisy machine. Writes bench/RESULTS.md.
//
//   npm run bench                         default dataset (seeded on first start)
//   BENCH_SECONDS=10 BENCH_CONNECTIONS=10 longer or wider runs
// (The 1,000,000-job dataset over Baden-Wuerttemberg is not generated yet: see bench/RESULTS.md.)
//
// The service runs as `node dist/server.js` (build first: npm run bench does) on a fresh SQLite file,
// with rate limiting on and a developer key whose limit is set high.
import { fork, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { jobSearches, listingSearches } from './queries.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const DATASETS = ['default'];

/** Peak resident memory of a process so far, in MB (Linux: VmHWM). */
function peakRssMb(pid) {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Math.round(Number(match[1]) / 1024) : null;
}

async function startBaseline(script, port, ...args) {
  const child = fork(join(ROOT, 'bench/servers', script), [String(port), ...args], { stdio: 'ignore' });
  await once(child, 'message');
  return child;
}

async function waitFor(url, ms = 600_000) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const ok = await fetch(url).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await sleep(250);
  }
  throw new Error(`${url} did not answer within ${ms} ms`);
}

async function startService(databaseUrl, port) {
  const child = spawn(process.execPath, ['dist/server.js'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_DEVELOPER_PER_MIN: '1000000',
    },
  });
  await waitFor(`http://127.0.0.1:${port}/readyz`);
  return child;
}

/** A developer key straight in the database, through the service's own code (dist/). */
async function createKey(databaseUrl) {
  const { createDb } = await import(join(ROOT, 'dist/db/create-db.js'));
  const { findOrCreateAccount, issueKey } = await import(join(ROOT, 'dist/repositories/access.js'));
  const db = createDb(databaseUrl);
  try {
    const now = new Date();
    const { row } = await findOrCreateAccount(
      db.kysely,
      { name: 'Benchmark', email: 'bench@example.org', organisation: null, account_type: 'commercial' },
      now,
    );
    return (await issueKey(db.kysely, row.id, now)).key;
  } finally {
    await db.close();
  }
}

/** One load run: `paths` are sent in turn by every connection. */
async function measure(title, port, paths, pid, headers = {}) {
  let i = 0;
  let peak = 0;
  const sampler = setInterval(() => {
    const now = peakRssMb(pid);
    if (now) peak = Math.max(peak, now);
  }, 200);
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: CONNECTIONS,
    duration: SECONDS,
    headers,
    requests: [
      {
        setupRequest: (request) => {
          request.path = paths[i++ % paths.length];
          return request;
        },
      },
    ],
  });
  clearInterval(sampler);
  const bad = result.non2xx + result.errors + result.timeouts;
  return {
    title,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    rssMb: Math.max(peak, peakRssMb(pid) ?? 0),
    bad,
  };
}

function table(rows, hello, serialize) {
  const lines = [
    '| scenario | req/s | p50 ms | p99 ms | peak RSS MB | × hello | × serialize | non-2xx |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const r of rows) {
    lines.push(
      `| ${r.title} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.rssMb} | ${(r.rps / hello).toFixed(2)} | ${(r.rps / serialize).toFixed(2)} | ${r.bad} |`,
    );
  }
  return lines.join('\n');
}

async function benchDataset(dataset, dir) {
  const databaseUrl = `sqlite:${join(dir, `${dataset}.db`)}`;
  const port = 4100;
  const service = await startService(databaseUrl, port);
  try {
    const key = await createKey(databaseUrl);
    const auth = { 'x-api-key': key };
    const get = async (path) => (await fetch(`http://127.0.0.1:${port}${path}`, { headers: auth })).json();
    const page = await get('/v1/jobs?limit=20');
    const pageFile = join(dir, 'page.json');
    writeFileSync(pageFile, JSON.stringify(page));
    const jobId = page.data[0].id;

    const hello = await startBaseline('hello.mjs', port + 1);
    const serialize = await startBaseline('serialize.mjs', port + 2, pageFile);
    const rows = [];
    try {
      rows.push(await measure('hello (node:http, small JSON)', port + 1, ['/'], hello.pid));
      rows.push(await measure('serialize (node:http, 20-job page)', port + 2, ['/'], serialize.pid));
    } finally {
      hello.kill();
      serialize.kill();
    }
    const scenarios = [
      ['hot job search', ['/v1/jobs']],
      ['cold job search', jobSearches(5000, 1)],
      ['cold listing search', listingSearches(5000, 2)],
      ['get job by id', [`/v1/jobs/${jobId}`]],
      ['categories', ['/v1/categories']],
      ['estimate', ['/v1/estimate?category=gardening&duration_hours=3&lat=48.9921&lng=8.4684']],
      ['availability', ['/v1/helpers/availability?category=gardening&lat=49.0069&lng=8.4037&radius=10']],
      ['stats', ['/v1/stats']],
    ];
    for (const [title, paths] of scenarios) rows.push(await measure(title, port, paths, service.pid, auth));
    return rows;
  } finally {
    service.kill('SIGTERM');
    await once(service, 'exit');
  }
}

const dir = mkdtempSync(join(tmpdir(), 'kmp-bench-'));
const sections = [];
try {
  for (const dataset of DATASETS) {
    process.stdout.write(`\n== ${dataset} dataset\n`);
    const rows = await benchDataset(dataset, dir);
    const [hello, serialize] = rows;
    const text = `${table(rows, hello.rps, serialize.rps)}\n\nTargets:\n\n${targets(rows)}`;
    process.stdout.write(`${text}\n`);
    sections.push({ dataset, rows, text });
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

/** The issue's targets, each met or missed by how much, with what bounds it where it is missed. */
function targets(rows) {
  const [hello, serialize] = rows;
  const by = (title) => rows.find((r) => r.title === title);
  const checks = [
    [
      'hot job search',
      'hello',
      0.5,
      'A 20-job page is ~20 KB: serializing it alone (the serialize baseline) reaches only about a quarter of hello here; the reused answer is already served at about the serialize rate.',
    ],
    [
      'cold job search',
      'serialize',
      0.5,
      'Every distinct search runs two SQL queries over the open jobs in the radius (count and page), ~1.5 ms on one core; sort=distance computes the haversine for every match (~2.8 ms). Next: an in-memory spatial index of open jobs.',
    ],
    ['cold listing search', 'serialize', 0.5, 'As cold job search, over the available listings.'],
    [
      'get job by id',
      'hello',
      0.5,
      'Answers are reused; what remains is the per-request pipeline (key check, rate-limit count and five headers, validation, cache lookup by data version).',
    ],
    ['categories', 'hello', 0.5, 'As get job by id.'],
    ['estimate', 'hello', 0.5, 'As get job by id.'],
    ['availability', 'hello', 0.5, 'As get job by id.'],
    ['stats', 'hello', 0.5, 'As get job by id; the answer is the largest of these (~10 KB).'],
  ];
  const lines = ['| target | measured | met | what bounds it |', '| --- | ---: | :---: | --- |'];
  for (const [title, base, goal, bound] of checks) {
    const row = by(title);
    const ratio = row.rps / (base === 'hello' ? hello.rps : serialize.rps);
    const met = ratio >= goal;
    lines.push(
      `| ${title} ≥ ${goal} × ${base} | ${ratio.toFixed(2)} × ${base} | ${met ? 'yes' : `no (${(goal / ratio).toFixed(1)}× short)`} | ${met ? '' : bound} |`,
    );
  }
  return lines.join('\n');
}

const cpu = cpus()[0]?.model ?? 'unknown CPU';
const header = [
  '# Benchmark results',
  '',
  `Run ${new Date().toISOString()} by \`npm run bench\` on ${cpus().length} × ${cpu}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}; ${SECONDS} s per scenario, ${CONNECTIONS} connections, load generator (autocannon) on the same machine.`,
  '',
];
const notes = [
  '',
  'Not measured yet: the 1,000,000-job / 300,000-listing dataset over Baden-Wuerttemberg (the seed',
  'places every row around Karlsruhe; an option to spread them over the state is still to come), and',
  'the same run on PostgreSQL.',
  'A conditional GET whose If-None-Match matches a reusable answer is a 304 without any query',
  '(test/http/response-cache.test.ts counts the queries).',
  '',
];
const body = sections.map((s) => `## ${s.dataset} dataset\n\n${s.text}\n`).join('\n') + notes.join('\n');
writeFileSync(join(ROOT, 'bench/RESULTS.md'), `${header.join('\n')}\n${body}`);
process.stdout.write('\nwritten to bench/RESULTS.md\n');
