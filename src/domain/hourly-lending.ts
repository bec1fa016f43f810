import { berlinClock, berlinDate, berlinWallClock } from './berlin-time.js';
import { addDays, bookingPrice } from './booking-price.js';

/**
 * Lending by the hour (issue 35): opening hours, the price rule, and the span of time a booking
 * holds, so day bookings and hourly bookings of one listing can be checked against each other.
 */

export const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** Per weekday (local time, Europe/Berlin) spans from which to which pick-up and return are possible; a day not named is closed. */
export type OpeningHours = { day: Weekday; open: string; close: string }[];

const HOUR_MS = 3_600_000;
/** The longest booking by the hour: seven days (longer ones are booked by the day). */
export const MAX_BOOKING_HOURS = 168;

/** HH:MM as minutes since midnight; 24:00 is 1440 (a close at midnight). */
export function clockMinutes(value: string): number {
  const [h, m] = value.split(':').map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
}

/**
 * Whether an instant falls in the opening hours of its local weekday, both ends included; an
 * instant at local midnight also counts for the day before when that closes at 24:00. Null
 * opening hours: any time.
 */
export function withinOpeningHours(hours: OpeningHours | null, instant: Date): boolean {
  if (hours === null) return true;
  const { weekday, minutes } = berlinClock(instant);
  const today = WEEKDAYS[weekday];
  const yesterday = WEEKDAYS[(weekday + 6) % 7];
  return hours.some(
    (span) =>
      (span.day === today && minutes >= clockMinutes(span.open) && minutes <= clockMinutes(span.close)) ||
      (span.day === yesterday && minutes === 0 && span.close === '24:00'),
  );
}

/** Opening hours as one line for a message: "mon 08:00-18:00, sat 09:00-13:00". */
export function describeOpeningHours(hours: OpeningHours): string {
  const order = (day: Weekday) => (WEEKDAYS.indexOf(day) + 6) % 7;
  const spans = [...hours].sort((a, b) => order(a.day) - order(b.day) || clockMinutes(a.open) - clockMinutes(b.open));
  return spans.length === 0 ? 'closed every day' : spans.map((s) => `${s.day} ${s.open}-${s.close}`).join(', ');
}

export interface HourlyPrice {
  total_cents: number;
  weeks: number;
  extra_days: number;
  extra_hours: number;
}

/**
 * The price of `hours` real hours, the cheapest for the renter of: the whole days in it (24 hours
 * each) at the day rule (bookingPrice: days and weeks) plus the hours left at the hourly price; or
 * one more day instead of those hours. On a tie, the one with fewer days.
 */
export function hourlyPrice(
  hours: number,
  prices: { hourly: number; daily: number; weekly: number | null },
): HourlyPrice {
  const days = Math.floor(hours / 24);
  const rest = hours - days * 24;
  const whole = bookingPrice(days, prices.daily, prices.weekly);
  const byHours = { ...whole, total_cents: whole.total_cents + rest * prices.hourly, extra_hours: rest };
  if (rest === 0) return byHours;
  const next = bookingPrice(days + 1, prices.daily, prices.weekly);
  return next.total_cents < byHours.total_cents ? { ...next, extra_hours: 0 } : byHours;
}

/** The instants a booking holds: a day booking from 00:00 of its first day to 00:00 after its last (local). */
export function heldSpan(booking: {
  start_date: string;
  end_date: string;
  start_at: string | null;
  end_at: string | null;
}): { from: Date; to: Date } {
  if (booking.start_at !== null && booking.end_at !== null) {
    return { from: new Date(booking.start_at), to: new Date(booking.end_at) };
  }
  return { from: berlinWallClock(booking.start_date, 0), to: berlinWallClock(addDays(booking.end_date, 1), 0) };
}

/** The instants a requested time holds (a booking's or a waiting list's, in the services' names). */
export function requestSpan(time: {
  startDate: string;
  endDate: string;
  startAt: string | null;
  endAt: string | null;
}) {
  return heldSpan({ start_date: time.startDate, end_date: time.endDate, start_at: time.startAt, end_at: time.endAt });
}

/** The local days an hourly booking from `from` to `to` touches (the end instant itself not included). */
export function daysTouched(from: Date, to: Date): { start_date: string; end_date: string } {
  return { start_date: berlinDate(from), end_date: berlinDate(new Date(to.getTime() - 1)) };
}

/** Real hours between two instants (over the night the clocks go forward, 01:00 to 04:00 is two). */
export function hoursBetween(from: Date, to: Date): number {
  return (to.getTime() - from.getTime()) / HOUR_MS;
}

/** Whether an instant is on a full hour (in Europe/Berlin, as in UTC: its offsets are whole hours). */
export function onFullHour(instant: Date): boolean {
  return instant.getTime() % HOUR_MS === 0;
}

/** Widens a span by `hours` on both sides (a listing's buffer_hours). */
export function widened(span: { from: Date; to: Date }, hours: number): { from: Date; to: Date } {
  return { from: new Date(span.from.getTime() - hours * HOUR_MS), to: new Date(span.to.getTime() + hours * HOUR_MS) };
}

/** Parses stored opening hours (JSON text, or null). */
export function parseOpeningHours(text: string | null): OpeningHours | null {
  return text === null ? null : (JSON.parse(text) as OpeningHours);
}

/** Whether two spans share an instant (touching ends do not). */
export function spansMeet(a: { from: Date; to: Date }, b: { from: Date; to: Date }): boolean {
  return a.from.getTime() < b.to.getTime() && b.from.getTime() < a.to.getTime();
}
