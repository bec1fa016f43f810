import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { DEFAULT_CENTER, type LatLng, MAX_RADIUS_KM } from '../../domain/geo.js';
import type { TierLimits } from '../../domain/tiers.js';
import type { Endpoint } from '../schemas/stats.js';

/** The Fastify instance routes are written against: TypeBox schemas give the handler types. */
export type Api = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** What handlers need from the outside world; tests pass their own clock. */
export interface RouteDeps {
  db: Kysely<Database>;
  now: () => Date;
  /** Documented operations, filled as routes register (for /v1/stats and 404 advice). */
  endpoints: readonly Endpoint[];
  /** Requests per minute of each tier, as configured. */
  limits: TierLimits;
}

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid request parameters: the ApiError names the parameter, what is allowed and what to send instead.',
  404: 'Not found.',
  401: 'The X-API-Key is unknown, malformed, revoked or expired.',
  405: 'Method not allowed on this path; the Allow header lists the methods that are.',
  409: 'Conflicts with the current state.',
  429: 'Rate limit exceeded: Retry-After says when to try again.',
  500: 'Unexpected server error; no details are shown.',
};

/** A 200 response schema with the description the OpenAPI document shows for it. */
export function ok<T extends object>(schema: T, description: string): T & { description: string } {
  return { ...schema, description };
}

/** Response entries for error statuses, all with the one ApiError schema. */
export function errorResponses(...statuses: number[]): Record<number, { $ref: string; description: string }> {
  return Object.fromEntries(
    [...statuses, 401, 429, 500].map((status) => [
      status,
      { $ref: 'ApiError', description: ERROR_DESCRIPTIONS[status] ?? 'Error.' },
    ]),
  );
}

/** The search area of a query: lat/lng/radius as given, or the defaults (Karlsruhe centre, 50 km). */
export function searchArea(query: { lat?: number; lng?: number; radius?: number }): {
  center: LatLng;
  radiusKm: number;
} {
  return {
    center: { lat: query.lat ?? DEFAULT_CENTER.lat, lng: query.lng ?? DEFAULT_CENTER.lng },
    radiusKm: query.radius ?? MAX_RADIUS_KM,
  };
}
