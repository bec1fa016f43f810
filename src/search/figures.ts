import { CATEGORIES, type Category } from '../domain/categories.js';
import { PERCENTILES, percentileRank, type RateSample } from '../domain/pricing.js';

/**
 * Counts and nearest-rank percentiles over values collected from an index (the open jobs or the
 * available listings), as repositories/quantiles.ts computes them in SQL: the k-th smallest value
 * for rank k = ceil(n × p / 100). Found by selection (linear on average), not by sorting, so the
 * largest index (a million jobs) answers in milliseconds.
 */

type Values = Float64Array | Int32Array;

/** Puts the k-th smallest of values[from..to) (0-based k) at index k, smaller ones before it. */
function select(values: Values, from: number, to: number, k: number): void {
  let [left, right] = [from, to - 1];
  while (right > left) {
    // Median of three as the pivot: sorted or constant runs stay linear.
    const mid = (left + right) >>> 1;
    const [a, b, c] = [values[left] as number, values[mid] as number, values[right] as number];
    const pivot = Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));
    let [i, j] = [left, right];
    while (i <= j) {
      while ((values[i] as number) < pivot) i++;
      while ((values[j] as number) > pivot) j--;
      if (i <= j) {
        const t = values[i] as number;
        values[i] = values[j] as number;
        values[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) right = j;
    else if (k >= i) left = i;
    else return;
  }
}

/** The percentiles of values[0..n) (reordered in place); null for none. */
export function sampleOf(values: Values, n: number): RateSample | null {
  if (n === 0) return null;
  const at: number[] = [];
  let from = 0;
  // Ranks ascending: each selection leaves the smaller values before it, so the next one starts there.
  for (const percent of PERCENTILES) {
    const k = percentileRank(percent, n) - 1;
    select(values, from, n, k);
    at.push(values[k] as number);
    from = k;
  }
  const [p10, p25, p50, p75, p90] = at as [number, number, number, number, number];
  return { count: n, p10, p25, p50, p75, p90 };
}

/**
 * Values grouped by category (codes of CATEGORIES): `counts` first, then each value with its
 * code; `samples()` gives the percentiles per category that has any.
 */
export class ByCategory {
  private readonly starts: Uint32Array;
  private readonly fill: Uint32Array;
  readonly values: Values;

  constructor(
    readonly counts: Uint32Array,
    type: 'float' | 'int',
  ) {
    this.starts = new Uint32Array(counts.length + 1);
    for (let c = 0; c < counts.length; c++) this.starts[c + 1] = (this.starts[c] as number) + (counts[c] as number);
    this.fill = this.starts.slice(0, counts.length);
    const total = this.starts[counts.length] as number;
    this.values = type === 'float' ? new Float64Array(total) : new Int32Array(total);
  }

  add(category: number, value: number): void {
    const at = this.fill[category] as number;
    this.values[at] = value;
    this.fill[category] = at + 1;
  }

  /** The values of a category (a view: samples() reorders them). */
  valuesOf(category: number): Values {
    return this.values.subarray(this.starts[category] as number, this.fill[category] as number);
  }

  /** How many values a category has. */
  count(category: number): number {
    return (this.fill[category] as number) - (this.starts[category] as number);
  }

  /** Per category with values, its percentiles (reorders the values). */
  samples(): Map<Category, RateSample> {
    const out = new Map<Category, RateSample>();
    CATEGORIES.forEach((category, c) => {
      const start = this.starts[c] as number;
      const sample = sampleOf(this.values.subarray(start, this.fill[c] as number), this.count(c));
      if (sample) out.set(category, sample);
    });
    return out;
  }

  /** The percentiles over every category at once (copies the values). */
  overall(): RateSample | null {
    const all = this.values.slice(0, this.starts[this.counts.length] as number);
    return sampleOf(all, all.length);
  }

  /** Counts per category that has any, as the SQL `group by` answers them. */
  countMap(): Map<Category, number> {
    const out = new Map<Category, number>();
    CATEGORIES.forEach((category, c) => {
      if (this.count(c) > 0) out.set(category, this.count(c));
    });
    return out;
  }
}
