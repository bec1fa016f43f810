import { type RawBuilder, sql } from 'kysely';

/** relevance is for searches with q (its order is computed outside SQL); without words it is newest. */
export type SearchSort = 'newest' | 'price_asc' | 'price_desc' | 'distance' | 'relevance';

/**
 * ORDER BY for a search sort over the given columns (and the `distance_km` alias). Ties always
 * break by id, so the order is total and offset pages never overlap or skip rows.
 */
export function searchOrder(
  sort: SearchSort,
  columns: { price: string; created: string; id: string },
): RawBuilder<unknown> {
  const first =
    sort === 'price_asc'
      ? sql`${sql.ref(columns.price)} asc`
      : sort === 'price_desc'
        ? sql`${sql.ref(columns.price)} desc`
        : sort === 'distance'
          ? sql`${sql.ref('distance_km')} asc`
          : sql`${sql.ref(columns.created)} desc`;
  return sql`${first}, ${sql.ref(columns.id)} asc`;
}
