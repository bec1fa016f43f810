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

/** The instant at which a Berlin wall-clock time occurs (date YYYY-MM-DD, hour and minute local). */
export function berlinWallClock(date: string, hour: number, minute = 0): Date {
  const [y, m, d] = date.split('-').map(Number);
  const guess = new Date(Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1, hour, minute));
  const offset = berlinOffsetMinutes(guess);
  const instant = new Date(guess.getTime() - offset * 60000);
  // Around the DST switch the offset of the guess and of the result can differ by an hour.
  const corrected = berlinOffsetMinutes(instant);
  return corrected === offset ? instant : new Date(guess.getTime() - corrected * 60000);
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
  return new Date(new Date(`${date}T12:00:00Z`).getTime() + 86_400_000).toISOString().slice(0, 10);
}
