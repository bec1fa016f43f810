import { NoQuery, RefTo } from '../../schemas/common.js';
import { HelperIdParams } from '../../schemas/helper-profiles.js';
import { VERIFICATION_RULES, VerificationRequestBody, VerificationSchema } from '../../schemas/verifications.js';
import { requestVerification } from '../../services/verifications.js';
import { errorResponses } from '../error-catalogue.js';
import { ok } from '../responses.js';
import type { Api, RouteDeps } from '../route-deps.js';
import { WRITE_HOOKS, WRITE_SECURITY } from '../write-body.js';
import { requireAccount, writeContext } from '../write-kit.js';

export function verificationRoutes(app: Api, deps: RouteDeps): void {
  app.post(
    '/v1/helpers/:id/verification-requests',
    {
      ...WRITE_HOOKS,
      schema: {
        operationId: 'requestHelperVerification',
        summary: 'Ask the platform to verify a helper',
        description: `For a helper profile the calling account registered (another account's answers 404). Accepted for review: 202 with the request, pending.\n\n${VERIFICATION_RULES}`,
        tags: ['Verification'],
        security: WRITE_SECURITY,
        params: HelperIdParams,
        querystring: NoQuery,
        body: VerificationRequestBody,
        response: {
          202: ok(RefTo(VerificationSchema), 'The request, pending until the platform decides.'),
          ...errorResponses(400, 404, 413, 415, 422),
        },
      },
    },
    async (request, reply) => {
      const context = writeContext(request, deps);
      const verification = await requestVerification(
        context,
        requireAccount(request),
        request.params.id,
        request.body.method,
      );
      return reply.code(202).send(verification);
    },
  );
}
