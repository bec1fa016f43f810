import { type Static, Type } from 'typebox';
import { Nullable, RefTo, StringEnum } from './common.js';

const Id = (what: string, example: string) =>
  Type.String({ minLength: 1, maxLength: 64, description: `${what} id, e.g. ${example}.` });

export const BOOKING_EXTENSION_STATUSES = ['requested', 'accepted', 'declined'] as const;

export const BookingExtensionBody = Type.Object(
  {
    until: Type.String({
      minLength: 10,
      maxLength: 40,
      description:
        'The new end: a day booking its new last day (YYYY-MM-DD, inclusive), a booking by the hour its new end_at (a date-time on a full hour).',
    }),
  },
  { additionalProperties: false },
);
export type BookingExtensionBody = Static<typeof BookingExtensionBody>;

export const BookingExtensionSchema = Type.Object(
  {
    id: Type.String({ description: 'Extension id, prefixed `ext_`.' }),
    booking_id: Type.String(),
    status: StringEnum(BOOKING_EXTENSION_STATUSES, {
      description: 'requested (waits for the owner), accepted (the booking now ends at until), declined.',
    }),
    until: Type.String({ description: 'The new last day (a day booking) or end_at (by the hour, UTC).' }),
    price_eur: Type.Number({
      minimum: 0,
      description:
        "What the extension adds to the rent, at the booking's prices (the cheapest split of the whole new span, less the price before).",
    }),
    created_at: Type.String({ format: 'date-time' }),
    decided_at: Nullable(Type.String({ format: 'date-time' }), {
      description: 'When it was accepted or declined; null while requested.',
    }),
  },
  { $id: 'BookingExtension', additionalProperties: false },
);
export type BookingExtension = Static<typeof BookingExtensionSchema>;

export const BookingExtensionParams = Type.Object(
  {
    id: Id('Booking', 'bkg_8a1b2c3d4e5f6a7b'),
    extension_id: Id('Extension', 'ext_8a1b2c3d4e5f6a7b'),
  },
  { additionalProperties: false },
);

/** The extension rules, for the OpenAPI descriptions. */
export const EXTENSION_RULES =
  "Extensions: the renter of a confirmed or active booking asks to keep the item longer (until: a later last day, or by the hour a later end_at on a full hour); one request waits at a time. The listing's rules apply to the whole new span (max_booking_days, opening hours for the new return, the 60 days or 168 hours); the added time must be free of other bookings and their buffer (409 booking_conflict). With instant_booking it is accepted at once; otherwise the owner accepts or declines (accept checks the time again). Accepted, the booking ends at until, its price is the cheapest split of the whole span at the prices it was booked at, and the difference is owed as a further rent payment; the deposit stays as it is, held to the return. Both sides get booking.extension_requested and booking.extension_decided events.";

export const BookingExtensionList = Type.Object(
  { data: Type.Array(RefTo(BookingExtensionSchema)) },
  { additionalProperties: false },
);
