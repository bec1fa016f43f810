import { sql, type Transaction } from 'kysely';
import type { Db } from './create-db.js';
import { migrateToLatest, pendingMigrations } from './migrate.js';
import { dialectOf, insertInChunks, type Queryable } from './queryable.js';
import type { Database } from './schema.js';

/**
 * Tables whose rows the target makes itself as the copied rows arrive (triggers of migration 0020):
 * what changed for the search indexes is the target's own history, not the source's.
 */
export const DERIVED_TABLES = ['search_changes', 'search_change_horizon'] as const;
type DerivedTable = (typeof DERIVED_TABLES)[number];

/**
 * Every table of the schema with its primary key, parents before children: the order of this
 * literal is the copy order (and, reversed, the delete order), so foreign keys hold at each insert.
 * Typed over the Database interface, so a new table does not compile until it is listed here.
 */
const TABLES: { [T in Exclude<keyof Database, DerivedTable>]: readonly (keyof Database[T] & string)[] } = {
  meta: ['key'],
  accounts: ['id'],
  api_keys: ['id'],
  key_requests: ['id'],
  owners: ['id'],
  listings: ['id'],
  helpers: ['id'],
  helper_categories: ['helper_id', 'category'],
  job_series: ['id'],
  jobs: ['id'],
  job_series_skips: ['series_id', 'occurrence_date'],
  series_applications: ['id'],
  job_series_excusals: ['series_id', 'helper_id', 'occurrence_date'],
  notification_settings: ['account_id'],
  notifications: ['id'],
  push_subscriptions: ['id'],
  applications: ['id'],
  bookings: ['id'],
  booking_extensions: ['id'],
  waitlist_entries: ['id'],
  busy_calendars: ['id'],
  busy_times: ['calendar_id', 'start_at', 'end_at'],
  idempotency_keys: ['account_id', 'key'],
  events: ['id'],
  webhooks: ['id'],
  webhook_deliveries: ['id'],
  conversations: ['id'],
  messages: ['id'],
  reviews: ['id'],
  verifications: ['id'],
  calendar_feeds: ['account_id'],
  saved_searches: ['id'],
  saved_search_matches: ['saved_search_id', 'subject_id'],
  saved_search_digests: ['account_id'],
  providers: ['account_id'],
  reports: ['id'],
  moderation_decisions: ['id'],
  appeals: ['id'],
  drafts: ['id'],
  place_releases: ['object_id', 'reader_account_id', 'day'],
  sign_in_codes: ['id'],
  sessions: ['id'],
  passkeys: ['id'],
  passkey_challenges: ['challenge_hash'],
  oauth_records: ['model', 'id'],
  payments: ['id'],
  ledger_entries: ['id'],
  bank_accounts: ['account_id'],
  claims: ['id'],
  payout_accounts: ['account_id'],
  provider_events: ['id'],
  provider_tasks: ['id'],
  operators: ['account_id'],
  audit_log: ['id'],
};

export type TableName = Exclude<keyof Database, DerivedTable>;

/** The tables copyDatabase copies, in copy order (the Kysely migration tables are not among them). */
export const COPIED_TABLES = Object.keys(TABLES) as TableName[];

/** Rows read per round trip: memory stays flat however large a table is. */
const BATCH_ROWS = 1_000;

export interface CopyOptions {
  /** Delete the target's rows first (in the same transaction) instead of refusing a non-empty target. */
  replace?: boolean;
  /** Remove U+0000 from texts going to PostgreSQL, which cannot hold it, instead of refusing them. */
  stripNul?: boolean;
  /** Told after each batch: rows of `table` copied so far, of `total`. */
  progress?: (table: TableName, done: number, total: number) => void;
}

export interface CopyReport {
  /** Migrations applied to the target before copying (none when it was up to date). */
  migrated: string[];
  tables: { table: TableName; rows: number }[];
}

/** A refusal the operator can act on (as opposed to a failure of the database). */
export class CopyRefusedError extends Error {}

type Row = Record<string, unknown>;

/**
 * Copies every row of `source` into `target` in one transaction on the target: it holds all the
 * rows, with the same counts per table, or is left as it was. Both schemas end at the same
 * migration level; the source is read in one snapshot, so a copy is consistent even while it is
 * written to (writes after the snapshot are not copied, so stop the service first).
 */
export async function copyDatabase(source: Db, target: Db, options: CopyOptions = {}): Promise<CopyReport> {
  const pending = await pendingMigrations(source);
  if (pending.length > 0) {
    throw new CopyRefusedError(
      `The source schema is behind (${pending.join(', ')} pending). Run \`DATABASE_URL=<the --from URL> npm run migrate\` (or start this version of the service on it once: it migrates at start-up), then copy again.`,
    );
  }
  const migrated = await migrateToLatest(target);
  await checkSameMigrations(source, target);
  const tables = await readSnapshot(source, (src) =>
    target.kysely.transaction().execute(async (trx) => {
      await prepareTarget(trx, options.replace ?? false);
      const copied: CopyReport['tables'] = [];
      for (const table of COPIED_TABLES) {
        copied.push({ table, rows: await copyTable(src, trx, table, options) });
      }
      await compareCounts(src, trx);
      // Copied ids were given, not drawn: the next event id must come after the last one copied.
      if (target.dialect === 'postgres') {
        await sql`select setval(pg_get_serial_sequence('events', 'id'), coalesce((select max(id) from events), 0) + 1, false)`.execute(
          trx,
        );
      }
      return copied;
    }),
  );
  return { migrated, tables };
}

/** Runs `read` in one read-only snapshot of the database (PostgreSQL: repeatable read; SQLite: a read transaction). */
function readSnapshot<T>(db: Db, read: (src: Transaction<Database>) => Promise<T>): Promise<T> {
  const builder = db.kysely.transaction();
  const snapshot =
    db.dialect === 'postgres' ? builder.setIsolationLevel('repeatable read').setAccessMode('read only') : builder;
  return snapshot.execute(read);
}

async function appliedMigrations(db: Db): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db.kysely);
  return rows.map((row) => row.name);
}

/** Both sides must have the very same migrations applied, or their columns could differ. */
async function checkSameMigrations(source: Db, target: Db): Promise<void> {
  const [from, to] = await Promise.all([appliedMigrations(source), appliedMigrations(target)]);
  const unknownHere = from.filter((name) => !to.includes(name));
  if (unknownHere.length > 0) {
    throw new CopyRefusedError(
      `The source has migrations this version does not know (${unknownHere.join(', ')}): it was written by a newer version. Copy with that version.`,
    );
  }
  const extra = to.filter((name) => !from.includes(name));
  if (extra.length > 0) {
    throw new CopyRefusedError(
      `The target has migrations the source lacks (${extra.join(', ')}): it was migrated by a newer version. Copy with that version, or use an empty target.`,
    );
  }
}

async function countRows(db: Queryable, table: TableName): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Refuses a target that holds rows, or with `replace` deletes them, children first. */
async function prepareTarget(trx: Transaction<Database>, replace: boolean): Promise<void> {
  if (replace) {
    // The audit log is append-only (a trigger refuses deletes): its entries stay, and the copy adds
    // the source's entries the target does not hold yet.
    for (const table of [...COPIED_TABLES].reverse()) {
      if (table !== 'audit_log') await trx.deleteFrom(table).execute();
    }
    return;
  }
  const filled: string[] = [];
  for (const table of COPIED_TABLES) {
    const rows = await countRows(trx, table);
    if (rows > 0) filled.push(`${table} (${rows})`);
  }
  if (filled.length > 0) {
    throw new CopyRefusedError(
      `The target already holds rows: ${filled.join(', ')}. Copy into an empty database, or add --replace to delete its rows first (in the same transaction).`,
    );
  }
}

/** The rows of `table` after `after` (a primary key), in key order: keyset pagination, no OFFSET scans. */
async function batchAfter(src: Queryable, table: TableName, after: unknown[] | null): Promise<Row[]> {
  const key = TABLES[table].map((column) => sql.ref(column));
  // Row values compare column by column on both engines, so composite keys page like single ones.
  const where = after ? sql`where (${sql.join(key)}) > (${sql.join(after)})` : sql``;
  const { rows } =
    await sql<Row>`select * from ${sql.table(table)} ${where} order by ${sql.join(key)} limit ${sql.lit(BATCH_ROWS)}`.execute(
      src,
    );
  return rows;
}

/** Of a batch of audit entries, those the target does not hold (a --replace keeps the target's log). */
async function notYetAudited(trx: Transaction<Database>, rows: Row[]): Promise<Row[]> {
  const ids = rows.map((row) => String(row.id));
  const held = new Set(
    (await trx.selectFrom('audit_log').select('id').where('id', 'in', ids).execute()).map((row) => row.id),
  );
  return rows.filter((row) => !held.has(String(row.id)));
}

/** Copies one table batch by batch; returns the rows copied. A failure names the table. */
async function copyTable(
  src: Queryable,
  trx: Transaction<Database>,
  table: TableName,
  options: CopyOptions,
): Promise<number> {
  const progress = options.progress ?? (() => {});
  const nulFree = dialectOf(trx) === 'postgres' ? (rows: Row[]) => withoutNul(table, rows, options.stripNul) : null;
  const total = await countRows(src, table);
  progress(table, 0, total);
  let done = 0;
  let after: unknown[] | null = null;
  try {
    for (;;) {
      const rows = await batchAfter(src, table, after);
      const last = rows.at(-1);
      if (!last) break;
      // Read untyped, but rows of the same table at the same migration level: they fit its insert type.
      const fresh = table === 'audit_log' ? await notYetAudited(trx, rows) : rows;
      await insertInChunks(trx, table, (nulFree ? nulFree(fresh) : fresh) as never[]);
      done += rows.length;
      progress(table, done, total);
      after = TABLES[table].map((column) => last[column]);
    }
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`Copying ${table} failed after ${done} of ${total} rows: ${reason}`, { cause: error });
  }
  return done;
}

/**
 * Rows without U+0000 in their texts. Earlier versions stored it on SQLite; PostgreSQL cannot
 * hold it: without `strip`, the first such text stops the copy with where it is and what to do.
 */
function withoutNul(table: TableName, rows: Row[], strip = false): Row[] {
  return rows.map((row) => {
    let clean: Row | null = null;
    for (const [column, value] of Object.entries(row)) {
      if (typeof value !== 'string' || !value.includes('\u0000')) continue;
      if (!strip) {
        const key = TABLES[table].map((c) => String(row[c])).join(', ');
        throw new CopyRefusedError(
          `${table}.${column} of the row ${key} holds a NUL character (U+0000), which PostgreSQL cannot store. Run again with --strip-nul to remove such characters while copying.`,
        );
      }
      clean ??= { ...row };
      clean[column] = value.replaceAll('\u0000', '');
    }
    return clean ?? row;
  });
}

/** The last word before commit: every table holds as many rows on the target as in the source snapshot. */
async function compareCounts(src: Queryable, trx: Transaction<Database>): Promise<void> {
  const mismatches: string[] = [];
  for (const table of COPIED_TABLES) {
    const [from, to] = [await countRows(src, table), await countRows(trx, table)];
    if (from !== to) mismatches.push(`${table}: source ${from}, target ${to}`);
  }
  if (mismatches.length > 0) {
    throw new Error(`Row counts differ after copying (${mismatches.join('; ')}); nothing was written.`);
  }
}
