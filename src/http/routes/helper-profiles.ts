import type { AccountRow } from '../../db/schema.js';
import type { Category } from '../../domain/categories.js';
import {
  findHelperProfile,
  type HelperValues,
  insertHelperProfile,
  updateHelperProfile,
} from '../../repositories/helper-profiles.js';
import { NoQuery, RefTo } from '../../schemas/common.js';
import {
  type AvailabilityWindow,
  HelperCreateBody,
  HelperIdParams,
  type HelperProfile,
  HelperProfileSchema,
  HelperUpdateBody,
  WEEKDAYS,
} from '../../schemas/helper-profiles.js';
import { ApiError, badRequest } from '../../services/errors.js';
import { centsOf, WRITE_HOOKS, WRITE_SECURITY } from '../write-body.js';
import { locationOf, notFound, requireAccount } from '../write-kit.js';
import { type Api, errorResponses, ok, type RouteDeps } from './route-kit.js';

/** The window as stored: weekdays in week order; 400 unless `to` comes after `from`. */
function availabilityJson(window: AvailabilityWindow | null): string | null {
  if (window === null) return null;
  if (window.to <= window.from) {
    throw badRequest(
      'conflicting_parameters',
      'availability.to',
      `availability.to (${window.to}) must come after availability.from (${window.from}).`,
      'Send working hours within one day, e.g. {"from": "08:00", "to": "18:00"}; null means any time.',
      ['availability.from', 'availability.to'],
    );
  }
  const weekdays = WEEKDAYS.filter((day) => window.weekdays.includes(day));
  return JSON.stringify({ weekdays, from: window.from, to: window.to });
}

/** The columns a create or change body sets; only the fields it has. */
function helperColumns(body: HelperUpdateBody, account: AccountRow): Partial<HelperValues> {
  const { location, hourly_rate_eur, availability, available, categories: _categories, ...same } = body;
  const columns: Partial<HelperValues> = { ...same };
  if (location) Object.assign(columns, locationOf(location, account));
  if (hourly_rate_eur !== undefined) columns.hourly_rate_cents = centsOf(hourly_rate_eur, 'hourly_rate_eur');
  if (availability !== undefined) columns.availability = availabilityJson(availability);
  if (available !== undefined) columns.available = available ? 1 : 0;
  return columns;
}

function unknownHelper(id: string): ApiError {
  return new ApiError(404, 'not_found', `No helper has the id '${id}'.`, {
    param: 'id',
    suggestion: 'Check the id (helper ids start with hlp_); GET /v1/helpers/availability lists verified helpers.',
  });
}

async function shownHelper(db: RouteDeps['db'], id: string): Promise<HelperProfile> {
  const profile = await findHelperProfile(db, id);
  if (!profile) throw unknownHelper(id);
  return profile;
}

const ABOUT = `New profiles are not verified: verification is the platform's, and until then a helper does not count in /v1/helpers/availability or in the smart_eta_minutes of jobs. The reliability record starts empty (no jobs, ratings or cancellations) and is the platform's to keep.`;

export function helperProfileRoutes(app: Api, { db, now }: RouteDeps): void {
  app.post(
    '/v1/helpers',
    {
      ...WRITE_HOOKS,
      schema: {
        operationId: 'createHelper',
        summary: 'Register a helper profile',
        description: `Registers a helper profile for the calling account; the account applies to jobs as this helper. ${ABOUT}`,
        tags: ['Helpers'],
        security: WRITE_SECURITY,
        querystring: NoQuery,
        body: HelperCreateBody,
        response: {
          201: ok(RefTo(HelperProfileSchema), 'The public profile.'),
          ...errorResponses(400, 409, 413, 415, 422),
        },
      },
    },
    async (request, reply) => {
      const account = requireAccount(request);
      const at = now();
      // The create schema requires the other fields and fills in the defaults.
      const columns = helperColumns(request.body, account) as HelperValues;
      const id = await insertHelperProfile(db, account.id, columns, request.body.categories as Category[], at);
      return reply.code(201).send(await shownHelper(db, id));
    },
  );

  app.get(
    '/v1/helpers/:id',
    {
      schema: {
        operationId: 'getHelper',
        summary: 'Get a helper’s public profile',
        description: `Any helper by id, without a key: name, categories, rate, area (never coordinates), reliability, working hours and bio; never account or contact data. ${ABOUT}`,
        tags: ['Helpers'],
        params: HelperIdParams,
        querystring: NoQuery,
        response: { 200: ok(RefTo(HelperProfileSchema), 'The public profile.'), ...errorResponses(400, 404) },
      },
    },
    async (request) => shownHelper(db, request.params.id),
  );

  app.patch(
    '/v1/helpers/:id',
    {
      ...WRITE_HOOKS,
      schema: {
        operationId: 'updateHelper',
        summary: 'Change a helper profile',
        description: `Changes the given fields of a helper profile the calling account registered (another account's answers 404). categories, when given, replace the old ones. Verification and the reliability record cannot be set.`,
        tags: ['Helpers'],
        security: WRITE_SECURITY,
        params: HelperIdParams,
        querystring: NoQuery,
        body: HelperUpdateBody,
        response: {
          200: ok(RefTo(HelperProfileSchema), 'The changed profile.'),
          ...errorResponses(400, 404, 413, 415),
        },
      },
    },
    async (request) => {
      const account = requireAccount(request);
      const { id } = request.params;
      const categories = request.body.categories as Category[] | undefined;
      const changed = await updateHelperProfile(db, id, account.id, helperColumns(request.body, account), categories);
      if (!changed) throw notFound('helper', id, 'GET /v1/helpers/availability');
      return shownHelper(db, id);
    },
  );
}
