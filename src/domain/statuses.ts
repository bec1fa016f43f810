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
