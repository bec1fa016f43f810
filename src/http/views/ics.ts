import ical, { ICalEventStatus, ICalEventTransparency } from 'ical-generator';
import { addDays } from '../../domain/booking-price.js';
import type { CalendarEntry } from '../../domain/calendar-feeds.js';

/** How often calendar apps are asked to fetch a feed again (REFRESH-INTERVAL, X-PUBLISHED-TTL). */
const REFRESH_SECONDS = 3600;

export const ICS_CONTENT_TYPE = 'text/calendar; charset=utf-8';

/**
 * A feed as iCalendar (RFC 5545). No calendar time zone is set: all-day events are dates, timed
 * ones UTC instants, so nothing depends on the server's zone. Every event is busy (OPAQUE). Every
 * content line ends in CRLF (RFC 5545 3.1), the last one too: ical-generator joins its lines with
 * CRLF but ends the text on END:VCALENDAR, which strict parsers refuse or drop.
 */
export function icsFeed(name: string, entries: readonly CalendarEntry[], now: Date): string {
  const calendar = ical({
    name,
    prodId: { company: 'Karlsruhe Marketplace', product: 'API', language: 'DE' },
    ttl: REFRESH_SECONDS,
  });
  for (const entry of entries) {
    const times = entry.allDay
      ? {
          allDay: true,
          start: new Date(`${entry.startDate}T00:00:00Z`),
          // DTEND of an all-day event is the day after its last (RFC 5545 3.6.1).
          end: new Date(`${addDays(entry.endDate, 1)}T00:00:00Z`),
        }
      : { start: new Date(entry.start), end: new Date(entry.end) };
    calendar.createEvent({
      id: entry.uid,
      ...times,
      stamp: now,
      summary: entry.summary,
      description: entry.description ?? null,
      status: entry.tentative ? ICalEventStatus.TENTATIVE : ICalEventStatus.CONFIRMED,
      transparency: ICalEventTransparency.OPAQUE,
    });
  }
  const text = calendar.toString();
  return text.endsWith('\r\n') ? text : `${text}\r\n`;
}
