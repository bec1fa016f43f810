import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  isRecurrenceProblem,
  MAX_SERIES_OCCURRENCES,
  occurrencesOf,
  parseRecurrence,
  type Recurrence,
  recurrenceText,
} from '../../src/domain/recurrence.js';

function rule(text: string): Recurrence {
  const parsed = parseRecurrence(text);
  assert.ok(!isRecurrenceProblem(parsed), `${text}: ${JSON.stringify(parsed)}`);
  return parsed;
}

function starts(text: string, startsOn: string, localTime: string): string[] {
  const occurrences = occurrencesOf(rule(text), startsOn, localTime);
  assert.notEqual(occurrences, 'too_many');
  return (occurrences as { date: string; startsAt: Date }[]).map((o) => `${o.date} ${o.startsAt.toISOString()}`);
}

describe('recurrence rules of job series (RRULE subset, on the wall clock of Karlsruhe)', () => {
  test('reads the subset in any case and writes it in a fixed order', () => {
    assert.equal(
      recurrenceText(rule('rrule:count=10;byday=th;interval=2;freq=weekly')),
      'FREQ=WEEKLY;INTERVAL=2;BYDAY=TH;COUNT=10',
    );
    assert.equal(
      recurrenceText(rule('FREQ=MONTHLY;BYDAY=-1FR;UNTIL=20270630')),
      'FREQ=MONTHLY;BYDAY=-1FR;UNTIL=20270630',
    );
    assert.equal(
      recurrenceText(rule('FREQ=DAILY;INTERVAL=1;UNTIL=20261231T230000Z')),
      'FREQ=DAILY;UNTIL=20261231T230000Z',
    );
  });

  test('refuses what it does not support, each with a suggestion', () => {
    for (const text of [
      '',
      'FREQ=YEARLY;COUNT=2',
      'FREQ=WEEKLY',
      'FREQ=WEEKLY;COUNT=2;UNTIL=20270101',
      'FREQ=WEEKLY;COUNT=0',
      `FREQ=WEEKLY;COUNT=${MAX_SERIES_OCCURRENCES + 1}`,
      'FREQ=WEEKLY;INTERVAL=0;COUNT=2',
      'FREQ=WEEKLY;BYDAY=1MO;COUNT=2',
      'FREQ=WEEKLY;BYDAY=XX;COUNT=2',
      'FREQ=WEEKLY;BYDAY=MO,MO;COUNT=2',
      'FREQ=WEEKLY;BYSETPOS=1;COUNT=2',
      'FREQ=WEEKLY;FREQ=DAILY;COUNT=2',
      'FREQ=WEEKLY;UNTIL=20270230',
      'FREQ=WEEKLY;COUNT=2;WKST=XY',
    ]) {
      const parsed = parseRecurrence(text);
      assert.ok(isRecurrenceProblem(parsed), text);
      assert.ok(parsed.problem.length > 0 && parsed.suggestion.length > 0, text);
    }
  });

  test('every second Thursday, months and year ends', () => {
    assert.deepEqual(starts('FREQ=WEEKLY;INTERVAL=2;BYDAY=TH;COUNT=3', '2026-12-21', '18:15'), [
      '2026-12-24 2026-12-24T17:15:00.000Z',
      '2027-01-07 2027-01-07T17:15:00.000Z',
      '2027-01-21 2027-01-21T17:15:00.000Z',
    ]);
    // The last Friday of each month; a monthly rule from the 31st skips months without one (RFC 5545).
    assert.deepEqual(starts('FREQ=MONTHLY;BYDAY=-1FR;COUNT=2', '2027-01-01', '00:00'), [
      '2027-01-29 2027-01-28T23:00:00.000Z',
      '2027-02-26 2027-02-25T23:00:00.000Z',
    ]);
    assert.deepEqual(
      starts('FREQ=MONTHLY;COUNT=3', '2026-12-31', '23:30').map((s) => s.slice(0, 10)),
      ['2026-12-31', '2027-01-31', '2027-03-31'],
    );
  });

  test('a weekly rule across both clock changes keeps its local time and skips no week', () => {
    assert.deepEqual(starts('FREQ=WEEKLY;COUNT=3', '2026-10-18', '02:30'), [
      '2026-10-18 2026-10-18T00:30:00.000Z',
      '2026-10-25 2026-10-25T00:30:00.000Z',
      '2026-11-01 2026-11-01T01:30:00.000Z',
    ]);
    assert.deepEqual(starts('FREQ=WEEKLY;COUNT=3', '2027-03-21', '02:30'), [
      '2027-03-21 2027-03-21T01:30:00.000Z',
      '2027-03-28 2027-03-28T01:30:00.000Z',
      '2027-04-04 2027-04-04T00:30:00.000Z',
    ]);
    assert.deepEqual(starts('FREQ=DAILY;COUNT=2', '2027-03-27', '09:00'), [
      '2027-03-27 2027-03-27T08:00:00.000Z',
      '2027-03-28 2027-03-28T07:00:00.000Z',
    ]);
  });

  test('UNTIL as a local date is inclusive; as a UTC instant it ends at that moment; too many is said', () => {
    assert.equal(starts('FREQ=DAILY;UNTIL=20261203', '2026-12-01', '23:30').length, 3);
    assert.equal(starts('FREQ=DAILY;UNTIL=20261203T080000Z', '2026-12-01', '09:00').length, 3);
    assert.equal(starts('FREQ=DAILY;UNTIL=20261203T075959Z', '2026-12-01', '09:00').length, 2);
    assert.equal(occurrencesOf(rule('FREQ=DAILY;UNTIL=20270601'), '2026-12-01', '09:00'), 'too_many');
    assert.equal(
      starts(`FREQ=DAILY;COUNT=${MAX_SERIES_OCCURRENCES}`, '2026-12-01', '09:00').length,
      MAX_SERIES_OCCURRENCES,
    );
  });
});
