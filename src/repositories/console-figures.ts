/**
 * What the operators' console draws (issue 33, "figures of the last 30 days"): per UTC day the new
 * accounts, jobs and bookings, the reports per ground, and the decided reports' hours to decision.
 * Every query takes a range of UTC days and groups in SQL where it counts; the timestamps are
 * ISO-8601 text in UTC on both engines, so their first ten characters are the UTC day and a range
 * of days is a range of text (the predicate on created_at alone, so an index on it would help).
 */
import { sql } from 'kysely';
import type { Queryable } from '../db/queryable.js';

/** UTC days `from` to `to`, both inclusive, as YYYY-MM-DD. */
export interface DayRange {
  from: string;
  to: string;
}

export interface DayCount {
  /** YYYY-MM-DD (UTC). */
  day: string;
  count: number;
}

export interface ReasonCount {
  reason: string;
  count: number;
}

export interface DecisionTime {
  /** The UTC day of the decision, YYYY-MM-DD. */
  day: string;
  /** Hours from the report to its decision. */
  hours: number;
}

/** The day after `day` (YYYY-MM-DD): the range's end, exclusive, so text comparison needs no time of day. */
function dayAfter(day: string): string {
  const next = new Date(`${day}T00:00:00.000Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString().slice(0, 10);
}

/** The UTC day of an ISO-8601 text column: the same expression in SELECT and GROUP BY, no parameters. */
const dayOf = (column: 'created_at' | 'decided_at') => sql<string>`substr(${sql.ref(column)}, 1, 10)`;

/** How many rows of `table` were created on each day of the range; days without any are missing. */
export async function createdPerDay(
  db: Queryable,
  table: 'accounts' | 'jobs' | 'bookings',
  range: DayRange,
): Promise<DayCount[]> {
  const rows = await db
    .selectFrom(table)
    .select([dayOf('created_at').as('day'), (eb) => eb.fn.countAll<number | string>().as('count')])
    .where('created_at', '>=', range.from)
    .where('created_at', '<', dayAfter(range.to))
    .groupBy(dayOf('created_at'))
    .orderBy(dayOf('created_at'))
    .execute();
  return rows.map((row) => ({ day: row.day, count: Number(row.count) }));
}

/** The reports received in the range, per ground the reporter chose. */
export async function reportsPerReason(db: Queryable, range: DayRange): Promise<ReasonCount[]> {
  const rows = await db
    .selectFrom('reports')
    .select(['reason', (eb) => eb.fn.countAll<number | string>().as('count')])
    .where('created_at', '>=', range.from)
    .where('created_at', '<', dayAfter(range.to))
    .groupBy('reason')
    .orderBy('reason')
    .execute();
  return rows.map((row) => ({ reason: row.reason, count: Number(row.count) }));
}

/**
 * The reports decided in the range, each with the hours it took: one row per decision (as many
 * as the moderators decided in the range), for medians, which SQL does not take alike on both engines.
 */
export async function decisionTimes(db: Queryable, range: DayRange): Promise<DecisionTime[]> {
  const rows = await db
    .selectFrom('reports')
    .select(['created_at', 'decided_at'])
    .where('decided_at', '>=', range.from)
    .where('decided_at', '<', dayAfter(range.to))
    .orderBy('decided_at')
    .execute();
  return rows.flatMap((row) =>
    row.decided_at === null
      ? []
      : [
          {
            day: row.decided_at.slice(0, 10),
            hours: Math.max(0, (Date.parse(row.decided_at) - Date.parse(row.created_at)) / 3_600_000),
          },
        ],
  );
}
