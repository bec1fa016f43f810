/** Job life cycle (the write API drives the transitions): open -> assigned -> completed, or cancelled / expired. */
export const JOB_STATUSES = ['open', 'assigned', 'completed', 'cancelled', 'expired', 'removed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** Listing life cycle: available <-> paused, either -> archived. */
export const LISTING_STATUSES = ['available', 'paused', 'archived', 'removed'] as const;
export type ListingStatus = (typeof LISTING_STATUSES)[number];

export const TIME_PREFERENCES = ['vormittags', 'nachmittags', 'abends', 'wochenende', 'flexibel'] as const;
export type TimePreference = (typeof TIME_PREFERENCES)[number];

export const CONDITIONS = ['new', 'like_new', 'good', 'fair'] as const;
export type Condition = (typeof CONDITIONS)[number];

/**
 * An open job whose deadline has passed is expired, whether or not a sweep has written that yet:
 * reads never show it as open.
 */
export function effectiveJobStatus(status: JobStatus, deadline: string | null, now: Date): JobStatus {
  return status === 'open' && deadline !== null && deadline <= now.toISOString() ? 'expired' : status;
}

/**
 * The earliest moment a job may be completed (issue 30, 3): its planned moment (desired_at) when it
 * has one, else the acceptance of its last helper plus its length (duration_hours). Before it, the
 * work cannot have been done; completing then was the first step of buying reputation with a
 * second account (eleven five-star cycles in a second).
 */
export function earliestCompletion(job: {
  desired_at: string | null;
  duration_hours: number;
  last_accepted_at: string | null;
}): string | null {
  if (job.desired_at !== null) return job.desired_at;
  if (job.last_accepted_at === null) return null;
  return new Date(Date.parse(job.last_accepted_at) + job.duration_hours * 3_600_000).toISOString();
}
