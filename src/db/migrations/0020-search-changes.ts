import { type Kysely, sql } from 'kysely';
import { notifyChanges } from './0019-change-notify.js';
import { isPostgres, textType } from './column-types.js';

const SEARCHED = [
  ['jobs', 'job'],
  ['listings', 'listing'],
] as const;

/**
 * The ids of the jobs and listings that changed, in the order they changed, so the in-memory search
 * indexes (search/search-indexes.ts) follow every write, whoever makes it (an instance, the admin
 * command, psql), by re-reading the changed rows instead of rebuilding: filled by triggers, on
 * both engines, in the writing transaction.
 *
 * SQLite: row triggers; one writer at a time, so sequence numbers become visible in order.
 * PostgreSQL: statement triggers with transition tables (a bulk write is one insert of its ids), and
 * each row carries its transaction's id: numbers are drawn before commit, so a reader also asks for
 * the rows of the transactions its last snapshot saw in progress (repositories/search-changes.ts),
 * and needs no lock that writers would queue on.
 *
 * Rows older than an hour are pruned (sweeps); `search_change_horizon` keeps the highest sequence
 * number pruned, so an index that fell further behind rebuilds instead.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on today's Database type.
export async function up(db: Kysely<any>): Promise<void> {
  const text = textType(db);
  if (isPostgres(db)) {
    await db.schema
      .createTable('search_changes')
      .addColumn('seq', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
      .addColumn('kind', text, (c) => c.notNull())
      .addColumn('id', text, (c) => c.notNull())
      .addColumn('xid', sql`xid8`, (c) => c.notNull().defaultTo(sql`pg_current_xact_id()`))
      .addColumn('changed_at', sql`timestamptz`, (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema.createIndex('search_changes_xid').on('search_changes').column('xid').execute();
  } else {
    await sql`create table search_changes (
      seq integer primary key autoincrement,
      kind text not null,
      id text not null,
      changed_at text not null default (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
    )`.execute(db);
  }
  await db.schema.createIndex('search_changes_changed_at').on('search_changes').column('changed_at').execute();
  await db.schema
    .createTable('search_change_horizon')
    .addColumn('one', 'integer', (c) => c.primaryKey().check(sql`one = 1`))
    .addColumn('pruned_upto', 'bigint', (c) => c.notNull())
    .execute();
  await db.insertInto('search_change_horizon').values({ one: 1, pruned_upto: 0 }).execute();

  if (isPostgres(db)) {
    for (const [table, kind] of SEARCHED) {
      for (const [op, rows] of [
        ['insert', 'new'],
        ['update', 'new'],
        ['delete', 'old'],
      ] as const) {
        const fn = `kmp_search_change_${table}_${op}`;
        await sql`create function ${sql.id(fn)}() returns trigger language plpgsql as $$
          begin
            insert into search_changes (kind, id) select ${sql.lit(kind)}, id from changed_rows;
            return null;
          end
        $$`.execute(db);
        await sql`create trigger ${sql.id(`${fn}`)} after ${sql.raw(op)} on ${sql.table(table)}
          referencing ${sql.raw(rows)} table as changed_rows
          for each statement execute function ${sql.id(fn)}()`.execute(db);
      }
    }
    await notifyChanges(db, 'search_changes');
    await notifyChanges(db, 'search_change_horizon');
  } else {
    for (const [table, kind] of SEARCHED) {
      for (const [op, row] of [
        ['insert', 'new'],
        ['update', 'new'],
        ['delete', 'old'],
      ] as const) {
        await sql`create trigger ${sql.id(`search_change_${table}_${op}`)} after ${sql.raw(op)} on ${sql.table(table)}
          begin insert into search_changes (kind, id) values (${sql.lit(kind)}, ${sql.raw(row)}.id); end`.execute(db);
      }
    }
  }
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  for (const [table] of SEARCHED) {
    for (const op of ['insert', 'update', 'delete']) {
      if (isPostgres(db)) {
        const fn = `kmp_search_change_${table}_${op}`;
        await sql`drop trigger if exists ${sql.id(fn)} on ${sql.table(table)}`.execute(db);
        await sql`drop function if exists ${sql.id(fn)}()`.execute(db);
      } else {
        await sql`drop trigger if exists ${sql.id(`search_change_${table}_${op}`)}`.execute(db);
      }
    }
  }
  await db.schema.dropTable('search_change_horizon').execute();
  await db.schema.dropTable('search_changes').execute();
}
