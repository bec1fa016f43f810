import { errorCodes } from 'fastify';
import { maskedKey } from '../../domain/api-keys.js';
import { normalizeKeyRequest } from '../../domain/key-request.js';
import { accessOf, KEY_REVIEW_HOURS, RATE_WINDOW_SECONDS } from '../../domain/tiers.js';
import { KeyRequestAccepted, KeyRequestBody, type Me, MeSchema } from '../../schemas/access.js';
import { NoQuery, RefTo } from '../../schemas/common.js';
import { fileKeyRequest } from '../../services/key-requests.js';
import { errorResponses } from '../error-catalogue.js';
import { ok } from '../responses.js';
import type { Api, RouteDeps } from '../route-deps.js';
import { writeContext } from '../write-kit.js';

export function accessRoutes(app: Api, deps: RouteDeps): void {
  app.get(
    '/v1/me',
    {
      config: { openWhileSuspended: true },
      schema: {
        operationId: 'getMe',
        summary: 'Who am I: tier, account, limits and remaining budget',
        description:
          'Works for every caller: anonymous callers get their tier and budget, key holders also their account and key.',
        tags: ['Access'],
        querystring: NoQuery,
        response: { 200: ok(RefTo(MeSchema), 'The caller.'), ...errorResponses(400) },
      },
    },
    async (request): Promise<Me> => {
      const { tier, key, limit, remaining, resetSeconds, oauth } = request.access;
      return {
        tier,
        access: accessOf(tier),
        account: key && {
          id: key.account.id,
          name: key.account.name,
          email: key.account.email,
          organisation: key.account.organisation,
          account_type: key.account.account_type,
        },
        app: oauth ? { client_id: oauth.clientId, scopes: oauth.scopes } : null,
        key:
          key &&
          (oauth
            ? null
            : {
                id: key.id,
                masked: maskedKey(key.last4),
                created_at: key.created_at,
                expires_at: key.expires_at,
              }),
        rate_limit: { limit, remaining, reset_seconds: resetSeconds, window_seconds: RATE_WINDOW_SECONDS },
      };
    },
  );

  app.post(
    '/v1/developer/key-requests',
    {
      schema: {
        operationId: 'requestDeveloperKey',
        summary: 'Request a developer key',
        description: `Files a request for a free developer key (100 requests per minute, read and write). Requests are reviewed within ${KEY_REVIEW_HOURS} hours and the key is sent by email. One pending request per email address: another request for an address with one waiting is answered alike (202, an id of its own) but files nothing, so the answer never tells whether an address has a request waiting, and the address gets one email, when the waiting request is decided. The same form is at /developers.`,
        tags: ['Access'],
        body: KeyRequestBody,
        response: {
          202: ok(
            KeyRequestAccepted,
            'The request is filed and waits for review (or one for the address waits already).',
          ),
          ...errorResponses(400, 413, 415, 422),
        },
      },
      // JSON only: Fastify would also read text/plain, a type any web page may post to another site.
      onRequest: async (request) => {
        const type = request.headers['content-type'];
        if (type !== undefined && type.split(';', 1)[0]?.trim().toLowerCase() !== 'application/json') {
          throw new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE(type);
        }
      },
      // Validation judges what will be stored: trimmed, so "   " is blank and padding is no length.
      preValidation: async (request) => {
        const body: unknown = request.body;
        if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
          request.body = normalizeKeyRequest(request.body);
        }
      },
    },
    async (request, reply) => {
      // Normalised before validation already; normalising again changes nothing and gives the stored shape.
      const body = normalizeKeyRequest(request.body);
      // The same answer whether this filed a request or the address has one waiting (fileKeyRequest).
      const created = await fileKeyRequest(writeContext(request, deps), body);
      return reply.code(202).send({
        id: created.id,
        status: 'pending' as const,
        created_at: created.created_at,
        review_within_hours: KEY_REVIEW_HOURS,
        message: `Thank you. Your request ${created.id} will be reviewed within ${KEY_REVIEW_HOURS} hours; the key will be sent to ${created.email}.`,
      });
    },
  );
}
