import { type Static, Type } from 'typebox';
import { CategoryParam, CategorySchema, Nullable, RefTo } from './common.js';
import { NearParam } from './search-words.js';

export const MAX_DURATION_HOURS = 100;

const Duration = (description: string, options: { default?: number } = {}) =>
  Type.Number({ minimum: 0.25, maximum: MAX_DURATION_HOURS, description, ...options });

export const EstimateQuery = Type.Object(
  {
    category: CategoryParam,
    hours: Type.Optional(
      Duration(
        'Synonym of duration_hours (the getting-started examples use it). Give one of the two, or both with the same value.',
      ),
    ),
    duration_hours: Type.Optional(Duration('Working hours per helper.', { default: 1 })),
    helpers: Type.Optional(
      Type.Integer({ format: 'int32', minimum: 1, maximum: 4, default: 1, description: 'Number of helpers, 1 to 4.' }),
    ),
    near: NearParam,
    lat: Type.Optional(
      Type.Number({ minimum: -90, maximum: 90, description: 'With lng: learn from jobs near this point.' }),
    ),
    lng: Type.Optional(
      Type.Number({ minimum: -180, maximum: 180, description: 'With lat: learn from jobs near this point.' }),
    ),
  },
  { additionalProperties: false },
);
export type EstimateQuery = Static<typeof EstimateQuery>;

export const EstimateSchema = Type.Object(
  {
    category: RefTo(CategorySchema),
    price_estimate_eur: Type.Number({
      description: 'Median price per helper-hour of comparable completed jobs x hours x helpers.',
    }),
    price_min_eur: Type.Number({ description: '10th percentile, scaled the same way.' }),
    price_max_eur: Type.Number({ description: '90th percentile, scaled the same way.' }),
    confidence: Type.Number({
      minimum: 0,
      maximum: 1,
      description: 'Grows with the sample: n / (n + 20), at most 0.95; 0 when no job could be learned from.',
    }),
    based_on_jobs: Type.Integer({ minimum: 0, description: 'Completed jobs the estimate learned from.' }),
    currency: Type.Literal('EUR'),
    duration_hours: Type.Number(),
    helpers: Type.Integer(),
    area: Nullable(
      Type.Object(
        { lat: Type.Number(), lng: Type.Number(), radius_km: Type.Number() },
        { additionalProperties: false },
      ),
      {
        description: `The area learned from: jobs within radius_km of lat/lng when those were given and enough jobs are there; null when the estimate learned from the whole service area.`,
      },
    ),
  },
  { $id: 'Estimate', additionalProperties: false },
);
export type Estimate = Static<typeof EstimateSchema>;
