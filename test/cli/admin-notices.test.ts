import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openDatabase } from '../../src/db/prepare.js';
import { findOrCreateAccount } from '../../src/repositories/access.js';
import { fileAppeal, fileReport } from '../../src/services/notices.js';
import { runAdmin } from '../helpers/admin-cli.js';
import { insert, jobFixture } from '../helpers/fixtures.js';
import { parseMail } from '../helpers/smtp.js';

test('npm run admin -- reports list / decide, appeals list / decide: the whole review by the platform', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'marketplace-notices-'));
  const url = `sqlite:${join(dir, 'm.db')}`;
  const db = await openDatabase(url);
  t.after(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const outbox = join(dir, 'outbox');
  const env = { DATABASE_URL: url, OUTBOX_DIR: outbox, PUBLIC_URL: 'https://api.example.org' };
  const now = new Date();
  const { row: account } = await findOrCreateAccount(
    db.kysely,
    { name: 'Pia Poster', email: 'pia@example.org', organisation: null, account_type: 'private' },
    now,
  );
  const job = jobFixture({ status: 'open', deadline: null, owner_account_id: account.id });
  await insert(db.kysely, { jobs: [job] });
  const report = await fileReport({ db: db.kysely, now, claim: null }, null, {
    about: { type: 'job', id: job.id },
    reason: 'prohibited_item',
    explanation: 'Bietet verschreibungspflichtige Medikamente an.',
    reporter_email: 'melder@example.org',
    good_faith: true,
  });

  const list = await runAdmin(['reports', 'list'], env);
  assert.equal(list.code, 0, list.stderr);
  assert.match(
    list.stdout,
    new RegExp(
      `^1 report waiting, oldest first\\.\\n\\n${report.id} {2}filed \\S+ {2}job ${job.id} {2}reason prohibited_item\\n {2}Bietet`,
    ),
  );

  const noReason = await runAdmin(['reports', 'decide', report.id, '--action', 'remove', '--ground', 'legal'], env);
  assert.equal(noReason.code, 1);
  assert.match(noReason.stderr, /needs --explanation/);
  const decided = await runAdmin(
    ['reports', 'decide', report.id, '--action', 'remove', '--ground', 'legal', '--explanation', '§ 43 AMG.'],
    env,
  );
  assert.equal(decided.code, 0, decided.stderr);
  assert.match(
    decided.stdout,
    new RegExp(`^Decided ${report.id}: remove \\(legal\\) of job ${job.id}; decision (mod_\\w+)\\.`),
  );
  const decisionId = /decision (mod_\w+)/.exec(decided.stdout)?.[1] as string;
  const status = async () =>
    (await db.kysely.selectFrom('jobs').select('status').where('id', '=', job.id).executeTakeFirstOrThrow()).status;
  assert.equal(await status(), 'removed');
  const [mail] = readdirSync(outbox).map((file) => parseMail(readFileSync(join(outbox, file), 'latin1')));
  assert.equal(mail?.headers.to, 'melder@example.org');
  assert.match(mail?.text ?? '', new RegExp(`https://api\\.example\\.org/v1/reports/${report.id}`));
  assert.equal((await runAdmin(['reports', 'list'], env)).stdout, 'No reports waiting.\n');
  const twice = await runAdmin(
    ['reports', 'decide', report.id, '--action', 'no_action', '--ground', 'terms', '--explanation', 'x'],
    env,
  );
  assert.equal(twice.code, 1);
  assert.match(twice.stderr, /decided already/);

  const appeal = await fileAppeal(
    { db: db.kysely, now: new Date(), claim: null },
    account,
    decisionId,
    'Das war ein Kräutertee.',
  );
  const appeals = await runAdmin(['appeals', 'list'], env);
  assert.match(
    appeals.stdout,
    new RegExp(`${appeal.id} {2}filed \\S+ {2}against ${decisionId} {2}by ${account.id}\\n {2}Das war`),
  );
  const both = await runAdmin(['appeals', 'decide', appeal.id, '--uphold', '--reverse', '--explanation', 'x'], env);
  assert.equal(both.code, 1);
  const reversed = await runAdmin(
    ['appeals', 'decide', appeal.id, '--reverse', '--explanation', 'Belege geprüft.'],
    env,
  );
  assert.equal(reversed.code, 0, reversed.stderr);
  assert.match(reversed.stdout, /reversed; job job_\w+ is back/);
  assert.equal(await status(), 'open');
  // Both decisions are in the audit log, each with the command as actor and its statement of reasons.
  const audited = await db.kysely.selectFrom('audit_log').selectAll().orderBy('at').orderBy('id').execute();
  assert.deepEqual(
    audited.map((a) => [a.actor, a.action, a.target_id, a.reason]),
    [
      ['cli', 'report.decided', report.id, '§ 43 AMG.'],
      ['cli', 'appeal.decided', appeal.id, 'Belege geprüft.'],
    ],
  );
});
