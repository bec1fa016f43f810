/** Row-to-API pieces that jobs, listings and helpers share. */
import type { ReliabilityColumns } from '../db/schema.js';
import { round } from '../domain/geo.js';
import { FRESH_HISTORY, type ReliabilityFigures, reliabilityOf } from '../domain/reliability.js';
import type { Location, ReliabilityScore } from '../schemas/common.js';

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

export function locationFromRow(
  row: { city: string; plz: string; district: string | null; lat: number; lng: number },
  distanceKm: number,
): Location {
  return {
    city: row.city,
    plz: row.plz,
    district: row.district,
    lat: row.lat,
    lng: row.lng,
    distance_km: round(distanceKm, 2),
  };
}

/** A helper's public area: place names and a distance, never the coordinates. */
export function helperAreaFromRow(
  row: { city: string; plz: string; district: string | null },
  distanceKm: number,
): { city: string; district: string | null; plz: string; distance_km: number } {
  return { city: row.city, district: row.district, plz: row.plz, distance_km: round(distanceKm, 2) };
}

export const flag = (value: 0 | 1): boolean => value === 1;

export function parsePhotos(json: string): string[] {
  const value: unknown = JSON.parse(json);
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** The reliability columns (the cache) holding a record's figures. */
export function figuresToColumns(figures: ReliabilityFigures): ReliabilityColumns {
  return { ...figures, verified: figures.verified ? 1 : 0 };
}

/** The reliability columns of a new helper or owner row: the figures of an empty record. */
export function freshRecordColumns(): ReliabilityColumns {
  return figuresToColumns(reliabilityOf(FRESH_HISTORY));
}
