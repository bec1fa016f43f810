import { PICK_UP_PLACE_DAYS_AHEAD } from '../../domain/booking-price.js';
import { NoQuery, RefTo } from '../../schemas/common.js';
import { HelperIdParams } from '../../schemas/helper-profiles.js';
import { JobActionParams } from '../../schemas/job-writes.js';
import { ListingIdParams } from '../../schemas/listings.js';
import { ExactLocationSchema, PlaceReleasePage, PlaceReleaseQuery } from '../../schemas/places.js';
import { ApiError } from '../../services/errors.js';
import { exactPlaceOf, PLACE_RELEASES_PER_ACCOUNT_PER_DAY, placeReleasesOf } from '../../services/places.js';
import { errorResponses } from '../error-catalogue.js';
import { ok } from '../responses.js';
import type { Api, RouteDeps } from '../route-deps.js';
import { WRITE_HOOKS, WRITE_SECURITY } from '../write-body.js';
import { requireAccount } from '../write-kit.js';

const SUBJECTS = {
  jobs: {
    operationId: 'getJobLocation',
    tag: 'Jobs',
    params: JobActionParams,
    who: 'the account that posted the job, and accounts whose application to it was accepted',
  },
  listings: {
    operationId: 'getListingLocation',
    tag: 'Listings',
    params: ListingIdParams,
    who: `the account that listed the item, and its renters (where to pick it up) on the first day of a confirmed booking${PICK_UP_PLACE_DAYS_AHEAD > 0 ? ` and ${PICK_UP_PLACE_DAYS_AHEAD} day before` : ''}, and while one is active (not from the confirmation: an instant booking is confirmed at once and cancelled free of charge, so anyone could book, read the place and cancel)`,
  },
  helpers: {
    operationId: 'getHelperLocation',
    tag: 'Helpers',
    params: HelperIdParams,
    who: 'the account that registered the helper profile',
  },
} as const;

/** GET /v1/{jobs,listings,helpers}/{id}/location: the exact place, for whom it concerns only. */
export function placeRoutes(app: Api, { db, now }: RouteDeps): void {
  for (const [resource, subject] of Object.entries(SUBJECTS) as [
    keyof typeof SUBJECTS,
    (typeof SUBJECTS)[keyof typeof SUBJECTS],
  ][]) {
    app.get(
      `/v1/${resource}/:id/location`,
      {
        onRequest: WRITE_HOOKS.onRequest,
        schema: {
          operationId: subject.operationId,
          summary: `The exact place of a ${resource.slice(0, -1)}, for whom it concerns`,
          description: `The place as it was written, for ${subject.who} (a developer key is needed). Anyone else gets 404, the same answer as for an id that does not exist. Each read by someone other than the owner is recorded for the owner (GET /v1/me/place-releases), and an account is shown at most ${PLACE_RELEASES_PER_ACCOUNT_PER_DAY} places of others a day (429 account_limit_reached). Public answers show an approximate point instead (see the Location schema). The answer is never stored by caches (Cache-Control: private, no-store).`,
          tags: [subject.tag],
          security: WRITE_SECURITY,
          params: subject.params,
          querystring: NoQuery,
          response: { 200: ok(RefTo(ExactLocationSchema), 'The place.'), ...errorResponses(400, 404) },
        },
      },
      async (request, reply) => {
        const account = requireAccount(request);
        const { id } = request.params;
        const place = await exactPlaceOf(resource, db, id, account.id, now());
        if (!place) {
          throw new ApiError(
            404,
            'not_found',
            `No ${resource.slice(0, -1)} with the id '${id}' has a place you may see.`,
            {
              param: 'id',
              suggestion: `The exact place is for ${subject.who}; everyone else sees the approximate point in GET /v1/${resource}/{id}.`,
            },
          );
        }
        reply.header('cache-control', 'private, no-store');
        return place;
      },
    );
  }

  app.get(
    '/v1/me/place-releases',
    {
      onRequest: WRITE_HOOKS.onRequest,
      schema: {
        operationId: 'listMyPlaceReleases',
        summary: 'Who was shown the exact places of your jobs and listings',
        description:
          'Every read of the exact place of one of your jobs or listings by someone else (an accepted helper, a renter on the day of pick-up), one entry per reader, object and Europe/Berlin day, newest first.',
        tags: ['Listings'],
        security: WRITE_SECURITY,
        querystring: PlaceReleaseQuery,
        response: { 200: ok(PlaceReleasePage, 'A page of releases.'), ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      const { limit = 20, offset = 0 } = request.query;
      reply.header('cache-control', 'private, no-store');
      return placeReleasesOf(db, requireAccount(request).id, limit, offset);
    },
  );
}
