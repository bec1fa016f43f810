import ICAL from 'ical.js';
import { berlinWallClock } from './berlin-time.js';
import { addDays } from './booking-price.js';

/**
 * The busy times of an external iCalendar feed (issue 35: an owner's or helper's own calendar), read
 * with ical.js: every VEVENT that is not free (TRANSP:TRANSPARENT) or cancelled, recurring ones
 * expanded with their exceptions (EXDATE, RDATE, and RECURRENCE-ID overrides moving or cancelling an
 * occurrence), within a window. Times with a zone the feed defines (VTIMEZONE) are read in it, UTC
 * ones as they are; floating times and all-day dates are Karlsruhe's (Europe/Berlin), whose clock
 * changes berlinWallClock knows.
 */

export interface BusyTime {
  start: string;
  end: string;
}

/** At most this many busy times are kept of one feed, and occurrences expanded per event. */
export const MAX_BUSY_TIMES = 5_000;
const MAX_OCCURRENCES = 2_000;

export class CalendarParseError extends Error {}

const berlinZones = new Set(['Europe/Berlin', 'W. Europe Standard Time', 'CET', 'Europe/Vienna', 'Europe/Zurich']);

/** An ical.js time as an instant. */
function instantOf(time: ICAL.Time): Date {
  const zone = time.zone?.tzid;
  const date = `${String(time.year).padStart(4, '0')}-${String(time.month).padStart(2, '0')}-${String(time.day).padStart(2, '0')}`;
  if (time.isDate) return berlinWallClock(date, 0);
  if (zone === 'UTC' || zone === 'Z')
    return new Date(Date.UTC(time.year, time.month - 1, time.day, time.hour, time.minute, time.second));
  if (zone && zone !== 'floating' && !berlinZones.has(zone)) return time.toJSDate();
  return new Date(berlinWallClock(date, time.hour, time.minute).getTime() + time.second * 1000);
}

/** The busy times of the feed `text` that touch [from, to), earliest first; a CalendarParseError for what is no iCalendar. */
export function busyTimesOf(text: string, window: { from: Date; to: Date }): BusyTime[] {
  let calendar: ICAL.Component;
  try {
    calendar = new ICAL.Component(ICAL.parse(text));
  } catch (error) {
    throw new CalendarParseError(`not an iCalendar feed: ${(error as Error).message}`);
  }
  if (calendar.name !== 'vcalendar')
    throw new CalendarParseError(`not an iCalendar feed: it starts with ${calendar.name}`);
  for (const zone of calendar.getAllSubcomponents('vtimezone')) {
    const timezone = new ICAL.Timezone(zone);
    if (!ICAL.TimezoneService.has(timezone.tzid)) ICAL.TimezoneService.register(timezone);
  }
  const events = calendar.getAllSubcomponents('vevent');
  // Overrides of single occurrences (RECURRENCE-ID) belong to the series with their UID.
  const series = new Map<string, ICAL.Event>();
  const overrides: ICAL.Event[] = [];
  for (const component of events) {
    const event = new ICAL.Event(component);
    if (event.isRecurrenceException()) overrides.push(event);
    else series.set(event.uid, event);
  }
  for (const override of overrides) series.get(override.uid)?.relateException(override);
  const busy: BusyTime[] = [];
  const add = (component: ICAL.Component, start: ICAL.Time, end: ICAL.Time) => {
    if (String(component.getFirstPropertyValue('transp') ?? '').toUpperCase() === 'TRANSPARENT') return;
    if (String(component.getFirstPropertyValue('status') ?? '').toUpperCase() === 'CANCELLED') return;
    const from = instantOf(start);
    let until = instantOf(end);
    // An all-day event without an end is one day; a timed one without a duration is an instant.
    if (until.getTime() <= from.getTime() && start.isDate) until = berlinWallClock(addDays(dateOf(start), 1), 0);
    if (until.getTime() <= window.from.getTime() || from.getTime() >= window.to.getTime()) return;
    if (until.getTime() <= from.getTime()) return;
    busy.push({ start: from.toISOString(), end: until.toISOString() });
  };
  for (const event of series.values()) {
    if (!event.startDate) continue;
    if (!event.isRecurring()) {
      add(event.component, event.startDate, event.endDate ?? event.startDate);
      continue;
    }
    const iterator = event.iterator();
    for (let i = 0; i < MAX_OCCURRENCES && busy.length < MAX_BUSY_TIMES; i++) {
      const next = iterator.next();
      if (!next) break;
      if (instantOf(next).getTime() >= window.to.getTime()) break;
      const occurrence = event.getOccurrenceDetails(next);
      add(occurrence.item.component, occurrence.startDate, occurrence.endDate);
    }
  }
  // Two events at the same time are one busy time.
  const unique = [...new Map(busy.map((time) => [`${time.start}/${time.end}`, time])).values()];
  return unique.sort((a, b) => a.start.localeCompare(b.start) || a.end.localeCompare(b.end)).slice(0, MAX_BUSY_TIMES);
}

function dateOf(time: ICAL.Time): string {
  return `${String(time.year).padStart(4, '0')}-${String(time.month).padStart(2, '0')}-${String(time.day).padStart(2, '0')}`;
}
