import { type Static, Type } from 'typebox';
import { CategorySchema, Lat, Lng, Nullable, Radius, RefTo, ReliabilityScoreSchema } from './common.js';
import { NearParam } from './search-words.js';

export const TOP_HELPERS = 5;

export const AvailabilityQuery = Type.Object(
  {
    category: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 60,
        description:
          'A category value in any case, or a German or English name for it ("GARDENING", "gardening", "Garten", "pet care"). Omit for all categories.',
      }),
    ),
    near: NearParam,
    lat: Type.Optional(Lat('Latitude of the location.')),
    lng: Type.Optional(Lng('Longitude of the location.')),
    radius: Type.Optional(Radius('Radius in km around the location; at most 50, the service area.')),
    min_reliability: Type.Optional(
      Type.Integer({
        format: 'int32',
        minimum: 0,
        maximum: 100,
        default: 0,
        description: 'Only helpers with at least this reliability_score.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type AvailabilityQuery = Static<typeof AvailabilityQuery>;

/** Where a helper is, as far as the public may know: the area and a distance, never the point. */
export const HelperArea = (distanceDescription: string) =>
  Type.Object(
    {
      city: Type.String(),
      district: Nullable(Type.String()),
      plz: Type.String(),
      distance_km: Type.Number({ description: distanceDescription }),
    },
    { additionalProperties: false, description: 'Area only: helpers’ exact coordinates are never published.' },
  );

export const PublicHelperSchema = Type.Object(
  {
    id: Type.String({ description: 'Helper id, prefixed `hlp_`.' }),
    display_name: Type.String({ description: 'First name and initial, as the helper shows it.' }),
    categories: Type.Array(RefTo(CategorySchema)),
    hourly_rate_eur: Type.Number(),
    location: HelperArea('Distance from the requested location, km.'),
    reliability: RefTo(ReliabilityScoreSchema),
  },
  { $id: 'PublicHelper', additionalProperties: false, description: 'Public helper profile: no contact data.' },
);
export type PublicHelper = Static<typeof PublicHelperSchema>;

export const AvailabilitySchema = Type.Object(
  {
    category: Nullable(RefTo(CategorySchema), {
      description: 'The category the term resolved to; null for all categories or an unknown term.',
    }),
    query: Nullable(Type.String(), { description: 'The category term as given.' }),
    location: Type.Object({ lat: Type.Number(), lng: Type.Number() }, { additionalProperties: false }),
    radius_km: Type.Number(),
    min_reliability: Type.Integer(),
    available_helpers: Type.Integer({
      minimum: 0,
      description: 'Verified, available helpers within the radius who offer the category and meet min_reliability.',
    }),
    avg_reliability: Nullable(Type.Number(), { description: 'Average reliability_score of those helpers.' }),
    nearest_km: Nullable(Type.Number(), { description: 'Distance to the nearest of them.' }),
    top_helpers: Type.Array(RefTo(PublicHelperSchema), {
      description: `Up to ${TOP_HELPERS} of them, by reliability_score (highest first), then distance.`,
    }),
    suggestion: Nullable(Type.String(), { description: 'Set when the category term was not understood.' }),
    alternatives: Type.Array(Type.String(), {
      description: 'Category values to try when the term was not understood.',
    }),
  },
  { $id: 'AvailabilitySummary', additionalProperties: false },
);
export type AvailabilitySummary = Static<typeof AvailabilitySchema>;
