import { BookingIdParams } from '../../schemas/bookings.js';
import { ClaimBody, ClaimIdParams, ClaimSchema, claimRules, DisputeBody } from '../../schemas/claims.js';
import { NoQuery, RefTo } from '../../schemas/common.js';
import { answerClaim, fileClaim, getClaim } from '../../services/claims.js';
import { errorResponses } from '../error-catalogue.js';
import { created, ok, sendCreated } from '../responses.js';
import type { Api, RouteDeps } from '../route-deps.js';
import { WRITE_HOOKS, WRITE_SECURITY } from '../write-body.js';
import { requireAccount, writeContext } from '../write-kit.js';

/** Damage claims on a returned booking's deposit (issue 32): the owner files, the renter answers. */
export function claimRoutes(app: Api, deps: RouteDeps): void {
  const rules = claimRules(deps.claimWindowHours);
  app.post(
    '/v1/bookings/:id/claims',
    {
      ...WRITE_HOOKS,
      schema: {
        operationId: 'fileClaim',
        summary: 'Claim on a deposit (owner)',
        description: `The listing's owner claims up to the held deposit for damage or loss, with what happened and photos. Before the return, after the window, with no deposit held or a claim filed already: 409; the renter gets 403, anyone else 404.\n\n${rules}`,
        tags: ['Payments'],
        security: WRITE_SECURITY,
        params: BookingIdParams,
        querystring: NoQuery,
        body: ClaimBody,
        response: {
          201: created(RefTo(ClaimSchema), 'The claim, open until the renter answers.'),
          ...errorResponses(400, 403, 404, 409, 413, 415, 422),
        },
      },
    },
    async (request, reply) => {
      const claim = await fileClaim(
        writeContext(request, deps),
        requireAccount(request),
        request.params.id,
        request.body,
        deps.claimWindowHours,
      );
      return sendCreated(reply, `/v1/claims/${claim.id}`, claim);
    },
  );

  app.get(
    '/v1/claims/:id',
    {
      onRequest: WRITE_HOOKS.onRequest,
      schema: {
        operationId: 'getClaim',
        summary: 'Get a claim',
        description: `A claim you filed or that concerns your booking (anyone else's answers 404).\n\n${rules}`,
        tags: ['Payments'],
        security: WRITE_SECURITY,
        params: ClaimIdParams,
        querystring: NoQuery,
        response: { 200: ok(RefTo(ClaimSchema), 'The claim.'), ...errorResponses(400, 404) },
      },
    },
    async (request) => getClaim(deps.db, requireAccount(request), request.params.id),
  );

  app.post(
    '/v1/claims/:id/accept',
    {
      ...WRITE_HOOKS,
      schema: {
        operationId: 'acceptClaim',
        summary: 'Accept a claim (renter)',
        description: `open -> accepted: the renter agrees; the owner keeps the claimed amount when releasing the deposit. The owner gets 403; once answered 409.\n\n${rules}`,
        tags: ['Payments'],
        security: WRITE_SECURITY,
        params: ClaimIdParams,
        querystring: NoQuery,
        response: {
          200: ok(RefTo(ClaimSchema), 'The claim, accepted.'),
          ...errorResponses(400, 403, 404, 409, 413, 415, 422),
        },
      },
    },
    async (request) =>
      answerClaim(writeContext(request, deps), requireAccount(request), request.params.id, { action: 'accept' }),
  );

  app.post(
    '/v1/claims/:id/dispute',
    {
      ...WRITE_HOOKS,
      schema: {
        operationId: 'disputeClaim',
        summary: 'Dispute a claim (renter)',
        description: `open -> disputed, with the renter's side; an operator decides. The owner gets 403; once answered 409.\n\n${rules}`,
        tags: ['Payments'],
        security: WRITE_SECURITY,
        params: ClaimIdParams,
        querystring: NoQuery,
        body: DisputeBody,
        response: {
          200: ok(RefTo(ClaimSchema), 'The claim, disputed.'),
          ...errorResponses(400, 403, 404, 409, 413, 415, 422),
        },
      },
    },
    async (request) =>
      answerClaim(writeContext(request, deps), requireAccount(request), request.params.id, {
        action: 'dispute',
        text: request.body.text,
      }),
  );
}
