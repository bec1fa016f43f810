import { AvailabilityQuery, AvailabilitySchema } from '../../schemas/availability.js';
import { RefTo } from '../../schemas/common.js';
import { availabilityNear } from '../../services/availability.js';
import { errorResponses } from '../error-catalogue.js';
import { ok } from '../responses.js';
import type { Api, RouteDeps } from '../route-deps.js';
import { documented } from '../sandbox-naming.js';

export function availabilityRoutes(app: Api, { base, db, now }: RouteDeps): void {
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
    async (request) => availabilityNear(db, request.query, now()),
  );
}
