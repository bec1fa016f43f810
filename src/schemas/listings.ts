import { type Static, Type } from 'typebox';
import { WEEKDAYS } from '../domain/hourly-lending.js';
import { CONDITIONS, LISTING_STATUSES } from '../domain/statuses.js';
import {
  CancellationPolicySchema,
  CategorySchema,
  IdParams,
  LocationSchema,
  Nullable,
  RefTo,
  ReliabilityScoreSchema,
  StringEnum,
} from './common.js';
import { PublicProviderSchema } from './providers.js';
import { searchPage, searchQuery } from './search.js';

export const ConditionSchema = StringEnum(CONDITIONS, { description: 'The state the item is in.' });

export const OpeningHoursSchema = Type.Array(
  Type.Object(
    {
      day: StringEnum(WEEKDAYS),
      open: Type.String({ maxLength: 5, pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'From HH:MM.' }),
      close: Type.String({
        maxLength: 5,
        pattern: '^(([01][0-9]|2[0-3]):[0-5][0-9]|24:00)$',
        description: 'To HH:MM (24:00: midnight).',
      }),
    },
    { additionalProperties: false },
  ),
  {
    $id: 'OpeningHours',
    maxItems: 14,
    description:
      'When pick-up and return of a booking by the hour are possible: per weekday (sun to sat) a local time (Europe/Berlin) from and to, both included; a day may have two spans, a day not named is closed. Day bookings are not bound by it.',
  },
);

export const ListingSchema = Type.Object(
  {
    id: Type.String({ description: 'Listing id, prefixed `lst_`.' }),
    title: Type.String(),
    description: Type.String(),
    category: RefTo(CategorySchema),
    type: Type.Literal('lending'),
    status: StringEnum(LISTING_STATUSES, {
      description:
        'available (bookable), paused (temporarily hidden) or archived. Search returns available listings only.',
    }),
    price_per_day_eur: Type.Number({ minimum: 0 }),
    price_per_week_eur: Nullable(Type.Number({ minimum: 0 }), { description: 'Null when no weekly price is offered.' }),
    deposit_eur: Type.Number({ minimum: 0 }),
    late_fee_per_day_eur: Nullable(Type.Number({ minimum: 0 }), {
      description: 'What each day of a late return costs, owed to the owner at the return; null: nothing.',
    }),
    condition: ConditionSchema,
    location: RefTo(LocationSchema),
    instant_booking: Type.Boolean({ description: 'Bookings are confirmed at once, without the owner’s approval.' }),
    cancellation_policy: CancellationPolicySchema(),
    min_lead_hours: Type.Integer({
      minimum: 0,
      description: 'A booking starts at least this many hours ahead (a day booking at 00:00 of its first day).',
    }),
    buffer_hours: Type.Integer({
      minimum: 0,
      description: 'Hours kept free between two bookings; day bookings keep whole days (ceil(buffer_hours / 24)).',
    }),
    max_booking_days: Nullable(Type.Integer({ minimum: 1 }), {
      description: 'The longest booking in days; null: no limit.',
    }),
    price_per_hour_eur: Nullable(Type.Number({ minimum: 0 }), {
      description: 'Lent by the hour too (bookings with start_at and end_at); null: by the day only.',
    }),
    min_hours: Type.Integer({ minimum: 1, description: 'The shortest booking by the hour.' }),
    opening_hours: Nullable(RefTo(OpeningHoursSchema)),
    photos: Type.Array(Type.String({ format: 'uri' })),
    owner_reliability: RefTo(ReliabilityScoreSchema),
    provider: Nullable(RefTo(PublicProviderSchema)),
  },
  { $id: 'Listing', additionalProperties: false },
);
export type Listing = Static<typeof ListingSchema>;

export const ListingSearchQuery = searchQuery('Search radius in km; at most 50.', {
  price_max: Type.Optional(
    Type.Number({ minimum: 0, maximum: 1_000_000, description: 'Maximum price per day, EUR (inclusive).' }),
  ),
  condition: Type.Optional(ConditionSchema),
  instant_booking: Type.Optional(
    Type.Boolean({ description: 'true: only instantly bookable listings; false: only those that need approval.' }),
  ),
});
export type ListingSearchQuery = Static<typeof ListingSearchQuery>;

export const ListingPage = searchPage(RefTo(ListingSchema), 'Available listings matching the filters, over all pages.');

export const ListingIdParams = IdParams('Listing', 'lst_8a1b2c3d4e5f6a7b');
