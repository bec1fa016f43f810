import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, type TestContext, test } from 'node:test';
import { openDatabase } from '../../src/db/prepare.js';
import { findOrCreateAccount } from '../../src/repositories/access.js';
import { freshRecordColumns } from '../../src/repositories/mappers.js';
import { runAdmin } from '../helpers/admin-cli.js';
import { helperFixture, insert } from '../helpers/fixtures.js';
import { parseMail } from '../helpers/smtp.js';

/** A migrated SQLite file with a helper of an account and its pending verification request. */
async function withRequest(t: TestContext) {
  const dir = mkdtempSync(join(tmpdir(), 'marketplace-verify-'));
  const url = `sqlite:${join(dir, 'm.db')}`;
  const db = await openDatabase(url);
  t.after(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const now = new Date();
  const { row: account } = await findOrCreateAccount(
    db.kysely,
    { name: 'Jonas Weber', email: 'jonas@example.org', organisation: null, account_type: 'private' },
    now,
  );
  const helper = helperFixture(['MOVING'], { ...freshRecordColumns(), account_id: account.id });
  await insert(db.kysely, { helpers: [helper] });
  const request = {
    id: 'ver_00000000000000a1',
    helper_id: helper.id,
    owner_id: null,
    account_id: account.id,
    method: 'phone' as const,
    status: 'pending' as const,
    created_at: now.toISOString(),
    decided_at: null,
    reason: null,
  };
  await db.kysely.insertInto('verifications').values(request).execute();
  const outbox = join(dir, 'outbox');
  const env = { DATABASE_URL: url, OUTBOX_DIR: outbox, PUBLIC_URL: 'https://api.example.org' };
  const helperRow = () =>
    db.kysely.selectFrom('helpers').selectAll().where('id', '=', helper.id).executeTakeFirstOrThrow();
  const mails = () => readdirSync(outbox).map((file) => parseMail(readFileSync(join(outbox, file), 'latin1')));
  return { db: db.kysely, env, helperId: helper.id, requestId: request.id, helperRow, mails };
}

describe('npm run admin -- verifications / helpers unverify', () => {
  test('list, approve (verified, score +10, event, email), unverify with a reason', async (t) => {
    const fresh = await withRequest(t);
    const list = await runAdmin(['verifications', 'list'], fresh.env);
    assert.equal(list.code, 0, list.stderr);
    assert.match(
      list.stdout,
      /^1 pending verification request, oldest first\.\n\nver_00000000000000a1 {2}filed \S+ {2}method phone\n {2}helper hlp_\w+ \(Jonas W\.\), account <jonas@example\.org>\n$/,
    );

    const before = await fresh.helperRow();
    const approved = await runAdmin(['verifications', 'approve', fresh.requestId], fresh.env);
    assert.equal(approved.code, 0, approved.stderr);
    assert.match(
      approved.stdout,
      new RegExp(`^Approved ${fresh.requestId}: helper ${fresh.helperId} is verified\\.\\n`),
    );
    const after = await fresh.helperRow();
    assert.deepEqual([after.verified, after.reliability_score], [1, before.reliability_score + 10]);
    const [mail] = fresh.mails();
    assert.equal(mail?.headers.to, 'jonas@example.org');
    assert.ok(mail?.text.includes(`Helferprofil ${fresh.helperId} ist verifiziert`), mail?.text);
    const events = await fresh.db.selectFrom('events').select('type').execute();
    assert.deepEqual(events, [{ type: 'verification.decided' }]);
    assert.equal((await runAdmin(['verifications', 'list'], fresh.env)).stdout, 'No pending verification requests.\n');

    const again = await runAdmin(['verifications', 'approve', fresh.requestId], fresh.env);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /is not pending: it was approved/);

    const noReason = await runAdmin(['helpers', 'unverify', fresh.helperId], fresh.env);
    assert.equal(noReason.code, 1);
    assert.match(noReason.stderr, /^helpers unverify needs --reason/);
    const unverified = await runAdmin(['helpers', 'unverify', fresh.helperId, '--reason', 'Nummer falsch'], fresh.env);
    assert.equal(unverified.code, 0, unverified.stderr);
    assert.equal((await fresh.helperRow()).verified, 0);
    assert.ok(
      fresh.mails().some((m) => m.text.includes('ist nicht mehr verifiziert') && m.text.includes('Nummer falsch')),
    );
    // Both are in the audit log, with the command as actor.
    const audited = await fresh.db
      .selectFrom('audit_log')
      .select(['actor', 'action', 'reason'])
      .orderBy('at')
      .orderBy('id')
      .execute();
    assert.deepEqual(
      audited.map((a) => [a.actor, a.action, a.reason]),
      [
        ['cli', 'verification.approved', null],
        ['cli', 'verification.revoked', 'Nummer falsch'],
      ],
    );
  });

  test('reject needs a reason, stores it and tells the account', async (t) => {
    const fresh = await withRequest(t);
    const bare = await runAdmin(['verifications', 'reject', fresh.requestId], fresh.env);
    assert.equal(bare.code, 1);
    const rejected = await runAdmin(
      ['verifications', 'reject', fresh.requestId, '--reason', 'Foto unscharf'],
      fresh.env,
    );
    assert.equal(rejected.code, 0, rejected.stderr);
    const row = await fresh.db.selectFrom('verifications').selectAll().executeTakeFirstOrThrow();
    assert.deepEqual([row.status, row.reason], ['rejected', 'Foto unscharf']);
    assert.equal((await fresh.helperRow()).verified, 0);
    assert.ok(fresh.mails()[0]?.text.includes('Foto unscharf'));
    const wrongId = await runAdmin(['verifications', 'approve', 'kr_123'], fresh.env);
    assert.match(wrongId.stderr, /^'kr_123' is not a ver_\.\.\. id\./);
  });
});
