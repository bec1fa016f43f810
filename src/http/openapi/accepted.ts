import type { RouteOptions } from 'fastify';
import { BUDGET_HEADERS } from '../error-catalogue.js';
import { acceptedQuerySchema } from '../plugins/query-guard.js';
import { acceptedBodySchema, WRITE_HOOKS } from '../write-body.js';
import type { Json } from './types.js';

/**
 * @fastify/swagger's `transform`: each route's schema as the document shows it, as wide as the
 * server takes it. Validation keeps the declared schemas (their enums name the allowed values in
 * errors); the hooks that run before it widen what arrives, and the document says so from the
 * same rules: the query guard takes every query enum and true/false in any letter case
 * (acceptedQuerySchema, plugins/query-guard.ts), and the write routes' bodies take every enum in any
 * case (acceptedBodySchema, write-body.ts). So a client generated from the document, or a mock
 * server such as Prism, accepts `category=cleaning` as the server does.
 *
 * A route the response cache serves (`config: { cache: 'public' }`, plugins/response-cache.ts)
 * answers an ETag, and 304 without a body to an If-None-Match that matches it: its responses list
 * that 304 (NOT_MODIFIED), so a generated client expects it.
 */
export function acceptedForms({ schema, url, route }: { schema: unknown; url: string; route: RouteOptions }) {
  const declared = schema as Json | undefined;
  if (!declared) return { schema, url };
  const query = declared.querystring as { properties?: Record<string, Json> } | undefined;
  const hooks = [route.preValidation ?? []].flat();
  const body = declared.body as Json | undefined;
  return {
    url,
    schema: {
      ...declared,
      ...(query?.properties && {
        querystring: {
          ...query,
          properties: Object.fromEntries(
            Object.entries(query.properties).map(([name, property]) => [name, acceptedQuerySchema(property)]),
          ),
        },
      }),
      ...(body && hooks.includes(WRITE_HOOKS.preValidation) && { body: acceptedBodySchema(body) }),
      ...(isCached(route) &&
        declared.response !== undefined && {
          response: { ...(declared.response as Json), 304: NOT_MODIFIED },
        }),
    },
  };
}

const isCached = (route: RouteOptions) => (route.config as { cache?: string } | undefined)?.cache === 'public';

/** The 304 of a cached read, as a route schema declares a response without a body. */
export const NOT_MODIFIED = {
  type: 'null',
  description:
    'Not Modified: the If-None-Match header named the ETag of the answer as it is now; no body. The answer stays the same while the data is unchanged (reused for at most one second).',
  headers: {
    ETag: { type: 'string', description: 'The tag of the current answer (weak: W/"...").' },
    ...BUDGET_HEADERS,
  },
};
