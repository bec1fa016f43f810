import { type Kysely, sql } from 'kysely';
import { notifyChanges } from './0019-change-notify.js';
import { isPostgres, textType } from './column-types.js';

/**
 * Issue 33 (the operators' console), its ground:
 *
 * - operators: the accounts that run the platform, each with one role (support, moderator, admin),
 *   given and taken with `npm run admin -- operators add|remove`.
 * - audit_log: every operator action and every read of private data, written in the same
 *   transaction as the action: who (an operator's account, or `cli` for the admin command), when,
 *   what, the target and the reason. Append-only: a trigger refuses every update and delete on
 *   both engines (and truncate on PostgreSQL), so no route, command or operator can change it.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on today's Database type.
export async function up(db: Kysely<any>): Promise<void> {
  const text = textType(db);
  await db.schema
    .createTable('operators')
    .addColumn('account_id', text, (c) => c.primaryKey())
    .addColumn('role', text, (c) => c.notNull())
    .addColumn('created_by', text, (c) => c.notNull())
    .addColumn('created_at', text, (c) => c.notNull())
    .addColumn('updated_at', text, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('audit_log')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('at', text, (c) => c.notNull())
    .addColumn('actor', text, (c) => c.notNull())
    .addColumn('actor_role', text, (c) => c.notNull())
    .addColumn('action', text, (c) => c.notNull())
    .addColumn('target_type', text, (c) => c.notNull())
    .addColumn('target_id', text, (c) => c.notNull())
    .addColumn('reason', text)
    .addColumn('details', text)
    .execute();
  await db.schema.createIndex('audit_log_at').on('audit_log').columns(['at', 'id']).execute();
  await db.schema.createIndex('audit_log_target').on('audit_log').columns(['target_type', 'target_id']).execute();
  await db.schema.createIndex('audit_log_actor').on('audit_log').columns(['actor', 'at']).execute();
  if (isPostgres(db)) {
    await sql`create function kmp_append_only() returns trigger language plpgsql as $$
      begin
        raise exception 'audit_log is append-only: % refused', tg_op using errcode = 'insufficient_privilege';
      end $$`.execute(db);
    await sql`create trigger audit_log_append_only before update or delete on audit_log
      for each row execute function kmp_append_only()`.execute(db);
    await sql`create trigger audit_log_no_truncate before truncate on audit_log
      for each statement execute function kmp_append_only()`.execute(db);
    await notifyChanges(db, 'operators');
    await notifyChanges(db, 'audit_log');
  } else {
    await sql`create trigger audit_log_no_update before update on audit_log
      begin select raise(abort, 'audit_log is append-only: UPDATE refused'); end`.execute(db);
    await sql`create trigger audit_log_no_delete before delete on audit_log
      begin select raise(abort, 'audit_log is append-only: DELETE refused'); end`.execute(db);
  }
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('audit_log').execute();
  if (isPostgres(db)) await sql`drop function kmp_append_only()`.execute(db);
  await db.schema.dropTable('operators').execute();
}
