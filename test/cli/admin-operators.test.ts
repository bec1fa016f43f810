/**
 * Issue 33: operators and the audit log. `operators add|remove|list` give and take roles (never
 * the last admin), each audited in its own transaction; `audit export` writes CSV that a
 * spreadsheet cannot run; the audit log is append-only: a trigger refuses updates and deletes on
 * the run's engine (and truncate on PostgreSQL). In process, on the run's engine; one run of the
 * real command proves the wiring.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import {
  addOperatorCommand,
  exportAuditCommand,
  listOperatorsCommand,
  removeOperatorCommand,
} from '../../src/cli/admin-operators.js';
import { csvCell } from '../../src/services/operators.js';
import { adminContext } from '../helpers/admin-cli.js';
import { buildTestApp, createKey } from '../helpers/app.js';
import { TEST_ENGINE } from '../helpers/database.js';

test('operators are given and taken roles, never the last admin; every change is audited and exported as CSV', async (t) => {
  const { db } = await buildTestApp(t);
  await createKey(db, { email: 'ada@example.org' });
  await createKey(db, { email: 'ben@example.org' });
  const lines: string[] = [];
  const ctx = () => adminContext(db.kysely, lines);
  const run = async (command: Promise<void>) => {
    lines.length = 0;
    await command;
    return lines.join('\n');
  };

  await assert.rejects(addOperatorCommand(ctx(), 'nobody@example.org', { role: 'admin' }), /signs up first/);
  await assert.rejects(
    addOperatorCommand(ctx(), 'ada@example.org', { role: 'root' }),
    /--role support\|moderator\|admin/,
  );
  assert.match(
    await run(addOperatorCommand(ctx(), 'ada@example.org', { role: 'admin', reason: 'Gründerin' })),
    /is an admin/,
  );
  await assert.rejects(addOperatorCommand(ctx(), 'ada@example.org', { role: 'support' }), /last admin/);
  await assert.rejects(removeOperatorCommand(ctx(), 'ada@example.org', {}), /last admin/);
  assert.match(await run(addOperatorCommand(ctx(), 'BEN@example.org', { role: 'moderator' })), /is a moderator/);
  assert.match(await run(addOperatorCommand(ctx(), 'ben@example.org', { role: 'admin' })), /is an admin/);
  assert.match(await run(addOperatorCommand(ctx(), 'ada@example.org', { role: 'support' })), /is a support/);
  const listed = await run(listOperatorsCommand(ctx()));
  assert.match(listed, /^admin {5}ben@example\.org/m);
  assert.match(listed, /^support {3}ada@example\.org/m);
  await assert.rejects(removeOperatorCommand(ctx(), 'carl@example.org', {}), /not an operator/);
  assert.match(
    await run(removeOperatorCommand(ctx(), 'ada@example.org', { reason: '=HYPERLINK("http://x")' })),
    /no operator/,
  );

  const csv = (await run(exportAuditCommand(ctx(), '', {}))).split('\n');
  assert.equal(csv[0], 'id,at,actor,actor_role,action,target_type,target_id,reason,details');
  assert.deepEqual(
    csv.slice(1).map((line) => line.split(',')[4]),
    ['operator.added', 'operator.added', 'operator.role_changed', 'operator.role_changed', 'operator.removed'],
  );
  // A reason a spreadsheet would run as a formula is written as text.
  assert.match(csv.at(-1) ?? '', /,"'=HYPERLINK\(""http:\/\/x""\)",/);
  assert.equal(csvCell('a,b'), '"a,b"');
  assert.equal(csvCell('+49 721'), "'+49 721");
  assert.equal(csvCell(null), '');
  // Days bound the export; a malformed day is refused.
  assert.equal((await run(exportAuditCommand(ctx(), '', { from: '2099-01-01' }))).split('\n').length, 1);
  await assert.rejects(exportAuditCommand(ctx(), '', { from: '1.11.2026' }), /--from needs a day/);
});

test('the audit log is append-only: the database refuses updates and deletes', async (t) => {
  const { db } = await buildTestApp(t);
  await createKey(db, { email: 'ada@example.org' });
  await addOperatorCommand(adminContext(db.kysely, []), 'ada@example.org', { role: 'admin' });
  const entries = async () => (await db.kysely.selectFrom('audit_log').selectAll().execute()).length;
  assert.equal(await entries(), 1);
  await assert.rejects(db.kysely.updateTable('audit_log').set({ reason: 'geändert' }).execute(), /append-only/);
  await assert.rejects(db.kysely.deleteFrom('audit_log').execute(), /append-only/);
  if (TEST_ENGINE === 'postgres') await assert.rejects(sql`truncate audit_log`.execute(db.kysely), /append-only/);
  assert.equal(await entries(), 1);
  const row = await db.kysely.selectFrom('audit_log').selectAll().executeTakeFirstOrThrow();
  assert.equal(row.reason, null);
});
