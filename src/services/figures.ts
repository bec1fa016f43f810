import type { Queryable } from '../db/queryable.js';
import { allOf } from '../domain/all-of.js';
import {
  type CategoryFigures,
  categoryFigures as categoryFiguresSql,
  countsByPlace,
  platformSamples,
  platformTotals,
} from '../repositories/aggregates.js';
import { statsFromIndex } from '../search/index-aggregates.js';
import type { SnapshotOf } from './search.js';

/**
 * The live figures of /v1/categories and /v1/stats: from the search indexes when the request has
 * a current snapshot (they follow every write), else all in SQL; both give the same figures
 * (test/http/index-aggregates.test.ts).
 */

export type { CategoryFigures } from '../repositories/aggregates.js';

/** Counts and price samples per category. */
export async function categoryFigures(db: Queryable, now: Date, snapshotOf?: SnapshotOf): Promise<CategoryFigures> {
  const index = await snapshotOf?.();
  const fromIndex = index ? await statsFromIndex(db, index, now) : undefined;
  return fromIndex?.figures ?? (await categoryFiguresSql(db, now));
}

/** Everything /v1/stats shows: the figures per category, the counts per place, the totals and the platform's samples. */
export async function platformFigures(db: Queryable, now: Date, snapshotOf?: SnapshotOf) {
  const index = await snapshotOf?.();
  const fromIndex = index ? await statsFromIndex(db, index, now) : undefined;
  return (
    fromIndex ??
    (await allOf({
      figures: categoryFiguresSql(db, now),
      places: countsByPlace(db, now),
      totals: platformTotals(db, now),
      platform: platformSamples(db, now),
    }))
  );
}
