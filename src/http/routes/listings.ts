import { searchArea } from '../../domain/geo.js';
import { eurToCents } from '../../domain/pricing.js';
import { findListing, listingsNearId, searchListings } from '../../repositories/listings.js';
import { DEFAULT_PAGE_SIZE, NoQuery, RefTo } from '../../schemas/common.js';
import { ListingIdParams, ListingPage, ListingSchema, ListingSearchQuery } from '../../schemas/listing.js';
import { ApiError } from '../../services/errors.js';
import { type Api, documented, errorResponses, idPrefixOf, ok, type RouteDeps } from './route-kit.js';

export function listingRoutes(app: Api, { base, db, searchIndex }: RouteDeps): void {
  app.get(
    `${base}/listings`,
    {
      config: { cache: 'public' },
      schema: documented(base, {
        operationId: 'searchListings',
        summary: 'Search items to borrow',
        description:
          'Available listings within `radius` km of `lat`/`lng`, filtered and sorted. As the spec defines it, this page has `data`, `total` and `has_more` (no limit or offset fields).',
        tags: ['Listings'],
        querystring: ListingSearchQuery,
        response: { 200: ok(ListingPage, 'One page of available listings.'), ...errorResponses(400) },
      }),
    },
    async (request) => {
      const query = request.query;
      const limit = query.limit ?? DEFAULT_PAGE_SIZE;
      const offset = query.offset ?? 0;
      const { data, total } = await searchListings(
        db,
        {
          ...searchArea(query),
          category: query.category,
          priceMaxCents: query.price_max === undefined ? undefined : eurToCents(query.price_max, 'down'),
          condition: query.condition,
          instantBooking: query.instant_booking,
          sort: query.sort ?? 'newest',
          limit,
          offset,
        },
        (await searchIndex?.(request))?.listings,
      );
      return { data, total, has_more: offset + limit < total };
    },
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
    async (request) => {
      const listing = await findListing(db, request.params.id);
      if (listing) return listing;
      const similar = await listingsNearId(db, request.params.id, 3);
      throw new ApiError(404, 'not_found', `No listing has the id '${request.params.id}'.`, {
        param: 'id',
        suggestion: `Check the id (listing ids start with ${idPrefixOf(base)}lst_), or find listings with GET ${base}/listings. Available listings with similar ids are listed in alternatives.`,
        alternatives: similar.map((l) => ({ id: l.id, title: l.title, url: `${base}/listings/${l.id}` })),
      });
    },
  );
}
