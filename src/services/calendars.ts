import type { Queryable } from '../db/queryable.js';
import type { AccountRow } from '../db/schema.js';
import { berlinDate } from '../domain/berlin-time.js';
import {
  type CalendarEntry,
  calendarUid,
  calendarWindow,
  generateFeedToken,
  hashFeedToken,
  isWellFormedFeedToken,
} from '../domain/calendar-feeds.js';
import { effectiveJobStatus } from '../domain/statuses.js';
import {
  accountOfCalendarFeed,
  bookingsOfAccount,
  deleteCalendarFeed,
  jobsOfAccount,
  listingBusyRanges,
  replaceCalendarFeed,
} from '../repositories/calendars.js';
import { findListing } from '../repositories/listings.js';
import { inWriteTransaction, type WriteContext } from '../repositories/write-transaction.js';
import type { CalendarFeed } from '../schemas/calendars.js';
import { listingNotFound } from './bookings.js';
import { ApiError } from './errors.js';
import { plannedOccurrencesOf } from './job-series.js';

const HOUR_MS = 3_600_000;

/**
 * The days a listing's bookings hold, one all-day entry per booking, saying only "booked": who
 * booked, for what price and under which id stays between owner and renter.
 */
export async function listingCalendar(
  db: Queryable,
  listingId: string,
  now: Date,
  settings: { base: string; requestTtlHours: number },
): Promise<{ title: string; entries: CalendarEntry[] }> {
  const listing = await findListing(db, listingId);
  // Removed by a moderation decision: as unknown as an id that never existed (its title too).
  if (!listing || listing.status === 'removed') throw listingNotFound(listingId, settings.base);
  const ranges = await listingBusyRanges(db, listingId, calendarWindow(berlinDate(now)), now, settings.requestTtlHours);
  const entries = ranges.map(
    (range): CalendarEntry => ({
      uid: calendarUid('listing-booking', range.id),
      summary: 'Gebucht / Booked',
      tentative: false,
      ...bookedTime(range),
    }),
  );
  return { title: listing.title, entries };
}

/** A booking's time in a feed: its days, all day; by the hour, its hours. */
function bookedTime(booking: { start_date: string; end_date: string; start_at: string | null; end_at: string | null }) {
  return booking.start_at !== null && booking.end_at !== null
    ? { allDay: false as const, start: booking.start_at, end: booking.end_at }
    : { allDay: true as const, startDate: booking.start_date, endDate: booking.end_date };
}

/** Makes the account's private feed, replacing the one it had; the token is shown this once. */
export async function createCalendarFeed(context: WriteContext, account: AccountRow): Promise<CalendarFeed> {
  const token = generateFeedToken();
  const createdAt = context.now.toISOString();
  await inWriteTransaction(context, (trx) => replaceCalendarFeed(trx, account.id, hashFeedToken(token), createdAt));
  return { url: `/v1/calendar-feeds/${token}.ics`, created_at: createdAt };
}

/** Revokes the account's private feed; having none is no error (the outcome is the same). */
export async function revokeCalendarFeed(context: WriteContext, account: AccountRow): Promise<void> {
  await inWriteTransaction(context, (trx) => deleteCalendarFeed(trx, account.id));
}

function feedNotFound(): ApiError {
  return new ApiError(404, 'not_found', 'No calendar feed has this URL.', {
    param: 'token',
    suggestion:
      'The URL may have been replaced or revoked: make a new one with POST /v1/me/calendar-feed (with your developer key).',
  });
}

/**
 * The commitments of the account behind a feed token: bookings as renter and owner, jobs, and the
 * occurrences of its job series (its own, and those it stands for) not posted yet.
 */
export async function accountCalendar(
  db: Queryable,
  token: string,
  now: Date,
  requestTtlHours: number,
): Promise<CalendarEntry[]> {
  const accountId = isWellFormedFeedToken(token) ? await accountOfCalendarFeed(db, hashFeedToken(token)) : undefined;
  if (!accountId) throw feedNotFound();
  const window = calendarWindow(berlinDate(now));
  const [bookings, jobs, planned] = await Promise.all([
    bookingsOfAccount(db, accountId, window, now, requestTtlHours),
    jobsOfAccount(db, accountId, window),
    plannedOccurrencesOf(db, accountId, window, now),
  ]);
  const bookingEntries = bookings.map(
    (booking): CalendarEntry => ({
      uid: calendarUid('booking', booking.id),
      summary: `${booking.role === 'renter' ? 'Ausleihe / Borrowing' : 'Verliehen / Lending'}: ${booking.title}`,
      description: `Status: ${booking.status}. GET /v1/bookings/${booking.id}`,
      tentative: booking.status === 'requested',
      ...bookedTime(booking),
    }),
  );
  const jobEntries = jobs.flatMap((job): CalendarEntry[] => {
    const status = effectiveJobStatus(job.status, job.deadline, now);
    if (status === 'expired') return [];
    const start = new Date(job.desired_at);
    return [
      {
        uid: calendarUid(`job-${job.role}`, job.id),
        summary: `${job.role === 'poster' ? 'Auftrag / Job posted' : 'Einsatz / Job to do'}: ${job.title}`,
        description: `Status: ${status}. GET /v1/jobs/${job.id}`,
        tentative: status === 'open',
        allDay: false,
        start: start.toISOString(),
        end: new Date(start.getTime() + job.duration_hours * HOUR_MS).toISOString(),
      },
    ];
  });
  // A series' occurrences not yet posted, tentative: once posted, the job's own entry replaces it.
  const plannedEntries = planned.map(
    (occurrence): CalendarEntry => ({
      uid: calendarUid(`series-${occurrence.role}`, `${occurrence.seriesId}/${occurrence.date}`),
      summary: `${occurrence.role === 'poster' ? 'Auftrag geplant / Job planned' : 'Einsatz geplant / Job to do, planned'}: ${occurrence.title}`,
      description: `Serie / Series: GET /v1/job-series/${occurrence.seriesId}`,
      tentative: true,
      allDay: false,
      start: occurrence.startsAt.toISOString(),
      end: new Date(occurrence.startsAt.getTime() + occurrence.durationHours * HOUR_MS).toISOString(),
    }),
  );
  return [...bookingEntries, ...jobEntries, ...plannedEntries];
}
