import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, type TestContext, test } from 'node:test';
import { openDatabase } from '../../src/db/prepare.js';
import type { KeyRequestRow } from '../../src/db/schema.js';
import { hashApiKey, isWellFormedApiKey } from '../../src/domain/api-keys.js';
import { findOrCreateAccount, issueKey, keyState } from '../../src/repositories/access.js';
import { findRequest, type KeyRequestInput } from '../../src/repositories/key-requests.js';
import { type AdminRun, lastLine, runAdmin } from '../helpers/admin-cli.js';
import { insertKeyRequest } from '../helpers/fixtures.js';
import { parseMail, startSmtpServer } from '../helpers/smtp.js';

const HOUR = 3_600_000;
const KEY = /kmp_[0-9A-Za-z]{49}/g;

/** A migrated SQLite file of its own, the environment for the command, and an outbox folder in it. */
async function freshDatabase(t: TestContext) {
  const dir = mkdtempSync(join(tmpdir(), 'marketplace-admin-'));
  const url = `sqlite:${join(dir, 'm.db')}`;
  const db = await openDatabase(url);
  t.after(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const outbox = join(dir, 'outbox');
  return {
    db: db.kysely,
    outbox,
    env: { DATABASE_URL: url, OUTBOX_DIR: outbox, PUBLIC_URL: 'https://api.example.org' },
  };
}
type Fresh = Awaited<ReturnType<typeof freshDatabase>>;

async function fileRequest(fresh: Fresh, input: Partial<KeyRequestInput> = {}, hoursAgo = 1): Promise<KeyRequestRow> {
  const request: KeyRequestInput = {
    name: 'Jana Müller',
    email: 'jana@example.org',
    organisation: 'Gartenfreunde Durlach e.V.',
    account_type: 'private',
    intended_use: 'A bot that posts new gardening jobs to our club chat.',
    ...input,
  };
  return insertKeyRequest(fresh.db, request, new Date(Date.now() - hoursAgo * HOUR));
}

const keysOf = (fresh: Fresh) => fresh.db.selectFrom('api_keys').selectAll().orderBy('created_at').execute();
const accountsOf = (fresh: Fresh) => fresh.db.selectFrom('accounts').selectAll().execute();

/** A failure: exit code 1, the message first on stderr, then the usage text, nothing on stdout. */
function assertFailed(run: AdminRun, message: string | RegExp): void {
  assert.equal(run.code, 1, run.stderr);
  assert.equal(run.stdout, '');
  const [first] = run.stderr.split('\n\nUsage: npm run admin -- <command>\n');
  if (typeof message === 'string') assert.equal(first, message);
  else assert.match(first ?? '', message);
  assert.ok(run.stderr.includes('\n\nUsage: npm run admin -- <command>\n'), run.stderr);
}

/** What a stranger could write into the public form, aimed at whoever owns the address. */
const ATTACKER = {
  name: 'Your account is locked, call +49 170 0000000',
  organisation: 'Visit https://evil.example/login',
  intended_use: 'Reply with your password to unlock your account.',
};

/** Nothing the requester wrote in the form reaches the email: the address may be a stranger's. */
function assertNoRequesterText(text: string, request: Pick<KeyRequestInput, 'name' | 'organisation' | 'intended_use'>) {
  for (const written of [request.name, request.organisation, request.intended_use]) {
    if (written) assert.ok(!text.includes(written), `the email repeats '${written}':\n${text}`);
  }
}

/** The key, the limit, a curl line and the docs link, in German and in English. */
function assertKeyEmail(text: string, key: string, baseUrl: string): void {
  assert.equal(text.split(`    ${key}\n`).length, 3, 'the key on a line of its own, once per language');
  assert.equal(text.split(`    curl -H 'X-API-Key: ${key}' ${baseUrl}/v1/me\n`).length, 3);
  assert.equal(text.split(`${baseUrl}/docs\n`).length, 3);
  assert.ok(text.includes('Limit: 100 Anfragen pro Minute'), text);
  assert.ok(text.includes('Limit: 100 requests per minute'), text);
  assert.ok(text.includes('\nGuten Tag,\n') && text.includes('\nHello,\n'), text);
  assertNoRequesterText(text, {
    name: 'Jana',
    organisation: 'Gartenfreunde Durlach e.V.',
    intended_use: 'A bot that posts new gardening jobs to our club chat.',
  });
}

describe('admin: requests', () => {
  test('list: pending only, oldest first, those over 24 hours marked OVERDUE', async (t) => {
    const fresh = await freshDatabase(t);
    assert.deepEqual(await runAdmin(['requests', 'list'], fresh.env), {
      code: 0,
      stdout: 'No pending key requests.\n',
      stderr: '',
    });
    const recent = await fileRequest(fresh, { email: 'new@example.org', name: 'Neu', organisation: null }, 2);
    const old = await fileRequest(fresh, { intended_use: 'Line one\nline two \u001b[31mred' }, 30);
    const decided = await fileRequest(fresh, { email: 'gone@example.org' }, 50);
    await runAdmin(['requests', 'reject', decided.id, '--reason', 'spam'], fresh.env);

    const run = await runAdmin(['requests', 'list'], fresh.env);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stderr, '');
    const waiting = (hours: number) => `waiting ${hours} h \\d+ min`;
    const expected = [
      '2 pending key requests, oldest first; 1 waiting longer than 24 hours \\(OVERDUE\\)\\.',
      '',
      `${old.id}  filed ${old.created_at.replace(/\./g, '\\.')}  ${waiting(30)}  OVERDUE \\(over 24 h\\)`,
      '  Jana Müller <jana@example\\.org>, private, Gartenfreunde Durlach e\\.V\\.',
      '  \\| Line one',
      // The escape character from the public form never reaches the operator's terminal.
      '  \\| line two \uFFFD\\[31mred',
      '',
      `${recent.id}  filed ${recent.created_at.replace(/\./g, '\\.')}  ${waiting(2)}`,
      '  Neu <new@example\\.org>, private',
      '  \\| A bot that posts new gardening jobs to our club chat\\.',
      '',
    ];
    assert.match(run.stdout, new RegExp(`^${expected.join('\n')}$`));
  });

  test('approve without SMTP_URL: one .eml in OUTBOX_DIR with the key; the command names it and never prints the key', async (t) => {
    const fresh = await freshDatabase(t);
    const request = await fileRequest(fresh, { account_type: 'commercial' });
    const run = await runAdmin(['requests', 'approve', request.id], fresh.env);
    assert.equal(run.code, 0, run.stderr);

    const files = readdirSync(fresh.outbox);
    assert.equal(files.length, 1);
    const path = join(fresh.outbox, files[0] as string);
    assert.match(files[0] as string, /^\d{4}-\d\d-\d\dT[\d-]+Z-jana@example\.org-[0-9a-f]{6}\.eml$/);
    const raw = readFileSync(path, 'latin1');
    const { headers, text } = parseMail(raw);
    const [key, ...more] = text.match(KEY) ?? [];
    assert.ok(key && isWellFormedApiKey(key));
    assert.ok(more.every((k) => k === key));
    assert.equal(headers.to, 'jana@example.org');
    assert.equal(headers.from, 'Karlsruhe Marketplace API <api@karlsruhe-marketplace.example>');
    assert.equal(headers.subject, 'Ihr API-Key / Your API key - Karlsruhe Marketplace API');
    assert.equal(headers['content-type'], 'text/plain; charset=utf-8');
    assert.equal(headers['content-transfer-encoding'], 'quoted-printable');
    assert.ok(/^[\x20-\x7e\r\n\t]*$/.test(raw), 'the raw message is 7-bit ASCII');
    assertKeyEmail(text, key, 'https://api.example.org');

    const [row, ...otherKeys] = await keysOf(fresh);
    assert.ok(row);
    assert.equal(otherKeys.length, 0);
    assert.equal(row.key_hash, hashApiKey(key), 'the emailed key is the stored one');
    const [account] = await accountsOf(fresh);
    assert.deepEqual(account, {
      id: row.account_id,
      name: 'Jana Müller',
      email: 'jana@example.org',
      organisation: 'Gartenfreunde Durlach e.V.',
      account_type: 'commercial',
      created_at: account?.created_at,
      // 128 random bits that key the account's shown places (never shown; docs/SECURITY.md).
      place_salt: account?.place_salt,
      erased_at: null,
      suspended_at: null,
    });
    assert.match(account?.place_salt ?? '', /^[A-Za-z0-9_-]{22}$/);
    assert.deepEqual(await findRequest(fresh.db, request.id), {
      ...request,
      status: 'approved',
      decided_at: row.created_at,
      key_id: row.id,
    });
    assert.deepEqual(run, {
      code: 0,
      stdout:
        `Approved ${request.id}: key ${row.id} (kmp_...${key.slice(-4)}) for account ${row.account_id}.\n` +
        `The key was written to ${path} for jana@example.org (no SMTP_URL is set: send that file yourself). It is not shown here.\n`,
      stderr:
        `Approving ${request.id} and sending the key to jana@example.org ...\n` +
        `Warning: ${path} holds the live key in plain text: delete the file once it is sent.\n`,
    });
  });

  test('approve reads the configuration the server reads: PUBLIC_URL and the limit from the environment file', async (t) => {
    const fresh = await freshDatabase(t);
    const request = await fileRequest(fresh);
    const envFile = join(fresh.outbox, '..', 'marketplace.env');
    writeFileSync(envFile, 'PUBLIC_URL=https://market.example.net\nRATE_LIMIT_DEVELOPER_PER_MIN=250\n');
    const { PUBLIC_URL: _unset, ...env } = fresh.env;
    const run = await runAdmin(['requests', 'approve', request.id], { ...env, ENV_FILE: envFile });
    assert.equal(run.code, 0, run.stderr);
    const [file] = readdirSync(fresh.outbox);
    const { text } = parseMail(readFileSync(join(fresh.outbox, file as string), 'latin1'));
    assert.ok(text.includes("    curl -H 'X-API-Key: kmp_"), text);
    assert.ok(
      text.includes(' https://market.example.net/v1/me\n') && text.includes('https://market.example.net/docs\n'),
      text,
    );
    assert.ok(text.includes('Limit: 250 requests per minute'), text);
    assert.ok(!text.includes(':3000'), 'no link to the default port');
  });

  test('approve with SMTP_URL: delivered to a real SMTP server; a second request of the same email reuses the account', async (t) => {
    const fresh = await freshDatabase(t);
    const smtp = await startSmtpServer();
    t.after(() => smtp.close());
    const env = { ...fresh.env, SMTP_URL: smtp.url, PUBLIC_URL: '', HOST: '0.0.0.0', PORT: '8080' };
    const first = await fileRequest(fresh);
    const run = await runAdmin(['requests', 'approve', first.id], env);
    assert.equal(run.code, 0, run.stderr);

    const mail = await smtp.next();
    assert.deepEqual(mail.envelope, { from: 'api@karlsruhe-marketplace.example', to: ['jana@example.org'] });
    assert.equal(mail.headers.to, 'jana@example.org');
    assert.equal(mail.headers.subject, 'Ihr API-Key / Your API key - Karlsruhe Marketplace API');
    const key = mail.text.match(KEY)?.[0] ?? '';
    assertKeyEmail(mail.text, key, 'http://127.0.0.1:8080');
    const [row] = await keysOf(fresh);
    assert.equal(row?.key_hash, hashApiKey(key));
    const messageId = mail.headers['message-id'];
    assert.equal(
      run.stdout,
      `Approved ${first.id}: key ${row?.id} (kmp_...${key.slice(-4)}) for account ${row?.account_id}.\n` +
        `The key was emailed to jana@example.org through SMTP ${smtp.url.slice('smtp://'.length)} (Message-ID ${messageId}). It is not shown here.\n`,
    );
    assert.equal(existsSync(fresh.outbox), false, 'nothing is written to the outbox');

    const second = await fileRequest(fresh, { name: 'Jana M.', account_type: 'commercial' });
    const secondRun = await runAdmin(['requests', 'approve', second.id], env);
    assert.equal(secondRun.code, 0, secondRun.stderr);
    assert.equal(
      secondRun.stderr,
      `Approving ${second.id} and sending the key to jana@example.org ...\n` +
        `Warning: jana@example.org already has account ${row?.account_id} of type private; the existing account type was kept (the request asked for commercial).\n`,
    );
    const again = await smtp.next();
    const keys = await keysOf(fresh);
    assert.equal(keys.length, 2);
    assert.equal(keys[1]?.key_hash, hashApiKey(again.text.match(KEY)?.[0] ?? ''));
    assert.equal(keys[1]?.account_id, row?.account_id, 'one account per email');
    const [account] = await accountsOf(fresh);
    assert.deepEqual(
      [account?.name, account?.account_type],
      ['Jana Müller', 'private'],
      'the account is kept as it was',
    );
    assert.equal((await accountsOf(fresh)).length, 1);
  });

  test('approve when the SMTP server is unreachable: the key is revoked, the request pending again; with SMTP back it succeeds', async (t) => {
    const fresh = await freshDatabase(t);
    const down = await startSmtpServer();
    await down.close();
    const request = await fileRequest(fresh);
    const run = await runAdmin(['requests', 'approve', request.id], { ...fresh.env, SMTP_URL: down.url });
    assert.equal(run.code, 1, run.stderr);
    assert.equal(run.stdout, '');
    const [unsent, ...others] = await keysOf(fresh);
    assert.ok(unsent);
    assert.equal(others.length, 0);
    assert.match(
      run.stderr,
      new RegExp(
        `Not approved: the key could not be sent to jana@example\\.org \\(.+\\)\\. Nothing was granted: key ${unsent.id} is revoked and ${request.id} is pending again\\.`,
      ),
    );
    assert.doesNotMatch(run.stderr, KEY, 'the key is never printed');
    assert.equal(keyState(unsent, new Date()), 'revoked', 'the unsent key can never authenticate');
    assert.deepEqual(await findRequest(fresh.db, request.id), request, 'pending again, as filed');

    const up = await startSmtpServer();
    t.after(() => up.close());
    const retry = await runAdmin(['requests', 'approve', request.id], { ...fresh.env, SMTP_URL: up.url });
    assert.equal(retry.code, 0, retry.stderr);
    const key = (await up.next()).text.match(KEY)?.[0] ?? '';
    const sent = (await keysOf(fresh)).find((row) => row.key_hash === hashApiKey(key));
    assert.ok(sent && sent.id !== unsent.id);
    assert.equal(keyState(sent, new Date()), 'active');
    assert.equal(sent.account_id, unsent.account_id, 'the account the first attempt created is reused');
    assert.equal((await findRequest(fresh.db, request.id))?.key_id, sent.id);
    assert.equal((await accountsOf(fresh)).length, 1);
  });

  test('two operators approve the same request at once: exactly one key is issued and sent', async (t) => {
    const fresh = await freshDatabase(t);
    const request = await fileRequest(fresh);
    const runs = await Promise.all([
      runAdmin(['requests', 'approve', request.id], fresh.env),
      runAdmin(['requests', 'approve', request.id], fresh.env),
    ]);
    assert.deepEqual(runs.map((run) => run.code).sort(), [0, 1], JSON.stringify(runs));
    const loser = runs.find((run) => run.code === 1);
    assert.match(
      loser?.stderr ?? '',
      // The loser may have begun ("Approving ...") before the winner decided: both are the race lost.
      new RegExp(
        `^(Approving ${request.id} [^\n]*\n)?Key request ${request.id} (is not pending|was decided by someone else)`,
      ),
    );
    const keys = await keysOf(fresh);
    assert.equal(keys.length, 1);
    assert.equal((await findRequest(fresh.db, request.id))?.key_id, keys[0]?.id);
    assert.equal(readdirSync(fresh.outbox).length, 1);
  });

  test('approve and reject refuse unknown, decided and malformed ids', async (t) => {
    const fresh = await freshDatabase(t);
    const request = await fileRequest(fresh);
    assert.equal((await runAdmin(['requests', 'approve', request.id], fresh.env)).code, 0);
    const decidedAt = (await findRequest(fresh.db, request.id))?.decided_at;
    const [unknown, approvedAgain, rejectApproved, wrongPrefix, noId] = await Promise.all([
      runAdmin(['requests', 'approve', 'kr_0000000000000000'], fresh.env),
      runAdmin(['requests', 'approve', request.id], fresh.env),
      runAdmin(['requests', 'reject', request.id, '--reason', 'too late'], fresh.env),
      runAdmin(['requests', 'approve', 'key_0000000000000000'], fresh.env),
      runAdmin(['requests', 'approve'], fresh.env),
    ]);
    assertFailed(
      unknown,
      'There is no key request kr_0000000000000000; the pending ones are listed by `requests list` and in the console.',
    );
    const notPending = `Key request ${request.id} is not pending: it was approved at ${decidedAt}.`;
    assertFailed(approvedAgain, notPending);
    assertFailed(rejectApproved, notPending);
    assertFailed(wrongPrefix, "'key_0000000000000000' is not a kr_... id.");
    assertFailed(noId, 'requests approve needs an id (kr_...).');
    assert.equal((await keysOf(fresh)).length, 1);
  });

  test('reject: needs --reason, stores it and emails it to the requester', async (t) => {
    const fresh = await freshDatabase(t);
    const smtp = await startSmtpServer();
    t.after(() => smtp.close());
    const request = await fileRequest(fresh, ATTACKER);
    const env = { ...fresh.env, SMTP_URL: smtp.url };
    assertFailed(
      await runAdmin(['requests', 'reject', request.id, '--reason', '  '], env),
      'requests reject needs --reason "..." (it is stored and sent to the requester).',
    );
    const reason = 'Bitte beschreiben Sie Ihr Vorhaben genauer.';
    const run = await runAdmin(['requests', 'reject', request.id, '--reason', reason], env);
    assert.equal(run.code, 0, run.stderr);
    const mail = await smtp.next();
    assert.equal(mail.headers.to, 'jana@example.org');
    assert.equal(mail.headers.subject, 'Ihre Key-Anfrage / Your key request - Karlsruhe Marketplace API');
    assert.ok(mail.text.includes(`Begründung: ${reason}\n`) && mail.text.includes(`Reason: ${reason}\n`), mail.text);
    assert.ok(mail.text.includes('https://api.example.org/developers'), mail.text);
    assert.ok(mail.text.includes(`was filed for this email address (request ${request.id})`), mail.text);
    assert.ok(mail.text.includes('\nGuten Tag,\n') && mail.text.includes('\nHello,\n'), mail.text);
    assertNoRequesterText(mail.text, ATTACKER);
    assertNoRequesterText(mail.raw, ATTACKER);
    assert.deepEqual(run, {
      code: 0,
      stdout:
        `Rejected ${request.id} (jana@example.org): ${reason}\n` +
        `The reason was emailed to jana@example.org through SMTP ${smtp.url.slice(7)} (Message-ID ${mail.headers['message-id']}).\n`,
      stderr: '',
    });
    const stored = await findRequest(fresh.db, request.id);
    assert.deepEqual(stored, { ...request, status: 'rejected', reason, decided_at: stored?.decided_at });
    assert.deepEqual(await keysOf(fresh), []);
  });
});

describe('admin: keys', () => {
  test('create prints the key alone on the last line; an existing email keeps its account', async (t) => {
    const fresh = await freshDatabase(t);
    const args = ['keys', 'create', '--email', 'Partner@Example.org', '--name', 'Partner', '--commercial'];
    const run = await runAdmin([...args, '--organisation', 'Partner GmbH'], fresh.env);
    assert.equal(run.code, 0, run.stderr);
    const key = lastLine(run.stdout);
    assert.ok(isWellFormedApiKey(key), key);
    const [row] = await keysOf(fresh);
    const [account] = await accountsOf(fresh);
    assert.equal(row?.key_hash, hashApiKey(key));
    assert.deepEqual(
      { ...account, id: undefined, created_at: undefined, place_salt: undefined },
      {
        id: undefined,
        name: 'Partner',
        email: 'partner@example.org',
        organisation: 'Partner GmbH',
        account_type: 'commercial',
        created_at: undefined,
        place_salt: undefined,
        erased_at: null,
        suspended_at: null,
      },
    );
    assert.deepEqual(run, {
      code: 0,
      stdout:
        `Created key ${row?.id} (kmp_...${key.slice(-4)}) for account ${account?.id} <partner@example.org>.\n` +
        `The key is shown this once; only its hash is stored:\n${key}\n`,
      stderr: '',
    });

    const second = await runAdmin(['keys', 'create', '--email', 'partner@example.org', '--name', 'Other'], fresh.env);
    assert.equal(second.code, 0);
    assert.ok(isWellFormedApiKey(lastLine(second.stdout)));
    assert.equal(
      second.stderr,
      `partner@example.org already has account ${account?.id} (Partner, commercial); the key belongs to it, and --name, --organisation and --commercial were not applied.\n`,
    );
    assert.equal((await accountsOf(fresh)).length, 1);
  });

  test('create refuses missing or bad arguments', async (t) => {
    const fresh = await freshDatabase(t);
    const runs = await Promise.all([
      runAdmin(['keys', 'create', '--name', 'X'], fresh.env),
      runAdmin(['keys', 'create', '--email', 'not-an-address', '--name', 'X'], fresh.env),
      runAdmin(['keys', 'create', '--email', 'a@example.org'], fresh.env),
      runAdmin(['keys', 'create', '--email', 'a@example.org', '--name', 'X', '--reason', 'y'], fresh.env),
      // What the public form refuses, the command refuses too (the same schema).
      runAdmin(['keys', 'create', '--email', 'a<b>@example.org', '--name', 'X'], fresh.env),
      runAdmin(['keys', 'create', '--email', 'a@example', '--name', 'X'], fresh.env),
      runAdmin(['keys', 'create', '--email', 'a@example.org', '--name', 'x'.repeat(101)], fresh.env),
      runAdmin(
        ['keys', 'create', '--email', 'a@example.org', '--name', 'X', '--organisation', 'o'.repeat(201)],
        fresh.env,
      ),
      runAdmin(['keys', 'create', '--email', 'a@example.org', '--name', 'A\u001b[31mB'], fresh.env),
      runAdmin(['keys', 'create', '--email', 'a@example.org', '--name', 'Ada \u202eecalevoL'], fresh.env),
    ]);
    assertFailed(runs[0] as AdminRun, 'keys create needs --email.');
    assertFailed(runs[1] as AdminRun, "--email must be an email address; got 'not-an-address'.");
    assertFailed(runs[2] as AdminRun, 'keys create needs --name.');
    assertFailed(runs[3] as AdminRun, 'keys create does not take --reason.');
    assertFailed(runs[4] as AdminRun, "--email must be an email address; got 'a<b>@example.org'.");
    assertFailed(runs[5] as AdminRun, "--email must be an email address; got 'a@example'.");
    assertFailed(
      runs[6] as AdminRun,
      '--name must be at most 100 visible characters, without control characters or direction controls.',
    );
    assertFailed(
      runs[7] as AdminRun,
      '--organisation must be at most 200 visible characters, without control characters or direction controls.',
    );
    assertFailed(
      runs[8] as AdminRun,
      '--name must be at most 100 visible characters, without control characters or direction controls.',
    );
    assertFailed(
      runs[9] as AdminRun,
      '--name must be at most 100 visible characters, without control characters or direction controls.',
    );
    assert.deepEqual(await keysOf(fresh), []);
  });

  test('rotate, revoke and list: states, masked keys, never a key or a hash', async (t) => {
    const fresh = await freshDatabase(t);
    const env = { ...fresh.env, KEY_ROTATION_GRACE_HOURS: '2' };
    const created: string[] = [];
    for (const email of ['a@example.org', 'b@example.org', 'c@example.org']) {
      const account = await findOrCreateAccount(
        fresh.db,
        { name: 'Dev', email, organisation: null, account_type: 'private' },
        new Date(),
      );
      created.push((await issueKey(fresh.db, account.row.id, new Date())).key);
    }
    const [a, b, c] = await keysOf(fresh);
    assert.ok(a && b && c);

    const rotated = await runAdmin(['keys', 'rotate', a.id], env);
    assert.equal(rotated.code, 0, rotated.stderr);
    const successorKey = lastLine(rotated.stdout);
    assert.ok(isWellFormedApiKey(successorKey));
    const old = (await keysOf(fresh)).find((k) => k.id === a.id);
    const successor = (await keysOf(fresh)).find((k) => k.key_hash === hashApiKey(successorKey));
    assert.ok(old?.expires_at && successor);
    assert.equal(old.replaced_by, successor.id);
    assert.equal(Date.parse(old.expires_at) - Date.parse(successor.created_at), 2 * HOUR, 'KEY_ROTATION_GRACE_HOURS');
    assert.deepEqual(rotated, {
      code: 0,
      stdout:
        `Rotated ${a.id} (kmp_...${a.last4}): it keeps working until ${old.expires_at} (2 hours).\n` +
        `New key ${successor.id} (kmp_...${successorKey.slice(-4)}) for account ${a.account_id}.\n` +
        `The key is shown this once; only its hash is stored:\n${successorKey}\n`,
      stderr: '',
    });

    assert.deepEqual(await runAdmin(['keys', 'revoke', b.id], env), {
      code: 0,
      stdout: `Revoked ${b.id} (kmp_...${b.last4}): requests with it are refused from now on.\n`,
      stderr: '',
    });
    // With no grace period the rotated key is expired at once.
    assert.equal((await runAdmin(['keys', 'rotate', c.id], { ...env, KEY_ROTATION_GRACE_HOURS: '0' })).code, 0);

    const revokedAt = (await keysOf(fresh)).find((k) => k.id === b.id)?.revoked_at;
    const cExpires = (await keysOf(fresh)).find((k) => k.id === c.id)?.expires_at;
    const [againRotated, againRevoked, rotateRevoked, unknown, expired] = await Promise.all([
      runAdmin(['keys', 'rotate', a.id], env),
      runAdmin(['keys', 'revoke', b.id], env),
      runAdmin(['keys', 'rotate', b.id], env),
      runAdmin(['keys', 'revoke', 'key_0000000000000000'], env),
      runAdmin(['keys', 'rotate', c.id], env),
    ]);
    assertFailed(
      againRotated,
      `Key ${a.id} was already rotated: its successor is ${successor.id}; rotate that one instead.`,
    );
    assertFailed(againRevoked, `Key ${b.id} is already revoked (at ${revokedAt}).`);
    assertFailed(rotateRevoked, `Key ${b.id} is already revoked (at ${revokedAt}).`);
    assertFailed(unknown, 'There is no key key_0000000000000000; `keys list` shows them all.');
    assertFailed(expired, new RegExp(`^Key ${c.id} expired at ${cExpires} after a rotation; its successor is key_`));

    const list = await runAdmin(['keys', 'list'], env);
    assert.equal(list.code, 0, list.stderr);
    const lines = list.stdout.trimEnd().split('\n');
    assert.match(lines[0] ?? '', /^ID {20}EMAIL {10}TYPE {5}KEY {10}CREATED {19}STATE$/);
    const rows = await keysOf(fresh);
    assert.equal(lines.length, rows.length + 1);
    const stateOf = (id: string) => lines.find((line) => line.startsWith(id))?.split(/ {2,}/);
    assert.deepEqual(stateOf(a.id), [
      a.id,
      'a@example.org',
      'private',
      `kmp_...${a.last4}`,
      a.created_at,
      `expiring ${old.expires_at} (successor ${successor.id})`,
    ]);
    assert.equal(stateOf(successor.id)?.[5], 'active');
    assert.equal(stateOf(b.id)?.[5], `revoked ${revokedAt}`);
    assert.equal(stateOf(c.id)?.[5], `expired ${cExpires}`);
    for (const row of rows) assert.ok(!list.stdout.includes(row.key_hash), 'no hash is shown');
    const issued = [...created, successorKey];
    for (const key of issued) assert.ok(!list.stdout.includes(key), 'no key is shown');
  });
});

describe('admin: arguments', () => {
  test('--help prints the usage; bad commands and options fail with a message and the usage', async (t) => {
    const fresh = await freshDatabase(t);
    const help = await runAdmin(['--help'], fresh.env);
    assert.equal(help.code, 0);
    assert.ok(help.stdout.startsWith('Usage: npm run admin -- <command>\n'), help.stdout);
    assert.ok(help.stdout.includes('keys create --email E --name N [--commercial] [--organisation O]'));
    const runs = await Promise.all([
      runAdmin([], fresh.env),
      runAdmin(['requests'], fresh.env),
      runAdmin(['keys', 'delete', 'key_1'], fresh.env),
      runAdmin(['keys', 'list', 'extra'], fresh.env),
      runAdmin(['keys', 'revoke', 'key_1', 'key_2'], fresh.env),
      runAdmin(['requests', 'list', '--reason', 'x'], fresh.env),
      runAdmin(['keys', 'list', '--colour'], fresh.env),
      runAdmin(['keys', 'list'], { ...fresh.env, KEY_ROTATION_GRACE_HOURS: 'soon' }),
    ]);
    const messages = [
      'Name a command, such as `requests list` or `keys list`.',
      'Name a command, such as `requests list` or `keys list`.',
      "Unknown command 'keys delete'.",
      "keys list takes no arguments; got 'extra'.",
      "keys revoke takes one id; got 'key_1 key_2'.",
      'requests list does not take --reason.',
      /^Unknown option '--colour'/,
      /^Invalid configuration:\n {2}KEY_ROTATION_GRACE_HOURS="soon": must be a whole number from 0 to 720$/,
    ];
    for (const [i, run] of runs.entries()) assertFailed(run, messages[i] as string | RegExp);
  });
});
