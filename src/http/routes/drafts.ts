import type { FastifyRequest } from 'fastify';
import type { TSchema } from 'typebox';
import { type Config, publicBaseUrl } from '../../config.js';
import { DRAFT_PATH_OPERATIONS, type DraftOperation } from '../../domain/drafts.js';
import { ApplicationCreateBody } from '../../schemas/applications.js';
import { BookingCreateBody } from '../../schemas/bookings.js';
import { NoQuery, RefTo } from '../../schemas/common.js';
import { DraftCreateBody, DraftParams, DraftSchema, draftRules } from '../../schemas/drafts.js';
import { JobActionParams, JobCreateBody } from '../../schemas/job-writes.js';
import { ListingCreateBody } from '../../schemas/listing-writes.js';
import { ListingIdParams } from '../../schemas/listings.js';
import { createDraft, type DraftInput, type DraftSettings, getDraft } from '../../services/drafts.js';
import { badRequest } from '../../services/errors.js';
import { errorResponses } from '../error-catalogue.js';
import { created, ok, sendCreated } from '../responses.js';
import { type Api, configuredLimits, type RouteDeps } from '../route-deps.js';
import type { JsonSchema } from '../schema-words.js';
import { validationToApiError } from '../validation.js';
import { checkBodyStrictly, WRITE_HOOKS, WRITE_SECURITY } from '../write-body.js';
import { requireAccount, writeContext } from '../write-kit.js';
import { normalizeListingFields } from './listing-writes.js';

/**
 * The route schemas and body hooks of each operation a draft may prepare: the operation's own, so
 * that a draft's body meets exactly its checks, with its errors.
 */
const OPERATION_INPUT: Record<
  DraftOperation,
  { params?: TSchema; body: TSchema; normalize?: (body: unknown) => void }
> = {
  createJob: { body: JobCreateBody },
  applyToJob: { params: JobActionParams, body: ApplicationCreateBody },
  createBooking: { params: ListingIdParams, body: BookingCreateBody },
  createListing: { body: ListingCreateBody, normalize: normalizeListingFields },
};

/**
 * Checks a draft's path and body as the operation's route checks its own, in the route's order
 * (the strict body check and the operation's normalisation, then path, then body schema): the
 * errors are the operation's, naming its own parameters (`title`, `id`), not `body.title`.
 */
function operationInput(request: FastifyRequest, given: DraftCreateBody): DraftInput {
  const { operation, path, body } = given;
  const input = OPERATION_INPUT[operation];
  if (!input.params && path !== undefined) {
    throw badRequest(
      'invalid_parameter',
      'path',
      `${operation} takes no path parameters.`,
      'Remove path; only applyToJob (the job id) and createBooking (the listing id) take one.',
    );
  }
  checkBodyStrictly(input.body, body);
  input.normalize?.(body);
  const check = (schema: TSchema, part: 'params' | 'body', value: Record<string, unknown>) => {
    const validate = request.compileValidationSchema(schema, part);
    if (!validate(value)) throw validationToApiError(validate.errors ?? [], part, schema as JsonSchema, value);
  };
  if (input.params) check(input.params, 'params', path ?? {});
  check(input.body, 'body', body as Record<string, unknown>);
  return { operation, pathId: path?.id ?? '', body };
}

/** The drafts' settings as configured, for the app (app.ts) and the stdio server's catalog (mcp/catalog.ts). */
export function draftSettingsOf(config: Config): DraftSettings {
  return {
    ttlHours: config.DRAFT_TTL_HOURS,
    pendingPerAccount: config.DRAFTS_PENDING_PER_ACCOUNT,
    baseUrl: publicBaseUrl(config),
    applicationsPerHour: config.APPLICATIONS_PER_ACCOUNT_PER_HOUR,
    bookingsPerHour: config.BOOKINGS_PER_ACCOUNT_PER_HOUR,
    bookingRequestTtlHours: config.BOOKING_REQUEST_TTL_HOURS,
    fees: configuredLimits(config).fees,
  };
}

export function draftRoutes(app: Api, deps: RouteDeps, settings: DraftSettings): void {
  const rules = draftRules(settings.ttlHours, settings.pendingPerAccount);
  // Drafts are how agents act for a person: they share the Agents tag with the MCP server.
  const tags = ['Agents'];
  const privacy = "Others' drafts: 404.";

  app.post(
    '/v1/drafts',
    {
      ...WRITE_HOOKS,
      // The link is a secret shown once: a replay (same Idempotency-Key) answers it as null, so
      // the idempotency store never holds a token.
      config: { replayedBody: (body) => JSON.stringify({ ...JSON.parse(body), confirmation_url: null }) },
      schema: {
        operationId: 'createDraft',
        summary: 'Draft a write for a person',
        description: `\`body\` and \`path\` (the id for ${DRAFT_PATH_OPERATIONS.join(', ')}) are checked as the operation checks them, with its errors. ${rules}`,
        tags,
        security: WRITE_SECURITY,
        querystring: NoQuery,
        body: DraftCreateBody,
        response: {
          201: created(RefTo(DraftSchema), 'The draft, pending.'),
          ...errorResponses(400, 404, 409, 413, 415, 422),
        },
      },
    },
    async (request, reply) => {
      const account = requireAccount(request);
      const input = operationInput(request, request.body);
      const draft = await createDraft(writeContext(request, deps), account, input, settings);
      return sendCreated(reply, `/v1/drafts/${draft.id}`, draft);
    },
  );

  app.get(
    '/v1/drafts/:id',
    {
      onRequest: WRITE_HOOKS.onRequest,
      schema: {
        operationId: 'getDraft',
        summary: 'Get a draft',
        description: privacy,
        tags,
        security: WRITE_SECURITY,
        params: DraftParams,
        querystring: NoQuery,
        response: { 200: ok(RefTo(DraftSchema), 'The draft.'), ...errorResponses(400, 404) },
      },
    },
    async (request) => getDraft(deps.db, requireAccount(request), request.params.id, deps.now()),
  );
}
