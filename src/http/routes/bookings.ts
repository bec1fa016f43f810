import type { BOOKING_STATUSES } from '../../domain/booking-price.js';
import { BOOKING_MACHINE, edgesOf } from '../../domain/transitions.js';
import {
  BOOKING_ACTION_ROLES,
  type BookingAction,
  BookingCreateBody,
  BookingIdParams,
  BookingSchema,
  bookingLifeCycle,
  bookingRules,
  ListingAvailabilitySchema,
} from '../../schemas/bookings.js';
import { NoQuery, RefTo } from '../../schemas/common.js';
import { ListingIdParams } from '../../schemas/listings.js';
import { changeBookingStatus, createBooking, getBooking, listingAvailability } from '../../services/bookings.js';
import { errorResponses } from '../error-catalogue.js';
import { created, ok, sendCreated } from '../responses.js';
import type { Api, RouteDeps } from '../route-deps.js';
import { WRITE_HOOKS, WRITE_SECURITY } from '../write-body.js';
import { requireAccount, writeContext } from '../write-kit.js';

const BOOKING_ACTIONS: Record<BookingAction, { operationId: string; summary: string; effect: string }> = {
  confirm: {
    operationId: 'confirmBooking',
    summary: 'Confirm a booking request',
    effect: 'requested → confirmed: the owner accepts the request.',
  },
  decline: {
    operationId: 'declineBooking',
    summary: 'Decline a booking request',
    effect: 'requested → declined: the owner turns the request down; its days are free again.',
  },
  cancel: {
    operationId: 'cancelBooking',
    summary: 'Cancel a booking',
    effect: 'requested or confirmed → cancelled, by the renter or the owner; its days are free again.',
  },
  'pick-up': {
    operationId: 'pickUpBooking',
    summary: 'Record that the item was picked up',
    effect: 'confirmed → active: the owner handed the item over (from the day before start_date to end_date).',
  },
  return: {
    operationId: 'returnBooking',
    summary: 'Record that the item was returned',
    effect: 'active → returned: the owner has the item back; its days are free again.',
  },
};

export function bookingRoutes(app: Api, deps: RouteDeps): void {
  const { base, db, now, quotas, bookingRequestTtlHours: ttl } = deps;
  const lifeCycleText = bookingLifeCycle(ttl);
  const rulesText = bookingRules(ttl);
  const settings = { base, requestTtlHours: ttl, quota: quotas.bookings, fees: deps.fees };
  app.post(
    `${base}/listings/:id/bookings`,
    {
      schema: {
        operationId: 'createBooking',
        summary: 'Book a listing',
        description: `Books the listing for the calling account (a developer key is needed).\n\n${rulesText} An account requests at most ${quotas.bookings} bookings per hour (BOOKINGS_PER_ACCOUNT_PER_HOUR; refused and conflicting requests not counted): beyond that 429 account_limit_reached with Retry-After, a guard against automated mass bookings that would block items.\n\n${lifeCycleText}`,
        tags: ['Bookings'],
        security: WRITE_SECURITY,
        params: ListingIdParams,
        body: BookingCreateBody,
        response: {
          201: created(RefTo(BookingSchema), 'The booking, confirmed or requested, with its price and deposit.'),
          ...errorResponses(400, 404, 409, 413, 415, 422),
        },
      },
      ...WRITE_HOOKS,
    },
    async (request, reply) => {
      const account = requireAccount(request);
      const booking = await createBooking(
        writeContext(request, deps),
        account,
        request.params.id,
        request.body,
        settings,
      );
      return sendCreated(reply, `${base}/bookings/${booking.id}`, booking);
    },
  );

  app.get(
    `${base}/listings/:id/availability`,
    {
      schema: {
        operationId: 'getListingAvailability',
        summary: 'Booked days of a listing',
        description: `The ranges held by requested (until they expire), confirmed and active bookings that end today (Europe/Berlin) or later, earliest first; every other day can be requested. Anyone may read it; renters are not shown.\n\n${rulesText}`,
        tags: ['Bookings'],
        params: ListingIdParams,
        querystring: NoQuery,
        response: {
          200: ok(ListingAvailabilitySchema, 'The booked ranges ahead.'),
          ...errorResponses(400, 404),
        },
      },
    },
    async (request) => listingAvailability(db, request.params.id, now(), settings),
  );

  app.get(
    `${base}/bookings/:id`,
    {
      schema: {
        operationId: 'getBooking',
        summary: 'Get a booking',
        description: `A booking, for its renter or the owner of its listing (a developer key is needed).\n\n${lifeCycleText}`,
        tags: ['Bookings'],
        security: WRITE_SECURITY,
        params: BookingIdParams,
        querystring: NoQuery,
        response: { 200: ok(RefTo(BookingSchema), 'The booking.'), ...errorResponses(400, 404) },
      },
      ...WRITE_HOOKS,
    },
    async (request) => getBooking(db, requireAccount(request), request.params.id, now(), ttl),
  );

  for (const [action, docs] of Object.entries(BOOKING_ACTIONS) as [
    BookingAction,
    (typeof BOOKING_ACTIONS)[BookingAction],
  ][]) {
    const { to } = edgesOf<(typeof BOOKING_STATUSES)[number]>(BOOKING_MACHINE, action);
    const who = BOOKING_ACTION_ROLES[action];
    app.post(
      `${base}/bookings/:id/${action}`,
      {
        schema: {
          operationId: docs.operationId,
          summary: docs.summary,
          description: `${docs.effect} Only the ${who.join(' or ')} may do it. No body (one sent is ignored).\n\n${lifeCycleText}`,
          tags: ['Bookings'],
          security: WRITE_SECURITY,
          params: BookingIdParams,
          response: {
            200: ok(RefTo(BookingSchema), `The booking, now ${to}.`),
            ...errorResponses(400, 403, 404, 409, 413, 415, 422),
          },
        },
        ...WRITE_HOOKS,
      },
      async (request) =>
        changeBookingStatus(writeContext(request, deps), requireAccount(request), request.params.id, action, settings),
    );
  }
}
