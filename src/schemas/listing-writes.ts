import { type Static, Type } from 'typebox';
import { CATEGORIES } from '../domain/categories.js';
import { CONDITIONS } from '../domain/statuses.js';
import { LISTING_MACHINE, transitionsTable } from '../domain/transitions.js';
import { CancellationPolicySchema, Nullable, PublicText, RefTo, StringEnum } from './common.js';
import { OpeningHoursSchema } from './listings.js';
import { LocationInput } from './location-input.js';

export const MAX_PHOTOS = 8;
export const MAX_PHOTO_URL_LENGTH = 500;

/** The Listing fields a client sets; the server sets id, type, status and owner_reliability. */
const ListingFields = {
  title: PublicText(3, 120, 'What is lent, 3 to 120 characters (surrounding spaces are trimmed).'),
  description: PublicText(10, 5000, 'Details: what is included, pick-up, conditions; 10 to 5000 characters.'),
  category: StringEnum(CATEGORIES, { description: 'Category value, in any case.' }),
  price_per_day_eur: Type.Number({
    minimum: 0.5,
    maximum: 10_000,
    description: 'Price per day in EUR, 0.50 to 10,000, at most two decimals.',
  }),
  price_per_week_eur: (options: object = {}) =>
    Nullable(Type.Number({ minimum: 0.5, maximum: 50_000 }), {
      ...options,
      description:
        'Price for 7 days in EUR (0.50 to 50,000, at most two decimals, below 7 × price_per_day_eur), or null for no weekly price. Bookings use it where it is cheaper.',
    }),
  deposit_eur: (options: object = {}) =>
    Type.Number({
      ...options,
      minimum: 0,
      maximum: 100_000,
      description: 'Refundable deposit in EUR, 0 to 100,000, at most two decimals.',
    }),
  late_fee_per_day_eur: (options: object = {}) =>
    Nullable(Type.Number({ minimum: 0.5, maximum: 10_000 }), {
      ...options,
      description:
        'What each day of a late return costs in EUR (0.50 to 10,000, at most two decimals), owed to you at the return; null: nothing.',
    }),
  condition: StringEnum(CONDITIONS, { description: 'The state the item is in, in any case.' }),
  min_lead_hours: (options: object = {}) =>
    Type.Integer({
      ...options,
      format: 'int32',
      minimum: 0,
      maximum: 720,
      description:
        'A booking must start at least this many hours ahead, 0 to 720; a day booking starts at 00:00 of its first day (Europe/Berlin).',
    }),
  buffer_hours: (options: object = {}) =>
    Type.Integer({
      ...options,
      format: 'int32',
      minimum: 0,
      maximum: 168,
      description:
        'Hours kept free between two bookings (to clean or check the item), 0 to 168; day bookings keep whole days: 1 to 24 hours one free day, 25 to 48 two, and so on.',
    }),
  max_booking_days: (options: object = {}) =>
    Nullable(Type.Integer({ format: 'int32', minimum: 1, maximum: 365 }), {
      ...options,
      description: 'The longest booking in days, 1 to 365; null: no limit.',
    }),
  price_per_hour_eur: (options: object = {}) =>
    Nullable(Type.Number({ minimum: 0.5, maximum: 1_000 }), {
      ...options,
      description:
        'Lent by the hour too: price per hour in EUR (0.50 to 1,000, at most two decimals, below price_per_day_eur); null: by the day only.',
    }),
  min_hours: (options: object = {}) =>
    Type.Integer({
      ...options,
      format: 'int32',
      minimum: 1,
      maximum: 24,
      description: 'The shortest booking by the hour, 1 to 24 hours.',
    }),
  opening_hours: (options: Record<string, unknown> = {}) => Nullable(RefTo(OpeningHoursSchema), options),
  location: LocationInput,
  instant_booking: (options: object = {}) =>
    Type.Boolean({
      ...options,
      description: 'true: bookings are confirmed at once; false: the owner confirms or declines each.',
    }),
  photos: (options: object = {}) =>
    Type.Array(
      Type.String({
        format: 'uri',
        pattern: '^https://',
        maxLength: MAX_PHOTO_URL_LENGTH,
        description: 'An https URL.',
      }),
      {
        ...options,
        maxItems: MAX_PHOTOS,
        description: `Up to ${MAX_PHOTOS} https URLs of at most ${MAX_PHOTO_URL_LENGTH} characters.`,
      },
    ),
};

export const ListingCreateBody = Type.Object(
  {
    title: ListingFields.title,
    description: ListingFields.description,
    category: ListingFields.category,
    price_per_day_eur: ListingFields.price_per_day_eur,
    price_per_week_eur: Type.Optional(ListingFields.price_per_week_eur({ default: null })),
    deposit_eur: Type.Optional(ListingFields.deposit_eur({ default: 0 })),
    late_fee_per_day_eur: Type.Optional(ListingFields.late_fee_per_day_eur({ default: null })),
    condition: ListingFields.condition,
    location: ListingFields.location,
    instant_booking: Type.Optional(ListingFields.instant_booking({ default: false })),
    cancellation_policy: Type.Optional(CancellationPolicySchema({ default: 'flexible' })),
    min_lead_hours: Type.Optional(ListingFields.min_lead_hours({ default: 0 })),
    buffer_hours: Type.Optional(ListingFields.buffer_hours({ default: 0 })),
    max_booking_days: Type.Optional(ListingFields.max_booking_days({ default: null })),
    price_per_hour_eur: Type.Optional(ListingFields.price_per_hour_eur({ default: null })),
    min_hours: Type.Optional(ListingFields.min_hours({ default: 1 })),
    opening_hours: Type.Optional(ListingFields.opening_hours({ default: null })),
    photos: Type.Optional(ListingFields.photos({ default: [] })),
  },
  {
    additionalProperties: false,
    description:
      'A new listing: the Listing fields a client may set. id, type, status (always available at first), owner_reliability and distances are the server’s.',
  },
);
export type ListingCreateBody = Static<typeof ListingCreateBody>;

export const ListingPatchBody = Type.Object(
  {
    title: Type.Optional(ListingFields.title),
    description: Type.Optional(ListingFields.description),
    category: Type.Optional(ListingFields.category),
    price_per_day_eur: Type.Optional(ListingFields.price_per_day_eur),
    price_per_week_eur: Type.Optional(ListingFields.price_per_week_eur()),
    deposit_eur: Type.Optional(ListingFields.deposit_eur()),
    late_fee_per_day_eur: Type.Optional(ListingFields.late_fee_per_day_eur()),
    condition: Type.Optional(ListingFields.condition),
    location: Type.Optional(ListingFields.location),
    instant_booking: Type.Optional(ListingFields.instant_booking()),
    cancellation_policy: Type.Optional(CancellationPolicySchema()),
    min_lead_hours: Type.Optional(ListingFields.min_lead_hours()),
    buffer_hours: Type.Optional(ListingFields.buffer_hours()),
    max_booking_days: Type.Optional(ListingFields.max_booking_days()),
    price_per_hour_eur: Type.Optional(ListingFields.price_per_hour_eur()),
    min_hours: Type.Optional(ListingFields.min_hours()),
    opening_hours: Type.Optional(ListingFields.opening_hours()),
    photos: Type.Optional(ListingFields.photos()),
  },
  {
    additionalProperties: false,
    description:
      'The fields to change; those left out keep their value. price_per_week_eur: null removes the weekly price; photos replaces the whole list.',
  },
);
export type ListingPatchBody = Static<typeof ListingPatchBody>;

/** The Idempotency-Key header of a POST, defined in schemas/idempotency.ts (re-exported for the routes that name it). */

/** The listing life cycle for the OpenAPI descriptions; `transitions` is LISTING_MACHINE as a Markdown table. */
export const listingLifeCycle = (transitions = transitionsTable(LISTING_MACHINE)) =>
  `Listing life cycle (only the owner, the account that created the listing, changes it; for anyone else it answers 404):\n\n${transitions}\n\nAn action not allowed from the current state answers 409 invalid_state_transition naming the state, with the allowed actions in alternatives. Existing bookings stand when a listing is paused or archived; the owner declines or cancels them.`;
