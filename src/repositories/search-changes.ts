import { sql } from 'kysely';
import { dialectOf, type Queryable } from '../db/queryable.js';
import { type JobIndexRow, jobIndexColumns, type ListingIndexRow, listingIndexColumns } from './indexed-search.js';

/**
 * Where a search index is in the log of changed jobs and listings (migration 0020): every change
 * numbered up to `seq` is in it, and so is every change of the transactions `pending` names
 * (PostgreSQL transactions in progress when it last read: numbers are drawn before commit, so theirs
 * may be below `seq` and appear later). SQLite commits one writer at a time: `pending` stays empty.
 */
export interface ChangeCursor {
  seq: number;
  pending: readonly string[];
}

export interface ChangeBatch {
  /** Ids of changed rows, each once, in the order of their first change here. */
  jobs: string[];
  listings: string[];
  cursor: ChangeCursor;
  /** Changes after the cursor were pruned before they were read: follow by rebuilding instead. */
  pruned: boolean;
  /** More than `limit` changes: the batch is cut; rebuilding is cheaper than following. */
  full: boolean;
}

/**
 * The cursor as of now, for an index about to read every row: changes up to it are in what it reads
 * next; later ones (and those of transactions in progress now) it reads as changes.
 */
export async function changeCursorNow(db: Queryable): Promise<ChangeCursor> {
  // The highest number given out: the last change kept, or the last one pruned when none is.
  if (dialectOf(db) === 'sqlite') {
    const { rows } = await sql<{ seq: number | null }>`
      select max(coalesce((select max(seq) from search_changes), 0),
        (select pruned_upto from search_change_horizon)) as seq`.execute(db);
    return { seq: Number(rows[0]?.seq ?? 0), pending: [] };
  }
  // One statement, one snapshot: that number and the transactions it sees in progress.
  const { rows } = await sql<{ seq: number | null; pending: string[] }>`
    select greatest((select max(seq) from search_changes), (select pruned_upto from search_change_horizon)) as seq,
      array(select x::text from pg_snapshot_xip(pg_current_snapshot()) as x) as pending`.execute(db);
  return { seq: Number(rows[0]?.seq ?? 0), pending: rows[0]?.pending ?? [] };
}

/** The changes after `cursor` (at most `limit`), and the cursor after them. */
export async function changesSince(db: Queryable, cursor: ChangeCursor, limit: number): Promise<ChangeBatch> {
  let changes: { seq: number; kind: 'job' | 'listing'; id: string }[];
  let pending: string[] = [];
  let horizon: number;
  if (dialectOf(db) === 'sqlite') {
    changes = await db
      .selectFrom('search_changes')
      .select(['seq', 'kind', 'id'])
      .where('seq', '>', cursor.seq)
      .orderBy('seq')
      .limit(limit + 1)
      .execute();
    const row = await db.selectFrom('search_change_horizon').select('pruned_upto').executeTakeFirst();
    horizon = Number(row?.pruned_upto ?? 0);
  } else {
    // One statement, one snapshot: the changes it shows, the transactions it sees in progress (whose
    // changes the next read asks for by transaction) and the pruning horizon.
    const { rows } = await sql<{ changes: [number, 'job' | 'listing', string][]; pending: string[]; horizon: number }>`
      select
        coalesce((select json_agg(json_build_array(c.seq, c.kind, c.id) order by c.seq) from (
          select seq, kind, id from search_changes
          where seq > ${cursor.seq} or xid = any(${[...cursor.pending]}::xid8[])
          order by seq limit ${limit + 1}) as c), '[]'::json) as changes,
        array(select x::text from pg_snapshot_xip(pg_current_snapshot()) as x) as pending,
        (select pruned_upto from search_change_horizon) as horizon`.execute(db);
    const row = rows[0];
    changes = (row?.changes ?? []).map(([seq, kind, id]) => ({ seq: Number(seq), kind, id }));
    pending = row?.pending ?? [];
    horizon = Number(row?.horizon ?? 0);
  }
  const full = changes.length > limit;
  if (full) changes = changes.slice(0, limit);
  const jobs = new Set<string>();
  const listings = new Set<string>();
  let seq = cursor.seq;
  for (const change of changes) {
    (change.kind === 'job' ? jobs : listings).add(change.id);
    if (change.seq > seq) seq = change.seq;
  }
  return { jobs: [...jobs], listings: [...listings], cursor: { seq, pending }, pruned: horizon > cursor.seq, full };
}

/**
 * Deletes the changes older than `before`, and moves the horizon past them, in one transaction:
 * an index still behind them sees that it missed some and rebuilds. Returns the rows deleted.
 */
export async function pruneSearchChanges(db: Queryable, before: Date): Promise<number> {
  const run = async (trx: Queryable) => {
    const cutoff = dialectOf(trx) === 'sqlite' ? before.toISOString() : before;
    const last = await trx
      .selectFrom('search_changes')
      .select((eb) => eb.fn.max('seq').as('seq'))
      // biome-ignore lint/suspicious/noExplicitAny: an ISO text on SQLite, a timestamptz parameter on PostgreSQL.
      .where('changed_at', '<', cutoff as any)
      .executeTakeFirst();
    const upto = Number(last?.seq ?? 0);
    if (upto === 0) return 0;
    const deleted = await trx.deleteFrom('search_changes').where('seq', '<=', upto).executeTakeFirst();
    await trx
      .updateTable('search_change_horizon')
      .set({ pruned_upto: sql`case when pruned_upto > ${upto} then pruned_upto else ${upto} end` })
      .execute();
    return Number(deleted.numDeletedRows);
  };
  return db.isTransaction ? run(db) : db.transaction().execute(run);
}

/** Rows read per query when following changes (SQLite and PostgreSQL bind at most this many ids comfortably). */
const BY_ID_CHUNK = 500;

async function inChunks<R>(ids: readonly string[], read: (chunk: string[]) => Promise<R[]>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < ids.length; i += BY_ID_CHUNK) out.push(...(await read(ids.slice(i, i + BY_ID_CHUNK))));
  return out;
}

/** The index columns of these jobs (those that still exist), whatever their status. */
export function jobIndexRowsOf(db: Queryable, ids: readonly string[]): Promise<JobIndexRow[]> {
  return inChunks(ids, (chunk) => db.selectFrom('jobs').select(jobIndexColumns).where('id', 'in', chunk).execute());
}

/** The index columns of these listings (those that still exist with their owner), whatever their status. */
export function listingIndexRowsOf(db: Queryable, ids: readonly string[]): Promise<ListingIndexRow[]> {
  return inChunks(ids, (chunk) =>
    db
      .selectFrom('listings')
      .innerJoin('owners', 'owners.id', 'listings.owner_id')
      .select(listingIndexColumns)
      .where('listings.id', 'in', chunk)
      .execute(),
  );
}
