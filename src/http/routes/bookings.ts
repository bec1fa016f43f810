import type { BookingStatus } from '../../db/schema.js';
import { berlinDate } from '../../domain/berlin-time.js';
import {
  addDays,
  daysInclusive,
  effectiveBooking,
  MAX_BOOKING_DAYS,
  MAX_DAYS_AHEAD,
} from '../../domain/booking-price.js';
import { allowedActions, BOOKING_MACHINE } from '../../domain/transitions.js';
import {
  type BookingAttempt,
  type BookingWithOwner,
  bookedRanges,
  bookingRowToBooking,
  createBooking,
  findBookingWithOwner,
  setBookingStatus,
} from '../../repositories/bookings.js';
import { findListing } from '../../repositories/listings.js';
import {
  BookingCreateBody,
  BookingIdParams,
  BookingSchema,
  ListingAvailabilitySchema,
} from '../../schemas/bookings.js';
import { NoQuery, RefTo } from '../../schemas/common.js';
import { ListingIdParams } from '../../schemas/listing.js';
import { IdempotencyHeaders } from '../../schemas/listing-writes.js';
import { ApiError, badRequest } from '../../services/errors.js';
import { WRITE_HOOKS, WRITE_SECURITY } from '../write-body.js';
import { edgesOf, illegalTransition, requireAccount, transitionsTable } from '../write-kit.js';
import { type Api, errorResponses, ok, type RouteDeps } from './route-kit.js';

type Role = 'renter' | 'owner';

const BOOKING_ACTIONS: Record<string, { who: readonly Role[]; operationId: string; summary: string; effect: string }> =
  {
    confirm: {
      who: ['owner'],
      operationId: 'confirmBooking',
      summary: 'Confirm a booking request',
      effect: 'requested → confirmed: the owner accepts the request.',
    },
    decline: {
      who: ['owner'],
      operationId: 'declineBooking',
      summary: 'Decline a booking request',
      effect: 'requested → declined: the owner turns the request down; its days are free again.',
    },
    cancel: {
      who: ['renter', 'owner'],
      operationId: 'cancelBooking',
      summary: 'Cancel a booking',
      effect: 'requested or confirmed → cancelled, by the renter or the owner; its days are free again.',
    },
    'pick-up': {
      who: ['owner'],
      operationId: 'pickUpBooking',
      summary: 'Record that the item was picked up',
      effect: 'confirmed → active: the owner has handed the item over.',
    },
    return: {
      who: ['owner'],
      operationId: 'returnBooking',
      summary: 'Record that the item was returned',
      effect: 'active → returned: the owner has the item back; its days are free again.',
    },
  };

const WHO = Object.entries(BOOKING_ACTIONS)
  .map(([action, { who }]) => `| ${action} | ${who.join(' or ')} |`)
  .join('\n');

/** Said wherever a booking's states are: how long a request waits for its owner. */
const expiry = (ttlHours: number) =>
  `A request the owner answers neither way within ${ttlHours} hours (BOOKING_REQUEST_TTL_HOURS) expires: requested → expired, shown at once by every read, its days free again at once, and a booking.status_changed event follows shortly, to the owner and the renter. expired is final like declined and cancelled; confirm, decline or cancel then answer 409 invalid_state_transition. Instant bookings are confirmed at once and never expire.`;

const lifeCycle = (ttlHours: number) =>
  `Booking life cycle (a booking is seen and changed only by its renter, the account that booked, and the owner of the listing; for anyone else it answers 404):\n\n${transitionsTable(BOOKING_MACHINE)}\n\n| Action | Who may take it |\n| --- | --- |\n${WHO}\n\n${expiry(ttlHours)}\n\nAn action the caller's role may not take answers 403 forbidden (with the actions the role may take in alternatives); an action not allowed from the current state answers 409 invalid_state_transition naming the state, with the allowed actions in alternatives. Transitions are atomic: the status changes only if it still is what the action leaves from.`;

const rules = (ttlHours: number) =>
  `Days are Europe/Berlin calendar days, both ends included: start_date from today (in Karlsruhe) to ${MAX_DAYS_AHEAD} days ahead, end_date on or after it, at most ${MAX_BOOKING_DAYS} days in all. The listing must be available (paused or archived: 409), and not the caller's own (400). Requested, confirmed and active bookings hold their days: a booking overlapping one of them answers 409 booking_conflict naming the range it collides with; adjacent ranges are fine, and declined, cancelled, returned and expired bookings free their days. Concurrent requests for overlapping days are serialised by the database: exactly one gets through. price_eur is the cheapest split of the days into weeks at the weekly price and days at the daily price (a remainder of days is rounded up to one more week where that is cheaper); the refundable deposit_eur is due on top. With instant_booking the booking is confirmed at once, otherwise requested until the owner confirms or declines it, for at most ${ttlHours} hours: unanswered, it expires.`;

function bookingNotFound(id: string): ApiError {
  return new ApiError(404, 'not_found', `No booking with the id '${id}' is yours to see.`, {
    param: 'id',
    suggestion: 'Check the id: a booking is seen and changed only by its renter and the owner of its listing.',
  });
}

/** The dates rules, against today in Karlsruhe; returns the number of days. */
function checkDates(start: string, end: string, today: string): number {
  if (start < today) {
    throw badRequest(
      'parameter_out_of_range',
      'start_date',
      `start_date ${start} is in the past: today in Karlsruhe (Europe/Berlin) is ${today}.`,
      `Send a start_date from ${today} on.`,
    );
  }
  const lastStart = addDays(today, MAX_DAYS_AHEAD);
  if (start > lastStart) {
    throw badRequest(
      'parameter_out_of_range',
      'start_date',
      `start_date ${start} is more than ${MAX_DAYS_AHEAD} days ahead.`,
      `Send a start_date up to ${lastStart}.`,
    );
  }
  if (end < start) {
    throw badRequest(
      'conflicting_parameters',
      'end_date',
      `end_date ${end} is before start_date ${start}.`,
      'Send an end_date on or after start_date; both days are included (one day: the same date twice).',
    );
  }
  const days = daysInclusive(start, end);
  if (days > MAX_BOOKING_DAYS) {
    throw badRequest(
      'parameter_out_of_range',
      'end_date',
      `The booking covers ${days} days; at most ${MAX_BOOKING_DAYS} are allowed.`,
      `Send an end_date up to ${addDays(start, MAX_BOOKING_DAYS - 1)}, and book the rest separately.`,
    );
  }
  return days;
}

function bookingRefused(attempt: Exclude<BookingAttempt, { booked: unknown }>, id: string, base: string): ApiError {
  switch (attempt.problem) {
    case 'not_found':
      return new ApiError(404, 'not_found', `No listing has the id '${id}'.`, {
        param: 'id',
        suggestion: `Check the id (listing ids start with lst_), or find listings with GET ${base}/listings.`,
      });
    case 'own_listing':
      return badRequest(
        'invalid_parameter',
        'id',
        'This listing is your own: an owner cannot book it.',
        `To keep days free, pause the listing (POST ${base}/listings/${id}/pause) and resume it later.`,
      );
    case 'unavailable':
      return new ApiError(409, 'invalid_state_transition', `The listing is ${attempt.status}: it takes no bookings.`, {
        suggestion: `Only available listings can be booked; GET ${base}/listings finds them.`,
      });
    case 'conflict': {
      const { start_date, end_date, status } = attempt.with;
      return new ApiError(
        409,
        'booking_conflict',
        `The listing is already booked from ${start_date} to ${end_date} (${status}); the days overlap.`,
        {
          param: 'start_date',
          suggestion: `Choose days outside the booked ranges; GET ${base}/listings/${id}/availability lists them.`,
        },
      );
    }
  }
}

function roleOf(booking: BookingWithOwner, accountId: string): Role | null {
  if (booking.renter_account_id === accountId) return 'renter';
  return booking.owner_account_id === accountId ? 'owner' : null;
}

const ROLE_NAMES: Record<Role, string> = { renter: 'renter', owner: "listing's owner" };

function forbidden(action: string, role: Role, status: BookingStatus): ApiError {
  const who = (BOOKING_ACTIONS[action]?.who ?? []).map((r) => ROLE_NAMES[r]);
  const mine = allowedActions(BOOKING_MACHINE, status).filter((a) => BOOKING_ACTIONS[a]?.who.includes(role));
  return new ApiError(
    403,
    'forbidden',
    `Only the ${who.join(' or ')} can ${action} this booking; you are its ${ROLE_NAMES[role]}.`,
    {
      suggestion:
        mine.length > 0
          ? `As its ${ROLE_NAMES[role]} you can: ${mine.join(', ')}.`
          : `As its ${ROLE_NAMES[role]} you cannot change this ${status} booking.`,
      alternatives: mine,
    },
  );
}

export function bookingRoutes(app: Api, { base, db, now, quotas, bookingRequestTtlHours: ttl }: RouteDeps): void {
  const lifeCycleText = lifeCycle(ttl);
  const rulesText = rules(ttl);
  /** The booking as it stands now: a request past its TTL is expired before the sweep writes it. */
  const current = <T extends BookingWithOwner>(booking: T): T => effectiveBooking(booking, now(), ttl);
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
        headers: IdempotencyHeaders,
        body: BookingCreateBody,
        response: {
          201: ok(RefTo(BookingSchema), 'The booking, confirmed or requested, with its price and deposit.'),
          ...errorResponses(400, 404, 409, 413, 415, 422),
        },
      },
      ...WRITE_HOOKS,
    },
    async (request, reply) => {
      const account = requireAccount(request);
      const { start_date: startDate, end_date: endDate } = request.body;
      checkDates(startDate, endDate, berlinDate(now()));
      const { id } = request.params;
      const attempt = await createBooking(
        db,
        { listingId: id, renterAccountId: account.id, startDate, endDate },
        now(),
        quotas.bookings,
        ttl,
      );
      if (!('booked' in attempt)) throw bookingRefused(attempt, id, base);
      return reply.code(201).send(bookingRowToBooking(attempt.booked));
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
    async (request) => {
      const { id } = request.params;
      const listing = await findListing(db, id);
      if (!listing) throw bookingRefused({ problem: 'not_found' }, id, base);
      const at = now();
      const today = berlinDate(at);
      const booked = await bookedRanges(db, id, today, at, ttl);
      return { listing_id: id, listing_status: listing.status, today, booked };
    },
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
    async (request) => {
      const account = requireAccount(request);
      const booking = await findBookingWithOwner(db, request.params.id);
      if (!booking || !roleOf(booking, account.id)) throw bookingNotFound(request.params.id);
      return bookingRowToBooking(current(booking));
    },
  );

  for (const [action, docs] of Object.entries(BOOKING_ACTIONS)) {
    const { from, to } = edgesOf<BookingStatus>(BOOKING_MACHINE, action);
    app.post(
      `${base}/bookings/:id/${action}`,
      {
        schema: {
          operationId: docs.operationId,
          summary: docs.summary,
          description: `${docs.effect} Only the ${docs.who.join(' or ')} may do it. No body (one sent is ignored).\n\n${lifeCycleText}`,
          tags: ['Bookings'],
          security: WRITE_SECURITY,
          params: BookingIdParams,
          headers: IdempotencyHeaders,
          response: {
            200: ok(RefTo(BookingSchema), `The booking, now ${to}.`),
            ...errorResponses(400, 403, 404, 409, 413, 415, 422),
          },
        },
        ...WRITE_HOOKS,
      },
      async (request) => {
        const account = requireAccount(request);
        const { id } = request.params;
        const found = await findBookingWithOwner(db, id);
        const role = found && roleOf(found, account.id);
        if (!found || !role) throw bookingNotFound(id);
        const booking = current(found);
        if (!docs.who.includes(role)) throw forbidden(action, role, booking.status);
        const changed = await setBookingStatus(db, id, from, to, now(), ttl);
        if (changed) return changed;
        const fresh = await findBookingWithOwner(db, id);
        throw illegalTransition('booking', (fresh ? current(fresh) : booking).status, action, BOOKING_MACHINE);
      },
    );
  }
}
