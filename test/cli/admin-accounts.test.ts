import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type TestContext, test } from 'node:test';
import { openDatabase } from '../../src/db/prepare.js';
import { ERASED_NAME } from '../../src/domain/erasure.js';
import { findOrCreateAccount, issueKey } from '../../src/repositories/access.js';
import { runAdmin } from '../helpers/admin-cli.js';
import { insert, jobFixture } from '../helpers/fixtures.js';

/** A migrated SQLite file with an account that posted a job. */
async function withAccount(t: TestContext) {
  const dir = mkdtempSync(join(tmpdir(), 'marketplace-accounts-'));
  const url = `sqlite:${join(dir, 'm.db')}`;
  const db = await openDatabase(url);
  t.after(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const now = new Date();
  const { row: account } = await findOrCreateAccount(
    db.kysely,
    { name: 'Greta Gärtner', email: 'greta@example.org', organisation: null, account_type: 'private' },
    now,
  );
  await issueKey(db.kysely, account.id, now);
  const job = jobFixture({ title: 'Rosen schneiden', status: 'open', deadline: null, owner_account_id: account.id });
  await insert(db.kysely, { jobs: [job] });
  // A signed-in browser (issue 31): the erasure ends it.
  const at = now.toISOString();
  await db.kysely
    .insertInto('sessions')
    .values({
      id: 'ses_cli',
      token_hash: 'f'.repeat(64),
      account_id: account.id,
      user_agent: 'Firefox',
      created_at: at,
      last_seen_at: at,
      expires_at: new Date(now.getTime() + 86_400_000).toISOString(),
    })
    .execute();
  return { db: db.kysely, env: { DATABASE_URL: url, OUTBOX_DIR: join(dir, 'outbox') }, account, job };
}

test('npm run admin -- accounts export / erase: the API’s export on stdout; the erasure, then never again', async (t) => {
  const { db, env, account, job } = await withAccount(t);
  const exported = await runAdmin(['accounts', 'export', account.id], env);
  assert.equal(exported.code, 0, exported.stderr);
  const document = JSON.parse(exported.stdout);
  assert.equal(document.account.email, 'greta@example.org');
  assert.deepEqual(
    document.jobs.map((j: { id: string; title: string }) => [j.id, j.title]),
    [[job.id, 'Rosen schneiden']],
  );
  assert.equal(document.api_keys.length, 1);
  assert.ok(!('key_hash' in document.api_keys[0]));
  assert.deepEqual(
    document.sessions.map((row: { id: string }) => row.id),
    ['ses_cli'],
  );
  assert.ok(!('token_hash' in document.sessions[0]));

  const erased = await runAdmin(['accounts', 'erase', account.id], env);
  assert.equal(erased.code, 0, erased.stderr);
  assert.match(erased.stdout, new RegExp(`^Erased account ${account.id} at `));
  assert.match(erased.stdout, /jobs cancelled: 1\n/);
  assert.match(erased.stdout, /keys revoked: 1\n/);
  const row = await db.selectFrom('accounts').selectAll().where('id', '=', account.id).executeTakeFirstOrThrow();
  assert.equal(row.name, ERASED_NAME);
  assert.ok(row.erased_at);
  assert.deepEqual(await db.selectFrom('sessions').selectAll().where('account_id', '=', account.id).execute(), []);
  const jobRow = await db
    .selectFrom('jobs')
    .select(['status', 'title'])
    .where('id', '=', job.id)
    .executeTakeFirstOrThrow();
  assert.equal(jobRow.status, 'cancelled');
  assert.notEqual(jobRow.title, 'Rosen schneiden');

  const again = await runAdmin(['accounts', 'erase', account.id], env);
  assert.equal(again.code, 1);
  assert.match(again.stderr, /erased at .* already/);
  const unknown = await runAdmin(['accounts', 'export', 'acc_0000000000000000'], env);
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr, /^No account acc_0000000000000000/);
  const wrongId = await runAdmin(['accounts', 'erase', 'hlp_1'], env);
  assert.equal(wrongId.code, 1);
  assert.match(wrongId.stderr, /is not a acc_\.\.\. id/);
});
