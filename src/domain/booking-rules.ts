import { berlinDate, berlinWallClock, nextDate } from './berlin-time.js';
import { daysInclusive } from './booking-price.js';

/**
 * A listing's booking rules (issue 35, migration 0035) for day bookings: a booking starts at 00:00
 * of its first day (Europe/Berlin), at least `min_lead_hours` after it is made; it lasts at most
 * `max_booking_days`; and `buffer_hours` are kept free between two bookings, as whole days.
 */
export interface BookingRules {
  min_lead_hours: number;
  buffer_hours: number;
  max_booking_days: number | null;
}

const HOUR_MS = 3_600_000;

/** The whole days kept free before and after each booking: 1 to 24 hours one day, 25 to 48 two. */
export function bufferDays(bufferHours: number): number {
  return Math.ceil(bufferHours / 24);
}

export type BookingRuleIssue =
  | { problem: 'too_long'; max: number }
  | { problem: 'too_soon'; leadHours: number; earliest: string };

/** What of the listing's rules a booking from `start` to `end` (local dates, inclusive) made at `now` breaks, or null. */
export function bookingRuleIssue(rules: BookingRules, start: string, end: string, now: Date): BookingRuleIssue | null {
  if (rules.max_booking_days !== null && daysInclusive(start, end) > rules.max_booking_days) {
    return { problem: 'too_long', max: rules.max_booking_days };
  }
  if (rules.min_lead_hours === 0) return null;
  const earliest = new Date(now.getTime() + rules.min_lead_hours * HOUR_MS);
  if (berlinWallClock(start, 0).getTime() >= earliest.getTime()) return null;
  const day = berlinDate(earliest);
  const first = berlinWallClock(day, 0).getTime() >= earliest.getTime() ? day : nextDate(day);
  return { problem: 'too_soon', leadHours: rules.min_lead_hours, earliest: first };
}
