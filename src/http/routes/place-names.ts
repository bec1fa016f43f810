import { placesTypeahead } from '../../domain/place-names.js';
import { PlaceList, PlacesQuery } from '../../schemas/search-words.js';
import { errorResponses } from '../error-catalogue.js';
import { ok } from '../responses.js';
import type { Api, RouteDeps } from '../route-deps.js';
import { documented } from '../sandbox-naming.js';

/** GET /v1/places: the places `near` takes, for a typeahead. */
export function placeNameRoutes(app: Api, { base }: RouteDeps): void {
  app.get(
    `${base}/places`,
    {
      config: { cache: 'public' },
      schema: documented(base, {
        operationId: 'listPlaces',
        summary: 'Places by name (typeahead for near)',
        description:
          'The districts of Karlsruhe, the towns around it and Karlsruhe itself whose name, district or postal code starts with q (exact names first, then by name); each can be sent as `near`. Example: /v1/places?q=dur.',
        tags: ['Places'],
        querystring: PlacesQuery,
        response: { 200: ok(PlaceList, 'The places, at most limit.'), ...errorResponses(400) },
      }),
    },
    async (request) => ({ data: placesTypeahead(request.query.q, request.query.limit ?? 10) }),
  );
}
