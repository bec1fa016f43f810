import { berlinDate, berlinWallClock, nextDate } from './berlin-time.js';
import { daysInclusive } from './booking-price.js';
import { hoursBetween, type OpeningHours, withinOpeningHours } from './hourly-lending.js';

/**
 * A listing's booking rules (issue 35, migrations 0035 and 0036): a booking starts at least
 * `min_lead_hours` after it is made (a day booking at 00:00 of its first day, Europe/Berlin); it
 * lasts at most `max_booking_days` (by the hour: that many times 24 hours); `buffer_hours` are kept
 * free between two bookings. A booking by the hour needs an hourly price, lasts at least
 * `min_hours`, and starts and ends within the opening hours.
 */
export interface BookingRules {
  min_lead_hours: number;
  buffer_hours: number;
  max_booking_days: number | null;
  price_per_hour_cents: number | null;
  min_hours: number;
  opening_hours: OpeningHours | null;
}

const HOUR_MS = 3_600_000;

export type BookingRuleIssue =
  | { problem: 'too_long'; max: number; hourly: boolean }
  | { problem: 'too_soon'; leadHours: number; earliest: string; hourly: boolean }
  | { problem: 'not_hourly' }
  | { problem: 'too_short'; min: number }
  | { problem: 'closed'; param: 'start_at' | 'end_at'; hours: OpeningHours };

/** A requested booking: its local days, both included, and for one by the hour its instants. */
export interface RequestedTime {
  startDate: string;
  endDate: string;
  startAt: string | null;
  endAt: string | null;
}

/** What of the listing's rules a booking made at `now` breaks, or null. */
export function bookingRuleIssue(rules: BookingRules, time: RequestedTime, now: Date): BookingRuleIssue | null {
  const hourly = time.startAt !== null && time.endAt !== null ? hourlyIssue(rules, time.startAt, time.endAt) : null;
  if (hourly) return hourly;
  const isHourly = time.startAt !== null;
  const tooLong = isHourly
    ? rules.max_booking_days !== null &&
      hoursBetween(new Date(time.startAt as string), new Date(time.endAt as string)) > rules.max_booking_days * 24
    : rules.max_booking_days !== null && daysInclusive(time.startDate, time.endDate) > rules.max_booking_days;
  if (tooLong) return { problem: 'too_long', max: rules.max_booking_days as number, hourly: isHourly };
  if (rules.min_lead_hours === 0) return null;
  const earliest = new Date(now.getTime() + rules.min_lead_hours * HOUR_MS);
  const start = isHourly ? new Date(time.startAt as string) : berlinWallClock(time.startDate, 0);
  if (start.getTime() >= earliest.getTime()) return null;
  if (isHourly) {
    const hour = new Date(Math.ceil(earliest.getTime() / HOUR_MS) * HOUR_MS).toISOString();
    return { problem: 'too_soon', leadHours: rules.min_lead_hours, earliest: hour, hourly: true };
  }
  const day = berlinDate(earliest);
  const first = berlinWallClock(day, 0).getTime() >= earliest.getTime() ? day : nextDate(day);
  return { problem: 'too_soon', leadHours: rules.min_lead_hours, earliest: first, hourly: false };
}

function hourlyIssue(rules: BookingRules, startAt: string, endAt: string): BookingRuleIssue | null {
  if (rules.price_per_hour_cents === null) return { problem: 'not_hourly' };
  if (hoursBetween(new Date(startAt), new Date(endAt)) < rules.min_hours)
    return { problem: 'too_short', min: rules.min_hours };
  if (rules.opening_hours === null) return null;
  if (!withinOpeningHours(rules.opening_hours, new Date(startAt))) {
    return { problem: 'closed', param: 'start_at', hours: rules.opening_hours };
  }
  if (!withinOpeningHours(rules.opening_hours, new Date(endAt))) {
    return { problem: 'closed', param: 'end_at', hours: rules.opening_hours };
  }
  return null;
}

/** The whole days two day bookings keep free between them: 1 to 24 hours one day, 25 to 48 two. */
export function bufferDays(bufferHours: number): number {
  return Math.ceil(bufferHours / 24);
}
