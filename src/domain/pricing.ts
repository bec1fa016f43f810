import type { Category } from './categories.js';
import { round } from './geo.js';

/** A job's advertised price spans plus/minus this share of its base price (spec 2.1). */
export const PRICE_RANGE_SHARE = 0.2;

export function priceRange(priceEur: number): { low: number; high: number } {
  return { low: round(priceEur * (1 - PRICE_RANGE_SHARE), 2), high: round(priceEur * (1 + PRICE_RANGE_SHARE), 2) };
}

/** max_applicants is dynamic: three applicants for every helper needed (spec 2.1). */
export function maxApplicants(helpersNeeded: number): number {
  return helpersNeeded * 3;
}

/**
 * 1-based nearest rank of a whole-number percentile in a sample of n: ceil(percent * n / 100).
 * Integer arithmetic, so the SQL that picks the same ranks agrees with it exactly.
 */
export function percentileRank(percent: number, n: number): number {
  return Math.max(1, Math.ceil((percent * n) / 100));
}

/** The percentiles every price band and rate sample reports. */
export const PERCENTILES = [10, 25, 50, 75, 90] as const;

/** Nearest-rank percentile of an ascending array; undefined for an empty array. */
export function quantile(sorted: readonly number[], percent: number): number | undefined {
  if (sorted.length === 0) return undefined;
  return sorted[Math.min(sorted.length, percentileRank(percent, sorted.length)) - 1];
}

/** What the prices paid per helper-hour in a category look like. */
export interface RateSample {
  count: number;
  p10: number;
  p25: number;
  p50: number;
  p75: number;
  p90: number;
}

export function rateSample(rates: readonly number[]): RateSample | null {
  const sorted = [...rates].sort((a, b) => a - b);
  return sampleByRank(sorted.length, (rank) => sorted[rank - 1] as number);
}

/**
 * The nearest-rank percentiles of `n` values, given the rank-th smallest of them (1-based) by
 * `atRank`; null for none. Every RateSample is made here, whatever holds the values.
 */
export function sampleByRank(n: number, atRank: (rank: number) => number): RateSample | null {
  if (n === 0) return null;
  const at = (percent: number) => atRank(percentileRank(percent, n));
  return { count: n, p10: at(10), p25: at(25), p50: at(50), p75: at(75), p90: at(90) };
}

/**
 * Fallback hourly rates (EUR per helper-hour: low, typical, high) used when a category has no
 * completed jobs to learn from yet; the estimate then says confidence 0 and based_on_jobs 0.
 */
export const FALLBACK_HOURLY_EUR: Readonly<Record<Category, readonly [number, number, number]>> = {
  GARDENING: [13, 16, 22],
  CLEANING: [13, 15, 20],
  MOVING: [15, 19, 25],
  TECH_REPAIR: [20, 30, 45],
  CHILDCARE: [12, 15, 20],
  PETCARE: [11, 14, 18],
  SHOPPING: [12, 14, 18],
  EVENTS: [14, 18, 25],
  BORROWING: [5, 10, 20],
  OTHER: [13, 17, 25],
};

/**
 * Confidence grows with the number of comparable jobs: 0 with none, 0.5 with 20, 0.8 with 80,
 * never 1 because a sample is never the whole market.
 */
export function estimateConfidence(sampleSize: number): number {
  return round(Math.min(0.95, sampleSize / (sampleSize + 20)), 2);
}

export interface EstimateFigures {
  price_estimate_eur: number;
  price_min_eur: number;
  price_max_eur: number;
  confidence: number;
  based_on_jobs: number;
}

/** Scales learned per-helper-hour rates to a job of `hours` with `helpers` helpers. */
export function estimateFromRates(
  category: Category,
  sample: RateSample | null,
  hours: number,
  helpers: number,
): EstimateFigures {
  const [low, mid, high] = sample ? [sample.p10, sample.p50, sample.p90] : FALLBACK_HOURLY_EUR[category];
  const scale = hours * helpers;
  return {
    price_estimate_eur: round(mid * scale, 2),
    price_min_eur: round(low * scale, 2),
    price_max_eur: round(high * scale, 2),
    confidence: estimateConfidence(sample?.count ?? 0),
    based_on_jobs: sample?.count ?? 0,
  };
}

export type PricingConfidence = 'low' | 'medium' | 'high';

/** Fewer comparable jobs than this and a price cannot be judged at all (pricing_confidence null). */
export const MIN_SAMPLE_FOR_PRICING_CONFIDENCE = 5;

/**
 * How well a job's price per helper-hour is backed by what comparable jobs paid: high inside the
 * middle half of a sample of at least 30, medium inside the 10th-90th percentiles, low outside.
 */
export function pricingConfidence(ratePerHelperHour: number, sample: RateSample | null): PricingConfidence | null {
  if (!sample || sample.count < MIN_SAMPLE_FOR_PRICING_CONFIDENCE) return null;
  if (sample.count >= 30 && ratePerHelperHour >= sample.p25 && ratePerHelperHour <= sample.p75) return 'high';
  if (ratePerHelperHour >= sample.p10 && ratePerHelperHour <= sample.p90) return 'medium';
  return 'low';
}

/**
 * Where a rate stands among a sample's values, counted: how many there are, how many lie at or
 * below the rate, how many strictly below. Enough to place the rate against every percentile.
 */
export interface RateStanding {
  count: number;
  atOrBelow: number;
  below: number;
}

/**
 * pricingConfidence from counts instead of the percentiles themselves (issue 34: a write counts
 * three numbers instead of ranking every completed job). Exactly the same answer: with the values
 * ascending, rate >= the k-th smallest exactly when at least k values are at or below the rate, and
 * rate <= the k-th smallest exactly when fewer than k are strictly below it.
 */
export function pricingConfidenceOfStanding(standing: RateStanding): PricingConfidence | null {
  const { count, atOrBelow, below } = standing;
  if (count < MIN_SAMPLE_FOR_PRICING_CONFIDENCE) return null;
  const atLeast = (percent: number) => atOrBelow >= percentileRank(percent, count);
  const atMost = (percent: number) => below < percentileRank(percent, count);
  if (count >= 30 && atLeast(25) && atMost(75)) return 'high';
  if (atLeast(10) && atMost(90)) return 'medium';
  return 'low';
}

export function centsToEur(cents: number): number {
  return cents / 100;
}

/**
 * EUR to whole cents. A bound is rounded inward: `up` for minimums (60.004 -> 6001), `down` for
 * maximums, so a filter never lets in a price outside what the caller asked for.
 */
export function eurToCents(eur: number, rounding: 'nearest' | 'up' | 'down' = 'nearest'): number {
  const cents = round(eur * 100, 6); // 19.99 * 100 is 1998.9999999999998 in floating point
  return rounding === 'up' ? Math.ceil(cents) : rounding === 'down' ? Math.floor(cents) : Math.round(cents);
}

/** Cents to EUR, to the cent. */
export function centsToEurRounded(cents: number): number {
  return round(cents / 100, 2);
}

/** A percentile sample in cents as the {low, median, high} EUR band the API shows, or null. */
export function priceBand(sample: RateSample | null | undefined): { low: number; median: number; high: number } | null {
  if (!sample) return null;
  return {
    low: centsToEurRounded(sample.p10),
    median: centsToEurRounded(sample.p50),
    high: centsToEurRounded(sample.p90),
  };
}

/** The same sample in EUR instead of cents. */
export function sampleInEuros(sample: RateSample): RateSample {
  const eur = (cents: number) => cents / 100;
  return {
    count: sample.count,
    p10: eur(sample.p10),
    p25: eur(sample.p25),
    p50: eur(sample.p50),
    p75: eur(sample.p75),
    p90: eur(sample.p90),
  };
}
