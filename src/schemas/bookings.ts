import { type Static, Type } from 'typebox';
import { BOOKING_STATUSES, HOLDING_STATUSES, MAX_BOOKING_DAYS, MAX_DAYS_AHEAD } from '../domain/booking-price.js';
import { LISTING_STATUSES } from '../domain/statuses.js';
import { IdParams, Nullable, StringEnum } from './common.js';

const CalendarDate = (description: string) => Type.String({ format: 'date', description });

export const BookingCreateBody = Type.Object(
  {
    start_date: CalendarDate('First day (YYYY-MM-DD, a Europe/Berlin calendar day), from today to 365 days ahead.'),
    end_date: CalendarDate(
      `Last day, inclusive (YYYY-MM-DD): on or after start_date, at most ${MAX_BOOKING_DAYS} days in all.`,
    ),
  },
  { additionalProperties: false },
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
    start_date: Type.String({ format: 'date', description: 'First day (Europe/Berlin).' }),
    end_date: Type.String({ format: 'date', description: 'Last day, inclusive.' }),
    days: Type.Integer({ minimum: 1, maximum: MAX_BOOKING_DAYS, description: 'Days booked, both ends included.' }),
    price_eur: Type.Number({ minimum: 0, description: 'Rental price in EUR, deposit not included.' }),
    deposit_eur: Type.Number({ minimum: 0, description: 'Refundable deposit in EUR, due on top of the price.' }),
    price_breakdown: Type.Object(
      {
        daily_eur: Type.Number({ minimum: 0, description: 'The listing’s daily price when it was booked.' }),
        weekly_eur: Nullable(Type.Number({ minimum: 0 }), {
          description: 'The listing’s weekly price when it was booked; null when it had none.',
        }),
        weeks: Type.Integer({
          minimum: 0,
          description:
            'Weeks charged at the weekly price; the last may cover a remainder of days when a week costs less than they do.',
        }),
        extra_days: Type.Integer({ minimum: 0, description: 'Days charged at the daily price.' }),
      },
      {
        additionalProperties: false,
        description: 'price_eur = weeks × weekly_eur + extra_days × daily_eur, the cheapest such split.',
      },
    ),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time', description: 'When the status last changed.' }),
  },
  {
    $id: 'Booking',
    additionalProperties: false,
    description: `A booking of a listing for whole calendar days (Europe/Berlin), at most ${MAX_BOOKING_DAYS} days, starting at most ${MAX_DAYS_AHEAD} days ahead.`,
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
          status: StringEnum(HOLDING_STATUSES),
        },
        { additionalProperties: false },
      ),
      {
        description:
          'Days held by requested (not yet expired), confirmed or active bookings that end today or later, earliest first. Every other day (from today to 365 days ahead) can be requested.',
      },
    ),
  },
  { additionalProperties: false },
);
export type ListingAvailability = Static<typeof ListingAvailabilitySchema>;

export const BookingIdParams = IdParams('Booking', 'bkg_8a1b2c3d4e5f6a7b');
