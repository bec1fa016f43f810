import { RRuleTemporal } from 'rrule-temporal';
import { berlinDate, berlinWallClock, isCalendarDate } from './berlin-time.js';

/**
 * The recurrences of job series (issue 35): a subset of RFC 5545's RRULE, expanded by the
 * maintained `rrule-temporal` (chosen over `rrule`: it is built on Temporal, follows RFC 5545 to
 * the letter and is released regularly; `rrule` has not been since 2023 and reads times in the
 * process's zone). The rule is expanded on the local wall clock of Karlsruhe (floating times), and
 * each day's local start time then becomes an instant by berlinWallClock, RFC 5545's rule for the
 * two clock changes: an occurrence at 02:30 on the day the clocks go back is the first 02:30 (still
 * summer time), and one on the day they go forward is 03:30 summer time. A weekly job does not skip
 * a week because the clocks change, as an RRULE expanded in the zone itself would (RFC 5545 drops
 * occurrences at times that do not exist).
 */

export const RECURRENCE_FREQUENCIES = ['DAILY', 'WEEKLY', 'MONTHLY'] as const;
export type RecurrenceFrequency = (typeof RECURRENCE_FREQUENCIES)[number];
export const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;
/** The most occurrences a series may have. */
export const MAX_SERIES_OCCURRENCES = 52;
/** The largest INTERVAL: every 52nd week is once a year. */
export const MAX_INTERVAL = 52;
const SUPPORTED = ['FREQ', 'INTERVAL', 'BYDAY', 'WKST', 'COUNT', 'UNTIL'] as const;

export interface Recurrence {
  freq: RecurrenceFrequency;
  interval: number;
  /** Weekdays (MO..SU); with MONTHLY optionally with an ordinal (1TH: the first Thursday, -1FR: the last Friday). */
  byDay: string[];
  wkst: string | null;
  count: number | null;
  /** UNTIL: the last local date (YYYY-MM-DD, inclusive) or the last instant (UTC) an occurrence may start. */
  until: { date: string } | { instant: Date } | null;
}

/** What is wrong with a rule, in the words an ApiError needs. */
export interface RecurrenceProblem {
  problem: string;
  suggestion: string;
}

const EXAMPLE = 'e.g. FREQ=WEEKLY;INTERVAL=2;BYDAY=TH;COUNT=10';

const problem = (text: string, suggestion = `Send a rule such as ${EXAMPLE}.`): RecurrenceProblem => ({
  problem: text,
  suggestion,
});

/** Reads an RRULE (with or without the `RRULE:` prefix, any letter case) of the supported subset. */
export function parseRecurrence(text: string): Recurrence | RecurrenceProblem {
  const body = text.trim().replace(/^RRULE:/i, '');
  const parts = new Map<string, string>();
  for (const part of body.split(';')) {
    const match = /^([A-Za-z]+)=([^=]+)$/.exec(part.trim());
    if (!match) return problem(`'${part.slice(0, 40)}' is not a NAME=VALUE part of an RRULE.`);
    const name = (match[1] as string).toUpperCase();
    if (!(SUPPORTED as readonly string[]).includes(name)) {
      return problem(
        `The rule part ${name} is not supported.`,
        `Use only ${SUPPORTED.join(', ')}, ${EXAMPLE}; for anything else create several series.`,
      );
    }
    if (parts.has(name)) return problem(`The rule names ${name} twice.`);
    parts.set(name, (match[2] as string).trim().toUpperCase());
  }
  const freq = parts.get('FREQ');
  if (!freq) return problem('The rule has no FREQ.');
  if (!(RECURRENCE_FREQUENCIES as readonly string[]).includes(freq)) {
    return problem(`FREQ=${freq} is not supported.`, `Use FREQ=${RECURRENCE_FREQUENCIES.join(', FREQ=')}.`);
  }
  const interval = parts.has('INTERVAL') ? wholeNumber(parts.get('INTERVAL') as string) : 1;
  if (interval === null || interval < 1 || interval > MAX_INTERVAL) {
    return problem(`INTERVAL must be a whole number from 1 to ${MAX_INTERVAL}.`, 'Send e.g. INTERVAL=2.');
  }
  const byDay = parts.has('BYDAY') ? (parts.get('BYDAY') as string).split(',') : [];
  for (const day of byDay) {
    const match = /^([+-]?[1-5])?(MO|TU|WE|TH|FR|SA|SU)$/.exec(day);
    if (!match) return problem(`BYDAY value '${day}' is not a weekday (MO, TU, WE, TH, FR, SA, SU).`);
    if (match[1] && freq !== 'MONTHLY') {
      return problem(
        `BYDAY=${day}: a weekday with a position is only for FREQ=MONTHLY.`,
        `Send BYDAY=${match[2]}, or FREQ=MONTHLY;BYDAY=${day}.`,
      );
    }
  }
  if (new Set(byDay).size !== byDay.length) return problem('BYDAY names a day twice.');
  const wkst = parts.get('WKST') ?? null;
  if (wkst !== null && !(WEEKDAYS as readonly string[]).includes(wkst)) {
    return problem(`WKST=${wkst} is not a weekday.`, 'Send WKST=MO (the default) or another of MO..SU.');
  }
  const countText = parts.get('COUNT');
  const untilText = parts.get('UNTIL');
  if (countText !== undefined && untilText !== undefined) {
    return problem('The rule has both COUNT and UNTIL; RFC 5545 allows one.', 'Keep COUNT or UNTIL, not both.');
  }
  if (countText === undefined && untilText === undefined) {
    return problem(
      `The rule has no end: a series has at most ${MAX_SERIES_OCCURRENCES} occurrences.`,
      `Add COUNT (at most ${MAX_SERIES_OCCURRENCES}) or UNTIL (a date, YYYYMMDD).`,
    );
  }
  let count: number | null = null;
  if (countText !== undefined) {
    count = wholeNumber(countText);
    if (count === null || count < 1 || count > MAX_SERIES_OCCURRENCES) {
      return problem(
        `COUNT must be a whole number from 1 to ${MAX_SERIES_OCCURRENCES}.`,
        `Send COUNT=${MAX_SERIES_OCCURRENCES} or less; create another series for the time after.`,
      );
    }
  }
  let until: Recurrence['until'] = null;
  if (untilText !== undefined) {
    until = untilOf(untilText);
    if (!until) {
      return problem(
        `UNTIL=${untilText} is neither a date (YYYYMMDD) nor a UTC date-time (YYYYMMDDTHHMMSSZ).`,
        'Send e.g. UNTIL=20270331 (the last day, inclusive).',
      );
    }
  }
  return { freq: freq as RecurrenceFrequency, interval, byDay, wkst, count, until };
}

export const isRecurrenceProblem = (value: Recurrence | RecurrenceProblem): value is RecurrenceProblem =>
  'problem' in value;

function wholeNumber(text: string): number | null {
  return /^\d{1,4}$/.test(text) ? Number(text) : null;
}

function untilOf(text: string): Recurrence['until'] {
  const date = /^(\d{4})(\d{2})(\d{2})$/.exec(text);
  if (date) {
    const day = `${date[1]}-${date[2]}-${date[3]}`;
    return isCalendarDate(day) ? { date: day } : null;
  }
  const time = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(text);
  if (!time) return null;
  const instant = new Date(`${time[1]}-${time[2]}-${time[3]}T${time[4]}:${time[5]}:${time[6]}Z`);
  return Number.isNaN(instant.getTime()) ? null : { instant };
}

/** The rule as stored and shown: its parts in a fixed order, UNTIL as given (a date or a UTC date-time). */
export function recurrenceText(rule: Recurrence): string {
  const parts = [`FREQ=${rule.freq}`];
  if (rule.interval !== 1) parts.push(`INTERVAL=${rule.interval}`);
  if (rule.byDay.length > 0) parts.push(`BYDAY=${rule.byDay.join(',')}`);
  if (rule.wkst) parts.push(`WKST=${rule.wkst}`);
  if (rule.count !== null) parts.push(`COUNT=${rule.count}`);
  if (rule.until)
    parts.push(`UNTIL=${'date' in rule.until ? rule.until.date.replaceAll('-', '') : compactUtc(rule.until.instant)}`);
  return parts.join(';');
}

function compactUtc(instant: Date): string {
  return instant
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

/** One occurrence of a series: its local date (its key) and the instant it starts. */
export interface Occurrence {
  date: string;
  startsAt: Date;
}

/**
 * Every occurrence of a rule from `startsOn` (the first local date it may fall on) at `localTime`
 * (HH:MM, Europe/Berlin), in order; 'too_many' when there would be more than
 * MAX_SERIES_OCCURRENCES (an UNTIL far ahead).
 */
export function occurrencesOf(rule: Recurrence, startsOn: string, localTime: string): Occurrence[] | 'too_many' {
  const [hour, minute] = localTime.split(':').map(Number) as [number, number];
  const floating = (date: string, time: string) => `${date.replaceAll('-', '')}T${time}`;
  // The rule runs on the wall clock: the zone is UTC, so no local time is skipped or doubled.
  const parts = [`FREQ=${rule.freq}`, `INTERVAL=${rule.interval}`];
  if (rule.byDay.length > 0) parts.push(`BYDAY=${rule.byDay.join(',')}`);
  if (rule.wkst) parts.push(`WKST=${rule.wkst}`);
  if (rule.count !== null) parts.push(`COUNT=${rule.count}`);
  const lastDate = rule.until && ('date' in rule.until ? rule.until.date : berlinDate(rule.until.instant));
  if (lastDate) parts.push(`UNTIL=${floating(lastDate, '235959')}Z`);
  const expanded = new RRuleTemporal({
    rruleString: `DTSTART;TZID=UTC:${floating(startsOn, `${pad(hour)}${pad(minute)}00`)}\nRRULE:${parts.join(';')}`,
  }).all((_, index) => index <= MAX_SERIES_OCCURRENCES);
  const occurrences = expanded
    .map((wall) => {
      const date = wall.toPlainDate().toString();
      return { date, startsAt: berlinWallClock(date, hour, minute) };
    })
    .filter(
      ({ startsAt }) => !(rule.until && 'instant' in rule.until && startsAt.getTime() > rule.until.instant.getTime()),
    );
  return occurrences.length > MAX_SERIES_OCCURRENCES ? 'too_many' : occurrences;
}

const pad = (value: number) => String(value).padStart(2, '0');
