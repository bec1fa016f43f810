/** Booking rules and prices: calendar days (Europe/Berlin), both ends inclusive. */

export const BOOKING_STATUSES = [
  'requested',
  'confirmed',
  'active',
  'returned',
  'declined',
  'cancelled',
  'expired',
] as const;
/**
 * Bookings in these states hold their days: no other booking may overlap them. A request holds
 * them only until it expires (isExpiredRequest).
 */
export const HOLDING_STATUSES = ['requested', 'confirmed', 'active'] as const;

const HOUR_MS = 3_600_000;

/** The moment a request the owner leaves unanswered for `ttlHours` (BOOKING_REQUEST_TTL_HOURS) expires. */
export function requestExpiresAt(createdAt: string, ttlHours: number): string {
  return new Date(Date.parse(createdAt) + ttlHours * HOUR_MS).toISOString();
}

/** Requests created at or before this instant have expired by `now`; later ones still wait. */
export function requestCutoff(now: Date, ttlHours: number): string {
  return new Date(now.getTime() - ttlHours * HOUR_MS).toISOString();
}

interface BookingState {
  status: (typeof BOOKING_STATUSES)[number];
  created_at: string;
  updated_at: string;
}

/**
 * A booking as it stands at `now`: a request past its time is expired (changed at the moment it
 * expired) whether or not the sweep (sweeps/booking-requests.ts) has written that yet, so reads and
 * transitions never treat it as waiting, and it reads the same before and after the sweep.
 */
export function effectiveBooking<T extends BookingState>(row: T, now: Date, ttlHours: number): T {
  if (row.status !== 'requested' || row.created_at > requestCutoff(now, ttlHours)) return row;
  return { ...row, status: 'expired', updated_at: requestExpiresAt(row.created_at, ttlHours) } as T;
}

/**
 * How many days before a confirmed booking starts its renter may know where to pick the item up:
 * none, the first day of the booking (issue 30, 4). Not from the confirmation: an instant booking
 * is confirmed at once and cancelling it is free, so anyone could book, read the place and cancel;
 * a day ahead still let an instant booking for tomorrow do that. On the day itself the renter is
 * on the way (and each read is recorded for the owner, services/places.ts); an active booking
 * (picked up) always may.
 */
export const PICK_UP_PLACE_DAYS_AHEAD = 0;

/** A booking covers at most this many days. */
export const MAX_BOOKING_DAYS = 60;
/** A booking starts at most this many days after today. */
export const MAX_DAYS_AHEAD = 365;

const DAY_MS = 86_400_000;

const utcDay = (date: string): number => Date.parse(`${date}T00:00:00Z`);

/** The calendar date `days` after (or before, when negative) a YYYY-MM-DD date. */
export function addDays(date: string, days: number): string {
  return new Date(utcDay(date) + days * DAY_MS).toISOString().slice(0, 10);
}

/**
 * The days (Europe/Berlin, both ends included) on which a confirmed booking's item can be picked
 * up: from the day before its first day (an evening hand-over for an early start) to its last day.
 * Earlier, the item is still the owner's to use or lend; later, the booking's days are over.
 */
export function pickUpWindow(booking: { start_date: string; end_date: string }): { from: string; to: string } {
  return { from: addDays(booking.start_date, -1), to: booking.end_date };
}

/** Days from start to end, both included: 2026-12-01 to 2026-12-01 is 1. */
export function daysInclusive(start: string, end: string): number {
  return Math.round((utcDay(end) - utcDay(start)) / DAY_MS) + 1;
}

export interface BookingPrice {
  total_cents: number;
  /** Full weeks charged at the weekly price (the last may be a remainder rounded up to a week). */
  weeks: number;
  /** Days charged at the daily price. */
  extra_days: number;
}

/**
 * The cheapest way to pay for `days` days: k weeks at the weekly price and the remaining days at
 * the daily price, for every k from 0 to ceil(days / 7) — the last one rounds a remainder up to one
 * more week, which is cheaper when a few days cost more than a week. On a tie, fewer weeks.
 */
export function bookingPrice(days: number, dailyCents: number, weeklyCents: number | null): BookingPrice {
  let best: BookingPrice = { total_cents: days * dailyCents, weeks: 0, extra_days: days };
  if (weeklyCents === null) return best;
  for (let weeks = 1; weeks <= Math.ceil(days / 7); weeks++) {
    const extraDays = Math.max(0, days - weeks * 7);
    const total = weeks * weeklyCents + extraDays * dailyCents;
    if (total < best.total_cents) best = { total_cents: total, weeks, extra_days: extraDays };
  }
  return best;
}
