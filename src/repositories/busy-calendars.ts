import type { Queryable } from '../db/queryable.js';
import type { BusyCalendarRow } from '../db/schema.js';
import type { WriteTransaction } from './write-transaction.js';

export function calendarsOfAccount(db: Queryable, accountId: string): Promise<BusyCalendarRow[]> {
  return db
    .selectFrom('busy_calendars')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export function findBusyCalendar(db: Queryable, id: string): Promise<BusyCalendarRow | undefined> {
  return db.selectFrom('busy_calendars').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Puts the calendar in place of the one its listing or helper profile had (one each). */
export async function replaceBusyCalendar(trx: WriteTransaction, row: BusyCalendarRow): Promise<void> {
  const old = trx
    .selectFrom('busy_calendars')
    .select('id')
    .where(row.listing_id !== null ? 'listing_id' : 'helper_id', '=', (row.listing_id ?? row.helper_id) as string);
  await trx.deleteFrom('busy_times').where('calendar_id', 'in', old).execute();
  await trx
    .deleteFrom('busy_calendars')
    .where(row.listing_id !== null ? 'listing_id' : 'helper_id', '=', (row.listing_id ?? row.helper_id) as string)
    .execute();
  await trx.insertInto('busy_calendars').values(row).execute();
}

export async function deleteBusyCalendar(trx: WriteTransaction, id: string): Promise<void> {
  await trx.deleteFrom('busy_times').where('calendar_id', '=', id).execute();
  await trx.deleteFrom('busy_calendars').where('id', '=', id).execute();
}

/** Calendars due for a fetch, oldest due first. */
export function dueBusyCalendars(db: Queryable, now: Date, batch: number): Promise<BusyCalendarRow[]> {
  return db
    .selectFrom('busy_calendars')
    .selectAll()
    .where('next_fetch_at', '<=', now.toISOString())
    .orderBy('next_fetch_at')
    .limit(batch)
    .execute();
}

/** Claims a due calendar's fetch until `until` (one instance fetches it); false when another did. */
export async function claimBusyCalendar(db: Queryable, row: BusyCalendarRow, until: Date): Promise<boolean> {
  const result = await db
    .updateTable('busy_calendars')
    .set({ next_fetch_at: until.toISOString() })
    .where('id', '=', row.id)
    .where('next_fetch_at', '=', row.next_fetch_at)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** What a fetch found: its busy times in place of the last ones (unless `times` is null: unchanged), and its outcome. */
export async function recordFetch(
  trx: WriteTransaction,
  id: string,
  outcome: Pick<BusyCalendarRow, 'status' | 'last_fetch_at' | 'last_error'> &
    Partial<Pick<BusyCalendarRow, 'etag' | 'last_modified' | 'busy_count'>>,
  times: { start: string; end: string }[] | null,
): Promise<void> {
  if (times !== null) {
    await trx.deleteFrom('busy_times').where('calendar_id', '=', id).execute();
    for (let i = 0; i < times.length; i += 500) {
      const rows = times.slice(i, i + 500).map((t) => ({ calendar_id: id, start_at: t.start, end_at: t.end }));
      await trx.insertInto('busy_times').values(rows).execute();
    }
  }
  await trx.updateTable('busy_calendars').set(outcome).where('id', '=', id).execute();
}

/** The first busy time of a listing's calendar that meets [from, to), if any. */
export function busyTimeOfListing(db: Queryable, listingId: string, from: string, to: string) {
  return db
    .selectFrom('busy_times')
    .innerJoin('busy_calendars', 'busy_calendars.id', 'busy_times.calendar_id')
    .select(['busy_times.start_at', 'busy_times.end_at'])
    .where('busy_calendars.listing_id', '=', listingId)
    .where('busy_times.start_at', '<', to)
    .where('busy_times.end_at', '>', from)
    .orderBy('busy_times.start_at')
    .executeTakeFirst();
}

/** A listing's busy times that end after `from`, earliest first (availability shows them). */
export function busyTimesOfListing(db: Queryable, listingId: string, from: string) {
  return db
    .selectFrom('busy_times')
    .innerJoin('busy_calendars', 'busy_calendars.id', 'busy_times.calendar_id')
    .select(['busy_times.start_at', 'busy_times.end_at'])
    .where('busy_calendars.listing_id', '=', listingId)
    .where('busy_times.end_at', '>', from)
    .orderBy('busy_times.start_at')
    .limit(500)
    .execute();
}
