import { NoQuery, RefTo } from '../../schemas/common.js';
import { ListingIdParams, ListingPage, ListingSchema, ListingSearchQuery } from '../../schemas/listings.js';
import { ApiError } from '../../services/errors.js';
import { listingById, searchListings } from '../../services/search.js';
import { errorResponses } from '../error-catalogue.js';
import { ok, privately } from '../responses.js';
import type { Api, RouteDeps } from '../route-deps.js';
import { documented, idPrefixOf } from '../sandbox-naming.js';

export function listingRoutes(app: Api, { base, db, searchIndex }: RouteDeps): void {
  app.get(
    `${base}/listings`,
    {
      config: { cache: 'public' },
      schema: documented(base, {
        operationId: 'searchListings',
        summary: 'Search items to borrow',
        description:
          'Available listings within `radius` km of `lat`/`lng` (or of the place `near` names), matching the words of `q`, filtered and sorted. Example: /v1/listings?q=bohrmaschine&near=Durlach.',
        tags: ['Listings'],
        querystring: ListingSearchQuery,
        response: { 200: ok(ListingPage, 'One page of available listings.'), ...errorResponses(400) },
      }),
    },
    async (request) => searchListings(db, request.query, searchIndex && (() => searchIndex(request))),
  );

  app.get(
    `${base}/listings/:id`,
    {
      config: { cache: 'public' },
      schema: documented(base, {
        operationId: 'getListing',
        summary: 'Get a listing',
        description:
          'Any listing by id, whatever its status, with its owner’s reliability. `location.distance_km` is measured from the default centre.',
        tags: ['Listings'],
        params: ListingIdParams,
        querystring: NoQuery,
        response: { 200: ok(RefTo(ListingSchema), 'The listing.'), ...errorResponses(400, 404) },
      }),
    },
    async (request, reply) => {
      const listing = await listingById(db, request.params.id, request.access?.key?.account.id);
      if (listing.found === 'shown') return listing.item;
      // Removed by a moderation decision: gone for everyone but its owner, who sees it marked.
      if (listing.found === 'private') return privately(request, reply, listing.item);
      throw new ApiError(404, 'not_found', `No listing has the id '${request.params.id}'.`, {
        param: 'id',
        suggestion: `Check the id (listing ids start with ${idPrefixOf(base)}lst_), or find listings with GET ${base}/listings. Available listings with similar ids are listed in alternatives.`,
        alternatives: listing.similar.map((l) => ({ id: l.id, title: l.title, url: `${base}/listings/${l.id}` })),
      });
    },
  );
}
