// Runs the Arazzo workflows the API serves (GET /v1/workflows.arazzo.yaml, from
// assets/workflows.arazzo.yaml) against a real server, with a third-party runner: Redocly's
// `respect`, which also checks every answer against the OpenAPI document. Exits non-zero on any
// failure. In .ci/run; locally: `npm run workflows` (about 30 s).
//
//   1. starts the server (`node --import tsx src/server.ts`) on 127.0.0.1, a free port, a fresh SQLite
//      database, no demo data, webhooks to private addresses allowed (the receiver below is local);
//   2. takes the two documents as the server serves them, side by side as under /v1/ (the
//      workflows name their source by the relative URL openapi.json), and lints the workflows
//      (`redocly lint`, recommended-strict);
//   3. gets two developer keys the way an integrator does: POST /v1/developer/key-requests, then the
//      operator approves each request (`npm run admin -- requests approve kr_...`) and the key
//      arrives by e-mail, here an .eml file in OUTBOX_DIR, from which it is read;
//   4. runs every workflow but reportItem, then reportItem on the listing a search finds (the one
//      lendItem listed: the database was empty), with `respect`;
//   5. checks that the webhook subscribeToWebhooks added received a signed delivery of the job
//      hireHelper posted afterwards.
// Options: --keep keeps the temporary folder (database, outbox, server log, respect's JSON logs).
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

// The configuration's keys come from the TypeScript sources: without `--import tsx`, load tsx here.
if (![...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((arg) => arg.includes('tsx'))) {
  const { register } = await import('tsx/esm/api');
  register();
}
const { CONFIG_KEYS } = await import('../src/config.ts');

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const keep = process.argv.includes('--keep');
const REDOCLY_ENV = { REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_NOTIFICATIONS: 'true' };

/** The command-line entry of a package, from its package.json `bin`. */
function binOf(packageName, command) {
  const require = createRequire(import.meta.url);
  const manifest = require.resolve(`${packageName}/package.json`);
  const { bin } = require(manifest);
  return join(dirname(manifest), typeof bin === 'string' ? bin : bin[command]);
}
const redocly = binOf('@redocly/cli', 'redocly');

/** This environment without any of the server's settings (a developer's shell or .env), plus `config`. */
function childEnv(config) {
  const inherited = Object.entries(process.env).filter(([key]) => !CONFIG_KEYS.includes(key));
  return { ...Object.fromEntries(inherited), ENV_FILE: 'none', ...config };
}

async function freePort() {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

function fail(message) {
  throw new Error(message);
}

/** Runs a command to its end with the output shown; fails with `what` unless it exits 0. */
function run(what, args, env) {
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit', env });
  if (result.error) throw result.error;
  if (result.status !== 0) fail(`${what} failed (exit ${result.status})`);
}

/** A quoted-printable e-mail body decoded: soft line breaks joined, =XX bytes restored. */
function decodeQuotedPrintable(text) {
  const joined = text.replace(/=\r?\n/g, '');
  return Buffer.from(
    joined.replace(/=([0-9A-F]{2})/g, (_, hex) => String.fromCharCode(Number.parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');
}

const dir = mkdtempSync(join(tmpdir(), 'workflows-'));
const port = await freePort();
const baseUrl = `http://127.0.0.1:${port}`;
const config = {
  HOST: '127.0.0.1',
  PORT: String(port),
  DATABASE_URL: `sqlite:${join(dir, 'marketplace.db')}`,
  OUTBOX_DIR: join(dir, 'outbox'),
  SEED_ON_EMPTY: 'false',
  LOG_LEVEL: 'warn',
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
};

// The webhook receiver: answers 204 to every delivery and keeps them.
const deliveries = [];
const receiver = createServer((request, response) => {
  let body = '';
  request.setEncoding('utf8').on('data', (chunk) => {
    body += chunk;
  });
  request.on('end', () => {
    deliveries.push({ headers: request.headers, body });
    response.writeHead(204).end();
  });
}).listen(0, '127.0.0.1');
await once(receiver, 'listening');

let serverLog = '';
const server = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
  cwd: root,
  env: childEnv(config),
  stdio: ['ignore', 'pipe', 'pipe'],
});
for (const stream of [server.stdout, server.stderr]) {
  stream.setEncoding('utf8').on('data', (chunk) => {
    serverLog += chunk;
  });
}
const exited = new Promise((resolve) => server.once('close', resolve));

let failed = false;
try {
  const started = Date.now();
  for (;;) {
    if (server.exitCode !== null) fail(`the server exited (${server.exitCode}) before it was healthy`);
    const status = await fetch(`${baseUrl}/healthz`).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) break;
    if (Date.now() - started > 60_000) fail('the server was not healthy after 60 s');
    await sleep(100);
  }
  console.log(`== server on ${baseUrl} (fresh SQLite database in ${dir})`);

  // The documents as served, side by side as under /v1/.
  const served = join(dir, 'v1');
  mkdirSync(served);
  for (const name of ['workflows.arazzo.yaml', 'openapi.json']) {
    const response = await fetch(`${baseUrl}/v1/${name}`);
    if (response.status !== 200) fail(`GET /v1/${name} answered ${response.status}`);
    writeFileSync(join(served, name), await response.text());
  }
  const workflows = join(served, 'workflows.arazzo.yaml');

  console.log('== redocly lint (recommended-strict) on the served workflows');
  run('redocly lint', [redocly, 'lint', workflows, '--extends', 'recommended-strict'], {
    ...process.env,
    ...REDOCLY_ENV,
  });

  console.log('== two developer keys, requested, approved by the operator (npm run admin) and read from the e-mail');
  const runId = crypto.randomUUID();
  const keys = {};
  for (const role of ['owner', 'helper']) {
    const email = `${role}-${runId}@example.org`;
    const response = await fetch(`${baseUrl}/v1/developer/key-requests`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: `Workflow ${role}`,
        email,
        account_type: 'private',
        intended_use: `Runs the Arazzo workflows of this API as the ${role} (scripts/workflows.mjs).`,
      }),
    });
    if (response.status !== 202) fail(`the key request answered ${response.status}: ${await response.text()}`);
    const { id } = await response.json();
    run(
      `admin requests approve ${id}`,
      ['--import', 'tsx', 'src/cli/admin.ts', 'requests', 'approve', id],
      childEnv(config),
    );
    const mails = readdirSync(config.OUTBOX_DIR).map((name) => readFileSync(join(config.OUTBOX_DIR, name), 'latin1'));
    const mail = mails.find((text) => new RegExp(`^To: .*${email}`, 'mi').test(text));
    if (!mail) fail(`no e-mail to ${email} in ${config.OUTBOX_DIR}`);
    const key = /\bkmp_[0-9A-Za-z]{49}\b/.exec(decodeQuotedPrintable(mail))?.[0];
    if (!key) fail(`the e-mail to ${email} holds no key`);
    keys[role] = key;
  }

  const hook = `http://127.0.0.1:${receiver.address().port}/hooks/marketplace`;
  const inputs = {
    run_id: runId,
    // The hired helper's work: due a few seconds from now, so the job is completed within the run.
    desired_at: new Date(Date.now() + 10_000).toISOString(),
    poster_api_key: keys.owner,
    helper_api_key: keys.helper,
    owner_api_key: keys.owner,
    borrower_api_key: keys.helper,
    // The day of the booking: today in Karlsruhe, so that the pick-up is allowed at once.
    day: new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(new Date()),
    name: 'Ada Lovelace',
    email: `ada-${runId}@example.org`,
    intended_use: 'A bot that posts moving jobs for our customers.',
    api_key: keys.owner,
    webhook_url: hook,
  };
  /** respect on the served workflows; the inputs go through the environment, not the command line. */
  const respect = (args, extra, log) =>
    run(
      `respect ${args.join(' ')}`,
      [redocly, 'respect', workflows, `--server`, `marketplace=${baseUrl}`, '--json-output', join(dir, log), ...args],
      { ...process.env, ...REDOCLY_ENV, REDOCLY_CLI_RESPECT_INPUT: JSON.stringify({ ...inputs, ...extra }) },
    );

  console.log('== respect: requestKey, subscribeToWebhooks, hireHelper, lendItem');
  respect(['--skip', 'reportItem'], {}, 'respect-stories.json');

  // The reporter finds the listing by a search, as a person would: the only one, lendItem's.
  const search = await fetch(`${baseUrl}/v1/listings?limit=1`).then((r) => r.json());
  const listingId = search.data?.[0]?.id ?? fail(`no listing to report: ${JSON.stringify(search)}`);
  console.log(`== respect: reportItem on ${listingId}`);
  respect(['--workflow', 'reportItem'], { listing_id: listingId }, 'respect-report.json');

  console.log('== the webhook subscribeToWebhooks added receives signed deliveries');
  const deadline = Date.now() + 20_000;
  while (!deliveries.some((d) => d.body.includes('"job.created"')) && Date.now() < deadline) await sleep(200);
  const delivery = deliveries.find((d) => d.body.includes('"job.created"'));
  if (!delivery) fail(`no job.created delivery at ${hook} within 20 s (${deliveries.length} deliveries)`);
  if (!delivery.headers['marketplace-signature']) fail('a delivery without a Marketplace-Signature header');
  console.log(
    `${deliveries.length} deliveries, the first job.created signed: ${delivery.headers['marketplace-signature'].slice(0, 40)}...`,
  );
  console.log('== workflows passed');
} catch (error) {
  failed = true;
  console.error(`workflows: ${error.message}`);
  console.error(`-- server output:\n${serverLog}`);
} finally {
  server.kill('SIGTERM');
  await exited;
  receiver.close();
  if (keep || failed) console.error(`kept ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
