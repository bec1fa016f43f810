// The MCP server as an integrator's tool sees it (issue 16): the official MCP Inspector CLI
// (@modelcontextprotocol/inspector, pinned below) against a real API process on loopback, over
// Streamable HTTP (POST /mcp, without and with a developer key) and over stdio (src/mcp/stdio.ts):
//   - tools/list with --strict: the Inspector's tool-schema portability check (type arrays, remote
//     $refs, untyped or boolean schemas, ...); any finding, warning or error, fails;
//   - tools/call of the tools agents use most (searches, gets, the writes) with valid arguments over
//     HTTP, and of a read and a write over stdio
//     (whose tools and answers are the same; each stdio run starts a server process): the
//     Inspector checks each structuredContent against the tool's outputSchema and fails the call
//     when it does not match;
//   - a call that fails (an unknown job id): isError, which the output schema must still allow.
// Any exit code, stderr line or result other than expected fails the run (exit 1). The Inspector
// runs are independent processes, three at a time.
//
//   npm run mcp:inspect                    a fresh, seeded SQLite database in a temporary folder
//   MCP_INSPECT_DATABASE_URL=... npm run mcp:inspect    another (empty) database, e.g. PostgreSQL
//
// The Inspector needs Node >= 22.19; on an older Node it runs on Node 24 from the npm registry
// (`npx -y node@24`), the API and the stdio server on this one. If Node 24 cannot be had, the run
// fails: it never passes without having run the Inspector. It is not a devDependency (the
// project's engine-strict would refuse every install on Node 20): it is installed from the npm
// registry with that Node, once, into ${XDG_CACHE_HOME:-~/.cache}/karlsruhe-marketplace-api.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { routeCatalog } from '../src/mcp/catalog.js';
import { Tools } from '../src/mcp/tools.js';
import { entryArgs, freePort } from '../test/helpers/server-process.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The Inspector release this check is written against (its CLI flags and exit codes). */
const INSPECTOR_VERSION = '2.12.0';
/** Its CLI script, once main() has installed it (inspectorScript). */
let INSPECTOR = '';
/** The Inspector's exit code for a tool result with isError (its EXIT_CODES.TOOL_ERROR). */
const TOOL_ERROR = 5;
/** What the stdio server writes to stderr when it starts (src/mcp/stdio.ts); nothing else may appear. */
const STDIO_BANNER = /^karlsruhe-marketplace MCP server \S+ on stdio, API \S+, developer key: read and write tools$/;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

function run(command: string, args: string[], options: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Run {
  const started = performance.now();
  const result = spawnSync(command, args, {
    cwd: ROOT,
    encoding: 'utf8',
    env: options.env ?? process.env,
    timeout: options.timeoutMs ?? 120_000,
    maxBuffer: 64 * 2 ** 20,
  });
  if (result.error) throw result.error;
  return { code: result.status, stdout: result.stdout, stderr: result.stderr, ms: performance.now() - started };
}

/** As run(), without blocking: the Inspector runs overlap. */
function runAsync(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<Run> {
  const started = performance.now();
  const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: performance.now() - started });
    });
  });
}

/** A Node that runs the Inspector: this one if recent enough, else Node 24 through npx. */
function inspectorNode(): string {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  if (major > 22 || (major === 22 && minor >= 19)) return process.execPath;
  const found = run('npx', ['-y', 'node@24', '-p', 'process.execPath'], { timeoutMs: 300_000 });
  const path = found.stdout.trim();
  if (found.code !== 0 || !path) {
    throw new Error(`Node 24 for the MCP Inspector could not be had (npx -y node@24):\n${found.stderr}`);
  }
  return path;
}

/**
 * The Inspector's CLI script, installed with `node` (so its engines check passes) into the cache
 * once. Installed into a folder of this process and then renamed into place: both engines' test
 * files may install at once, and one of them ran the other's half-installed Inspector (its
 * `--version` printed nothing, a CI run failed so).
 */
function inspectorScript(node: string): string {
  const cache = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  const dir = join(cache, 'karlsruhe-marketplace-api', `mcp-inspector-${INSPECTOR_VERSION}`);
  const inside = 'node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js';
  const script = join(dir, inside);
  if (existsSync(script)) return script;
  const staging = `${dir}.${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  const installed = run(
    'npm',
    [
      'install',
      '--prefix',
      staging,
      '--no-save',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      `@modelcontextprotocol/inspector@${INSPECTOR_VERSION}`,
    ],
    { env: { ...process.env, PATH: `${dirname(node)}:${process.env.PATH}` }, timeoutMs: 600_000 },
  );
  if (installed.code !== 0 || !existsSync(join(staging, inside))) {
    rmSync(staging, { recursive: true, force: true });
    throw new Error(
      `The MCP Inspector ${INSPECTOR_VERSION} could not be installed into ${staging}:\n${installed.stderr}`,
    );
  }
  try {
    renameSync(staging, dir);
  } catch {
    // Another process put its complete install there first (then that one is used), or an earlier
    // version of this script left an unfinished one in place (then it is replaced).
    if (!existsSync(script)) {
      rmSync(dir, { recursive: true, force: true });
      renameSync(staging, dir);
    }
    rmSync(staging, { recursive: true, force: true });
  }
  if (!existsSync(script)) throw new Error(`The MCP Inspector ${INSPECTOR_VERSION} is not at ${script}`);
  return script;
}

/** Configuration of the API process: generous budgets (this checks schemas, not limits), nothing inherited. */
function serverEnv(databaseUrl: string, port: number): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME };
  return {
    ...env,
    DATABASE_URL: databaseUrl,
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: 'warn',
    SEED_ON_EMPTY: 'true',
    RATE_LIMIT_ANONYMOUS_PER_MIN: '10000',
    RATE_LIMIT_DEVELOPER_PER_MIN: '10000',
    MCP_RATE_LIMIT_PER_MIN: '10000',
    WEBHOOK_DELIVERY: 'false',
  };
}

async function startApi(
  env: NodeJS.ProcessEnv,
): Promise<{ child: ChildProcess; baseUrl: string; output: () => string }> {
  const child = spawn(process.execPath, entryArgs('src/server.ts'), { cwd: ROOT, env });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const baseUrl = `http://127.0.0.1:${env.PORT}`;
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`the API exited (${child.exitCode}) before it was healthy:\n${output}`);
    const status = await fetch(`${baseUrl}/healthz`).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) return { child, baseUrl, output: () => output };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the API was not healthy within 120 s:\n${output}`);
}

/** A developer key for a new account, issued by the admin command (its last line). */
function issueKey(databaseUrl: string, email: string): string {
  const issued = run(
    process.execPath,
    [...entryArgs('src/cli/admin.ts'), 'keys', 'create', '--email', email, '--name', 'Inspector'],
    { env: { PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' } },
  );
  const key = issued.stdout.trim().split('\n').at(-1) ?? '';
  if (issued.code !== 0 || !key.startsWith('kmp_')) throw new Error(`keys create failed:\n${issued.stderr}`);
  return key;
}

/** A REST write with a developer key; its JSON answer, which must be a 201. */
async function post(baseUrl: string, key: string, path: string, body: object): Promise<{ id: string }> {
  const response = await fetch(new URL(path, baseUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key, 'idempotency-key': randomUUID() },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as { id: string };
  if (response.status !== 201) throw new Error(`POST ${path}: ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

/** A Europe/Berlin calendar day `days` from now, as YYYY-MM-DD. */
const dayFromNow = (days: number) =>
  new Date(Date.now() + days * 86_400_000).toLocaleDateString('en-CA', { timeZone: 'Europe/Berlin' });

/**
 * Arguments for a call of the tools agents use most. The writes act on what another account (`other`) posted over
 * REST: a job to apply to, with the helper profile the calling account registered, and a listing
 * to book.
 */
async function callsOf(baseUrl: string, key: string, other: string): Promise<[string, object][]> {
  const job = await post(baseUrl, other, '/v1/jobs', {
    title: 'Hecke schneiden',
    description: 'Zwanzig Meter Thuja, Werkzeug ist da.',
    category: 'GARDENING',
    price_eur: 60,
    location: { plz: '76227' },
  });
  const listing = await post(baseUrl, other, '/v1/listings', {
    title: 'Bierzeltgarnitur',
    description: 'Ein Tisch und zwei Bänke für acht Personen.',
    category: 'EVENTS',
    price_per_day_eur: 8,
    price_per_week_eur: 35,
    deposit_eur: 20,
    condition: 'good',
    instant_booking: true,
    location: { plz: '76227' },
  });
  const helper = await post(baseUrl, key, '/v1/helpers', {
    display_name: 'Inspector',
    categories: ['GARDENING'],
    location: { lat: 49.0123, lng: 8.4321 },
    hourly_rate_eur: 18,
  });
  return [
    ['search_jobs', { category: 'GARDENING', limit: 5 }],
    ['get_job', { id: job.id }],
    ['search_listings', { limit: 5 }],
    ['get_listing', { id: listing.id }],
    ['get_categories', { lang: 'de' }],
    ['get_price_estimate', { category: 'GARDENING', duration_hours: 3 }],
    ['check_availability', { category: 'Garten', radius: 20 }],
    ['get_stats', {}],
    ['get_me', {}],
    ['get_helper', { id: helper.id }],
    ['create_job', newJob()],
    ['apply_to_job', { id: job.id, helper_id: helper.id, message: 'Gern am Samstag.', idempotency_key: randomUUID() }],
    [
      'create_booking',
      { id: listing.id, start_date: dayFromNow(7), end_date: dayFromNow(8), idempotency_key: randomUUID() },
    ],
  ];
}

/** create_job's arguments, with a fresh idempotency key. */
const newJob = () => ({
  title: 'Umzugskartons tragen',
  description: 'Zehn Kartons in den dritten Stock, ohne Aufzug.',
  category: 'MOVING',
  price_eur: 45,
  location: { lat: 49.0069, lng: 8.4037 },
  idempotency_key: randomUUID(),
});

/** The Inspector's answer with --format json, as far as it is read here. */
interface Answer {
  result?: {
    tools?: unknown[];
    isError?: boolean;
    structuredContent?: unknown;
    content?: { text?: string }[];
  };
  schemaFindings?: unknown[];
}

interface Check {
  what: string;
  args: string[];
  /** The exit code expected: 0, or TOOL_ERROR for a tool result with isError. */
  exit?: number;
  /** Judges the Inspector's JSON answer; returns a problem, or undefined when it is as expected. */
  judge: (answer: Answer) => string | undefined;
}

/** One Inspector run: where to, what to check, and whether the target is the stdio server. */
interface Planned {
  target: string[];
  stdio: boolean;
  check: Check;
}

/** Runs the Inspector once; every problem with it: exit code, a stderr line, the answer. */
async function inspect(node: string, home: string, { target, stdio, check }: Planned): Promise<string[]> {
  // The Inspector waits 15 s for a server by default; a stdio server on a loaded machine (the
  // test suite runs beside it) can take longer to answer its first message.
  const args = [INSPECTOR, '--cli', '--connect-timeout', '60000', '--format', 'json', ...check.args, ...target];
  const result = await runAsync(node, args, { PATH: process.env.PATH, HOME: home });
  const expectedExit = check.exit ?? 0;
  const problems: string[] = [];
  if (result.code !== expectedExit) problems.push(`exit code ${result.code}, expected ${expectedExit}`);
  const stderr = result.stderr
    .split('\n')
    .filter((line) => line.trim() !== '' && !(stdio && STDIO_BANNER.test(line)))
    // The one line a tool error is reported with, as expected.
    .filter((line) => !(expectedExit === TOOL_ERROR && line.includes('"code":"tool_is_error"')));
  if (stderr.length > 0) problems.push(`stderr: ${stderr.join('\n')}`);
  let answer: Answer | undefined;
  try {
    answer = JSON.parse(result.stdout);
  } catch {
    problems.push(`stdout is not JSON: ${result.stdout.slice(0, 500)}`);
  }
  if (answer !== undefined) {
    if (answer.schemaFindings) problems.push(`schema findings: ${JSON.stringify(answer.schemaFindings, null, 2)}`);
    const problem = check.judge(answer);
    if (problem) problems.push(problem);
  }
  const line = `${check.what} (${Math.round(result.ms)} ms)`;
  process.stdout.write(
    problems.length === 0 ? `ok    ${line}\n` : `FAIL  ${line}\n${problems.map((p) => `        ${p}`).join('\n')}\n`,
  );
  return problems;
}

/** Runs the planned checks, `width` at a time; the number that failed. */
async function inspectAll(node: string, home: string, plan: Planned[], width: number): Promise<number> {
  let next = 0;
  let failed = 0;
  const worker = async () => {
    for (let i = next++; i < plan.length; i = next++) {
      if ((await inspect(node, home, plan[i] as Planned)).length > 0) failed++;
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
  return failed;
}

const listed = (count: number) => (answer: Answer) =>
  answer.result?.tools?.length === count ? undefined : `expected ${count} tools, got ${answer.result?.tools?.length}`;

const succeeded = (answer: Answer) => {
  const result = answer.result;
  if (result?.isError) return `isError: ${result.content?.[0]?.text}`;
  if (result?.structuredContent === null || typeof result?.structuredContent !== 'object') {
    return 'no structuredContent';
  }
  return undefined;
};

const failedAsToolError = (answer: Answer) => {
  const result = answer.result;
  if (result?.isError !== true) return `expected isError, got ${JSON.stringify(result).slice(0, 300)}`;
  if ('structuredContent' in result) return 'an error result carries structuredContent';
  return JSON.parse(result.content?.[0]?.text ?? '{}').error === 'not_found' ? undefined : 'expected not_found';
};

async function main(): Promise<void> {
  const started = performance.now();
  const node = inspectorNode();
  INSPECTOR = inspectorScript(node);
  const dir = mkdtempSync(join(tmpdir(), 'kmp-mcp-inspect-'));
  const home = join(dir, 'home'); // the Inspector's own state (~/.mcp-inspector) stays in here
  mkdirSync(home);
  const version = run(node, [INSPECTOR, '--cli', '--version'], { env: { PATH: process.env.PATH, HOME: home } });
  if (version.code !== 0 || !version.stdout.trim()) {
    throw new Error(
      `The MCP Inspector at ${INSPECTOR} does not tell its version (exit ${version.code}):\n${version.stderr}`,
    );
  }
  process.stdout.write(`MCP Inspector ${version.stdout.trim()} on Node ${run(node, ['--version']).stdout.trim()}\n`);
  let api: Awaited<ReturnType<typeof startApi>> | undefined;
  let failures = 0;
  try {
    const databaseUrl = process.env.MCP_INSPECT_DATABASE_URL || `sqlite:${join(dir, 'inspect.db')}`;
    api = await startApi(serverEnv(databaseUrl, await freePort()));
    const key = issueKey(databaseUrl, 'inspector@example.org');
    const other = issueKey(databaseUrl, 'owner@example.org');
    const http = `${api.baseUrl}/mcp`;
    const developer = [http, '--header', `X-API-Key: ${key}`];
    const stdio = [
      ...['--cwd', ROOT, '-e', `MARKETPLACE_API_URL=${api.baseUrl}`, '-e', `MARKETPLACE_API_KEY=${key}`],
      ...['--', process.execPath, ...entryArgs('src/mcp/stdio.ts')],
    ];
    // As many tools as the route registry makes: all with a key, those that need none without.
    const tools = new Tools(routeCatalog());
    const [all, open] = [tools.list(true).length, tools.list(false).length];
    const list = (what: string, count: number): Check => ({
      what: `${what} tools/list --strict`,
      args: ['--method', 'tools/list', '--strict'],
      judge: listed(count),
    });
    const call = (what: string, tool: string, toolArgs: object): Check => ({
      what: `${what} tools/call ${tool}`,
      args: ['--method', 'tools/call', '--tool-name', tool, '--tool-args-json', JSON.stringify(toolArgs)],
      judge: succeeded,
    });
    const unknownJob: Check = {
      ...call('', 'get_job', { id: 'job_00000000000000ff' }),
      exit: TOOL_ERROR,
      judge: failedAsToolError,
    };
    const plan: Planned[] = [
      { target: stdio, stdio: true, check: list('stdio developer', all) },
      { target: stdio, stdio: true, check: call('stdio developer', 'get_stats', {}) },
      { target: stdio, stdio: true, check: call('stdio developer', 'create_job', newJob()) },
      {
        target: stdio,
        stdio: true,
        check: { ...unknownJob, what: 'stdio developer tools/call get_job (unknown id: isError)' },
      },
      { target: [http], stdio: false, check: list('http anonymous', open) },
      {
        target: [http],
        stdio: false,
        check: { ...unknownJob, what: 'http anonymous tools/call get_job (unknown id: isError)' },
      },
      { target: developer, stdio: false, check: list('http developer', all) },
      ...(await callsOf(api.baseUrl, key, other)).map(([tool, toolArgs]) => ({
        target: developer,
        stdio: false,
        check: call('http developer', tool, toolArgs),
      })),
    ];
    failures = await inspectAll(node, home, plan, 3);
  } finally {
    if (api && api.child.exitCode === null) {
      api.child.kill('SIGTERM');
      await once(api.child, 'close');
    }
    rmSync(dir, { recursive: true, force: true });
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (failures > 0) {
    process.stdout.write(`\n${failures} check(s) failed (${seconds} s)\n`);
    process.exit(1);
  }
  process.stdout.write(
    `\nall checks passed: no warnings, no schema findings, every answer matched its outputSchema (${seconds} s)\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`mcp:inspect: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
