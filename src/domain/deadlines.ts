/**
 * How far ahead of its creation a job may be scheduled (desired_at and deadline), by account type.
 * Commercial accounts: 30 days (spec 2.1). Private accounts: 90 days, our bound, so that a
 * forgotten job does not sit in the open search for a year.
 */
export const SCHEDULE_HORIZON_DAYS = { commercial: 30, private: 90 } as const;
export type ScheduleAccount = keyof typeof SCHEDULE_HORIZON_DAYS;

const DAY_MS = 86_400_000;

/** The latest moment a job created at `createdAt` by such an account may be desired or due. */
export function scheduleHorizon(createdAt: Date, account: ScheduleAccount): Date {
  return new Date(createdAt.getTime() + SCHEDULE_HORIZON_DAYS[account] * DAY_MS);
}

/**
 * An RFC 3339 date-time as an instant, or null when it names none Date can hold (a leap second
 * such as 23:59:60 passes the format check but is no Date).
 */
export function parseInstant(text: string): Date | null {
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? null : date;
}

export type ScheduleField = 'desired_at' | 'deadline';

export type ScheduleIssue =
  | { field: ScheduleField; problem: 'in_past' }
  | { field: ScheduleField; problem: 'beyond_horizon'; latest: Date; days: number }
  | { field: 'deadline'; problem: 'before_desired_at' };

export interface Schedule {
  desired_at: Date | null;
  deadline: Date | null;
}

/**
 * What is wrong with a job's schedule, or null. The fields being set must lie ahead of `now` and
 * within the horizon after `createdAt` (a value set earlier was checked then); the deadline never
 * comes before desired_at.
 */
export function scheduleIssue(
  schedule: Schedule,
  changed: ReadonlySet<ScheduleField>,
  createdAt: Date,
  account: ScheduleAccount,
  now: Date,
): ScheduleIssue | null {
  const latest = scheduleHorizon(createdAt, account);
  for (const field of ['desired_at', 'deadline'] as const) {
    const value = schedule[field];
    if (value === null || !changed.has(field)) continue;
    if (value.getTime() <= now.getTime()) return { field, problem: 'in_past' };
    if (value.getTime() > latest.getTime()) {
      return { field, problem: 'beyond_horizon', latest, days: SCHEDULE_HORIZON_DAYS[account] };
    }
  }
  const { desired_at: desired, deadline } = schedule;
  if (desired && deadline && deadline.getTime() < desired.getTime()) {
    return { field: 'deadline', problem: 'before_desired_at' };
  }
  return null;
}
