import { CATEGORIES, CATEGORY_INFO, categoryFromTerm } from '../../domain/categories.js';
import { closestMatches } from '../../domain/text.js';
import { helperAvailability } from '../../repositories/helper-availability.js';
import {
  AvailabilityQuery,
  AvailabilitySchema,
  type AvailabilitySummary,
  TOP_HELPERS,
} from '../../schemas/availability.js';
import { RefTo } from '../../schemas/common.js';
import { type Api, documented, errorResponses, ok, type RouteDeps, searchArea } from './route-kit.js';

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

export function availabilityRoutes(app: Api, { base, db }: RouteDeps): void {
  app.get(
    `${base}/helpers/availability`,
    {
      config: { cache: 'public' },
      schema: documented(base, {
        operationId: 'checkAvailability',
        summary: 'Verified helpers available near a location',
        description:
          'Counts verified, available helpers within `radius` km (at most 50, the service area) who offer the category and have at least `min_reliability`, with the top ones by reliability then distance (public profiles only). `category` also takes lower case and German or English names; an unknown term answers 200 with zero helpers, a suggestion and category values to try.',
        tags: ['Helpers'],
        querystring: AvailabilityQuery,
        response: { 200: ok(RefTo(AvailabilitySchema), 'The availability summary.'), ...errorResponses(400) },
      }),
    },
    async (request): Promise<AvailabilitySummary> => {
      const query = request.query;
      const { center, radiusKm } = searchArea(query);
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
      const figures = await helperAvailability(db, { center, radiusKm, category, minReliability, top: TOP_HELPERS });
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
    },
  );
}
