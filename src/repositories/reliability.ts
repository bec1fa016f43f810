import type { ReliabilityColumns } from '../db/schema.js';
import type { ReliabilityScore } from '../http/schemas/common.js';
import { flag } from './db.js';

export function reliabilityFromRow(row: ReliabilityColumns): ReliabilityScore {
  return {
    reliability_score: row.reliability_score,
    completed_jobs: row.completed_jobs,
    avg_response_minutes: row.avg_response_minutes,
    cancellation_rate: row.cancellation_rate,
    rating_avg: row.rating_avg,
    rating_count: row.rating_count,
    verified: flag(row.verified),
  };
}
