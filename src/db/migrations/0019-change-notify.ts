import { type Kysely, sql } from 'kysely';
import { isPostgres } from './column-types.js';

/**
 * PostgreSQL: every write that changes a row of a table of the schema sends a notification on commit
 * (NOTIFY is transactional: a rolled-back write sends none; one transaction's many are folded into
 * one), so every instance learns of every write, its own, another instance's, the admin command's
 * or psql's, without asking the database per request (db/change-listener.ts). The payload is the
 * schema, so services sharing a database in different schemas ignore each other's writes.
 * A table added by a later migration gets the trigger with `notifyChanges` (test/postgres checks
 * that every table has it). SQLite needs none: its data_version pragma is read in process.
 */
export const CHANGE_CHANNEL = 'kmp_data_changed';

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on today's Database type.
export async function notifyChanges(db: Kysely<any>, table: string): Promise<void> {
  // Per row, not per statement: a conditional update that changes nothing (the sweeps run one every
  // few seconds) must not end the reuse of every answer. PostgreSQL folds a transaction's equal
  // notifications into one in a hash table, so a bulk write costs a lookup per row.
  await sql`create trigger kmp_notify_change after insert or update or delete on ${sql.table(table)}
    for each row execute function kmp_notify_change()`.execute(db);
  await sql`create trigger kmp_notify_truncate after truncate on ${sql.table(table)}
    for each statement execute function kmp_notify_change()`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see notifyChanges.
async function schemaTables(db: Kysely<any>): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE' and table_name not like 'kysely_%'
    order by table_name`.execute(db);
  return rows.map((r) => r.name);
}

// biome-ignore lint/suspicious/noExplicitAny: see notifyChanges.
export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`create function kmp_notify_change() returns trigger language plpgsql as $$
    begin
      perform pg_notify(${sql.lit(CHANGE_CHANNEL)}, tg_table_schema);
      return null;
    end
  $$`.execute(db);
  for (const table of await schemaTables(db)) await notifyChanges(db, table);
}

// biome-ignore lint/suspicious/noExplicitAny: see notifyChanges.
export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  for (const table of await schemaTables(db)) {
    await sql`drop trigger if exists kmp_notify_change on ${sql.table(table)}`.execute(db);
    await sql`drop trigger if exists kmp_notify_truncate on ${sql.table(table)}`.execute(db);
  }
  await sql`drop function kmp_notify_change()`.execute(db);
}
