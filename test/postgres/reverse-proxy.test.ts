/**
 * docs/operations.md's "Running at scale" as an operator follows it: three instances on one PostgreSQL
 * schema and one Redis, behind nginx running that document's own configuration block (only the ports
 * changed). Requests through the proxy reach every instance, share one anonymous budget per client
 * (TRUST_PROXY=127.0.0.1, nginx's address, reads the address nginx appended, so a forged
 * X-Forwarded-For buys nothing), and
 * a rolling restart of one instance under load loses no request.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type TestContext, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { createDb } from '../../src/db/create-db.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { createKey } from '../helpers/app.js';
import { freshDatabaseUrl } from '../helpers/database.js';
import { insert, jobFixture } from '../helpers/fixtures.js';
import { freePort, type ServerProcess, startServer, stopServer } from '../helpers/server-process.js';

const REDIS_URL = 'redis://127.0.0.1:6379';
const DOC_PORTS = ['3001', '3002', '3003'];

function nginxBinary(): string {
  for (const candidate of ['/usr/sbin/nginx', '/usr/bin/nginx']) if (existsSync(candidate)) return candidate;
  const found = spawnSync('sh', ['-c', 'command -v nginx'], { encoding: 'utf8' }).stdout.trim();
  assert.ok(found, 'nginx is not installed: `apt-get install nginx-light` (Debian), as .ci/run does');
  return found;
}

/** The nginx block of docs/operations.md, with the instances' and the proxy's ports put in. */
function docNginxBlock(instancePorts: number[], proxyPort: number): string {
  const operations = readFileSync(new URL('../../docs/operations.md', import.meta.url), 'utf8');
  const block = /```nginx\n([\s\S]*?)```/.exec(operations)?.[1];
  assert.ok(block, 'docs/operations.md has an nginx configuration block');
  let config = block.replace('listen 8080;', `listen 127.0.0.1:${proxyPort};`);
  DOC_PORTS.forEach((port, i) => {
    config = config.replace(`127.0.0.1:${port}`, `127.0.0.1:${instancePorts[i]}`);
  });
  for (const port of DOC_PORTS) assert.ok(!config.includes(`:${port} `), `port ${port} replaced`);
  return config;
}

async function startNginx(t: Pick<TestContext, 'after'>, block: string, port: number) {
  const dir = mkdtempSync(join(tmpdir(), 'kmp-nginx-'));
  mkdirSync(join(dir, 'logs'));
  const conf = join(dir, 'nginx.conf');
  writeFileSync(
    conf,
    `daemon off;\nworker_processes 1;\npid ${dir}/nginx.pid;\nerror_log ${dir}/logs/error.log warn;\n` +
      `events { worker_connections 256; }\n` +
      `http {\n  access_log off;\n  client_body_temp_path ${dir}/body;\n  proxy_temp_path ${dir}/proxy;\n${block}\n}\n`,
  );
  const child: ChildProcess = spawn(nginxBinary(), ['-p', dir, '-c', conf], { stdio: 'ignore' });
  t.after(async () => {
    child.kill('SIGQUIT');
    await sleep(200);
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });
  for (let i = 0; i < 100; i++) {
    const up = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (up) return;
    await sleep(100);
  }
  assert.fail(`nginx did not come up:\n${readFileSync(join(dir, 'logs/error.log'), 'utf8')}`);
}

test('three instances behind nginx, configured as docs/operations.md says', { timeout: 300_000 }, async (t) => {
  const url = await freshDatabaseUrl(t);
  const db = createDb(url);
  await migrateToLatest(db);
  const { key } = await createKey(db, { email: 'load@example.org' }, new Date());
  const job = jobFixture({ deadline: null });
  await insert(db.kysely, { jobs: [job] });
  await db.close();

  const prefix = `kmp-test-${randomBytes(6).toString('hex')}:`;
  const redis = new Redis(REDIS_URL);
  t.after(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });
  const ports = [await freePort(), await freePort(), await freePort()];
  const config = (port: number) => ({
    PORT: String(port),
    DATABASE_URL: url,
    REDIS_URL,
    REDIS_PREFIX: prefix,
    TRUST_PROXY: '127.0.0.1',
    MIGRATE_ON_START: 'false',
    SHUTDOWN_DELAY_MS: '1000',
    LOG_LEVEL: 'info',
    RATE_LIMIT_ANONYMOUS_PER_MIN: '20',
    RATE_LIMIT_DEVELOPER_PER_MIN: '100000',
  });
  const instances: ServerProcess[] = await Promise.all(ports.map((port) => startServer(t, config(port))));
  const proxyPort = await freePort();
  await startNginx(t, docNginxBlock(ports, proxyPort), proxyPort);
  const proxy = `http://127.0.0.1:${proxyPort}`;
  const get = async (path: string, headers: Record<string, string> = {}) => {
    const response = await fetch(`${proxy}${path}`, { headers, signal: AbortSignal.timeout(30_000) });
    return { status: response.status, body: (await response.json()) as { error?: string; id?: string } };
  };

  // Every instance serves (least_conn spreads concurrent requests); a keyed client is far from its limit.
  const keyed = await Promise.all(Array.from({ length: 60 }, () => get(`/v1/jobs/${job.id}`, { 'x-api-key': key })));
  assert.deepEqual(new Set(keyed.map((r) => r.status)), new Set([200]));
  const served = instances.map((s) => (s.stdout().match(new RegExp(`/v1/jobs/${job.id}`, 'g')) ?? []).length);
  assert.ok(
    served.every((n) => n > 0),
    `every instance served some of the requests: ${served.join(', ')}`,
  );

  // One anonymous budget for this client across all three, whatever X-Forwarded-For it sends.
  const anonymous = [];
  for (let i = 0; i < 22; i++) anonymous.push((await get('/v1/stats')).status);
  assert.deepEqual(anonymous, [...Array(20).fill(200), 429, 429]);
  const forged = await get('/v1/stats', { 'x-forwarded-for': '203.0.113.7' });
  assert.equal(forged.status, 429, 'a forged X-Forwarded-For does not open a fresh budget');

  // A rolling restart: the first instance drains while keyed requests keep flowing through nginx.
  let stop = false;
  const statuses: number[] = [];
  const load = (async () => {
    while (!stop) {
      const batch = await Promise.all(Array.from({ length: 6 }, () => get(`/v1/jobs/${job.id}`, { 'x-api-key': key })));
      statuses.push(...batch.map((r) => r.status));
    }
  })();
  await sleep(300);
  const exit = await stopServer(instances[0] as ServerProcess);
  await sleep(500);
  stop = true;
  await load;
  assert.deepEqual(exit, { code: 0, signal: null }, 'the drained instance exits cleanly');
  assert.ok(statuses.length >= 12, `requests flowed during the restart (${statuses.length})`);
  assert.deepEqual(new Set(statuses), new Set([200]), 'no request failed while an instance stopped');
});
