import { CATEGORIES } from '../../domain/categories.js';
import { DEFAULT_CENTER, haversineKm, MAX_RADIUS_KM, round } from '../../domain/geo.js';
import { PLACES } from '../../domain/places.js';
import { priceBand, type RateSample } from '../../domain/pricing.js';
import { API_VERSION, describeTiers } from '../../domain/tiers.js';
import { MAX_PAGE_SIZE, NoQuery, RefTo } from '../../schemas/common.js';
import { type Stats, StatsSchema } from '../../schemas/stats.js';
import { platformFigures } from '../../services/figures.js';
import { errorResponses } from '../error-catalogue.js';
import { ok } from '../responses.js';
import type { Api, RouteDeps } from '../route-deps.js';
import { documented } from '../sandbox-naming.js';

const median = (sample: RateSample | null | undefined): number | null => priceBand(sample)?.median ?? null;

export function statsRoutes(app: Api, { base, db, now, endpoints, limits, searchIndex }: RouteDeps): void {
  app.get(
    `${base}/stats`,
    {
      config: { cache: 'public' },
      schema: documented(base, {
        operationId: 'getStats',
        summary: 'Live platform statistics',
        description:
          'Coverage (centre, radius and the places served, with their open jobs and listings), totals, per-category counts and medians, platform-wide price medians, and the capabilities of this API (endpoints, tiers and limits, version). Computed from current data.',
        tags: ['Platform'],
        querystring: NoQuery,
        response: { 200: ok(RefTo(StatsSchema), 'Current platform statistics.'), ...errorResponses(400) },
      }),
    },
    async (request): Promise<Stats> => {
      const at = now();
      const { figures, places, totals, platform } = await platformFigures(
        db,
        at,
        searchIndex && (() => searchIndex(request)),
      );
      const counts = new Map(places.map((p) => [`${p.city}|${p.district ?? ''}`, p]));
      return {
        generated_at: at.toISOString(),
        api_version: API_VERSION,
        coverage: {
          center: { ...DEFAULT_CENTER },
          radius_km: MAX_RADIUS_KM,
          places_count: PLACES.length,
          places: PLACES.map((p) => {
            const c = counts.get(`${p.city}|${p.district ?? ''}`);
            return {
              city: p.city,
              district: p.district,
              plz: p.plz,
              lat: p.lat,
              lng: p.lng,
              distance_km: round(haversineKm(DEFAULT_CENTER, p), 2),
              open_jobs: c?.openJobs ?? 0,
              listings: c?.listings ?? 0,
            };
          }),
        },
        totals,
        categories: CATEGORIES.map((category) => ({
          category,
          open_jobs: figures.openJobs.get(category) ?? 0,
          completed_jobs: figures.completedJobs.get(category) ?? 0,
          available_listings: figures.availableListings.get(category) ?? 0,
          available_helpers: figures.availableHelpers.get(category) ?? 0,
          median_price_eur: median(figures.openJobPrice.get(category)),
          median_hourly_rate_eur: median(figures.hourlyRateCompleted.get(category)),
          median_price_per_day_eur: median(figures.dayPrice.get(category)),
        })),
        pricing: {
          median_job_price_eur: median(platform.jobPrice),
          median_hourly_rate_eur: median(platform.hourlyRate),
          median_price_per_day_eur: median(platform.dayPrice),
          median_deposit_eur: median(platform.deposit),
        },
        capabilities: {
          api_version: API_VERSION,
          endpoints: [...endpoints],
          tiers: describeTiers(limits).map((t) => ({ ...t })),
          categories: [...CATEGORIES],
          languages: ['de', 'en'],
          max_page_size: MAX_PAGE_SIZE,
          max_radius_km: MAX_RADIUS_KM,
          openapi_url: '/v1/openapi.json',
          docs_url: '/docs',
        },
      };
    },
  );
}
