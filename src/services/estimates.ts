import type { Queryable } from '../db/queryable.js';
import type { Category } from '../domain/categories.js';
import type { LatLng } from '../domain/geo.js';
import { type EstimateFigures, estimateFromRates, type RateSample, sampleInEuros } from '../domain/pricing.js';
import { completedRateSample } from '../repositories/aggregates.js';

/** Jobs within this distance count as "nearby" when the caller gives a location. */
export const NEARBY_RADIUS_KM = 15;
/** Fewer nearby completed jobs than this and the estimate learns from the whole service area. */
export const MIN_NEARBY_SAMPLE = 10;

export interface PriceEstimate extends EstimateFigures {
  /** The area learned from, or null for the whole service area. */
  area: (LatLng & { radius_km: number }) | null;
}

/**
 * GET /v1/estimate. What a job of `hours` per helper with `helpers` helpers should cost, learned from the completed
 * jobs of the category: those near `near` when enough are there, otherwise all of them.
 */
export async function estimatePrice(
  db: Queryable,
  category: Category,
  hours: number,
  helpers: number,
  near: LatLng | null,
): Promise<PriceEstimate> {
  let sample: RateSample | null = null;
  let area: PriceEstimate['area'] = null;
  if (near) {
    const nearby = await completedRateSample(db, category, { center: near, radiusKm: NEARBY_RADIUS_KM });
    if (nearby && nearby.count >= MIN_NEARBY_SAMPLE) {
      sample = nearby;
      area = { ...near, radius_km: NEARBY_RADIUS_KM };
    }
  }
  sample ??= await completedRateSample(db, category);
  return { ...estimateFromRates(category, sample && sampleInEuros(sample), hours, helpers), area };
}
