import type { Queryable } from '../db/queryable.js';
import type { AccountRow, BookingExtensionRow } from '../db/schema.js';
import { isCalendarDate } from '../domain/berlin-time.js';
import { addDays, bookingPrice, daysInclusive, effectiveBooking, MAX_BOOKING_DAYS } from '../domain/booking-price.js';
import { bookingRuleIssue, type RequestedTime } from '../domain/booking-rules.js';
import {
  daysTouched,
  describeOpeningHours,
  hourlyPrice,
  hoursBetween,
  MAX_BOOKING_HOURS,
  onFullHour,
  parseOpeningHours,
  requestSpan,
} from '../domain/hourly-lending.js';
import { newId } from '../domain/ids.js';
import type { FeeRule } from '../domain/payments.js';
import { centsToEur } from '../domain/pricing.js';
import {
  type BookingEnd,
  decideExtension,
  extensionsOf,
  findExtension,
  insertExtension,
  lockListingOfBooking,
  moveBookingEnd,
  waitingExtension,
} from '../repositories/booking-extensions.js';
import {
  type BookingWithOwner,
  bookingWithParties,
  findBookingWithOwner,
  firstClash,
  listingToBook,
} from '../repositories/bookings.js';
import { busyTimeOfListing } from '../repositories/busy-calendars.js';
import { recordEvent } from '../repositories/outbox.js';
import { inWriteTransaction, type WriteContext, type WriteTransaction } from '../repositories/write-transaction.js';
import type { BookingExtension, BookingExtensionBody } from '../schemas/booking-extensions.js';
import { bookingNotFound } from './bookings.js';
import { ApiError, badRequest } from './errors.js';
import { chargeExtension } from './payments.js';
import { heldFor } from './waitlist-holds.js';

/** What extensions depend on besides the request. */
export interface ExtensionSettings {
  requestTtlHours: number;
  fees: FeeRule;
}

export function extensionView(row: BookingExtensionRow): BookingExtension {
  return {
    id: row.id,
    booking_id: row.booking_id,
    status: row.status === 'withdrawn' ? 'declined' : row.status,
    until: row.until_at ?? row.until_date,
    price_eur: centsToEur(row.price_cents),
    created_at: row.created_at,
    decided_at: row.decided_at,
  };
}

/**
 * The renter asks to keep the item longer: 404 for anyone but the booking's renter and owner, 403
 * for the owner, 409 unless the booking is confirmed or active and no other request waits; 400 for
 * an end that is not later or breaks the listing's rules, 409 booking_conflict when the added time
 * is taken. Accepted at once with instant booking.
 */
export async function requestExtension(
  context: WriteContext,
  account: AccountRow,
  bookingId: string,
  body: BookingExtensionBody,
  settings: ExtensionSettings,
): Promise<BookingExtension> {
  const { now } = context;
  return inWriteTransaction(context, async (trx) => {
    const booking = await lockedBooking(trx, bookingId, now, settings);
    if (booking.renter_account_id !== account.id) {
      if (booking.owner_account_id === account.id) {
        throw new ApiError(403, 'forbidden', 'Only the renter asks for an extension; you own the listing.', {
          suggestion:
            'Accept or decline the renter’s request: POST .../extension-requests/{extension_id}/accept or /decline.',
          alternatives: ['accept', 'decline'],
        });
      }
      throw bookingNotFound(bookingId);
    }
    checkExtendable(booking);
    const waiting = await waitingExtension(trx, bookingId);
    if (waiting) {
      throw new ApiError(
        409,
        'invalid_state_transition',
        `An extension until ${waiting.until_at ?? waiting.until_date} already waits for the owner.`,
        {
          suggestion: 'Wait for the owner to accept or decline it, then ask again.',
        },
      );
    }
    const end = await newEnd(trx, booking, body.until, now, settings);
    const listing = await listingToBook(trx, booking.listing_id);
    const row: BookingExtensionRow = {
      id: newId('ext'),
      booking_id: bookingId,
      status: 'requested',
      until_date: end.end_date,
      until_at: end.end_at,
      price_cents: end.price_cents - booking.price_cents,
      created_at: now.toISOString(),
      decided_at: null,
    };
    await insertExtension(trx, row);
    await recordExtensionEvent(trx, 'booking.extension_requested', row, now);
    if (listing?.instant_booking !== 1) return extensionView(row);
    return extensionView(await accept(trx, booking, row, end, now, settings));
  });
}

/** The owner accepts (the time checked again) or declines a waiting extension; 403 for the renter. */
export async function decideBookingExtension(
  context: WriteContext,
  account: AccountRow,
  bookingId: string,
  extensionId: string,
  decision: 'accept' | 'decline',
  settings: ExtensionSettings,
): Promise<BookingExtension> {
  const { now } = context;
  return inWriteTransaction(context, async (trx) => {
    const booking = await lockedBooking(trx, bookingId, now, settings);
    if (booking.owner_account_id !== account.id) {
      if (booking.renter_account_id === account.id) {
        throw new ApiError(
          403,
          'forbidden',
          `Only the listing's owner can ${decision} an extension; you are the renter.`,
          {
            suggestion: 'Wait for the owner’s answer; GET .../extension-requests shows it.',
          },
        );
      }
      throw bookingNotFound(bookingId);
    }
    const extension = await findExtension(trx, bookingId, extensionId);
    if (!extension) {
      throw new ApiError(404, 'not_found', `The booking has no extension with the id '${extensionId}'.`, {
        param: 'extension_id',
        suggestion: `GET /v1/bookings/${bookingId}/extension-requests lists them.`,
      });
    }
    if (extension.status !== 'requested') {
      throw new ApiError(
        409,
        'invalid_state_transition',
        `The extension is ${extension.status}; it was decided already.`,
        {
          suggestion: 'The renter may ask for a new extension.',
        },
      );
    }
    if (decision === 'decline') {
      await decideExtension(trx, extensionId, 'declined', now);
      const declined = { ...extension, status: 'declined' as const, decided_at: now.toISOString() };
      await recordExtensionEvent(trx, 'booking.extension_decided', declined, now);
      return extensionView(declined);
    }
    checkExtendable(booking);
    const end = await newEnd(trx, booking, extension.until_at ?? extension.until_date, now, settings);
    return extensionView(await accept(trx, booking, extension, end, now, settings));
  });
}

/** A booking's extensions, oldest first, for its renter and its owner (404 for anyone else). */
export async function listBookingExtensions(
  db: Queryable,
  account: AccountRow,
  bookingId: string,
): Promise<{ data: BookingExtension[] }> {
  const booking = await findBookingWithOwner(db, bookingId);
  if (!booking || (booking.renter_account_id !== account.id && booking.owner_account_id !== account.id)) {
    throw bookingNotFound(bookingId);
  }
  return { data: (await extensionsOf(db, bookingId)).map(extensionView) };
}

/**
 * The booking with its listing locked first (as a booking locks it), so an extension and a new
 * booking of the same listing run one after the other; 404 when there is none.
 */
async function lockedBooking(
  trx: WriteTransaction,
  bookingId: string,
  now: Date,
  settings: ExtensionSettings,
): Promise<BookingWithOwner> {
  await lockListingOfBooking(trx, bookingId);
  const fresh = await findBookingWithOwner(trx, bookingId);
  if (!fresh) throw bookingNotFound(bookingId);
  return effectiveBooking(fresh, now, settings.requestTtlHours);
}

function checkExtendable(booking: BookingWithOwner): void {
  if (booking.status === 'confirmed' || booking.status === 'active') return;
  throw new ApiError(
    409,
    'invalid_state_transition',
    `The booking is ${booking.status}; only a confirmed or active booking can be extended.`,
    {
      suggestion: 'Book the time anew instead.',
    },
  );
}

/** The booking's new end for `until`, priced, checked against the listing's rules and its other bookings. */
async function newEnd(
  trx: WriteTransaction,
  booking: BookingWithOwner,
  until: string,
  now: Date,
  settings: ExtensionSettings,
): Promise<BookingEnd> {
  const hourly = booking.start_at !== null && booking.end_at !== null;
  let end: BookingEnd;
  if (!hourly) {
    if (!isCalendarDate(until)) {
      throw badRequest(
        'invalid_parameter',
        'until',
        `until '${until}' is no date: this booking is by the day.`,
        'Send the new last day as YYYY-MM-DD.',
      );
    }
    if (until <= booking.end_date) {
      throw badRequest(
        'parameter_out_of_range',
        'until',
        `until ${until} is not after the booking's last day, ${booking.end_date}.`,
        `Send a day after ${booking.end_date}.`,
      );
    }
    const days = daysInclusive(booking.start_date, until);
    if (days > MAX_BOOKING_DAYS) {
      throw badRequest(
        'parameter_out_of_range',
        'until',
        `The booking would cover ${days} days; at most ${MAX_BOOKING_DAYS} are allowed.`,
        `Send an until up to ${addDays(booking.start_date, MAX_BOOKING_DAYS - 1)}, and book the rest separately.`,
      );
    }
    const price = bookingPrice(days, booking.daily_cents, booking.weekly_cents);
    end = {
      end_date: until,
      end_at: null,
      days,
      hours: null,
      price_cents: price.total_cents,
      weeks: price.weeks,
      extra_days: price.extra_days,
      extra_hours: booking.extra_hours,
    };
  } else {
    const to = new Date(until);
    if (Number.isNaN(to.getTime()) || !until.includes('T')) {
      throw badRequest(
        'invalid_parameter',
        'until',
        `until '${until}' is no date-time: this booking is by the hour.`,
        'Send the new end_at, e.g. 2026-12-05T16:00:00+01:00.',
      );
    }
    if (!onFullHour(to)) {
      throw badRequest(
        'invalid_parameter',
        'until',
        `until ${until} is not on a full hour.`,
        'Send a time on a full hour (minutes and seconds 00).',
      );
    }
    const from = new Date(booking.start_at as string);
    if (to.getTime() <= Date.parse(booking.end_at as string)) {
      throw badRequest(
        'parameter_out_of_range',
        'until',
        `until ${until} is not after the booking's end, ${booking.end_at}.`,
        'Send a later end.',
      );
    }
    const hours = hoursBetween(from, to);
    if (hours > MAX_BOOKING_HOURS) {
      throw badRequest(
        'parameter_out_of_range',
        'until',
        `The booking would last ${hours} hours; by the hour at most ${MAX_BOOKING_HOURS}.`,
        'Book the further time as a booking of its own.',
      );
    }
    const price = hourlyPrice(hours, {
      hourly: booking.hourly_cents ?? 0,
      daily: booking.daily_cents,
      weekly: booking.weekly_cents,
    });
    const touched = daysTouched(from, to);
    end = {
      end_date: touched.end_date,
      end_at: to.toISOString(),
      days: daysInclusive(touched.start_date, touched.end_date),
      hours,
      price_cents: price.total_cents,
      weeks: price.weeks,
      extra_days: price.extra_days,
      extra_hours: price.extra_hours,
    };
  }
  const listing = await listingToBook(trx, booking.listing_id);
  if (listing) {
    // The lead time was the booking's; what counts now is its length and its return.
    const rules = {
      ...listing,
      min_lead_hours: 0,
      min_hours: 1,
      opening_hours: parseOpeningHours(listing.opening_hours),
    };
    const time = { startDate: booking.start_date, endDate: end.end_date, startAt: booking.start_at, endAt: end.end_at };
    const broken = bookingRuleIssue(rules, time, now);
    if (broken?.problem === 'too_long') {
      throw badRequest(
        'parameter_out_of_range',
        'until',
        `This listing is lent for at most ${broken.max} day(s) at a time (max_booking_days).`,
        'Send an earlier until, or book the further time as a booking of its own.',
      );
    }
    if (broken?.problem === 'closed') {
      throw badRequest(
        'parameter_out_of_range',
        'until',
        `A return at ${until} is outside the listing's opening hours (Europe/Berlin): ${describeOpeningHours(broken.hours)}.`,
        'Send an until within the opening hours of its weekday.',
      );
    }
    const request = { listingId: booking.listing_id, renterAccountId: booking.renter_account_id, ...time };
    const clash =
      (await firstClash(trx, request, now, settings.requestTtlHours, listing.buffer_hours, booking.id)) ??
      (await busyOrHeld(trx, request, listing.buffer_hours, now));
    if (clash) {
      const held =
        clash.start_at !== null
          ? `from ${clash.start_at} to ${clash.end_at}`
          : `from ${clash.start_date} to ${clash.end_date}`;
      throw new ApiError(
        409,
        'booking_conflict',
        `The listing is booked ${held} (${clash.status})${listing.buffer_hours > 0 ? `, with ${listing.buffer_hours} hour(s) kept free around each booking` : ''}: the booking cannot run until ${until}.`,
        {
          param: 'until',
          suggestion: `Ask for an earlier until; GET /v1/listings/${booking.listing_id}/availability lists the booked times.`,
        },
      );
    }
  }
  return end;
}

/**
 * What else keeps the added time from the renter: the owner's own calendar marking it busy, or a
 * waiting list's offer holding it for someone else; as a range, or undefined.
 */
async function busyOrHeld(
  trx: WriteTransaction,
  request: RequestedTime & { listingId: string; renterAccountId: string },
  bufferHours: number,
  now: Date,
) {
  const span = requestSpan(request);
  const busy = await busyTimeOfListing(trx, request.listingId, span.from.toISOString(), span.to.toISOString());
  if (busy) {
    const days = daysTouched(new Date(busy.start_at), new Date(busy.end_at));
    return { ...days, start_at: busy.start_at, end_at: busy.end_at, status: 'busy (the owner’s calendar)' };
  }
  const held = await heldFor(trx, request, bufferHours, now, request.renterAccountId);
  return held && { ...held, status: `held for the waiting list until ${held.hold_until}` };
}

/** Accepts the extension: the booking's new end and price, the added rent owed, the decision's event. */
async function accept(
  trx: WriteTransaction,
  booking: BookingWithOwner,
  extension: BookingExtensionRow,
  end: BookingEnd,
  now: Date,
  settings: ExtensionSettings,
): Promise<BookingExtensionRow> {
  const added = end.price_cents - booking.price_cents;
  await moveBookingEnd(trx, booking.id, booking, end, now);
  await decideExtension(trx, extension.id, 'accepted', now);
  await chargeExtension(trx, booking.id, added, settings.fees, now);
  const accepted = { ...extension, status: 'accepted' as const, price_cents: added, decided_at: now.toISOString() };
  await recordExtensionEvent(trx, 'booking.extension_decided', accepted, now);
  return accepted;
}

async function recordExtensionEvent(
  trx: WriteTransaction,
  type: 'booking.extension_requested' | 'booking.extension_decided',
  row: BookingExtensionRow,
  now: Date,
): Promise<void> {
  const { audience, place } = await bookingWithParties(trx, row.booking_id);
  await recordEvent(trx, { type, subjectId: row.booking_id, place, audience, data: extensionView(row) }, now);
}
