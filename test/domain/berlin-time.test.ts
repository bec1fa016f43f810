import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { berlinDate, berlinWallClock, isCalendarDate, isWeekend, nextDate } from '../../src/domain/berlin-time.js';

describe('Europe/Berlin calendar and wall clock', () => {
  test('berlinDate: the day in Karlsruhe, across midnight and both DST switches', () => {
    assert.equal(berlinDate(new Date('2026-11-25T22:59:59Z')), '2026-11-25'); // 23:59 CET
    assert.equal(berlinDate(new Date('2026-11-25T23:00:00Z')), '2026-11-26'); // 00:00 CET
    assert.equal(berlinDate(new Date('2026-07-10T21:59:00Z')), '2026-07-10'); // 23:59 CEST
    assert.equal(berlinDate(new Date('2026-07-10T22:00:00Z')), '2026-07-11'); // 00:00 CEST
    assert.equal(berlinDate(new Date('2026-03-29T00:30:00Z')), '2026-03-29'); // 01:30 CET, before the switch
    assert.equal(berlinDate(new Date('2026-10-24T22:30:00Z')), '2026-10-25'); // 00:30 CEST
  });

  test('berlinWallClock: the instant of a local time in winter, summer and on switch days', () => {
    assert.equal(berlinWallClock('2026-12-01', 9).toISOString(), '2026-12-01T08:00:00.000Z');
    assert.equal(berlinWallClock('2026-07-01', 9, 30).toISOString(), '2026-07-01T07:30:00.000Z');
    assert.equal(berlinWallClock('2026-03-29', 0).toISOString(), '2026-03-28T23:00:00.000Z');
    assert.equal(berlinWallClock('2026-03-29', 3).toISOString(), '2026-03-29T01:00:00.000Z');
    assert.equal(berlinWallClock('2026-10-25', 0).toISOString(), '2026-10-24T22:00:00.000Z');
    assert.equal(berlinWallClock('2026-10-25', 12).toISOString(), '2026-10-25T11:00:00.000Z');
  });

  test('berlinWallClock: RFC 5545 on the clock changes (the first of a doubled time, a skipped time an hour later)', () => {
    // 25 October 2026: 02:00-02:59 happens twice, first in summer time (+02:00), then in winter time.
    assert.equal(berlinWallClock('2026-10-25', 2, 30).toISOString(), '2026-10-25T00:30:00.000Z');
    assert.equal(berlinWallClock('2026-10-25', 1, 59).toISOString(), '2026-10-24T23:59:00.000Z');
    assert.equal(berlinWallClock('2026-10-25', 3).toISOString(), '2026-10-25T02:00:00.000Z');
    // 28 March 2027: 02:00-02:59 does not exist; read with the offset before the gap, it is 03:xx summer time.
    assert.equal(berlinWallClock('2027-03-28', 2, 30).toISOString(), '2027-03-28T01:30:00.000Z');
    assert.equal(berlinWallClock('2027-03-28', 1, 59).toISOString(), '2027-03-28T00:59:00.000Z');
    assert.equal(berlinWallClock('2027-03-28', 3).toISOString(), '2027-03-28T01:00:00.000Z');
    // The day before and after each change.
    assert.equal(berlinWallClock('2026-10-24', 23).toISOString(), '2026-10-24T21:00:00.000Z');
    assert.equal(berlinWallClock('2027-03-27', 23).toISOString(), '2027-03-27T22:00:00.000Z');
  });

  test('calendar helpers', () => {
    assert.equal(isCalendarDate('2028-02-29'), true);
    assert.equal(isCalendarDate('2026-02-29'), false);
    assert.equal(isCalendarDate('2026-13-01'), false);
    assert.equal(isCalendarDate('2026-1-01'), false);
    assert.equal(isWeekend('2026-11-21'), true); // Saturday
    assert.equal(isWeekend('2026-11-22'), true); // Sunday
    assert.equal(isWeekend('2026-11-23'), false); // Monday
    assert.equal(nextDate('2026-12-31'), '2027-01-01');
    assert.equal(nextDate('2028-02-28'), '2028-02-29');
  });
});
