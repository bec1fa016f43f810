import { type RawBuilder, sql } from 'kysely';
import type { Queryable } from '../db/queryable.js';
import type { Category } from '../domain/categories.js';
import { PERCENTILES, type RateSample, type RateStanding, sampleByRank } from '../domain/pricing.js';

/**
 * Nearest-rank percentiles (10, 25, 50, 75, 90) of `value` per category, computed in the database
 * with window functions (SQLite 3.25+ and PostgreSQL alike), so only five rows per category come
 * back however many rows are ranked.
 */
export function percentilesByCategory(
  db: Queryable,
  table: 'jobs' | 'listings',
  value: RawBuilder<number>,
  where: RawBuilder<boolean>,
): Promise<Map<Category, RateSample>> {
  return percentilesBy(db, table, value, where, sql`category`) as Promise<Map<Category, RateSample>>;
}

/** The same percentiles over every matching row at once. */
export async function percentilesOverall(
  db: Queryable,
  table: 'jobs' | 'listings',
  value: RawBuilder<number>,
  where: RawBuilder<boolean>,
): Promise<RateSample | null> {
  const samples = await percentilesBy(db, table, value, where, sql`'all'`);
  return samples.get('all') ?? null;
}

async function percentilesBy(
  db: Queryable,
  table: 'jobs' | 'listings',
  value: RawBuilder<number>,
  where: RawBuilder<boolean>,
  partition: RawBuilder<unknown>,
): Promise<Map<string, RateSample>> {
  const ranks = PERCENTILES.map((p) => sql`(n * ${sql.lit(p)} + 99) / 100`);
  const result = await sql<{ category: string; n: number | string; rn: number | string; v: number }>`
    select category, n, rn, v from (
      select ${partition} as category, ${value} as v,
        row_number() over (partition by ${partition} order by ${value}) as rn,
        count(*) over (partition by ${partition}) as n
      from ${sql.table(table)} where ${where}
    ) ranked
    where rn in (${sql.join(ranks)})`.execute(db);

  const byCategory = new Map<string, { n: number; values: Map<number, number> }>();
  for (const row of result.rows) {
    const entry = byCategory.get(row.category) ?? { n: Number(row.n), values: new Map() };
    entry.values.set(Number(row.rn), Number(row.v));
    byCategory.set(row.category, entry);
  }
  const samples = new Map<string, RateSample>();
  for (const [category, { n, values }] of byCategory) {
    const sample = sampleByRank(n, (rank) => values.get(rank) ?? Number.NaN);
    if (sample) samples.set(category, sample);
  }
  return samples;
}

/**
 * How many rows match `where`, and how many of them have `value` / 100 at or below and strictly
 * below `eur`: one pass that counts, where the percentiles rank every row (pricingConfidenceOfStanding).
 * The division is the one the percentiles' values get in sampleInEuros, in the same double precision.
 */
export async function standingOf(
  db: Queryable,
  table: 'jobs' | 'listings',
  value: RawBuilder<number>,
  where: RawBuilder<boolean>,
  eur: number,
): Promise<RateStanding> {
  const inEur = sql<number>`(${value}) / cast(100 as double precision)`;
  const result = await sql<{ n: number | string; at_or_below: number | string | null; below: number | string | null }>`
    select count(*) as n,
      sum(case when ${inEur} <= ${eur} then 1 else 0 end) as at_or_below,
      sum(case when ${inEur} < ${eur} then 1 else 0 end) as below
    from ${sql.table(table)} where ${where}`.execute(db);
  const row = result.rows[0];
  return { count: Number(row?.n ?? 0), atOrBelow: Number(row?.at_or_below ?? 0), below: Number(row?.below ?? 0) };
}

/** Price per helper-hour of a job, in cents: what estimates and price bands compare. */
export const hourlyRateCentsSql = sql<number>`(cast(price_cents as double precision) / (duration_hours * helpers_needed))`;
