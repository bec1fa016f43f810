import type { Category } from '../../domain/categories.js';
import type { LatLng } from '../../domain/geo.js';
import { estimateFromRates, type RateSample } from '../../domain/pricing.js';
import { completedRateSample } from '../../repositories/aggregates.js';
import type { Queryable } from '../../repositories/db.js';
import { badRequest } from '../errors.js';
import { RefTo } from '../schemas/common.js';
import { type Estimate, EstimateQuery, EstimateSchema } from '../schemas/estimate.js';
import { type Api, errorResponses, type RouteDeps } from './route-kit.js';

/** Jobs within this distance count as "nearby" when the caller gives a location. */
export const NEARBY_RADIUS_KM = 15;
/** Fewer nearby completed jobs than this and the estimate learns from the whole service area. */
export const MIN_NEARBY_SAMPLE = 10;

function inEuros(sample: RateSample | null): RateSample | null {
  return (
    sample && {
      ...sample,
      p10: sample.p10 / 100,
      p25: sample.p25 / 100,
      p50: sample.p50 / 100,
      p75: sample.p75 / 100,
      p90: sample.p90 / 100,
    }
  );
}

function hoursOf(query: EstimateQuery): number {
  const { duration_hours: duration, hours } = query;
  if (duration !== undefined && hours !== undefined && duration !== hours) {
    throw badRequest(
      'conflicting_parameters',
      'hours',
      `hours (${hours}) and duration_hours (${duration}) disagree; they are the same parameter.`,
      'Send only duration_hours.',
      ['duration_hours'],
    );
  }
  return duration ?? hours ?? 1;
}

function locationOf(query: EstimateQuery): LatLng | null {
  if ((query.lat === undefined) !== (query.lng === undefined)) {
    const missing = query.lat === undefined ? 'lat' : 'lng';
    throw badRequest(
      'missing_parameter',
      missing,
      `lat and lng go together; ${missing} is missing.`,
      `Add ${missing}, or drop both to estimate for the whole service area.`,
    );
  }
  return query.lat !== undefined && query.lng !== undefined ? { lat: query.lat, lng: query.lng } : null;
}

export async function estimatePrice(
  db: Queryable,
  category: Category,
  hours: number,
  helpers: number,
  near: LatLng | null,
): Promise<Estimate> {
  let sample: RateSample | null = null;
  let area: Estimate['area'] = null;
  if (near) {
    sample = await completedRateSample(db, category, { center: near, radiusKm: NEARBY_RADIUS_KM });
    if (sample && sample.count >= MIN_NEARBY_SAMPLE) area = { ...near, radius_km: NEARBY_RADIUS_KM };
    else sample = null;
  }
  sample ??= await completedRateSample(db, category);
  return {
    category,
    ...estimateFromRates(category, inEuros(sample), hours, helpers),
    currency: 'EUR',
    duration_hours: hours,
    helpers,
    area,
  };
}

export function estimateRoutes(app: Api, { db }: RouteDeps): void {
  app.get(
    '/v1/estimate',
    {
      schema: {
        operationId: 'getPriceEstimate',
        summary: 'Estimate a fair price',
        description: `Learns what helpers are paid per hour from the completed jobs of the category (those within ${NEARBY_RADIUS_KM} km of lat/lng when given and at least ${MIN_NEARBY_SAMPLE} are there, else the whole service area) and scales the median, 10th and 90th percentile by duration_hours x helpers. \`hours\` is a synonym of \`duration_hours\`.`,
        tags: ['Categories and pricing'],
        querystring: EstimateQuery,
        response: { 200: RefTo(EstimateSchema), ...errorResponses(400) },
      },
    },
    async (request) => {
      const query = request.query;
      return estimatePrice(db, query.category, hoursOf(query), query.helpers ?? 1, locationOf(query));
    },
  );
}
