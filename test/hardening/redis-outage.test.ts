/**
 * Redis, where rate limits are counted across instances, goes away and comes back, for a real
 * server process: a Redis server of the test's own (Debian's redis-server) is killed and started
 * again on the same port.
 *
 * The decision (docs/api.md, "Access tiers and rate limits"): without Redis the service cannot count a
 * budget shared by its instances, so it refuses rate-limited requests with 503 service_unavailable
 * and Retry-After rather than serve them uncounted (which would open every budget during an outage)
 * or count per instance (which would multiply them by the number of instances). Liveness and
 * readiness stay outside the budgets: /healthz 200, /readyz 503 naming Redis. Once Redis is back,
 * the connection is made again by itself and requests are served.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { freshDatabaseUrl } from '../helpers/database.js';
import { freePort, startServer, stopServer } from '../helpers/server-process.js';

async function redisServer(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  const deadline = Date.now() + 10_000;
  while (!output.includes('Ready to accept connections')) {
    if (Date.now() > deadline || child.exitCode !== null) assert.fail(`redis-server did not start:\n${output}`);
    await sleep(50);
  }
  return child;
}

async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGKILL');
  await once(child, 'exit');
}

test('Redis outage: 503 ApiErrors while it is gone, recovery by itself', { timeout: 120_000 }, async (t) => {
  const redisPort = await freePort();
  let redis = await redisServer(redisPort);
  t.after(() => kill(redis));
  const server = await startServer(t, {
    DATABASE_URL: await freshDatabaseUrl(t),
    REDIS_URL: `redis://127.0.0.1:${redisPort}`,
  });
  const call = async (path: string) => {
    const started = performance.now();
    const response = await fetch(`${server.baseUrl}${path}`, { signal: AbortSignal.timeout(30_000) });
    return {
      status: response.status,
      headers: response.headers,
      text: await response.text(),
      ms: performance.now() - started,
    };
  };
  assert.equal((await call('/readyz')).status, 200);
  assert.equal((await call('/v1/categories')).status, 200);

  await kill(redis);
  for (const path of ['/v1/categories', '/v1/jobs?limit=2', '/v1/demo/stats', '/v1/me']) {
    const answer = await call(path);
    assert.equal(answer.status, 503, `${path}: ${answer.text}`);
    const body = JSON.parse(answer.text) as { error: string; message: string };
    assert.equal(body.error, 'service_unavailable');
    assert.match(body.message, /cannot count requests/);
    assert.equal(answer.headers.get('retry-after'), '5');
    assert.ok(answer.ms < 10_000, `${path} answered after ${answer.ms} ms, not hung`);
  }
  const ready = await call('/readyz');
  assert.equal(ready.status, 503);
  assert.match(ready.text, /redis \(unreachable\)/);
  assert.equal((await call('/healthz')).status, 200);
  assert.ok(server.running(), 'no crash');

  redis = await redisServer(redisPort);
  const deadline = Date.now() + 60_000;
  let served = false;
  while (Date.now() < deadline && !served) {
    served = (await call('/readyz')).status === 200 && (await call('/v1/categories')).status === 200;
    if (!served) await sleep(250);
  }
  assert.ok(served, 'served again once Redis is back, without a restart');
  const counted = await call('/v1/jobs?limit=1');
  assert.equal(counted.status, 200);
  assert.match(String(counted.headers.get('ratelimit')), /^"anonymous";r=\d+;t=\d+$/, 'counted in Redis again');
  await stopServer(server);
});
