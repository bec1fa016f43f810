const DAY_MS = 86_400_000;

const berlinDateFormat = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Europe/Berlin',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** The calendar date (YYYY-MM-DD) of an instant as seen in Karlsruhe, summer time included. */
export function berlinDate(instant: Date): string {
  return berlinDateFormat.format(instant);
}

const berlinPartsFormat = new Intl.DateTimeFormat('en-US', {
  timeZone: 'Europe/Berlin',
  hourCycle: 'h23',
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
});

/** Offset of Europe/Berlin from UTC in minutes at the given instant (60 in winter, 120 in summer). */
function berlinOffsetMinutes(instant: Date): number {
  const parts = Object.fromEntries(berlinPartsFormat.formatToParts(instant).map((p) => [p.type, p.value]));
  const asUtc = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
  );
  return Math.round((asUtc - Math.floor(instant.getTime() / 60000) * 60000) / 60000);
}

/**
 * The instant at which a Berlin wall-clock time occurs (date YYYY-MM-DD, hour and minute local),
 * by RFC 5545's rule (3.3.5) on both clock changes: a time that occurs twice (02:00-03:00 on the
 * last Sunday of October) is its first occurrence, still in summer time; a time the clocks skip
 * (02:00-03:00 on the last Sunday of March) is read with the offset before the gap, so 02:30 is
 * 03:30 summer time.
 */
export function berlinWallClock(date: string, hour: number, minute = 0): Date {
  const [y, m, d] = date.split('-').map(Number);
  const wall = Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1, hour, minute);
  const before = berlinOffsetMinutes(new Date(wall - DAY_MS));
  const after = berlinOffsetMinutes(new Date(wall + DAY_MS));
  // The larger offset first: of two instants showing the same wall clock, the earlier.
  for (const offset of before === after ? [before] : [Math.max(before, after), Math.min(before, after)]) {
    const instant = new Date(wall - offset * 60_000);
    if (berlinOffsetMinutes(instant) === offset) return instant;
  }
  return new Date(wall - before * 60_000);
}

/** Whether a YYYY-MM-DD string names a real calendar date (2026-02-30 does not). */
export function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [, y, m, d] = match.map(Number) as [number, number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** Whether a calendar date (YYYY-MM-DD) is a Saturday or Sunday. */
export function isWeekend(date: string): boolean {
  const weekday = new Date(`${date}T12:00:00Z`).getUTCDay();
  return weekday === 0 || weekday === 6;
}

/** The calendar date after a YYYY-MM-DD date. */
export function nextDate(date: string): string {
  return new Date(new Date(`${date}T12:00:00Z`).getTime() + DAY_MS).toISOString().slice(0, 10);
}

/** An instant's wall clock in Karlsruhe: its date, weekday (0 Sunday to 6 Saturday) and minutes since midnight. */
export function berlinClock(instant: Date): { date: string; weekday: number; minutes: number } {
  const parts = Object.fromEntries(berlinPartsFormat.formatToParts(instant).map((p) => [p.type, p.value]));
  const date = `${parts.year}-${String(parts.month).padStart(2, '0')}-${String(parts.day).padStart(2, '0')}`;
  return {
    date,
    weekday: new Date(`${date}T12:00:00Z`).getUTCDay(),
    minutes: Number(parts.hour) * 60 + Number(parts.minute),
  };
}
