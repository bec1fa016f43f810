import { Type } from 'typebox';
import { NoQuery, RefTo } from '../../schemas/common.js';
import { AuthorizationSchema } from '../../schemas/oauth.js';
import { authorizationNotFound, authorizationsOf, revokeAuthorization } from '../../services/oauth-grants.js';
import { errorResponses } from '../error-catalogue.js';
import { ok } from '../responses.js';
import type { Api, RouteDeps } from '../route-deps.js';
import { WRITE_HOOKS, WRITE_SECURITY } from '../write-body.js';
import { requireAccount, writeContext } from '../write-kit.js';

const AuthorizationList = Type.Object(
  { data: Type.Array(RefTo(AuthorizationSchema)) },
  { additionalProperties: false },
);
const GrantIdParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9_-]+$' }) },
  { additionalProperties: false },
);

/**
 * The apps the calling account connected with OAuth (issue 31), with its own developer key (never
 * with an access token: a person's connected apps are the person's to manage). The same list and
 * the disconnect button are on /account.
 */
export function authorizationRoutes(app: Api, deps: RouteDeps): void {
  app.get(
    '/v1/me/authorizations',
    {
      onRequest: WRITE_HOOKS.onRequest,
      schema: {
        operationId: 'listMyAuthorizations',
        summary: 'List the apps you connected',
        description: 'The OAuth grants of the calling account: which app, what it may do, where, since when.',
        tags: ['Access'],
        security: WRITE_SECURITY,
        querystring: NoQuery,
        response: { 200: ok(AuthorizationList, 'The connected apps.'), ...errorResponses(400) },
      },
    },
    async (request) => ({ data: await authorizationsOf(deps.db, requireAccount(request).id, deps.now()) }),
  );

  app.delete(
    '/v1/me/authorizations/:id',
    {
      onRequest: WRITE_HOOKS.onRequest,
      schema: {
        operationId: 'revokeMyAuthorization',
        summary: 'Disconnect an app',
        description:
          "Revokes the grant and every token issued under it: the app's next request is refused, its open streams end.",
        tags: ['Access'],
        security: WRITE_SECURITY,
        params: GrantIdParams,
        querystring: NoQuery,
        response: { 204: ok(Type.Null(), 'Disconnected; no body.'), ...errorResponses(400, 404, 413, 415) },
      },
    },
    async (request, reply) => {
      const revoked = await revokeAuthorization(
        writeContext(request, deps),
        requireAccount(request).id,
        request.params.id,
      );
      if (!revoked) throw authorizationNotFound(request.params.id);
      return reply.code(204).send(null);
    },
  );
}
