import { NoQuery, RefTo } from '../../schemas/common.js';
import {
  HELPER_PROFILE_ABOUT as ABOUT,
  HelperCreateBody,
  HelperIdParams,
  HelperProfileSchema,
  HelperUpdateBody,
} from '../../schemas/helper-profiles.js';
import { createHelper, getHelper, updateHelper } from '../../services/helper-profiles.js';
import { errorResponses } from '../error-catalogue.js';
import { created, ok, sendCreated } from '../responses.js';
import type { Api, RouteDeps } from '../route-deps.js';
import { WRITE_HOOKS, WRITE_SECURITY } from '../write-body.js';
import { requireAccount, writeContext } from '../write-kit.js';

export function helperProfileRoutes(app: Api, deps: RouteDeps): void {
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
          201: created(RefTo(HelperProfileSchema), 'The public profile.'),
          ...errorResponses(400, 409, 413, 415, 422),
        },
      },
    },
    async (request, reply) => {
      const helper = await createHelper(writeContext(request, deps), requireAccount(request), request.body);
      return sendCreated(reply, `/v1/helpers/${helper.id}`, helper);
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
    async (request) => getHelper(deps.db, request.params.id, request.access?.key?.account.id ?? null),
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
    async (request) =>
      updateHelper(writeContext(request, deps), requireAccount(request), request.params.id, request.body),
  );
}
