import { type Static, Type } from 'typebox';
import { CATEGORIES } from '../domain/categories.js';
import { HelperArea } from './availability.js';
import {
  CategorySchema,
  IdParams,
  Nullable,
  PublicPlainText,
  PublicText,
  RefTo,
  ReliabilityScoreSchema,
  StringEnum,
} from './common.js';
import { Euros } from './job-writes.js';
import { LocationInput } from './location-input.js';

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

const Clock = (description: string) =>
  Type.String({
    pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$',
    maxLength: 5,
    description: `${description}, HH:MM (Europe/Berlin).`,
  });

const AvailabilityWindow = Type.Object(
  {
    weekdays: Type.Array(StringEnum(WEEKDAYS), {
      minItems: 1,
      maxItems: 7,
      uniqueItems: true,
      description: 'Days of the week.',
    }),
    from: Clock('Start of the day’s working hours'),
    to: Clock('End of the working hours, after from'),
  },
  { additionalProperties: false },
);
export type AvailabilityWindow = Static<typeof AvailabilityWindow>;

/** The profile fields a helper sets; `defaults` only on create, so that a PATCH never resets what it leaves out. */
function helperFields(defaults: boolean) {
  const orDefault = (value: unknown) => (defaults ? { default: value } : {});
  return {
    display_name: PublicText(2, 60, 'The name shown, e.g. first name and initial; 2 to 60 characters.'),
    categories: Type.Array(StringEnum(CATEGORIES, { description: 'Category value, in any case.' }), {
      minItems: 1,
      maxItems: CATEGORIES.length,
      uniqueItems: true,
      description: 'The categories offered, 1 to 10 different values.',
    }),
    location: LocationInput,
    hourly_rate_eur: Euros(5, 500, 'Hourly rate in EUR, 5 to 500.'),
    availability: Nullable(AvailabilityWindow, {
      ...orDefault(null),
      description: 'When the helper works: weekdays and hours; null: any time.',
    }),
    available: Type.Boolean({ ...orDefault(true), description: 'Taking jobs at the moment.' }),
    bio: PublicPlainText(1000, { ...orDefault(''), description: 'About the helper, at most 1000 characters.' }),
  };
}

const created = helperFields(true);

export const HelperCreateBody = Type.Object(
  {
    display_name: created.display_name,
    categories: created.categories,
    location: created.location,
    hourly_rate_eur: created.hourly_rate_eur,
    availability: Type.Optional(created.availability),
    available: Type.Optional(created.available),
    bio: Type.Optional(created.bio),
  },
  {
    additionalProperties: false,
    description:
      'A helper profile. Verification and the reliability record (ratings, completed jobs, response time) are the platform’s and cannot be set.',
  },
);
export type HelperCreateBody = Static<typeof HelperCreateBody>;

export const HelperUpdateBody = Type.Partial(Type.Object(helperFields(false)), {
  additionalProperties: false,
  description: 'The fields to change, as on create; fields left out keep their value.',
});
export type HelperUpdateBody = Static<typeof HelperUpdateBody>;

export const HelperProfileSchema = Type.Object(
  {
    id: Type.String({ description: 'Helper id, prefixed `hlp_`.' }),
    display_name: Type.String(),
    categories: Type.Array(RefTo(CategorySchema)),
    hourly_rate_eur: Type.Number(),
    location: HelperArea('Distance from the default centre (49.0069, 8.4037), km.'),
    reliability: RefTo(ReliabilityScoreSchema),
    availability: Nullable(AvailabilityWindow, { description: 'When the helper works; null: any time.' }),
    available: Type.Boolean({ description: 'Taking jobs at the moment.' }),
    bio: Type.String(),
  },
  {
    $id: 'HelperProfile',
    additionalProperties: false,
    description:
      'Public helper profile: no account or contact data, no coordinates. New profiles are not verified; only verified, available helpers count in /v1/helpers/availability and smart_eta_minutes.',
  },
);
export type HelperProfile = Static<typeof HelperProfileSchema>;

export const HelperIdParams = IdParams('Helper', 'hlp_8a1b2c3d4e5f6a7b');

/** Said in the descriptions of the helper routes: what a new profile is and is not. */
export const HELPER_PROFILE_ABOUT = `New profiles are not verified: verification is the platform's, and until then a helper does not count in /v1/helpers/availability or in the smart_eta_minutes of jobs. The reliability record starts empty (no jobs, ratings or cancellations) and is the platform's to keep.`;
