export interface ReliabilityInputs {
  completed_jobs: number;
  avg_response_minutes: number;
  cancellation_rate: number;
  rating_avg: number;
  rating_count: number;
  verified: boolean;
}

/**
 * reliability_score (0-100) from the record it summarises: ratings weigh most (40), then few
 * cancellations (25), experience (15), quick answers (10) and a verified identity (10). Ratings
 * count fully only from 10 of them on, so one 5-star review does not make a top helper.
 */
export function reliabilityScore(r: ReliabilityInputs): number {
  const ratingWeight = Math.min(1, r.rating_count / 10);
  const rating = r.rating_count > 0 ? (r.rating_avg / 5) * ratingWeight + 0.6 * (1 - ratingWeight) : 0.6;
  const cancellations = Math.max(0, 1 - r.cancellation_rate * 5);
  const experience = Math.min(1, r.completed_jobs / 50);
  const responsiveness = r.avg_response_minutes <= 30 ? 1 : r.avg_response_minutes <= 120 ? 0.6 : 0.2;
  const score = 40 * rating + 25 * cancellations + 15 * experience + 10 * responsiveness + (r.verified ? 10 : 0);
  return Math.max(0, Math.min(100, Math.round(score)));
}

/** The record of someone new: no jobs, ratings or cancellations yet, not verified. */
export const FRESH_RECORD: Readonly<ReliabilityInputs> = {
  completed_jobs: 0,
  avg_response_minutes: 0,
  cancellation_rate: 0,
  rating_avg: 0,
  rating_count: 0,
  verified: false,
};
