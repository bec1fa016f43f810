import type { Kysely } from 'kysely';
import type { Queryable } from '../db/queryable.js';
import type { AccountRow, BusyCalendarRow, Database } from '../db/schema.js';
import { busyTimesOf, CalendarParseError } from '../domain/busy-times.js';
import { newId } from '../domain/ids.js';
import { ownerIdOfListing, ownHelper } from '../repositories/busy-calendar-owners.js';
import {
  calendarsOfAccount,
  claimBusyCalendar,
  deleteBusyCalendar,
  dueBusyCalendars,
  findBusyCalendar,
  recordFetch,
  replaceBusyCalendar,
} from '../repositories/busy-calendars.js';
import { inWriteTransaction, type WriteContext } from '../repositories/write-transaction.js';
import type { BusyCalendar, BusyCalendarCreateBody } from '../schemas/busy-calendars.js';
import { fetchCalendar } from '../webhooks/calendar-fetch.js';
import { webhookUrlProblem } from '../webhooks/url-guard.js';
import { ApiError, badRequest } from './errors.js';

const MINUTE_MS = 60_000;
const YEAR_MS = 366 * 24 * 3_600_000;
/** A feed larger than this is refused; one slower than this is given up. */
export const MAX_FEED_BYTES = 2_000_000;
export const FEED_TIMEOUT_MS = 10_000;

export interface BusyCalendarSettings {
  /** WEBHOOK_ALLOW_PRIVATE_NETWORKS: tests and closed networks may fetch from inside. */
  allowPrivate: boolean;
  /** BUSY_CALENDAR_REFRESH_MINUTES. */
  refreshMinutes: number;
}

function view(row: BusyCalendarRow): BusyCalendar {
  return {
    id: row.id,
    listing_id: row.listing_id,
    helper_id: row.helper_id,
    url_host: new URL(row.url).host,
    status: row.status,
    busy_times: row.busy_count,
    last_fetch_at: row.last_fetch_at,
    last_error: row.last_error,
    next_fetch_at: row.next_fetch_at,
    created_at: row.created_at,
  };
}

/**
 * Attaches the account's calendar to one of its listings or helper profiles (replacing the one it
 * had), to be fetched at once by the sweep; 400 for an address the guard refuses or a body that
 * names neither or both, 404 for a listing or profile that is not the account's.
 */
export async function attachBusyCalendar(
  context: WriteContext,
  account: AccountRow,
  body: BusyCalendarCreateBody,
  settings: BusyCalendarSettings,
): Promise<BusyCalendar> {
  if ((body.listing_id === undefined) === (body.helper_id === undefined)) {
    throw badRequest(
      body.listing_id === undefined ? 'missing_parameter' : 'conflicting_parameters',
      body.listing_id === undefined ? 'listing_id' : 'helper_id',
      'A busy calendar blocks one listing or one helper profile: send listing_id or helper_id, not both.',
      'Send {"url": …, "listing_id": "lst_…"} or {"url": …, "helper_id": "hlp_…"}.',
    );
  }
  const url = body.url.replace(/^webcals?:\/\//i, 'https://');
  const problem = await webhookUrlProblem(url, settings.allowPrivate);
  if (problem)
    throw badRequest(
      'invalid_parameter',
      'url',
      problem.problem.replace(/webhooks are only delivered/, 'calendars are only fetched'),
      problem.suggestion,
    );
  return inWriteTransaction(context, async (trx) => {
    if (body.listing_id !== undefined && !(await ownerIdOfListing(trx, body.listing_id, account.id))) {
      throw new ApiError(404, 'not_found', `No listing with the id '${body.listing_id}' is yours.`, {
        param: 'listing_id',
        suggestion: 'A busy calendar blocks one of your own listings.',
      });
    }
    if (body.helper_id !== undefined && !(await ownHelper(trx, body.helper_id, account.id))) {
      throw new ApiError(404, 'not_found', `No helper profile with the id '${body.helper_id}' is yours.`, {
        param: 'helper_id',
        suggestion: 'A busy calendar blocks one of your own helper profiles.',
      });
    }
    const at = context.now.toISOString();
    const row: BusyCalendarRow = {
      id: newId('bcal'),
      account_id: account.id,
      listing_id: body.listing_id ?? null,
      helper_id: body.helper_id ?? null,
      url,
      status: 'pending',
      etag: null,
      last_modified: null,
      last_fetch_at: null,
      last_error: null,
      busy_count: 0,
      next_fetch_at: at,
      created_at: at,
    };
    await replaceBusyCalendar(trx, row);
    return view(row);
  });
}

export async function listBusyCalendars(db: Queryable, account: AccountRow): Promise<{ data: BusyCalendar[] }> {
  return { data: (await calendarsOfAccount(db, account.id)).map(view) };
}

/** Detaches one of the account's calendars: its busy times stop counting at once; 404 for anyone else's. */
export async function detachBusyCalendar(context: WriteContext, account: AccountRow, id: string): Promise<void> {
  await inWriteTransaction(context, async (trx) => {
    const row = await findBusyCalendar(trx, id);
    if (!row || row.account_id !== account.id) {
      throw new ApiError(404, 'not_found', `No busy calendar with the id '${id}' is yours.`, {
        param: 'id',
        suggestion: 'GET /v1/me/busy-calendars lists yours.',
      });
    }
    await deleteBusyCalendar(trx, id);
  });
}

/**
 * The sweep of busy calendars, in every instance: each due one is claimed (a conditional write, so
 * one instance fetches it), fetched with the guard, read, and its busy times replaced; a failure
 * keeps the last good times and says why. Returns how many were fetched.
 */
export async function refreshBusyCalendars(
  db: Kysely<Database>,
  options: BusyCalendarSettings & { now: Date; userAgent: string; batch?: number },
): Promise<number> {
  const { now } = options;
  let fetched = 0;
  for (const row of await dueBusyCalendars(db, now, options.batch ?? 20)) {
    const next = new Date(now.getTime() + options.refreshMinutes * MINUTE_MS);
    if (!(await claimBusyCalendar(db, row, next))) continue;
    const result = await fetchCalendar(row.url, {
      etag: row.etag,
      lastModified: row.last_modified,
      allowPrivate: options.allowPrivate,
      timeoutMs: FEED_TIMEOUT_MS,
      maxBytes: MAX_FEED_BYTES,
      userAgent: options.userAgent,
    });
    const at = now.toISOString();
    const context = { db, now, claim: null };
    if (result.kind === 'not_modified') {
      await inWriteTransaction(context, (trx) =>
        recordFetch(trx, row.id, { status: 'ok', last_fetch_at: at, last_error: null }, null),
      );
    } else if (result.kind === 'error') {
      await inWriteTransaction(context, (trx) =>
        recordFetch(trx, row.id, { status: 'error', last_fetch_at: at, last_error: result.error }, null),
      );
    } else {
      let times: { start: string; end: string }[];
      try {
        times = busyTimesOf(result.text, { from: now, to: new Date(now.getTime() + YEAR_MS) });
      } catch (error) {
        if (!(error instanceof CalendarParseError)) throw error;
        await inWriteTransaction(context, (trx) =>
          recordFetch(trx, row.id, { status: 'error', last_fetch_at: at, last_error: error.message }, null),
        );
        continue;
      }
      await inWriteTransaction(context, (trx) =>
        recordFetch(
          trx,
          row.id,
          {
            status: 'ok',
            last_fetch_at: at,
            last_error: null,
            etag: result.etag,
            last_modified: result.lastModified,
            busy_count: times.length,
          },
          times,
        ),
      );
    }
    fetched++;
  }
  return fetched;
}
