import { NoQuery, RefTo } from '../../schemas/common.js';
import { ProviderBody, ProviderSchema } from '../../schemas/providers.js';
import { getProvider, putProvider } from '../../services/providers.js';
import { errorResponses } from '../error-catalogue.js';
import { ok } from '../responses.js';
import type { Api, RouteDeps } from '../route-deps.js';
import { WRITE_HOOKS, WRITE_SECURITY } from '../write-body.js';
import { requireAccount, writeContext } from '../write-kit.js';

/** A commercial account's legal details (§ 5 DDG, the Impressum; DSA Art. 30 self-certification). */
export function providerRoutes(app: Api, deps: RouteDeps): void {
  const { db } = deps;

  app.put(
    '/v1/me/provider',
    {
      ...WRITE_HOOKS,
      schema: {
        operationId: 'putMyProvider',
        summary: 'Give your legal details as a commercial provider',
        description:
          'Commercial accounts only (private: 403). The whole set each time. Until given, the account’s POST /v1/jobs and /v1/listings answer 409 provider_details_required. Its jobs and listings show legal name, address and register as `provider`; e-mail, phone and VAT id are not shown.',
        tags: ['Your data'],
        security: WRITE_SECURITY,
        querystring: NoQuery,
        body: ProviderBody,
        response: { 200: ok(RefTo(ProviderSchema), 'Stored.'), ...errorResponses(400, 403, 413, 415) },
      },
    },
    async (request) => putProvider(writeContext(request, deps), requireAccount(request), request.body),
  );

  app.get(
    '/v1/me/provider',
    {
      onRequest: WRITE_HOOKS.onRequest,
      schema: {
        operationId: 'getMyProvider',
        summary: 'Your legal details as a commercial provider',
        description: 'As stored by PUT /v1/me/provider; 404 before they are given.',
        tags: ['Your data'],
        security: WRITE_SECURITY,
        querystring: NoQuery,
        response: { 200: ok(RefTo(ProviderSchema), 'Your details.'), ...errorResponses(400, 404) },
      },
    },
    async (request) => getProvider(db, requireAccount(request)),
  );
}
