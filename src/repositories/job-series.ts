import type { Queryable } from '../db/queryable.js';
import type { JobSeriesExcusalRow, JobSeriesRow, JobSeriesTable, SeriesApplicationRow } from '../db/schema.js';
import { newId } from '../domain/ids.js';
import type { JobStatus } from '../domain/statuses.js';
import type { JobValues } from './job-writes.js';
import type { WriteTransaction } from './write-transaction.js';

/** A series as it is first written. */
export type NewSeries = Pick<JobSeriesTable, 'owner_account_id' | 'rrule' | 'starts_on' | 'local_time' | 'template'>;

/** Inserts an active series; returns its id. */
export async function insertSeries(trx: WriteTransaction, series: NewSeries, now: Date): Promise<string> {
  const id = newId('ser');
  const at = now.toISOString();
  await trx
    .insertInto('job_series')
    .values({ ...series, id, status: 'active', next_post_at: null, created_at: at, updated_at: at })
    .execute();
  return id;
}

/** A series by id, whoever's; undefined: none. */
export function findSeriesRow(db: Queryable, id: string): Promise<JobSeriesRow | undefined> {
  return db.selectFrom('job_series').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Stamps updated_at of a series of the account and returns its row; undefined: no such series of
 * the account. As the first statement of a change it takes the write lock, so the sweep and other
 * changes wait for it instead of acting on what it is about to change.
 */
export function lockOwnSeries(
  trx: WriteTransaction,
  id: string,
  accountId: string,
  now: Date,
): Promise<JobSeriesRow | undefined> {
  return trx
    .updateTable('job_series')
    .set({ updated_at: now.toISOString() })
    .where('id', '=', id)
    .where('owner_account_id', '=', accountId)
    .returningAll()
    .executeTakeFirst();
}

/** Stamps updated_at of a series, whoever's, taking its write lock; undefined: no such series. */
export function lockSeries(trx: WriteTransaction, id: string, now: Date): Promise<JobSeriesRow | undefined> {
  return trx
    .updateTable('job_series')
    .set({ updated_at: now.toISOString() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/** Sets columns of a series: its status and next posting time, or (an edit) its rule, time and template. */
export async function setSeriesState(
  trx: WriteTransaction,
  id: string,
  columns: Partial<Pick<JobSeriesTable, 'status' | 'next_post_at' | 'rrule' | 'local_time' | 'template'>>,
): Promise<void> {
  await trx.updateTable('job_series').set(columns).where('id', '=', id).execute();
}

/** One page of the account's series, newest first (ids are random: ordered by creation, then id). */
export function seriesOfAccount(
  db: Queryable,
  accountId: string,
  page: { limit: number; offset: number },
): Promise<JobSeriesRow[]> {
  return db
    .selectFrom('job_series')
    .selectAll()
    .where('owner_account_id', '=', accountId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/** How many series the account has. */
export async function seriesCountOfAccount(db: Queryable, accountId: string): Promise<number> {
  const row = await db
    .selectFrom('job_series')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('owner_account_id', '=', accountId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * Active series with an occurrence to post at `now` (next_post_at passed), oldest due first; not
 * those of a suspended or erased account (they stay due, and post what is still ahead once restored).
 */
export function dueSeries(db: Queryable, now: Date, limit: number): Promise<JobSeriesRow[]> {
  return db
    .selectFrom('job_series')
    .innerJoin('accounts', 'accounts.id', 'job_series.owner_account_id')
    .selectAll('job_series')
    .where('job_series.status', '=', 'active')
    .where('job_series.next_post_at', '<=', now.toISOString())
    .where('accounts.suspended_at', 'is', null)
    .where('accounts.erased_at', 'is', null)
    .orderBy('job_series.next_post_at')
    .limit(limit)
    .execute();
}

/** A posted occurrence of a series. */
export interface PostedOccurrence {
  id: string;
  occurrence_date: string;
  status: JobStatus;
  deadline: string | null;
  desired_at: string | null;
}

/** The jobs posted for a series, by occurrence date. */
export async function postedOccurrences(db: Queryable, seriesId: string): Promise<PostedOccurrence[]> {
  const rows = await db
    .selectFrom('jobs')
    .select(['id', 'occurrence_date', 'status', 'deadline', 'desired_at'])
    .where('series_id', '=', seriesId)
    .orderBy('occurrence_date')
    .execute();
  return rows.map((row) => ({ ...row, occurrence_date: row.occurrence_date as string }));
}

/** The jobs posted for several series at once (a page of them), by series, each by occurrence date. */
export async function postedOccurrencesOf(
  db: Queryable,
  seriesIds: readonly string[],
): Promise<Map<string, PostedOccurrence[]>> {
  const bySeries = new Map<string, PostedOccurrence[]>(seriesIds.map((id) => [id, []]));
  if (seriesIds.length === 0) return bySeries;
  const rows = await db
    .selectFrom('jobs')
    .select(['id', 'series_id', 'occurrence_date', 'status', 'deadline', 'desired_at'])
    .where('series_id', 'in', seriesIds)
    .orderBy('occurrence_date')
    .execute();
  for (const { series_id, ...row } of rows) {
    bySeries.get(series_id as string)?.push({ ...row, occurrence_date: row.occurrence_date as string });
  }
  return bySeries;
}

/** The dates skipped of several series at once, by series. */
export async function skippedDatesOf(db: Queryable, seriesIds: readonly string[]): Promise<Map<string, Set<string>>> {
  const bySeries = new Map<string, Set<string>>(seriesIds.map((id) => [id, new Set()]));
  if (seriesIds.length === 0) return bySeries;
  const rows = await db
    .selectFrom('job_series_skips')
    .select(['series_id', 'occurrence_date'])
    .where('series_id', 'in', seriesIds)
    .execute();
  for (const row of rows) bySeries.get(row.series_id)?.add(row.occurrence_date);
  return bySeries;
}

/** The dates the owner skipped. */
export async function skippedDates(db: Queryable, seriesId: string): Promise<Set<string>> {
  const rows = await db
    .selectFrom('job_series_skips')
    .select('occurrence_date')
    .where('series_id', '=', seriesId)
    .execute();
  return new Set(rows.map((row) => row.occurrence_date));
}

/** Records a skipped occurrence; false when it was skipped already. */
export async function insertSkip(trx: WriteTransaction, seriesId: string, date: string, now: Date): Promise<boolean> {
  const result = await trx
    .insertInto('job_series_skips')
    .values({ series_id: seriesId, occurrence_date: date, created_at: now.toISOString() })
    .onConflict((oc) => oc.columns(['series_id', 'occurrence_date']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** The standing helpers excused from occurrences of a series, oldest date first. */
export function excusalsOf(db: Queryable, seriesId: string): Promise<JobSeriesExcusalRow[]> {
  return db
    .selectFrom('job_series_excusals')
    .selectAll()
    .where('series_id', '=', seriesId)
    .orderBy('occurrence_date')
    .orderBy('helper_id')
    .execute();
}

/** The dates of a series the account's helpers are excused from (for the account's calendar feed). */
export async function excusedDatesOfAccount(db: Queryable, seriesId: string, accountId: string): Promise<Set<string>> {
  const rows = await db
    .selectFrom('job_series_excusals')
    .innerJoin('series_applications', (join) =>
      join
        .onRef('series_applications.series_id', '=', 'job_series_excusals.series_id')
        .onRef('series_applications.helper_id', '=', 'job_series_excusals.helper_id'),
    )
    .select('job_series_excusals.occurrence_date')
    .where('job_series_excusals.series_id', '=', seriesId)
    .where('series_applications.account_id', '=', accountId)
    .execute();
  return new Set(rows.map((row) => row.occurrence_date));
}

/** Records a standing helper excused from one occurrence; false when they were excused from it already. */
export async function insertExcusal(
  trx: WriteTransaction,
  excusal: Pick<JobSeriesExcusalRow, 'series_id' | 'helper_id' | 'occurrence_date' | 'excused_by'>,
  now: Date,
): Promise<boolean> {
  const result = await trx
    .insertInto('job_series_excusals')
    .values({ ...excusal, created_at: now.toISOString() })
    .onConflict((oc) => oc.columns(['series_id', 'helper_id', 'occurrence_date']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/**
 * Posts one occurrence of a series as an open job of its owner; null when it is posted already
 * (another instance's sweep, or a write, got there first: the unique index on series and date
 * makes the insert do nothing).
 */
export async function insertOccurrence(
  trx: WriteTransaction,
  series: Pick<JobSeriesRow, 'id' | 'owner_account_id'>,
  date: string,
  values: JobValues,
  now: Date,
): Promise<string | null> {
  const id = newId('job');
  const at = now.toISOString();
  const result = await trx
    .insertInto('jobs')
    .values({
      ...values,
      id,
      status: 'open',
      applications_count: 0,
      completed_at: null,
      owner_account_id: series.owner_account_id,
      series_id: series.id,
      occurrence_date: date,
      created_at: at,
      updated_at: at,
    })
    .onConflict((oc) => oc.columns(['series_id', 'occurrence_date']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0 ? id : null;
}

/** Inserts a pending application to a series; the unique (series, helper) constraint refuses a second. */
export async function insertSeriesApplication(
  trx: WriteTransaction,
  input: { seriesId: string; helperId: string; accountId: string; message: string | null },
  now: Date,
): Promise<SeriesApplicationRow> {
  const row: SeriesApplicationRow = {
    id: newId('sap'),
    series_id: input.seriesId,
    helper_id: input.helperId,
    account_id: input.accountId,
    message: input.message,
    status: 'pending',
    created_at: now.toISOString(),
    decided_at: null,
    ended_at: null,
  };
  await trx.insertInto('series_applications').values(row).execute();
  return row;
}

/** An application to the series by id; undefined: none of that series. */
export function findSeriesApplication(
  db: Queryable,
  seriesId: string,
  id: string,
): Promise<SeriesApplicationRow | undefined> {
  return db
    .selectFrom('series_applications')
    .selectAll()
    .where('id', '=', id)
    .where('series_id', '=', seriesId)
    .executeTakeFirst();
}

/** The applications to a series, oldest first. */
export function seriesApplicationsOf(db: Queryable, seriesId: string): Promise<SeriesApplicationRow[]> {
  return db
    .selectFrom('series_applications')
    .selectAll()
    .where('series_id', '=', seriesId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** The helpers standing for a series (accepted, not ended), oldest first. */
export function standingHelpersOf(db: Queryable, seriesId: string): Promise<SeriesApplicationRow[]> {
  return db
    .selectFrom('series_applications')
    .selectAll()
    .where('series_id', '=', seriesId)
    .where('status', '=', 'accepted')
    .orderBy('decided_at')
    .orderBy('id')
    .execute();
}

/**
 * Moves an application to the series from one status to another with one conditional update (of
 * two concurrent decisions one applies); false when it was not in `from`.
 */
export async function moveSeriesApplication(
  trx: WriteTransaction,
  id: string,
  from: SeriesApplicationRow['status'],
  to: SeriesApplicationRow['status'],
  now: Date,
): Promise<boolean> {
  const at = now.toISOString();
  const moved = await trx
    .updateTable('series_applications')
    .set({ status: to, ...(to === 'ended' ? { ended_at: at } : { decided_at: at }) })
    .where('id', '=', id)
    .where('status', '=', from)
    .executeTakeFirst();
  return Number(moved.numUpdatedRows) > 0;
}

/**
 * The active series the account has a part in: its own, and those it stands for as a helper
 * (an accepted series application); for its private calendar feed.
 */
export async function activeSeriesOfParty(
  db: Queryable,
  accountId: string,
): Promise<{ row: JobSeriesRow; role: 'poster' | 'helper' }[]> {
  const [own, stood] = await Promise.all([
    db
      .selectFrom('job_series')
      .selectAll()
      .where('owner_account_id', '=', accountId)
      .where('status', '=', 'active')
      .execute(),
    db
      .selectFrom('job_series')
      .innerJoin('series_applications', 'series_applications.series_id', 'job_series.id')
      .selectAll('job_series')
      .where('series_applications.account_id', '=', accountId)
      .where('series_applications.status', '=', 'accepted')
      .where('job_series.status', '=', 'active')
      .execute(),
  ]);
  return [
    ...own.map((row) => ({ row, role: 'poster' as const })),
    ...stood.map((row) => ({ row, role: 'helper' as const })),
  ];
}

/**
 * Moves a series' occurrences from `fromDate` on (their posted jobs, skipped dates and excused
 * helpers) to another series: "this and following" of an edit splits the series there.
 */
export async function moveOccurrencesFrom(
  trx: WriteTransaction,
  fromSeriesId: string,
  toSeriesId: string,
  fromDate: string,
): Promise<void> {
  await trx
    .updateTable('jobs')
    .set({ series_id: toSeriesId })
    .where('series_id', '=', fromSeriesId)
    .where('occurrence_date', '>=', fromDate)
    .execute();
  await trx
    .updateTable('job_series_skips')
    .set({ series_id: toSeriesId })
    .where('series_id', '=', fromSeriesId)
    .where('occurrence_date', '>=', fromDate)
    .execute();
  await trx
    .updateTable('job_series_excusals')
    .set({ series_id: toSeriesId })
    .where('series_id', '=', fromSeriesId)
    .where('occurrence_date', '>=', fromDate)
    .execute();
}

/** The helpers standing for a series stand for another too (the second part of a split series). */
export async function copyStandingHelpers(
  trx: WriteTransaction,
  fromSeriesId: string,
  toSeriesId: string,
  now: Date,
): Promise<void> {
  for (const helper of await standingHelpersOf(trx, fromSeriesId)) {
    await trx
      .insertInto('series_applications')
      .values({ ...helper, id: newId('sap'), series_id: toSeriesId, decided_at: now.toISOString() })
      .execute();
  }
}
