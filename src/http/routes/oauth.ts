/**
 * The authorization server's endpoints (issue 31), served by oidc-provider itself: everything under
 * /oauth/ but the interaction pages (routes/oauth-consent.ts), OpenID discovery, and the same
 * metadata at RFC 8414's address. Handed the raw request before Fastify reads a body, so the
 * library parses its own forms. And the protected resources' metadata (RFC 9728) of /v1 and /mcp.
 */

import type { FastifyReply, FastifyRequest } from 'fastify';
import { API_SCOPE_NAMES } from '../../domain/oauth-scopes.js';
import { DPOP_ALGORITHMS } from '../dpop-proof.js';
import type { OauthServer } from '../oauth-server.js';
import { resourcesOf } from '../oauth-server.js';
import type { Api } from '../route-deps.js';

export interface OauthRouteOptions {
  server: () => Promise<OauthServer>;
  issuer: string;
}

/** RFC 9728 metadata of a protected resource of this site. */
export function protectedResourceMetadata(issuer: string, resource: string) {
  return {
    resource,
    authorization_servers: [issuer],
    scopes_supported: API_SCOPE_NAMES,
    bearer_methods_supported: ['header'],
    dpop_signing_alg_values_supported: DPOP_ALGORITHMS,
    resource_name: resource.endsWith('/mcp') ? 'Karlsruhe Marketplace MCP server' : 'Karlsruhe Marketplace API',
    resource_documentation: `${issuer}/docs`,
  };
}

export function oauthRoutes(app: Api, options: OauthRouteOptions): void {
  const { issuer } = options;
  const pass = (rewrite?: string) => async (request: FastifyRequest, reply: FastifyReply) => {
    const { handle } = await options.server();
    if (rewrite) request.raw.url = rewrite;
    reply.hijack();
    handle(request.raw, reply.raw);
  };
  // Never reached: the onRequest hook hands every request to the library.
  const unreachable = async () => undefined;
  const own = { schema: { hide: true }, onRequest: pass() };
  app.route({ method: ['GET', 'POST', 'DELETE', 'PUT', 'OPTIONS'], url: '/oauth/*', ...own, handler: unreachable });
  app.route({ method: ['GET', 'OPTIONS'], url: '/.well-known/openid-configuration', ...own, handler: unreachable });
  app.route({
    method: ['GET', 'OPTIONS'],
    url: '/.well-known/oauth-authorization-server',
    schema: { hide: true },
    onRequest: pass('/.well-known/openid-configuration'),
    handler: unreachable,
  });

  const resources = resourcesOf(issuer);
  for (const [url, resource] of [
    ['/.well-known/oauth-protected-resource', resources.api],
    ['/.well-known/oauth-protected-resource/v1', resources.api],
    ['/.well-known/oauth-protected-resource/mcp', resources.mcp],
  ] as const) {
    const body = protectedResourceMetadata(issuer, resource);
    app.get(url, { schema: { hide: true } }, async (_request, reply) =>
      reply.header('cache-control', 'public, max-age=3600').header('access-control-allow-origin', '*').send(body),
    );
  }
}
