/**
 * The webhook walkthrough of docs/api.md, run as written on a machine without internet: the
 * receiver copied from the manual, a server started with WEBHOOK_ALLOW_PRIVATE_NETWORKS=true, the
 * manual's subscription body pointed at the receiver, then a gardening job posted. The receiver
 * (which checks the signature as the manual shows) prints the event.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { createDb } from '../../src/db/create-db.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { createKey } from '../helpers/app.js';
import { freshDatabaseUrl } from '../helpers/database.js';
import { freePort, startServer, stopServer } from '../helpers/server-process.js';

const MANUAL = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
const WEBHOOKS = MANUAL.slice(MANUAL.indexOf('### Webhooks\n'), MANUAL.indexOf('### Live events'));

/** The manual's receiver, the one ```js block of the webhook section. */
function receiverSource(): string {
  const block = /```js\n(\/\/ receiver\.mjs[\s\S]*?)```/.exec(WEBHOOKS)?.[1];
  assert.ok(block, 'docs/api.md has the receiver in its webhook section');
  return block;
}

/** The body of the manual's first `curl -X POST …/v1/webhooks … -d '…'`. */
function subscriptionBody(): { url: string; events: string[]; filters: Record<string, unknown> } {
  const body = /curl -X POST http:\/\/127\.0\.0\.1:3000\/v1\/webhooks [^\n]*\\\n\s*-d '([^']*)'/.exec(WEBHOOKS)?.[1];
  assert.ok(body, 'docs/api.md subscribes with curl -d');
  return JSON.parse(body);
}

test('docs/api.md: the local webhook walkthrough delivers a signed job.created to the receiver as written', {
  timeout: 90_000,
}, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'marketplace-walkthrough-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));

  const url = await freshDatabaseUrl(t, { file: true });
  const setup = createDb(url);
  await migrateToLatest(setup);
  const { key } = await createKey(setup, {}, new Date());
  await setup.close();
  const server = await startServer(t, {
    DATABASE_URL: url,
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    LOG_LEVEL: 'error',
  });
  const api = (path: string, body: unknown) =>
    fetch(`${server.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  // The manual's body, with the receiver's port where it says 8080.
  const port = await freePort();
  const body = subscriptionBody();
  assert.equal(body.url, 'http://127.0.0.1:8080/hooks', 'the manual starts with a local receiver');
  const subscribed = await api('/v1/webhooks', { ...body, url: `http://127.0.0.1:${port}/hooks` });
  assert.equal(subscribed.status, 201, await subscribed.clone().text());
  const { secret } = (await subscribed.json()) as { secret: string };

  writeFileSync(join(dir, 'receiver.mjs'), receiverSource());
  const receiver = spawn(process.execPath, ['receiver.mjs'], {
    cwd: dir,
    env: { PATH: process.env.PATH, WEBHOOK_SECRET: secret, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  t.after(() => receiver.kill('SIGKILL'));
  let printed = '';
  receiver.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    printed += chunk;
  });
  receiver.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    printed += chunk;
  });
  // Listening once a connection is accepted (the manual's receiver prints nothing before).
  for (let i = 0; ; i += 1) {
    const reached = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: '{}' }).then(
      (r) => r.status,
      () => 0,
    );
    if (reached === 400) break; // no signature: refused, as it should be
    assert.ok(i < 100, `the receiver does not listen: ${printed}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
  const posted = await api('/v1/jobs', {
    title: 'Hecke schneiden in Durlach',
    description: 'Thujahecke, 20 m lang. Werkzeug ist vorhanden.',
    category: 'GARDENING',
    price_eur: 60,
    duration_hours: 3,
    location: { plz: '76227' },
    desired_at: `${day(10)}T09:00:00Z`,
  });
  assert.equal(posted.status, 201, await posted.clone().text());
  const job = (await posted.json()) as { id: string };

  const deadline = Date.now() + 30_000;
  while (!/^evt_\S+ job\.created /m.test(printed) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.match(printed, new RegExp(`^evt_\\S+ job\\.created ${job.id}$`, 'm'), `the receiver printed: ${printed}`);
  assert.deepEqual(await stopServer(server), { code: 0, signal: null });
  receiver.kill('SIGTERM');
  await once(receiver, 'close');
});
