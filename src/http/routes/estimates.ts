import type { FastifyRequest } from 'fastify';
import type { LatLng } from '../../domain/geo.js';
import { RefTo } from '../../schemas/common.js';
import { EstimateQuery, EstimateSchema } from '../../schemas/estimates.js';
import { badRequest } from '../../services/errors.js';
import { estimatePrice, MIN_NEARBY_SAMPLE, NEARBY_RADIUS_KM } from '../../services/estimates.js';
import { searchAreaOf } from '../../services/search.js';
import { errorResponses } from '../error-catalogue.js';
import { ok } from '../responses.js';
import type { Api, RouteDeps } from '../route-deps.js';
import { documented } from '../sandbox-naming.js';

/**
 * `hours` is a synonym of `duration_hours` (the spec's getting-started examples use it). Resolved
 * before validation, while an absent duration_hours is still distinguishable from its default.
 */
async function resolveHoursSynonym(request: FastifyRequest): Promise<void> {
  const query = request.query as Record<string, unknown>;
  if (query.hours === undefined) return;
  if (query.duration_hours !== undefined && Number(query.duration_hours) !== Number(query.hours)) {
    throw badRequest(
      'conflicting_parameters',
      'hours',
      `hours (${query.hours}) and duration_hours (${query.duration_hours}) disagree; they are the same parameter.`,
      'Send only duration_hours.',
      ['duration_hours'],
    );
  }
  query.duration_hours = query.hours;
}

function locationOf(query: EstimateQuery): LatLng | null {
  if (query.near !== undefined) return searchAreaOf(query).center;
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

export function estimateRoutes(app: Api, { base, db }: RouteDeps): void {
  app.get(
    `${base}/estimate`,
    {
      config: { cache: 'public' },
      schema: documented(base, {
        operationId: 'getPriceEstimate',
        summary: 'Estimate a fair price',
        description: `Learns what helpers are paid per hour from the completed jobs of the category (those within ${NEARBY_RADIUS_KM} km of lat/lng when given and at least ${MIN_NEARBY_SAMPLE} are there, else the whole service area) and scales the median, 10th and 90th percentile by duration_hours x helpers. \`hours\` is a synonym of \`duration_hours\`.`,
        tags: ['Categories and pricing'],
        querystring: EstimateQuery,
        response: { 200: ok(RefTo(EstimateSchema), 'The estimate.'), ...errorResponses(400) },
      }),
      preValidation: resolveHoursSynonym,
    },
    async (request) => {
      const query = request.query;
      const hours = query.duration_hours ?? 1;
      const helpers = query.helpers ?? 1;
      const estimate = await estimatePrice(db, query.category, hours, helpers, locationOf(query));
      return { category: query.category, ...estimate, currency: 'EUR' as const, duration_hours: hours, helpers };
    },
  );
}
