/**
 * The operators' console's figures of the last 30 days (issue 33): every day of the 30 UTC days
 * ending with today's, zero days included, so the charts in http/views/console-charts.ts draw
 * what they get. The counting is in repositories/console-figures.ts.
 */

import type { Queryable } from '../db/queryable.js';
import { median } from '../domain/median.js';
import {
  createdPerDay,
  type DayCount,
  type DayRange,
  decisionTimes,
  type ReasonCount,
  reportsPerReason,
} from '../repositories/console-figures.js';
import { REPORT_REASONS } from '../schemas/notices.js';

export type { DayCount, ReasonCount } from '../repositories/console-figures.js';

/** How many days the console looks back, today included. */
export const FIGURE_DAYS = 30;

export interface DayMedian {
  /** YYYY-MM-DD (UTC). */
  day: string;
  /** Median hours from report to decision of the reports decided that day; null when none was. */
  hours: number | null;
  decisions: number;
}

export interface ConsoleFigures {
  /** The first and the last day (today, UTC), YYYY-MM-DD. */
  from: string;
  to: string;
  /** Each series has one entry per day, oldest first. */
  signups: DayCount[];
  jobs: DayCount[];
  bookings: DayCount[];
  /** Every ground a report can give (schemas/notices.ts) in its order, zeros too; grounds no longer offered after them. */
  reportsByReason: ReasonCount[];
  decisionHours: DayMedian[];
  /** The median over all decisions of the 30 days; null when there was none. */
  medianHours: number | null;
  decisions: number;
}

/** The 30 UTC days ending with `now`'s, oldest first. */
export function figureDays(now: Date, days = FIGURE_DAYS): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: days }, (_, i) =>
    new Date(today - (days - 1 - i) * 86_400_000).toISOString().slice(0, 10),
  );
}

export { median };

function everyDay(days: readonly string[], counted: readonly DayCount[]): DayCount[] {
  const byDay = new Map(counted.map((row) => [row.day, row.count]));
  return days.map((day) => ({ day, count: byDay.get(day) ?? 0 }));
}

function everyReason(counted: readonly ReasonCount[]): ReasonCount[] {
  const byReason = new Map(counted.map((row) => [row.reason, row.count]));
  const known: readonly string[] = REPORT_REASONS;
  return [
    ...known.map((reason) => ({ reason, count: byReason.get(reason) ?? 0 })),
    ...counted.filter((row) => !known.includes(row.reason)),
  ];
}

/** The console's figures of the 30 UTC days ending with `now`'s day. */
export async function figuresOf30Days(db: Queryable, now: Date): Promise<ConsoleFigures> {
  const days = figureDays(now);
  const range: DayRange = { from: days[0] as string, to: days[days.length - 1] as string };
  const [signups, jobs, bookings, reasons, times] = await Promise.all([
    createdPerDay(db, 'accounts', range),
    createdPerDay(db, 'jobs', range),
    createdPerDay(db, 'bookings', range),
    reportsPerReason(db, range),
    decisionTimes(db, range),
  ]);
  const hoursByDay = new Map<string, number[]>();
  for (const { day, hours } of times) {
    const list = hoursByDay.get(day);
    if (list) list.push(hours);
    else hoursByDay.set(day, [hours]);
  }
  return {
    from: range.from,
    to: range.to,
    signups: everyDay(days, signups),
    jobs: everyDay(days, jobs),
    bookings: everyDay(days, bookings),
    reportsByReason: everyReason(reasons),
    decisionHours: days.map((day) => {
      const hours = hoursByDay.get(day) ?? [];
      return { day, hours: median(hours), decisions: hours.length };
    }),
    medianHours: median(times.map((time) => time.hours)),
    decisions: times.length,
  };
}
