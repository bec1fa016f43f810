import { type ExpressionBuilder, sql } from 'kysely';
import type { Queryable } from '../db/queryable.js';
import type { BookingRow, BookingStatus, Database } from '../db/schema.js';
import { berlinDate } from '../domain/berlin-time.js';
import { addDays, bookingPrice, daysInclusive, HOLDING_STATUSES, requestCutoff } from '../domain/booking-price.js';
import { type BookingRuleIssue, bufferDays } from '../domain/booking-rules.js';
import { hourlyPrice, hoursBetween, requestSpan, widened } from '../domain/hourly-lending.js';
import { newId } from '../domain/ids.js';
import { centsToEur } from '../domain/pricing.js';
import type { ListingStatus } from '../domain/statuses.js';
import type { Booking, ListingAvailability } from '../schemas/bookings.js';
import type { WriteTransaction } from './write-transaction.js';

export function bookingRowToBooking(row: BookingRow): Booking {
  return {
    id: row.id,
    listing_id: row.listing_id,
    status: row.status,
    start_date: row.start_date,
    end_date: row.end_date,
    start_at: row.start_at,
    end_at: row.end_at,
    days: row.days,
    hours: row.hours,
    price_eur: centsToEur(row.price_cents),
    deposit_eur: centsToEur(row.deposit_cents),
    late_fee_per_day_eur: row.late_fee_per_day_cents === null ? null : centsToEur(row.late_fee_per_day_cents),
    price_breakdown: {
      daily_eur: centsToEur(row.daily_cents),
      weekly_eur: row.weekly_cents === null ? null : centsToEur(row.weekly_cents),
      hourly_eur: row.hourly_cents === null ? null : centsToEur(row.hourly_cents),
      weeks: row.weeks,
      extra_days: row.extra_days,
      extra_hours: row.extra_hours ?? 0,
    },
    cancellation_policy: row.cancellation_policy,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export interface BookingRequest {
  listingId: string;
  renterAccountId: string;
  /** Calendar days (Europe/Berlin), both inclusive; checked against today and each other already. */
  startDate: string;
  endDate: string;
  /** A booking by the hour: its first and end instant (startDate/endDate are then the local days it touches); null for a day booking. */
  startAt: string | null;
  endAt: string | null;
}

export type BookedRange = ListingAvailability['booked'][number];

/**
 * Bookings that hold their days at `now`: confirmed and active ones, and requests younger than the
 * TTL. A request past it frees its days at once, before the sweep writes `expired`.
 */
export function holdsDays(now: Date, requestTtlHours: number) {
  const stillWaiting = notOverdue(now, requestTtlHours);
  return (eb: ExpressionBuilder<Database, 'bookings'>) =>
    eb.and([eb('status', 'in', HOLDING_STATUSES), stillWaiting(eb)]);
}

/** SQL for "not a request past its TTL" (the SQL side of effectiveBooking). */
function notOverdue(now: Date, requestTtlHours: number) {
  const cutoff = requestCutoff(now, requestTtlHours);
  return (eb: ExpressionBuilder<Database, 'bookings'>) =>
    eb.or([eb('status', '!=', 'requested'), eb('created_at', '>', cutoff)]);
}

export type BookingAttempt =
  | { booked: BookingRow }
  | { problem: 'not_found' }
  | { problem: 'own_listing' }
  | { problem: 'unavailable'; status: ListingStatus }
  | { problem: 'conflict'; with: BookedRange; bufferHours: number; hourly: boolean }
  | { problem: 'held'; until: string; hourly: boolean }
  | { problem: 'busy'; from: string; to: string; hourly: boolean }
  | BookingRuleIssue;

/**
 * Writes the listing's row without changing it when it is available; false when it is not (or
 * does not exist). The first statement of a booking: it takes SQLite's write lock (PostgreSQL: the
 * row lock) before the overlap check reads, so two requests for the same listing, in one process
 * or several, run one after the other and the second sees the first's booking. Writing first also
 * keeps SQLite from failing with SQLITE_BUSY on a read lock that would have to be upgraded; the
 * wait for the lock is the busy timeout's.
 */
export async function lockAvailableListing(trx: WriteTransaction, listingId: string): Promise<boolean> {
  const locked = await trx
    .updateTable('listings')
    .set({ updated_at: sql`updated_at` })
    .where('id', '=', listingId)
    .where('status', '=', 'available')
    .executeTakeFirst();
  return Number(locked.numUpdatedRows) > 0;
}

/** What a booking of a listing needs from it: status, prices, place, its owner row and account. */
export function listingToBook(db: Queryable, listingId: string) {
  return db
    .selectFrom('listings')
    .innerJoin('owners', 'owners.id', 'listings.owner_id')
    .select([
      'listings.status',
      'listings.price_per_day_cents',
      'listings.price_per_week_cents',
      'listings.deposit_cents',
      'listings.instant_booking',
      'listings.cancellation_policy',
      'listings.late_fee_per_day_cents',
      'listings.min_lead_hours',
      'listings.buffer_hours',
      'listings.max_booking_days',
      'listings.price_per_hour_cents',
      'listings.min_hours',
      'listings.opening_hours',
      'listings.category',
      'listings.lat',
      'listings.lng',
      'listings.owner_id',
      'owners.account_id',
    ])
    .where('listings.id', '=', listingId)
    .executeTakeFirst();
}

export type ListingToBook = NonNullable<Awaited<ReturnType<typeof listingToBook>>>;

/**
 * The first booking of the listing holding time the request asks for at `now`, or time within the
 * listing's `bufferHours` before or after it, if any (`except`: a booking not to count, the one an
 * extension lengthens). Day bookings among themselves keep whole days (ceil(bufferHours / 24),
 * compared by date); where one of the two is by the hour, the instants they hold, widened by
 * bufferHours, must not meet.
 */
export async function firstClash(
  db: Queryable,
  request: BookingRequest,
  now: Date,
  requestTtlHours: number,
  bufferHours = 0,
  except?: string,
): Promise<BookedRange | undefined> {
  const span = widened(requestSpan(request), bufferHours);
  const hourlyHeld = (eb: ExpressionBuilder<Database, 'bookings'>) =>
    eb.and([
      eb('start_at', 'is not', null),
      eb('start_at', '<', span.to.toISOString()),
      eb('end_at', '>', span.from.toISOString()),
    ]);
  // A day booking against this request: by dates for a day request, by the days its widened span touches for an hourly one.
  const days = bufferDays(bufferHours);
  const dayRange =
    request.startAt === null
      ? { from: addDays(request.startDate, -days), to: addDays(request.endDate, days) }
      : { from: berlinDate(span.from), to: berlinDate(new Date(span.to.getTime() - 1)) };
  let query = db
    .selectFrom('bookings')
    .select(['start_date', 'end_date', 'start_at', 'end_at', 'status'])
    .where('listing_id', '=', request.listingId)
    .where(holdsDays(now, requestTtlHours))
    .where((eb) =>
      eb.or([
        eb.and([eb('start_at', 'is', null), eb('start_date', '<=', dayRange.to), eb('end_date', '>=', dayRange.from)]),
        hourlyHeld(eb),
      ]),
    );
  if (except !== undefined) query = query.where('id', '!=', except);
  const clash = await query.orderBy('start_date').orderBy('start_at').executeTakeFirst();
  return clash as BookedRange | undefined;
}

/**
 * Inserts a booking of the listing at its prices: confirmed when it books instantly, else
 * requested. Returns the row.
 */
export async function insertBooking(
  trx: WriteTransaction,
  request: BookingRequest,
  listing: ListingToBook,
  now: Date,
): Promise<BookingRow> {
  const days = daysInclusive(request.startDate, request.endDate);
  const hourly = request.startAt !== null && request.endAt !== null && listing.price_per_hour_cents !== null;
  const hours = hourly ? hoursBetween(new Date(request.startAt as string), new Date(request.endAt as string)) : null;
  const prices = {
    hourly: listing.price_per_hour_cents ?? 0,
    daily: listing.price_per_day_cents,
    weekly: listing.price_per_week_cents,
  };
  const price =
    hours === null
      ? { ...bookingPrice(days, prices.daily, prices.weekly), extra_hours: null }
      : hourlyPrice(hours, prices);
  const at = now.toISOString();
  const row: BookingRow = {
    id: newId('bkg'),
    listing_id: request.listingId,
    renter_account_id: request.renterAccountId,
    start_date: request.startDate,
    end_date: request.endDate,
    days,
    price_cents: price.total_cents,
    deposit_cents: listing.deposit_cents,
    daily_cents: listing.price_per_day_cents,
    weekly_cents: listing.price_per_week_cents,
    weeks: price.weeks,
    extra_days: price.extra_days,
    status: listing.instant_booking === 1 ? 'confirmed' : 'requested',
    created_at: at,
    updated_at: at,
    decided_at: null,
    cancelled_by: null,
    returned_at: null,
    cancellation_policy: listing.cancellation_policy,
    late_fee_per_day_cents: listing.late_fee_per_day_cents,
    start_at: hourly ? request.startAt : null,
    end_at: hourly ? request.endAt : null,
    hours,
    hourly_cents: hourly ? listing.price_per_hour_cents : null,
    extra_hours: price.extra_hours,
  };
  await trx.insertInto('bookings').values(row).execute();
  return row;
}

export type BookingWithOwner = BookingRow & { owner_account_id: string | null };

/** A booking with the account of its listing's owner, who may act on it besides the renter. */
export function findBookingWithOwner(db: Queryable, id: string): Promise<BookingWithOwner | undefined> {
  return db
    .selectFrom('bookings')
    .innerJoin('listings', 'listings.id', 'bookings.listing_id')
    .innerJoin('owners', 'owners.id', 'listings.owner_id')
    .selectAll('bookings')
    .select('owners.account_id as owner_account_id')
    .where('bookings.id', '=', id)
    .executeTakeFirst();
}

/** What a status change records besides the status: the owner's decision time, who cancelled. */
export interface BookingChangeHistory {
  decided_at?: string;
  cancelled_by?: 'owner' | 'renter';
  returned_at?: string;
}

/**
 * Moves a booking from one of `from` to `to` in one conditional write; false when it was not in
 * `from`. A request past its TTL is not `requested` any more (it expired), even before the sweep
 * has written that.
 */
export async function moveBooking(
  trx: WriteTransaction,
  id: string,
  from: readonly BookingStatus[],
  to: BookingStatus,
  now: Date,
  requestTtlHours: number,
  history: BookingChangeHistory = {},
): Promise<boolean> {
  const result = await trx
    .updateTable('bookings')
    .set({ status: to, updated_at: now.toISOString(), ...history })
    .where('id', '=', id)
    .where('status', 'in', from)
    .where(notOverdue(now, requestTtlHours))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * A booking with what its events need, in one read: the account of its listing's owner (who hears
 * of it besides the renter) and its listing's place.
 */
export async function bookingWithParties(
  db: Queryable,
  id: string,
): Promise<{ booking: Booking; audience: (string | null)[]; place: { category: string; lat: number; lng: number } }> {
  const { owner_account_id, category, lat, lng, ...row } = await db
    .selectFrom('bookings')
    .innerJoin('listings', 'listings.id', 'bookings.listing_id')
    .innerJoin('owners', 'owners.id', 'listings.owner_id')
    .selectAll('bookings')
    .select(['owners.account_id as owner_account_id', 'listings.category', 'listings.lat', 'listings.lng'])
    .where('bookings.id', '=', id)
    .executeTakeFirstOrThrow();
  return {
    booking: bookingRowToBooking(row),
    audience: [owner_account_id, row.renter_account_id],
    place: { category, lat, lng },
  };
}

/** Days held at `now` by the listing's bookings that end `today` or later, earliest first. */
export function bookedRanges(
  db: Queryable,
  listingId: string,
  today: string,
  now: Date,
  requestTtlHours: number,
): Promise<BookedRange[]> {
  return bookingsHoldingDays(db, listingId, { from: today }, now, requestTtlHours)
    .select(['start_date', 'end_date', 'start_at', 'end_at', 'status'])
    .execute() as Promise<BookedRange[]>;
}

/**
 * The listing's bookings that hold days at `now` (holdsDays) and end on or after `window.from`
 * (and start by `window.to`), in date order: what availability and the listing's calendar show.
 */
export function bookingsHoldingDays(
  db: Queryable,
  listingId: string,
  window: { from: string; to?: string },
  now: Date,
  requestTtlHours: number,
) {
  let query = db
    .selectFrom('bookings')
    .where('listing_id', '=', listingId)
    .where(holdsDays(now, requestTtlHours))
    .where('end_date', '>=', window.from);
  if (window.to !== undefined) query = query.where('start_date', '<=', window.to);
  return query.orderBy('start_date').orderBy('start_at').orderBy('id');
}
