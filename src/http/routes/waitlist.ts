import { Type } from 'typebox';
import { BookingCreateBody } from '../../schemas/bookings.js';
import { NoQuery, RefTo } from '../../schemas/common.js';
import { ListingIdParams } from '../../schemas/listings.js';
import { WAITLIST_RULES, WaitlistEntryList, WaitlistEntryParams, WaitlistEntrySchema } from '../../schemas/waitlist.js';
import { joinWaitlist, leaveWaitlist, myWaitlist } from '../../services/waitlist.js';
import { errorResponses } from '../error-catalogue.js';
import { created, ok, sendCreated } from '../responses.js';
import type { Api, RouteDeps } from '../route-deps.js';
import { WRITE_HOOKS, WRITE_SECURITY } from '../write-body.js';
import { requireAccount, writeContext } from '../write-kit.js';

/** Waiting lists of listings (issue 35): join for a taken time, list yours, leave. */
export function waitlistRoutes(app: Api, deps: RouteDeps): void {
  const { base, db } = deps;
  const settings = { base, requestTtlHours: deps.bookingRequestTtlHours };
  app.post(
    `${base}/listings/:id/waitlist`,
    {
      schema: {
        operationId: 'joinWaitlist',
        summary: 'Wait for a taken time',
        description: `Puts the calling account on the listing's waiting list for a time that is taken (the body of a booking). 400 when nothing holds that time (book it), 409 when you already wait for this listing.\n\n${WAITLIST_RULES}`,
        tags: ['Bookings'],
        security: WRITE_SECURITY,
        params: ListingIdParams,
        body: BookingCreateBody,
        response: {
          201: created(RefTo(WaitlistEntrySchema), 'Your entry, waiting, with your place.'),
          ...errorResponses(400, 404, 409, 413, 415, 422),
        },
      },
      ...WRITE_HOOKS,
    },
    async (request, reply) => {
      const entry = await joinWaitlist(
        writeContext(request, deps),
        requireAccount(request),
        request.params.id,
        request.body,
        settings,
      );
      return sendCreated(reply, `${base}/me/waitlist`, entry);
    },
  );

  app.get(
    `${base}/me/waitlist`,
    {
      schema: {
        operationId: 'listMyWaitlist',
        summary: 'Your waiting-list entries',
        description: `Your entries on waiting lists, newest first (at most 100), with your place while waiting.\n\n${WAITLIST_RULES}`,
        tags: ['Bookings'],
        security: WRITE_SECURITY,
        querystring: NoQuery,
        response: { 200: ok(WaitlistEntryList, 'Your entries.'), ...errorResponses(400) },
      },
      ...WRITE_HOOKS,
    },
    async (request) => myWaitlist(db, requireAccount(request)),
  );

  app.delete(
    `${base}/waitlist/:id`,
    {
      onRequest: WRITE_HOOKS.onRequest,
      schema: {
        operationId: 'deleteWaitlistEntry',
        summary: 'Leave a waiting list',
        description: `Leaves the list; an offer held is given up for the next waiting. 404 for anyone else's entry, 409 for one no longer on the list.\n\n${WAITLIST_RULES}`,
        tags: ['Bookings'],
        security: WRITE_SECURITY,
        params: WaitlistEntryParams,
        querystring: NoQuery,
        response: { 204: ok(Type.Null(), 'Left; no body.'), ...errorResponses(400, 404, 409) },
      },
    },
    async (request, reply) => {
      await leaveWaitlist(writeContext(request, deps), requireAccount(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
}
