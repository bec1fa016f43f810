import { ApplicationParams } from '../../schemas/applications.js';
import { BookingIdParams } from '../../schemas/bookings.js';
import { DEFAULT_PAGE_SIZE, NoQuery, RefTo } from '../../schemas/common.js';
import { HelperIdParams } from '../../schemas/helper-profiles.js';
import { ListingIdParams } from '../../schemas/listings.js';
import {
  ApplicationReviewBody,
  BookingReviewBody,
  PublicReviewPage,
  ReviewIdParams,
  ReviewPageQuery,
  ReviewReplyBody,
  ReviewSchema,
  reviewRules,
} from '../../schemas/reviews.js';
import {
  getReview,
  helperReviews,
  listingReviews,
  replyToReview,
  reviewApplication,
  reviewBooking,
} from '../../services/reviews.js';
import { errorResponses } from '../error-catalogue.js';
import { created, ok, sendCreated } from '../responses.js';
import type { Api, RouteDeps } from '../route-deps.js';
import { WRITE_HOOKS, WRITE_SECURITY } from '../write-body.js';
import { requireAccount, writeContext } from '../write-kit.js';

const WRITE_ERRORS = errorResponses(400, 404, 409, 413, 415, 422);

export function reviewRoutes(app: Api, deps: RouteDeps): void {
  const settings = { windowDays: deps.reviewWindowDays };
  const rules = reviewRules(settings.windowDays);
  const page = (query: { limit?: number; offset?: number }) => ({
    limit: query.limit ?? DEFAULT_PAGE_SIZE,
    offset: query.offset ?? 0,
  });

  app.post(
    '/v1/jobs/:id/applications/:application_id/reviews',
    {
      ...WRITE_HOOKS,
      schema: {
        operationId: 'reviewApplication',
        summary: 'Review the other side of a completed job',
        description: `The job's owner reviews the accepted helper (side client), or the accepted helper's account reviews the job's owner (side helper). Answers the review as its author sees it: unpublished until the other side has reviewed too.\n\n${rules}`,
        tags: ['Reviews'],
        security: WRITE_SECURITY,
        params: ApplicationParams,
        querystring: NoQuery,
        body: ApplicationReviewBody,
        response: { 201: created(RefTo(ReviewSchema), 'The review, as its author sees it.'), ...WRITE_ERRORS },
      },
    },
    async (request, reply) => {
      const { id: jobId, application_id: applicationId } = request.params;
      const context = writeContext(request, deps);
      const review = await reviewApplication(
        context,
        requireAccount(request),
        { jobId, applicationId },
        request.body,
        settings,
      );
      return sendCreated(reply, `/v1/reviews/${review.id}`, review);
    },
  );

  app.post(
    '/v1/bookings/:id/reviews',
    {
      ...WRITE_HOOKS,
      schema: {
        operationId: 'reviewBooking',
        summary: 'Review the other side of a returned booking',
        description: `The renter reviews the listing and its owner (side renter), or the listing's owner reviews the renter (side owner).\n\n${rules}`,
        tags: ['Reviews'],
        security: WRITE_SECURITY,
        params: BookingIdParams,
        querystring: NoQuery,
        body: BookingReviewBody,
        response: { 201: created(RefTo(ReviewSchema), 'The review, as its author sees it.'), ...WRITE_ERRORS },
      },
    },
    async (request, reply) => {
      const context = writeContext(request, deps);
      const review = await reviewBooking(context, requireAccount(request), request.params.id, request.body, settings);
      return sendCreated(reply, `/v1/reviews/${review.id}`, review);
    },
  );

  app.get(
    '/v1/reviews/:id',
    {
      onRequest: WRITE_HOOKS.onRequest,
      schema: {
        operationId: 'getReview',
        summary: 'Get a review you wrote or received',
        description: `A review for its author (always) and for the reviewed party (once published); 404 for anyone else.\n\n${rules}`,
        tags: ['Reviews'],
        security: WRITE_SECURITY,
        params: ReviewIdParams,
        querystring: NoQuery,
        response: { 200: ok(RefTo(ReviewSchema), 'The review.'), ...errorResponses(400, 404) },
      },
    },
    async (request) => getReview(deps.db, requireAccount(request), request.params.id, deps.now()),
  );

  app.post(
    '/v1/reviews/:id/reply',
    {
      ...WRITE_HOOKS,
      schema: {
        operationId: 'replyToReview',
        summary: 'Reply publicly to a review of you',
        description:
          'The reviewed party answers a published review once, publicly (409 already_replied for a second reply); anyone else, and the reviewed party before publication, gets 404.',
        tags: ['Reviews'],
        security: WRITE_SECURITY,
        params: ReviewIdParams,
        querystring: NoQuery,
        body: ReviewReplyBody,
        response: { 201: created(RefTo(ReviewSchema), 'The review with its reply.'), ...WRITE_ERRORS },
      },
    },
    async (request, reply) => {
      const context = writeContext(request, deps);
      const review = await replyToReview(context, requireAccount(request), request.params.id, request.body.text);
      return sendCreated(reply, `/v1/reviews/${review.id}`, review);
    },
  );

  app.get(
    '/v1/helpers/:id/reviews',
    {
      schema: {
        operationId: 'listHelperReviews',
        summary: 'Published reviews of a helper',
        description: `What clients wrote about the helper, newest first, published reviews only; the author as first name and initial, never an account. No key needed.\n\n${rules}`,
        tags: ['Reviews'],
        params: HelperIdParams,
        querystring: ReviewPageQuery,
        response: { 200: ok(PublicReviewPage, 'A page of published reviews.'), ...errorResponses(400, 404) },
      },
    },
    async (request) => helperReviews(deps.db, request.params.id, page(request.query), deps.now()),
  );

  app.get(
    '/v1/listings/:id/reviews',
    {
      schema: {
        operationId: 'listListingReviews',
        summary: 'Published reviews of a listing',
        description: `What renters wrote about the item and its owner, newest first, published reviews only; the author as first name and initial, never an account. No key needed.\n\n${rules}`,
        tags: ['Reviews'],
        params: ListingIdParams,
        querystring: ReviewPageQuery,
        response: { 200: ok(PublicReviewPage, 'A page of published reviews.'), ...errorResponses(400, 404) },
      },
    },
    async (request) => listingReviews(deps.db, request.params.id, page(request.query), deps.now()),
  );
}
