/** The rules of double-blind reviews that need no database: publication and the window. */

const DAY_MS = 86_400_000;

/** When the review window of something completed (or returned) at `completedAt` closes. */
export function reviewWindowCloses(completedAt: string, windowDays: number): string {
  return new Date(Date.parse(completedAt) + windowDays * DAY_MS).toISOString();
}

/**
 * Whether a review is published at `now`: the other side reviewed too (published_at is set in the
 * same transaction as the second review) or its window has closed. Holds at read time, whether or
 * not the background publication has run.
 */
export function isPublished(review: { published_at: string | null; window_closes_at: string }, now: Date): boolean {
  return review.published_at !== null || review.window_closes_at <= now.toISOString();
}

/** When a review became public: the second review, or else the end of its window. */
export function publishedAt(
  review: { published_at: string | null; window_closes_at: string },
  now: Date,
): string | null {
  if (review.published_at !== null) return review.published_at;
  return review.window_closes_at <= now.toISOString() ? review.window_closes_at : null;
}
