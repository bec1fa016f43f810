/**
 * The busy times of an external calendar (issue 35), read with ical.js: recurring events with their
 * exceptions, free and cancelled events, zones, all-day events across the clock change.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { busyTimesOf, CalendarParseError } from '../../src/domain/busy-times.js';
import { BUSY_FEED } from '../helpers/busy-feed.js';

test('recurring events with exceptions, free and cancelled ones, an all-day event over the clock change', () => {
  const busy = busyTimesOf(BUSY_FEED, { from: new Date('2026-11-20T00:00:00Z'), to: new Date('2027-11-20T00:00:00Z') });
  assert.deepEqual(busy, [
    { start: '2026-11-21T09:00:00.000Z', end: '2026-11-21T11:00:00.000Z' },
    { start: '2026-12-05T13:00:00.000Z', end: '2026-12-05T15:00:00.000Z' },
    { start: '2026-12-12T09:00:00.000Z', end: '2026-12-12T11:00:00.000Z' },
    { start: '2027-03-27T23:00:00.000Z', end: '2027-03-28T22:00:00.000Z' },
  ]);
  // A window drops what lies outside it.
  assert.equal(
    busyTimesOf(BUSY_FEED, { from: new Date('2026-12-01T00:00:00Z'), to: new Date('2026-12-10T00:00:00Z') }).length,
    1,
  );
});

test('what is no iCalendar is a CalendarParseError', () => {
  assert.throws(() => busyTimesOf('<html>nope</html>', { from: new Date(0), to: new Date() }), CalendarParseError);
  assert.throws(
    () => busyTimesOf('BEGIN:VCARD\r\nEND:VCARD\r\n', { from: new Date(0), to: new Date() }),
    CalendarParseError,
  );
});
