import { type Static, Type } from 'typebox';
import { BOOKING_STATUSES, HOLDING_STATUSES, MAX_BOOKING_DAYS, MAX_DAYS_AHEAD } from '../domain/booking-price.js';
import { MAX_BOOKING_HOURS } from '../domain/hourly-lending.js';
import { LISTING_STATUSES } from '../domain/statuses.js';
import { BOOKING_MACHINE, transitionsTable } from '../domain/transitions.js';
import { CancellationOutcome, CancellationPolicySchema, IdParams, Nullable, StringEnum } from './common.js';
import { PaymentsSummary } from './payments.js';

const CalendarDate = (description: string) => Type.String({ format: 'date', maxLength: 10, description });

const Instant = (description: string) => Type.String({ format: 'date-time', maxLength: 40, description });

export const BookingCreateBody = Type.Object(
  {
    start_date: Type.Optional(
      CalendarDate('First day (YYYY-MM-DD, a Europe/Berlin calendar day), from today to 365 days ahead.'),
    ),
    end_date: Type.Optional(
      CalendarDate(
        `Last day, inclusive (YYYY-MM-DD): on or after start_date, at most ${MAX_BOOKING_DAYS} days in all.`,
      ),
    ),
    start_at: Type.Optional(
      Instant(
        'By the hour (a listing with price_per_hour_eur), instead of the dates: pick-up, on a full hour, e.g. 2026-12-05T10:00:00+01:00.',
      ),
    ),
    end_at: Type.Optional(Instant('By the hour: return, on a full hour after start_at.')),
  },
  {
    additionalProperties: false,
    description: `Either start_date and end_date (whole days) or start_at and end_at (by the hour, at most ${MAX_BOOKING_HOURS} hours).`,
  },
);
export type BookingCreateBody = Static<typeof BookingCreateBody>;

export const BookingSchema = Type.Object(
  {
    id: Type.String({ description: 'Booking id, prefixed `bkg_`.' }),
    listing_id: Type.String(),
    status: StringEnum(BOOKING_STATUSES, {
      description:
        'requested (waits for the owner), confirmed, active (picked up), returned; or declined, cancelled, expired (a request the owner did not answer within BOOKING_REQUEST_TTL_HOURS, shown at once). requested (until it expires), confirmed and active bookings hold their days.',
    }),
    start_date: Type.String({
      format: 'date',
      description: 'First day (Europe/Berlin); by the hour, the day of start_at.',
    }),
    end_date: Type.String({
      format: 'date',
      description: 'Last day, inclusive; by the hour, the day the booking ends in.',
    }),
    start_at: Nullable(Type.String({ format: 'date-time' }), {
      description: 'A booking by the hour: pick-up (UTC); null for a day booking.',
    }),
    end_at: Nullable(Type.String({ format: 'date-time' }), {
      description: 'A booking by the hour: return (UTC); null for a day booking.',
    }),
    days: Type.Integer({
      minimum: 1,
      maximum: MAX_BOOKING_DAYS,
      description: 'Calendar days the booking touches, both ends included.',
    }),
    hours: Nullable(Type.Integer({ minimum: 1, maximum: MAX_BOOKING_HOURS }), {
      description:
        'A booking by the hour: the real hours from start_at to end_at (a clock change counts); null by the day.',
    }),
    price_eur: Type.Number({ minimum: 0, description: 'Rental price in EUR, deposit not included.' }),
    deposit_eur: Type.Number({ minimum: 0, description: 'Refundable deposit in EUR, due on top of the price.' }),
    late_fee_per_day_eur: Nullable(Type.Number({ minimum: 0 }), {
      description:
        "The listing's late fee per day when it was booked: each day the item comes back after end_date costs it, owed to the owner at the return (a payment of kind fee); null: none.",
    }),
    price_breakdown: Type.Object(
      {
        daily_eur: Type.Number({ minimum: 0, description: 'The listing’s daily price when it was booked.' }),
        weekly_eur: Nullable(Type.Number({ minimum: 0 }), {
          description: 'The listing’s weekly price when it was booked; null when it had none.',
        }),
        hourly_eur: Nullable(Type.Number({ minimum: 0 }), {
          description: 'A booking by the hour: the listing’s hourly price when it was booked; else null.',
        }),
        weeks: Type.Integer({
          minimum: 0,
          description:
            'Weeks charged at the weekly price; the last may cover a remainder of days when a week costs less than they do.',
        }),
        extra_days: Type.Integer({ minimum: 0, description: 'Days charged at the daily price.' }),
        extra_hours: Type.Integer({ minimum: 0, description: 'Hours charged at the hourly price.' }),
      },
      {
        additionalProperties: false,
        description:
          'price_eur = weeks × weekly_eur + extra_days × daily_eur + extra_hours × hourly_eur, the cheapest such split (docs/api.md, booking by the hour).',
      },
    ),
    cancellation_policy: CancellationPolicySchema({ description: "The listing's policy when it was booked." }),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time', description: 'When the status last changed.' }),
    payments: PaymentsSummary('rent and deposit, from its confirmation'),
    cancellation: CancellationOutcome,
  },
  {
    $id: 'Booking',
    additionalProperties: false,
    description: `A booking of a listing for whole calendar days (Europe/Berlin), at most ${MAX_BOOKING_DAYS} days, or by the hour (start_at to end_at, at most ${MAX_BOOKING_HOURS} hours), starting at most ${MAX_DAYS_AHEAD} days ahead.`,
  },
);
export type Booking = Static<typeof BookingSchema>;

export const ListingAvailabilitySchema = Type.Object(
  {
    listing_id: Type.String(),
    listing_status: StringEnum(LISTING_STATUSES, { description: 'Only available listings take bookings.' }),
    today: Type.String({ format: 'date', description: 'Today in Europe/Berlin; earlier days are not listed.' }),
    booked: Type.Array(
      Type.Object(
        {
          start_date: Type.String({ format: 'date' }),
          end_date: Type.String({ format: 'date' }),
          start_at: Nullable(Type.String({ format: 'date-time' }), { description: 'By the hour: from (else null).' }),
          end_at: Nullable(Type.String({ format: 'date-time' }), { description: 'By the hour: to (else null).' }),
          status: StringEnum([...HOLDING_STATUSES, 'busy'] as const, {
            description: "A booking's status, or busy: the owner's own calendar (a busy calendar) says so.",
          }),
        },
        { additionalProperties: false },
      ),
      {
        description:
          'Days held by requested (not yet expired), confirmed or active bookings that end today or later, earliest first; a booking by the hour holds only start_at to end_at of its days. Other time (from today to 365 days ahead) can be requested.',
      },
    ),
  },
  { additionalProperties: false },
);
export type ListingAvailability = Static<typeof ListingAvailabilitySchema>;

export const BookingIdParams = IdParams('Booking', 'bkg_8a1b2c3d4e5f6a7b');

export type BookingRole = 'renter' | 'owner';
export type BookingAction = 'confirm' | 'decline' | 'cancel' | 'pick-up' | 'return';

/** Who may take each action on a booking (the renter, the listing's owner), in the order the API lists them. */
export const BOOKING_ACTION_ROLES: Readonly<Record<BookingAction, readonly BookingRole[]>> = {
  confirm: ['owner'],
  decline: ['owner'],
  cancel: ['renter', 'owner'],
  'pick-up': ['owner'],
  return: ['owner'],
};

const WHO = Object.entries(BOOKING_ACTION_ROLES)
  .map(([action, who]) => `| ${action} | ${who.join(' or ')} |`)
  .join('\n');

/** Said wherever a booking's states are: how long a request waits for its owner. */
const expiry = (ttlHours: number) =>
  `A request the owner answers neither way within ${ttlHours} hours (BOOKING_REQUEST_TTL_HOURS) expires: requested → expired, shown at once by every read, its days free again at once, and a booking.status_changed event follows shortly, to the owner and the renter. expired is final like declined and cancelled; confirm, decline or cancel then answer 409 invalid_state_transition. Instant bookings are confirmed at once and never expire.`;

/** The booking life cycle for the OpenAPI descriptions; `transitions` is BOOKING_MACHINE as a Markdown table. */
export const bookingLifeCycle = (ttlHours: number, transitions = transitionsTable(BOOKING_MACHINE)) =>
  `Booking life cycle (a booking is seen and changed only by its renter, the account that booked, and the owner of the listing; for anyone else it answers 404):\n\n${transitions}\n\n| Action | Who may take it |\n| --- | --- |\n${WHO}\n\n${expiry(ttlHours)}\n\nAn action the caller's role may not take answers 403 forbidden (with the actions the role may take in alternatives); an action not allowed from the current state answers 409 invalid_state_transition naming the state, with the allowed actions in alternatives. Transitions are atomic.`;

/** The rules of booking days, for the OpenAPI descriptions. */
export const bookingRules = (ttlHours: number) =>
  `Days are Europe/Berlin calendar days, both ends included: start_date from today (in Karlsruhe) to ${MAX_DAYS_AHEAD} days ahead, end_date on or after it, at most ${MAX_BOOKING_DAYS} days in all. The listing must be available (paused or archived: 409), and not the caller's own (400). Requested, confirmed and active bookings hold their days: a booking overlapping one of them answers 409 booking_conflict naming the range it collides with; adjacent ranges are fine, and declined, cancelled, returned and expired bookings free their days. Concurrent requests for overlapping days are serialised by the database: exactly one gets through. price_eur is the cheapest split of the days into weeks at the weekly price and days at the daily price (a remainder of days is rounded up to one more week where that is cheaper); the refundable deposit_eur is due on top. With instant_booking the booking is confirmed at once, otherwise requested until the owner confirms or declines it, for at most ${ttlHours} hours: unanswered, it expires. By the hour (a listing with price_per_hour_eur): start_at and end_at on full hours instead of the dates, at least min_hours, pick-up and return within opening_hours; hours and days of one listing never overlap, and buffer_hours apply between them (docs/api.md, booking by the hour).`;
