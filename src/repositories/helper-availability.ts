import { sql } from 'kysely';
import { distanceKmSql, withinRadiusSql } from '../db/distance.js';
import { dialectOf, insertInChunks, type Queryable } from '../db/queryable.js';
import type { NewHelper } from '../db/schema.js';
import type { Category } from '../domain/categories.js';
import { type LatLng, round } from '../domain/geo.js';
import { centsToEur } from '../domain/pricing.js';
import type { PublicHelper } from '../schemas/availability.js';
import { helperAreaFromRow, reliabilityFromRow } from './mappers.js';

export interface AvailabilityFilter {
  center: LatLng;
  radiusKm: number;
  /** null: helpers of any category. */
  category: Category | null;
  minReliability: number;
  top: number;
  /** Leave out helpers whose own calendar (a busy calendar) is busy at this instant. */
  busyAt?: Date;
}

export interface AvailabilityFigures {
  count: number;
  avgReliability: number | null;
  nearestKm: number | null;
  top: PublicHelper[];
}

/** Verified, available helpers near a point who offer the category and are reliable enough. */
export async function helperAvailability(db: Queryable, filter: AvailabilityFilter): Promise<AvailabilityFigures> {
  const dialect = dialectOf(db);
  const distance = distanceKmSql(dialect, sql.ref<number>('lat'), sql.ref<number>('lng'), filter.center);
  let query = db
    .selectFrom('helpers')
    .where('verified', '=', 1)
    .where('available', '=', 1)
    .where('removed_at', 'is', null)
    .where('reliability_score', '>=', filter.minReliability)
    .where(withinRadiusSql(dialect, 'lat', 'lng', filter.center, filter.radiusKm));
  const busyAt = filter.busyAt?.toISOString();
  if (busyAt !== undefined) {
    query = query.where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('busy_times')
            .innerJoin('busy_calendars', 'busy_calendars.id', 'busy_times.calendar_id')
            .select('busy_times.calendar_id')
            .whereRef('busy_calendars.helper_id', '=', 'helpers.id')
            .where('busy_times.start_at', '<=', busyAt)
            .where('busy_times.end_at', '>', busyAt),
        ),
      ),
    );
  }
  const category = filter.category;
  if (category) {
    query = query.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('helper_categories')
          .select('helper_categories.helper_id')
          .whereRef('helper_categories.helper_id', '=', 'helpers.id')
          .where('helper_categories.category', '=', category),
      ),
    );
  }
  const summary = await query
    .select((eb) => [
      eb.fn.countAll<number>().as('n'),
      eb.fn.avg<number>('reliability_score').as('avg_reliability'),
      eb.fn.min(distance).as('nearest_km'),
    ])
    .executeTakeFirst();
  const rows = await query
    .selectAll()
    .select(distance.as('distance_km'))
    .orderBy('reliability_score', 'desc')
    .orderBy('distance_km', 'asc')
    .orderBy('id', 'asc')
    .limit(filter.top)
    .execute();
  const categories = await categoriesOfHelpers(
    db,
    rows.map((r) => r.id),
  );
  const count = Number(summary?.n ?? 0);
  return {
    count,
    avgReliability: count > 0 && summary?.avg_reliability != null ? round(Number(summary.avg_reliability), 1) : null,
    nearestKm: count > 0 && summary?.nearest_km != null ? round(Number(summary.nearest_km), 2) : null,
    top: rows.map((row) => ({
      id: row.id,
      display_name: row.display_name,
      categories: categories.get(row.id) ?? [],
      hourly_rate_eur: centsToEur(row.hourly_rate_cents),
      location: helperAreaFromRow(row, row.distance_km),
      reliability: reliabilityFromRow(row),
    })),
  };
}

/** The categories of these helpers, sorted, by helper id (helpers without any are left out). */
export async function categoriesOfHelpers(db: Queryable, ids: readonly string[]): Promise<Map<string, Category[]>> {
  const byHelper = new Map<string, Category[]>();
  if (ids.length === 0) return byHelper;
  const rows = await db
    .selectFrom('helper_categories')
    .select(['helper_id', 'category'])
    .where('helper_id', 'in', ids)
    .orderBy('category')
    .execute();
  for (const row of rows) byHelper.set(row.helper_id, [...(byHelper.get(row.helper_id) ?? []), row.category]);
  return byHelper;
}

export async function insertHelpers(
  db: Queryable,
  helpers: readonly (NewHelper & { categories: readonly Category[] })[],
): Promise<void> {
  await insertInChunks(
    db,
    'helpers',
    helpers.map(({ categories: _categories, ...row }) => row),
  );
  const links = helpers.flatMap((h) => h.categories.map((category) => ({ helper_id: h.id, category })));
  await insertInChunks(db, 'helper_categories', links);
}
