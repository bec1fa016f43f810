import type { Queryable } from '../db/queryable.js';
import type { AccountRow, BookingStatus } from '../db/schema.js';
import { berlinDate, berlinWallClock } from '../domain/berlin-time.js';
import {
  addDays,
  daysInclusive,
  effectiveBooking,
  MAX_BOOKING_DAYS,
  MAX_DAYS_AHEAD,
  pickUpWindow,
  requestCutoff,
} from '../domain/booking-price.js';
import { bookingRuleIssue, bufferDays, type RequestedTime } from '../domain/booking-rules.js';
import {
  daysTouched,
  describeOpeningHours,
  hoursBetween,
  MAX_BOOKING_HOURS,
  onFullHour,
  parseOpeningHours,
  requestSpan,
} from '../domain/hourly-lending.js';
import type { FeeRule } from '../domain/payments.js';
import { allowedActions, BOOKING_MACHINE, edgesOf } from '../domain/transitions.js';
import { claimQuota } from '../repositories/account-quotas.js';
import { dueBookingRequests, expireBookingRequest } from '../repositories/booking-expiry.js';
import {
  type BookingAttempt,
  type BookingChangeHistory,
  type BookingRequest,
  type BookingWithOwner,
  bookedRanges,
  bookingRowToBooking,
  bookingWithParties,
  findBookingWithOwner,
  firstClash,
  insertBooking,
  listingToBook,
  lockAvailableListing,
  moveBooking,
} from '../repositories/bookings.js';
import { busyTimeOfListing, busyTimesOfListing } from '../repositories/busy-calendars.js';
import { findListing } from '../repositories/listings.js';
import { recordEvent } from '../repositories/outbox.js';
import { ownerOfBooking, refreshOwnerRecords } from '../repositories/reliability-records.js';
import { inWriteTransaction, type WriteContext, type WriteTransaction } from '../repositories/write-transaction.js';
import {
  BOOKING_ACTION_ROLES,
  type Booking,
  type BookingAction,
  type BookingCreateBody,
  type BookingRole,
  type ListingAvailability,
} from '../schemas/bookings.js';
import { ApiError, badRequest } from './errors.js';
import { cancelUnpaid, cancelWithPolicy, chargeLateReturn, createBookingPayments, withPaymentsOf } from './payments.js';
import { bookedFromWaitlist, heldFor } from './waitlist-holds.js';
import { illegalTransition } from './write-rules.js';

/** What the booking rules depend on besides the request. */
export interface BookingSettings {
  /** The path the routes start with (/v1 or /v1/demo): advice points at paths under it. */
  base: string;
  /** Hours a request waits for the owner's answer before it expires (BOOKING_REQUEST_TTL_HOURS). */
  requestTtlHours: number;
  /** Bookings an account may request per hour (BOOKINGS_PER_ACCOUNT_PER_HOUR). */
  quota: number;
  /** The platform's fee on rent (PLATFORM_FEE_PERCENT, PLATFORM_FEE_MIN_EUR). */
  fees: FeeRule;
}

/**
 * Books the listing for the account, confirmed (instant booking) or requested, with its
 * booking.created event; 400 for dates against the rules or an own listing, 404 for no such
 * listing, 409 for one that takes no bookings or whose days are taken.
 */
export async function createBooking(
  context: WriteContext,
  account: AccountRow,
  listingId: string,
  body: BookingCreateBody,
  settings: BookingSettings,
): Promise<Booking> {
  const request = { listingId, renterAccountId: account.id, ...requestedTime(body, context.now) };
  const attempt = await inWriteTransaction(context, async (trx) => {
    const booking = await bookListing(trx, request, context.now, settings);
    // A refusal decided in the transaction is thrown in it: nothing commits, not even the
    // Idempotency-Key's mark, so the same key books once the days are free again.
    if (!('booked' in booking)) throw bookingRefused(booking, listingId, settings.base);
    return booking;
  });
  return withPaymentsOf(context.db, 'booking_id', bookingRowToBooking(attempt.booked));
}

/**
 * The story of a booking inside its transaction: the listing locked first (lockAvailableListing),
 * so concurrent requests for it run one after the other; the refusals; the account's hourly quota
 * claimed (QuotaExceeded rolls everything back); the booking; the owner's figures when it is
 * confirmed at once; its booking.created event, private to the owner and the renter.
 */
async function bookListing(
  trx: WriteTransaction,
  request: BookingRequest,
  now: Date,
  settings: BookingSettings,
): Promise<BookingAttempt> {
  const locked = await lockAvailableListing(trx, request.listingId);
  const listing = await listingToBook(trx, request.listingId);
  if (!listing) return { problem: 'not_found' };
  if (listing.account_id === request.renterAccountId) return { problem: 'own_listing' };
  // Removed by a moderation decision: as unknown to anyone but its owner (not "409 removed").
  if (listing.status === 'removed') return { problem: 'not_found' };
  if (!locked) return { problem: 'unavailable', status: listing.status };
  const broken = bookingRuleIssue(
    { ...listing, opening_hours: parseOpeningHours(listing.opening_hours) },
    request,
    now,
  );
  if (broken) return broken;
  const clash = await firstClash(trx, request, now, settings.requestTtlHours, listing.buffer_hours);
  if (clash)
    return { problem: 'conflict', with: clash, bufferHours: listing.buffer_hours, hourly: request.startAt !== null };
  // The owner's own calendar (a busy calendar) says when the item is not to be had.
  const span = requestSpan(request);
  const busy = await busyTimeOfListing(trx, request.listingId, span.from.toISOString(), span.to.toISOString());
  if (busy) return { problem: 'busy', from: busy.start_at, to: busy.end_at, hourly: request.startAt !== null };
  // Time offered to someone on the waiting list is theirs to book until the hold ends.
  const held = await heldFor(trx, request, listing.buffer_hours, now, request.renterAccountId);
  if (held) return { problem: 'held', until: held.hold_until, hourly: request.startAt !== null };
  await claimQuota(trx, 'bookings', request.renterAccountId, settings.quota, now);
  const row = await insertBooking(trx, request, listing, now);
  await bookedFromWaitlist(trx, request, now);
  if (row.status === 'confirmed') await refreshOwnerRecords(trx, [listing.owner_id]);
  const audience = [listing.account_id, request.renterAccountId];
  const data = bookingRowToBooking(row);
  await recordEvent(trx, { type: 'booking.created', subjectId: row.id, place: listing, audience, data }, now);
  // Confirmed at once (instant booking): the rent and the deposit are due from now.
  if (row.status === 'confirmed') await createBookingPayments(trx, row.id, settings.fees, now);
  return { booked: row };
}

/**
 * What every change of a booking's status records, inside its transaction: the owner's reliability
 * figures computed again (unless `refreshOwner` is false) and the booking.status_changed event for
 * the owner and the renter. Returns the booking as changed.
 */
async function recordStatusChange(
  trx: WriteTransaction,
  id: string,
  now: Date,
  refreshOwner: boolean,
): Promise<Booking> {
  if (refreshOwner) {
    const owner = await ownerOfBooking(trx, id);
    if (owner) await refreshOwnerRecords(trx, [owner]);
  }
  const { booking, audience, place } = await bookingWithParties(trx, id);
  await recordEvent(trx, { type: 'booking.status_changed', subjectId: id, place, audience, data: booking }, now);
  return booking;
}

/** The days of a listing held from today (Europe/Berlin) on; 404 for no such listing, and for one a moderation decision removed. */
export async function listingAvailability(
  db: Queryable,
  listingId: string,
  now: Date,
  settings: Pick<BookingSettings, 'base' | 'requestTtlHours'>,
): Promise<ListingAvailability> {
  const listing = await findListing(db, listingId);
  if (!listing || listing.status === 'removed') throw listingNotFound(listingId, settings.base);
  const today = berlinDate(now);
  const [booked, busy] = await Promise.all([
    bookedRanges(db, listingId, today, now, settings.requestTtlHours),
    busyTimesOfListing(db, listingId, now.toISOString()),
  ]);
  // The owner's own calendar's busy times, as ranges by the hour, after the bookings' in time order.
  const busyRanges = busy.map((time) => ({
    ...daysTouched(new Date(time.start_at), new Date(time.end_at)),
    start_at: time.start_at,
    end_at: time.end_at,
    status: 'busy' as const,
  }));
  const all = [...booked, ...busyRanges].sort(
    (a, b) => a.start_date.localeCompare(b.start_date) || (a.start_at ?? '').localeCompare(b.start_at ?? ''),
  );
  return { listing_id: listingId, listing_status: listing.status, today, booked: all };
}

/** A booking as it stands now, for its renter or its listing's owner; 404 for anyone else. */
export async function getBooking(
  db: Queryable,
  account: AccountRow,
  id: string,
  now: Date,
  requestTtlHours: number,
): Promise<Booking> {
  const booking = await findBookingWithOwner(db, id);
  if (!booking || !roleOf(booking, account.id)) throw bookingNotFound(id);
  return withPaymentsOf(db, 'booking_id', bookingRowToBooking(effectiveBooking(booking, now, requestTtlHours)));
}

/**
 * Takes an action on a booking along BOOKING_MACHINE: 404 unless the account is its renter or its listing's owner, 403 when that role
 * may not take the action, 409 when the booking's state does not allow it.
 */
export async function changeBookingStatus(
  context: WriteContext,
  account: AccountRow,
  id: string,
  action: BookingAction,
  settings: Pick<BookingSettings, 'requestTtlHours' | 'fees'>,
): Promise<Booking> {
  const { db, now } = context;
  const { requestTtlHours } = settings;
  const edges = edgesOf<BookingStatus>(BOOKING_MACHINE, action);
  const found = await findBookingWithOwner(db, id);
  const role = found && roleOf(found, account.id);
  if (!found || !role) throw bookingNotFound(id);
  const booking = effectiveBooking(found, now, requestTtlHours);
  if (!BOOKING_ACTION_ROLES[action].includes(role)) throw forbidden(action, role, booking.status);
  if (action === 'pick-up' && booking.status === 'confirmed') checkPickUpDay(booking, berlinDate(now));
  const history =
    action === 'confirm' || action === 'decline'
      ? { decided_at: now.toISOString() }
      : action === 'cancel'
        ? { cancelled_by: role }
        : action === 'return'
          ? { returned_at: now.toISOString() }
          : {};
  return inWriteTransaction(context, async (trx) => {
    const changed = await moveBookingRecorded(trx, id, edges, now, requestTtlHours, history);
    // Money follows the booking: confirmed, its rent and deposit are due; a confirmed booking
    // cancelled, its rent follows the cancellation policy (the owner's cancellation refunds in
    // full) and an unpaid deposit is cancelled (the owner releases one already held).
    if (changed?.status === 'confirmed') await createBookingPayments(trx, id, settings.fees, now);
    if (changed?.status === 'returned') await chargeLateReturn(trx, id, settings.fees, now);
    if (changed?.status === 'cancelled') {
      const cancellation = await cancelWithPolicy(
        trx,
        { booking_id: id },
        {
          policy: booking.cancellation_policy,
          startsAt: booking.start_at !== null ? new Date(booking.start_at) : berlinWallClock(booking.start_date, 0),
          byPayee: role === 'owner',
        },
        settings.fees,
        now,
      );
      await cancelUnpaid(trx, { booking_id: id }, now, ['deposit']);
      const answer = await withPaymentsOf(trx, 'booking_id', changed);
      return cancellation ? { ...answer, cancellation } : answer;
    }
    if (changed) return withPaymentsOf(trx, 'booking_id', changed);
    // Thrown in the transaction: the refusal commits nothing (the key is free for a later try).
    const fresh = await findBookingWithOwner(trx, id);
    const status = (fresh ? effectiveBooking(fresh, now, requestTtlHours) : booking).status;
    throw illegalTransition('booking', status, action, BOOKING_MACHINE);
  });
}

/**
 * The story of changeBookingStatus inside a write transaction, also told by an erasure cancelling
 * the account's requested bookings (services/account-data.ts): the move along `edges`
 * (moveBooking), then what every status change records (recordStatusChange). Null when the booking
 * was not in `edges.from`.
 */
export async function moveBookingRecorded(
  trx: WriteTransaction,
  id: string,
  edges: { from: readonly BookingStatus[]; to: BookingStatus },
  now: Date,
  requestTtlHours: number,
  history: BookingChangeHistory,
): Promise<Booking | null> {
  return (await moveBooking(trx, id, edges.from, edges.to, now, requestTtlHours, history))
    ? recordStatusChange(trx, id, now, true)
    : null;
}

/**
 * Writes `expired` for requests past their TTL (BOOKING_REQUEST_TTL_HOURS), oldest first, at most
 * a batch per call, each in its own transaction with its booking.status_changed event (a background
 * write: the context has no idempotency claim). Returns how many this call expired.
 */
export async function expireBookingRequests(context: WriteContext, requestTtlHours: number): Promise<number> {
  const cutoff = requestCutoff(context.now, requestTtlHours);
  const due = await dueBookingRequests(context.db, cutoff);
  let expired = 0;
  for (const request of due) {
    const changed = await inWriteTransaction(context, async (trx) => {
      if (!(await expireBookingRequest(trx, request, cutoff, requestTtlHours))) return false;
      // The owner's and the renter's webhooks hear of it.
      await recordStatusChange(trx, request.id, context.now, false);
      return true;
    });
    if (changed) expired++;
  }
  return expired;
}

/** 404 for a booking the account is neither renter nor owner of (or that does not exist). */
export function bookingNotFound(id: string): ApiError {
  return new ApiError(404, 'not_found', `No booking with the id '${id}' is yours to see.`, {
    param: 'id',
    suggestion: 'Check the id: a booking is seen and changed only by its renter and the owner of its listing.',
  });
}

/**
 * The time a booking body asks for: whole days (start_date, end_date) or hours (start_at, end_at),
 * one pair and not both, checked against now; 400 naming the field otherwise.
 */
export function requestedTime(
  body: { start_date?: string; end_date?: string; start_at?: string; end_at?: string },
  now: Date,
): RequestedTime {
  const { start_date: startDate, end_date: endDate, start_at: startAt, end_at: endAt } = body;
  const hourly = startAt !== undefined || endAt !== undefined;
  if (hourly && (startDate !== undefined || endDate !== undefined)) {
    throw badRequest(
      'conflicting_parameters',
      startDate !== undefined ? 'start_date' : 'end_date',
      'A booking is either by the day (start_date and end_date) or by the hour (start_at and end_at), not both.',
      'Send start_date and end_date for whole days, or start_at and end_at for hours.',
    );
  }
  if (!hourly) {
    if (startDate === undefined || endDate === undefined) {
      const missing = startDate === undefined ? 'start_date' : 'end_date';
      throw badRequest(
        'missing_parameter',
        missing,
        `${missing} is missing: a booking names its days (start_date and end_date) or its hours (start_at and end_at).`,
        'Send start_date and end_date (YYYY-MM-DD, both days included), or start_at and end_at for a listing lent by the hour.',
      );
    }
    checkDates(startDate, endDate, berlinDate(now));
    return { startDate, endDate, startAt: null, endAt: null };
  }
  if (startAt === undefined || endAt === undefined) {
    const missing = startAt === undefined ? 'start_at' : 'end_at';
    throw badRequest(
      'missing_parameter',
      missing,
      `${missing} is missing: a booking by the hour names its start_at and its end_at.`,
      'Send both, as date-times on a full hour, e.g. 2026-12-05T10:00:00+01:00.',
    );
  }
  const from = new Date(startAt);
  const to = new Date(endAt);
  for (const [param, instant] of [
    ['start_at', from],
    ['end_at', to],
  ] as const) {
    if (!onFullHour(instant)) {
      throw badRequest(
        'invalid_parameter',
        param,
        `${param} ${body[param]} is not on a full hour: bookings by the hour start and end on the hour.`,
        `Send ${param} on a full hour (minutes and seconds 00).`,
      );
    }
  }
  const hours = hoursBetween(from, to);
  if (hours <= 0) {
    throw badRequest(
      'conflicting_parameters',
      'end_at',
      `end_at ${endAt} is not after start_at ${startAt}.`,
      'Send an end_at at least an hour after start_at.',
    );
  }
  if (hours > MAX_BOOKING_HOURS) {
    throw badRequest(
      'parameter_out_of_range',
      'end_at',
      `The booking lasts ${hours} hours; by the hour at most ${MAX_BOOKING_HOURS} are allowed.`,
      'Book whole days (start_date and end_date) for longer.',
    );
  }
  if (from.getTime() < now.getTime()) {
    throw badRequest(
      'parameter_out_of_range',
      'start_at',
      `start_at ${startAt} is in the past (now is ${now.toISOString()}).`,
      'Send a start_at from the next full hour on.',
    );
  }
  const touched = daysTouched(from, to);
  const lastStart = addDays(berlinDate(now), MAX_DAYS_AHEAD);
  if (touched.start_date > lastStart) {
    throw badRequest(
      'parameter_out_of_range',
      'start_at',
      `start_at ${startAt} is more than ${MAX_DAYS_AHEAD} days ahead.`,
      `Send a start_at on or before ${lastStart}.`,
    );
  }
  return {
    startDate: touched.start_date,
    endDate: touched.end_date,
    startAt: from.toISOString(),
    endAt: to.toISOString(),
  };
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

/** 404 for a listing id that names none. */
export function listingNotFound(id: string, base: string): ApiError {
  return new ApiError(404, 'not_found', `No listing has the id '${id}'.`, {
    param: 'id',
    suggestion: `Check the id (listing ids start with lst_), or find listings with GET ${base}/listings.`,
  });
}

function bookingRefused(attempt: Exclude<BookingAttempt, { booked: unknown }>, id: string, base: string): ApiError {
  switch (attempt.problem) {
    case 'not_found':
      return listingNotFound(id, base);
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
      const { start_date, end_date, start_at, end_at, status } = attempt.with;
      const held = start_at !== null ? `from ${start_at} to ${end_at}` : `from ${start_date} to ${end_date}`;
      const what = attempt.hourly || start_at !== null ? 'times' : 'days';
      const hours = attempt.bufferHours;
      const free =
        hours > 0
          ? `, and its owner keeps ${hours} hour(s) free before and after each booking (${bufferDays(hours)} whole day(s) between two day bookings)`
          : '';
      return new ApiError(
        409,
        'booking_conflict',
        `The listing is already booked ${held} (${status})${free}; the ${what} overlap.`,
        {
          param: attempt.hourly ? 'start_at' : 'start_date',
          suggestion: `Choose ${what === 'days' ? 'days outside the booked ranges' : 'a time outside the booked ones'}${hours > 0 ? ` and ${hours} hour(s) around them` : ''}; GET ${base}/listings/${id}/availability lists them.`,
        },
      );
    }
    case 'too_long':
      return badRequest(
        'parameter_out_of_range',
        attempt.hourly ? 'end_at' : 'end_date',
        `This listing is lent for at most ${attempt.max} day(s) at a time (max_booking_days)${attempt.hourly ? `: ${attempt.max * 24} hours` : ''}.`,
        attempt.hourly
          ? `Send an end_at at most ${attempt.max * 24} hours after start_at.`
          : `Send an end_date at most ${attempt.max - 1} day(s) after start_date, or book again afterwards.`,
      );
    case 'too_soon':
      return attempt.hourly
        ? badRequest(
            'parameter_out_of_range',
            'start_at',
            `This listing is booked at least ${attempt.leadHours} hours ahead (min_lead_hours).`,
            `Send a start_at from ${attempt.earliest} on.`,
          )
        : badRequest(
            'parameter_out_of_range',
            'start_date',
            `This listing is booked at least ${attempt.leadHours} hours ahead (min_lead_hours); a booking starts at 00:00 of its first day.`,
            `Send a start_date from ${attempt.earliest} on.`,
          );
    case 'busy':
      return new ApiError(
        409,
        'booking_conflict',
        `The owner's calendar marks the item busy from ${attempt.from} to ${attempt.to}; the times overlap.`,
        {
          param: attempt.hourly ? 'start_at' : 'start_date',
          suggestion: `Choose a time outside it; GET ${base}/listings/${id}/availability lists the busy times.`,
        },
      );
    case 'held':
      return new ApiError(
        409,
        'booking_conflict',
        `This time came free and is held until ${attempt.until} for the first on the listing's waiting list.`,
        {
          param: attempt.hourly ? 'start_at' : 'start_date',
          suggestion: `Book it after ${attempt.until} if it is still free, or join the waiting list: POST ${base}/listings/${id}/waitlist.`,
        },
      );
    case 'not_hourly':
      return badRequest(
        'invalid_parameter',
        'start_at',
        'This listing is lent by the day only: it has no price_per_hour_eur.',
        'Send start_date and end_date (whole days) instead of start_at and end_at.',
      );
    case 'too_short':
      return badRequest(
        'parameter_out_of_range',
        'end_at',
        `This listing is lent for at least ${attempt.min} hour(s) at a time (min_hours).`,
        `Send an end_at at least ${attempt.min} hour(s) after start_at.`,
      );
    case 'closed':
      return badRequest(
        'parameter_out_of_range',
        attempt.param,
        `${attempt.param === 'start_at' ? 'Pick-up' : 'Return'} at that time is outside the listing's opening hours (Europe/Berlin): ${describeOpeningHours(attempt.hours)}.`,
        `Send a ${attempt.param} within the opening hours of its weekday (local time).`,
      );
  }
}

function roleOf(booking: BookingWithOwner, accountId: string): BookingRole | null {
  if (booking.renter_account_id === accountId) return 'renter';
  return booking.owner_account_id === accountId ? 'owner' : null;
}

const ROLE_NAMES: Record<BookingRole, string> = { renter: 'renter', owner: "listing's owner" };

/** A 409 unless `today` (Europe/Berlin) lies in the booking's pick-up window (domain/booking-price.ts). */
function checkPickUpDay(booking: { start_date: string; end_date: string }, today: string): void {
  const { from, to } = pickUpWindow(booking);
  if (today >= from && today <= to) return;
  const early = today < from;
  throw new ApiError(
    409,
    'outside_pick_up_window',
    `The item can be picked up from ${from} (the day before the first day, ${booking.start_date}) to ${to} (the last day); today in Karlsruhe is ${today}.`,
    {
      param: null,
      suggestion: early
        ? `Record the pick-up on or after ${from}.`
        : 'The booked days are over: cancel the booking, or book new days.',
      alternatives: early ? [] : ['cancel'],
    },
  );
}

function forbidden(action: BookingAction, role: BookingRole, status: BookingStatus): ApiError {
  const roles: Readonly<Record<string, readonly BookingRole[]>> = BOOKING_ACTION_ROLES;
  const who = (roles[action] ?? []).map((r) => ROLE_NAMES[r]);
  const mine = allowedActions(BOOKING_MACHINE, status).filter((a) => roles[a]?.includes(role));
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
