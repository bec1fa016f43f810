import type { FastifyInstance } from 'fastify';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import type { Endpoint } from '../../schemas/stats.js';
import { ApiError } from '../../services/errors.js';
import { sendApiError } from './error-handler.js';

const METHODS: readonly HTTPMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route answers its method as one the path does not have (405, by reply.callNotFound()):
     * it is there to give such requests its options, a budget say. Allow does not list it.
     */
    refusesMethod?: true;
  }
}

/**
 * Unknown paths answer 404, known paths with another method 405 with an Allow header. Fastify's
 * router does not say which methods a path has, so a second router keeps the same routes.
 */
export function registerNotFound(app: FastifyInstance, endpoints: readonly Endpoint[]): void {
  const routes = FindMyWay({ ignoreTrailingSlash: false });
  app.addHook('onRoute', (route) => {
    if (route.config?.refusesMethod) return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (METHODS.includes(method as HTTPMethod) && !routes.hasRoute(method as HTTPMethod, route.url)) {
        routes.on(method as HTTPMethod, route.url, () => {});
      }
    }
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const shown = path.length > 200 ? `${path.slice(0, 200)}...` : path;
    const allowed = METHODS.filter((m) => routes.find(m, path) !== null);
    if (allowed.length > 0 && !allowed.includes(request.method as HTTPMethod)) {
      return sendApiError(
        reply,
        new ApiError(405, 'method_not_allowed', `${request.method} is not allowed on ${shown}.`, {
          suggestion: `Use ${allowed.join(' or ')}.`,
          alternatives: allowed,
          headers: { allow: allowed.join(', ') },
        }),
      );
    }
    return sendApiError(
      reply,
      new ApiError(404, 'route_not_found', `There is no endpoint at ${request.method} ${shown}.`, {
        suggestion: 'See /v1/openapi.json or /docs for the endpoints of this API; every one starts with /v1.',
        alternatives: endpoints
          .filter((e) => e.path.startsWith('/v1/') && !e.path.startsWith('/v1/demo/'))
          .map((e) => `${e.method} ${e.path}`),
      }),
    );
  });
}
