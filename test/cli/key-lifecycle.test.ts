import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type TestContext, test } from 'node:test';
import { lastLine, runAdmin } from '../helpers/admin-cli.js';
import { freshDatabaseUrl, TEST_ENGINE } from '../helpers/database.js';
import { startServer as startServerProcess } from '../helpers/server-process.js';
import { startSmtpServer } from '../helpers/smtp.js';

/** The server on a fresh database of the run's engine, stopped when the test ends; `config` is for the admin command. */
async function startServer(t: TestContext, smtpUrl: string) {
  const dir = mkdtempSync(join(tmpdir(), 'marketplace-lifecycle-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const shared = { DATABASE_URL: await freshDatabaseUrl(t), SMTP_URL: smtpUrl, OUTBOX_DIR: join(dir, 'outbox') };
  const server = await startServerProcess(t, shared);
  const config = { ...shared, HOST: '127.0.0.1', PORT: String(server.port) };
  return { baseUrl: server.baseUrl, config, exited: () => !server.running(), stderr: server.stderr };
}

/** POST /v1/developer/key-requests. */
function fileRequest(baseUrl: string, name: string, email: string): Promise<Response> {
  return fetch(`${baseUrl}/v1/developer/key-requests`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name,
      email,
      account_type: 'private',
      intended_use: 'A dashboard of gardening jobs in Durlach for our neighbourhood.',
    }),
  });
}

test(`a key request travels the whole way on ${TEST_ENGINE}: filed over HTTP, approved, emailed, used, rotated, revoked`, {
  timeout: 120_000,
}, async (t) => {
  const smtp = await startSmtpServer();
  t.after(() => smtp.close());
  const { baseUrl, config, exited, stderr: serverStderr } = await startServer(t, smtp.url);

  const me = async (key?: string) => {
    const response = await fetch(`${baseUrl}/v1/me`, { headers: key ? { 'x-api-key': key } : {} });
    return { status: response.status, body: (await response.json()) as any };
  };

  // 1. Filed over HTTP.
  const filed = await fileRequest(baseUrl, 'Lena Schmidt', 'lena@example.org');
  assert.equal(filed.status, 202);
  const { id: requestId } = (await filed.json()) as { id: string };
  assert.match(requestId, /^kr_[0-9a-f]{16}$/);

  // 2. Approved by the admin command; the key arrives by email only.
  const approved = await runAdmin(['requests', 'approve', requestId], config);
  assert.equal(approved.code, 0, approved.stderr);
  assert.match(approved.stdout, /The key was emailed to lena@example\.org through SMTP /);
  assert.doesNotMatch(approved.stdout + approved.stderr, /kmp_[0-9A-Za-z]{49}/);
  const mail = await smtp.next();
  assert.deepEqual(mail.envelope.to, ['lena@example.org']);
  const key = mail.text.match(/^ {4}(kmp_[0-9A-Za-z]{49})$/m)?.[1];
  assert.ok(key, mail.text);
  assert.ok(mail.text.includes(`curl -H 'X-API-Key: ${key}' ${baseUrl}/v1/me`), mail.text);

  // 3. The key works: developer tier, the account, 100 per minute.
  const first = await me(key);
  assert.equal(first.status, 200, JSON.stringify(first.body));
  assert.equal(first.body.tier, 'developer');
  assert.equal(first.body.account.email, 'lena@example.org');
  assert.equal(first.body.account.name, 'Lena Schmidt');
  assert.equal(first.body.rate_limit.limit, 100);
  assert.deepEqual(first.body.key, {
    id: first.body.key.id,
    masked: `kmp_...${key.slice(-4)}`,
    created_at: first.body.key.created_at,
    expires_at: null,
  });
  const oldKeyId: string = first.body.key.id;

  // 4. Rotated: both keys work during the grace period.
  const rotated = await runAdmin(['keys', 'rotate', oldKeyId], config);
  assert.equal(rotated.code, 0, rotated.stderr);
  const newKey = lastLine(rotated.stdout);
  assert.match(newKey, /^kmp_[0-9A-Za-z]{49}$/);
  const [old, fresh] = await Promise.all([me(key), me(newKey)]);
  assert.equal(old.status, 200);
  assert.equal(old.body.tier, 'developer');
  assert.equal(old.body.key.id, oldKeyId);
  assert.equal(
    Date.parse(old.body.key.expires_at) - Date.parse(fresh.body.key.created_at),
    24 * 3_600_000,
    'the old key works for KEY_ROTATION_GRACE_HOURS (default 24) more hours',
  );
  assert.equal(fresh.status, 200);
  assert.equal(fresh.body.tier, 'developer');
  assert.equal(fresh.body.account.id, old.body.account.id, 'the successor belongs to the same account');
  assert.notEqual(fresh.body.key.id, oldKeyId);

  // 5. Revoked: the new key is refused at once; without a key the caller is served as anonymous.
  const revoked = await runAdmin(['keys', 'revoke', fresh.body.key.id], config);
  assert.equal(revoked.code, 0, revoked.stderr);
  const refused = await me(newKey);
  assert.equal(refused.status, 401);
  assert.equal(refused.body.error, 'invalid_api_key');
  assert.equal(refused.body.message, 'The X-API-Key was revoked.');
  const anonymous = await me();
  assert.equal(anonymous.status, 200);
  assert.equal(anonymous.body.tier, 'anonymous');
  assert.equal(anonymous.body.account, null);

  assert.equal(smtp.received.length, 1, 'only the approval sent an email');
  assert.ok(!exited(), serverStderr());
});

test('an approval waiting for a silent SMTP server does not hold up the key-request form; it is then taken back', {
  timeout: 120_000,
}, async (t) => {
  // Accepts connections and never greets: nodemailer gives up after its greeting timeout (5 s).
  const silent = createServer(() => {}).listen(0, '127.0.0.1');
  await once(silent, 'listening');
  t.after(() => new Promise<void>((resolve) => silent.close(() => resolve())));
  const connections: Socket[] = [];
  silent.on('connection', (socket: Socket) => connections.push(socket));
  t.after(() => {
    for (const socket of connections) socket.destroy();
  });
  const address = silent.address();
  assert.ok(address !== null && typeof address === 'object');
  const { baseUrl, config, exited, stderr } = await startServer(t, `smtp://127.0.0.1:${address.port}`);

  const filed = await fileRequest(baseUrl, 'Lena Schmidt', 'lena@example.org');
  assert.equal(filed.status, 202);
  const { id: requestId } = (await filed.json()) as { id: string };

  const approving = runAdmin(['requests', 'approve', requestId], config);
  await once(silent, 'connection'); // the approval is committed and its key is being sent
  const started = Date.now();
  const other = await fileRequest(baseUrl, 'Max Weber', 'max@example.org');
  assert.equal(other.status, 202, 'the form is served while the key is being sent');
  assert.ok(Date.now() - started < 2_000, `the form waited ${Date.now() - started} ms for the approval`);

  const approved = await approving;
  assert.equal(approved.code, 1, approved.stderr);
  assert.match(
    approved.stderr,
    new RegExp(`Nothing was granted: key key_[0-9a-f]+ is revoked and ${requestId} is pending again\\.`),
  );
  assert.doesNotMatch(approved.stdout + approved.stderr, /kmp_[0-9A-Za-z]{49}/);
  const listed = await runAdmin(['requests', 'list'], config);
  assert.match(listed.stdout, /^2 pending key requests/);
  assert.ok(listed.stdout.includes(requestId), listed.stdout);
  const keys = await runAdmin(['keys', 'list'], config);
  assert.match(lastLine(keys.stdout), /lena@example\.org .* revoked \S+$/, keys.stdout);
  assert.ok(!exited(), stderr());
});
