import { type Static, Type } from 'typebox';
import { CategorySchema, Nullable, RefTo } from './common.js';

const Median = (what: string) => Nullable(Type.Number(), { description: `Median ${what}, EUR; null without data.` });
const Count = (description: string) => Type.Integer({ minimum: 0, description });

export const StatsSchema = Type.Object(
  {
    generated_at: Type.String({ format: 'date-time', description: 'When these figures were computed.' }),
    api_version: Type.String(),
    coverage: Type.Object(
      {
        center: Type.Object({ lat: Type.Number(), lng: Type.Number() }, { additionalProperties: false }),
        radius_km: Type.Number(),
        places_count: Count('Districts of Karlsruhe and towns around it.'),
        places: Type.Array(
          Type.Object(
            {
              city: Type.String(),
              district: Nullable(Type.String()),
              plz: Type.String(),
              lat: Type.Number(),
              lng: Type.Number(),
              distance_km: Type.Number(),
              open_jobs: Count('Open jobs placed in this district or town.'),
              listings: Count('Available listings placed here.'),
            },
            { additionalProperties: false },
          ),
        ),
      },
      { additionalProperties: false },
    ),
    totals: Type.Object(
      {
        open_jobs: Count('Jobs open for applications.'),
        urgent_open_jobs: Count('Open jobs marked urgent.'),
        completed_jobs: Count('Jobs done (what the estimate learns from).'),
        available_listings: Count('Listings that can be booked.'),
        instant_booking_listings: Count('Available listings bookable without approval.'),
        helpers: Count('Registered helper profiles.'),
        verified_available_helpers: Count('Helpers verified and available now.'),
      },
      { additionalProperties: false },
    ),
    categories: Type.Array(
      Type.Object(
        {
          category: RefTo(CategorySchema),
          open_jobs: Count('Open jobs.'),
          completed_jobs: Count('Completed jobs.'),
          available_listings: Count('Available listings.'),
          available_helpers: Count('Verified, available helpers offering it.'),
          median_price_eur: Median('price of open jobs'),
          median_hourly_rate_eur: Median('price per helper-hour of completed jobs'),
          median_price_per_day_eur: Median('daily price of available listings'),
        },
        { additionalProperties: false },
      ),
    ),
    pricing: Type.Object(
      {
        median_job_price_eur: Median('price of open jobs'),
        median_hourly_rate_eur: Median('price per helper-hour of completed jobs'),
        median_price_per_day_eur: Median('daily price of available listings'),
        median_deposit_eur: Median('deposit of available listings'),
      },
      { additionalProperties: false },
    ),
    capabilities: Type.Object(
      {
        api_version: Type.String(),
        endpoints: Type.Array(
          Type.Object(
            { method: Type.String(), path: Type.String(), operation_id: Type.String(), summary: Type.String() },
            { additionalProperties: false },
          ),
        ),
        tiers: Type.Array(
          Type.Object(
            {
              tier: Type.String(),
              credential: Type.String(),
              rate_limit_per_minute: Type.Integer(),
              access: Type.String(),
            },
            { additionalProperties: false },
          ),
        ),
        categories: Type.Array(RefTo(CategorySchema)),
        languages: Type.Array(Type.String()),
        max_page_size: Type.Integer(),
        max_radius_km: Type.Number(),
        openapi_url: Type.String(),
        docs_url: Type.String(),
      },
      { additionalProperties: false },
    ),
  },
  { $id: 'Stats', additionalProperties: false },
);
export type Stats = Static<typeof StatsSchema>;
export type Endpoint = Stats['capabilities']['endpoints'][number];
