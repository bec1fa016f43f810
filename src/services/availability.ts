import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { CATEGORIES, CATEGORY_INFO, categoryFromTerm } from '../domain/categories.js';
import { closestMatches } from '../domain/text.js';
import { helperAvailability } from '../repositories/helper-availability.js';
import { type AvailabilityQuery, type AvailabilitySummary, TOP_HELPERS } from '../schemas/availability.js';
import { searchAreaOf } from './search-area.js';

/** Category values whose value or German/English name is close to an unknown term. */
function categoriesLike(term: string): string[] {
  const names = CATEGORIES.flatMap((c) => [
    c,
    CATEGORY_INFO[c].name.de,
    CATEGORY_INFO[c].name.en,
    ...CATEGORY_INFO[c].synonyms,
  ]);
  const matches = closestMatches(term, names, 10)
    .map((name) => categoryFromTerm(name))
    .filter((c) => c !== null);
  return [...new Set(matches)];
}

/**
 * Verified, available helpers near a place: how many, how reliable, how near, the top ones. An
 * unknown category term answers zero helpers with a suggestion and the categories to try.
 */
export async function availabilityNear(
  db: Kysely<Database>,
  query: AvailabilityQuery,
  now: Date = new Date(),
): Promise<AvailabilitySummary> {
  const { center, radiusKm } = searchAreaOf(query);
  const minReliability = query.min_reliability ?? 0;
  const term = query.category ?? null;
  const category = term === null ? null : categoryFromTerm(term);
  const base = { category, query: term, location: center, radius_km: radiusKm, min_reliability: minReliability };
  if (term !== null && category === null) {
    const like = categoriesLike(term);
    return {
      ...base,
      available_helpers: 0,
      avg_reliability: null,
      nearest_km: null,
      top_helpers: [],
      suggestion:
        like.length > 0
          ? `No category is called '${term}'. Did you mean ${like[0]}?`
          : `No category is called '${term}'. Use a category value or its German or English name, e.g. GARDENING or Garten.`,
      alternatives: like.length > 0 ? like : [...CATEGORIES],
    };
  }
  // A helper whose own calendar is busy now is not available now.
  const figures = await helperAvailability(db, {
    center,
    radiusKm,
    category,
    minReliability,
    top: TOP_HELPERS,
    busyAt: now,
  });
  return {
    ...base,
    available_helpers: figures.count,
    avg_reliability: figures.avgReliability,
    nearest_km: figures.nearestKm,
    top_helpers: figures.top,
    suggestion:
      figures.count === 0
        ? 'No helper matches here; widen radius, lower min_reliability, or try a nearby location.'
        : null,
    alternatives: [],
  };
}
