import { Type } from 'typebox';
import { NoQuery, RefTo } from '../../schemas/common.js';
import { OauthClientCreateBody, OauthClientSchema, OauthClientUpdateBody } from '../../schemas/oauth.js';
import {
  type ClientCheck,
  clientOf,
  clientsOf,
  deleteClient,
  registerClient,
  rotateClientSecret,
  updateClient,
} from '../../services/oauth-clients.js';
import { errorResponses } from '../error-catalogue.js';
import type { OauthServer } from '../oauth-server.js';
import { created, ok, sendCreated } from '../responses.js';
import type { Api, RouteDeps } from '../route-deps.js';
import { WRITE_HOOKS, WRITE_SECURITY } from '../write-body.js';
import { requireAccount, writeContext } from '../write-kit.js';

const ClientList = Type.Object({ data: Type.Array(RefTo(OauthClientSchema)) }, { additionalProperties: false });
const WithSecret = Type.Object(
  {
    ...OauthClientSchema.properties,
    client_secret: Type.Union([Type.String(), Type.Null()], {
      description: 'A confidential client’s secret, shown in this answer only (null for a public client).',
    }),
  },
  { additionalProperties: false },
);
const ClientIdParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9_-]+$' }) },
  { additionalProperties: false },
);

const DOCS =
  'OAuth clients let an app act for people who consent (docs/api.md, "Acting for people"); registering one needs a developer key, never an access token.';

/** Developers register the OAuth clients of their apps with their developer key (issue 31). */
export function oauthClientRoutes(app: Api, deps: RouteDeps, server: () => Promise<OauthServer>): void {
  const check: ClientCheck = async (metadata) => {
    const { provider } = await server();
    await (provider.Client as unknown as { validate(m: unknown): Promise<void> }).validate(metadata);
  };
  const schema = { tags: ['Access'], security: WRITE_SECURITY, querystring: NoQuery };

  app.post(
    '/v1/oauth-clients',
    {
      ...WRITE_HOOKS,
      schema: {
        ...schema,
        operationId: 'createOauthClient',
        summary: 'Register an OAuth client',
        description: DOCS,
        body: OauthClientCreateBody,
        response: {
          201: created(WithSecret, 'The client, with its secret if confidential (shown this once).'),
          ...errorResponses(400, 413, 415, 422),
        },
      },
    },
    async (request, reply) => {
      const client = await registerClient(writeContext(request, deps), requireAccount(request), request.body, check);
      return sendCreated(reply, `/v1/oauth-clients/${client.id}`, client);
    },
  );

  app.get(
    '/v1/oauth-clients',
    {
      onRequest: WRITE_HOOKS.onRequest,
      schema: {
        ...schema,
        operationId: 'listOauthClients',
        summary: 'List your OAuth clients',
        response: { 200: ok(ClientList, 'Your clients, oldest first.'), ...errorResponses(400) },
      },
    },
    async (request) => ({ data: await clientsOf(deps.db, requireAccount(request)) }),
  );

  app.get(
    '/v1/oauth-clients/:id',
    {
      onRequest: WRITE_HOOKS.onRequest,
      schema: {
        ...schema,
        operationId: 'getOauthClient',
        summary: 'Get an OAuth client',
        params: ClientIdParams,
        response: { 200: ok(RefTo(OauthClientSchema), 'The client.'), ...errorResponses(400, 404) },
      },
    },
    async (request) => clientOf(deps.db, requireAccount(request), request.params.id),
  );

  app.patch(
    '/v1/oauth-clients/:id',
    {
      ...WRITE_HOOKS,
      schema: {
        ...schema,
        operationId: 'updateOauthClient',
        summary: 'Change an OAuth client',
        params: ClientIdParams,
        body: OauthClientUpdateBody,
        response: { 200: ok(RefTo(OauthClientSchema), 'The client.'), ...errorResponses(400, 404, 413, 415, 422) },
      },
    },
    async (request) =>
      updateClient(writeContext(request, deps), requireAccount(request), request.params.id, request.body, check),
  );

  app.delete(
    '/v1/oauth-clients/:id',
    {
      onRequest: WRITE_HOOKS.onRequest,
      schema: {
        ...schema,
        operationId: 'deleteOauthClient',
        summary: 'Delete an OAuth client',
        description: 'Deletes the client with every grant and token it was given: its users’ tokens stop at once.',
        params: ClientIdParams,
        response: { 204: ok(Type.Null(), 'Deleted; no body.'), ...errorResponses(400, 404, 413, 415) },
      },
    },
    async (request, reply) => {
      await deleteClient(writeContext(request, deps), requireAccount(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/v1/oauth-clients/:id/secret',
    {
      ...WRITE_HOOKS,
      schema: {
        ...schema,
        operationId: 'rotateOauthClientSecret',
        summary: 'Rotate a client secret',
        description: 'A new secret for a confidential client; the old one stops at once.',
        params: ClientIdParams,
        response: {
          200: ok(WithSecret, 'The client with its new secret (shown this once).'),
          ...errorResponses(400, 404, 409, 413, 415, 422),
        },
      },
    },
    async (request) =>
      rotateClientSecret(writeContext(request, deps), requireAccount(request), request.params.id, check),
  );
}
