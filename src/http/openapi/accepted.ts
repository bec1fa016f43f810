import type { RouteOptions } from 'fastify';
import { BUDGET_HEADERS } from '../error-catalogue.js';
import { WRITE_HOOKS } from '../write-body.js';
import type { Json } from './types.js';

/**
 * The extension that marks a schema whose value the server also takes in any letter case: an enum
 * of texts (`category=cleaning` for CLEANING), or a query boolean (`urgent=TRUE`). The schema itself
 * declares the canonical values, as `enum` (or `type: boolean`), so a generated client types them
 * as such; the server matches them ignoring case and answers the canonical form. The request check
 * (test/helpers/request-check.ts) reads the mark and takes every case where it stands.
 */
export const ANY_CASE = 'x-any-case';

const isTexts = (values: unknown) => Array.isArray(values) && values.some((value) => typeof value === 'string');

/**
 * A query parameter's schema, marked where the query guard takes it in any letter case
 * (plugins/query-guard.ts acceptedQuerySchema: enums of texts and booleans).
 */
function markedQuery(schema: Json): Json {
  return isTexts(schema.enum) || schema.type === 'boolean' ? { ...schema, [ANY_CASE]: true } : schema;
}

/**
 * A write body's schema, marked where `strictly` (write-body.ts) takes it in any letter case: every
 * enum of texts, also in lists, nested objects and anyOf shapes.
 */
function markedBody(schema: Json): Json {
  if (isTexts(schema.enum)) return { ...schema, [ANY_CASE]: true };
  const { properties, items, anyOf } = schema as { properties?: Record<string, Json>; items?: Json; anyOf?: Json[] };
  return {
    ...schema,
    ...(properties && {
      properties: Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, markedBody(v)])),
    }),
    ...(items && { items: markedBody(items) }),
    ...(anyOf && { anyOf: anyOf.map(markedBody) }),
  };
}

/**
 * @fastify/swagger's `transform`: each route's schema as the document shows it. Validation keeps
 * the declared schemas (their enums name the allowed values in errors); the hooks that run before it
 * take some values in any letter case, and the document marks them (ANY_CASE) from the same rules:
 * the query guard takes every query enum and true/false in any case (plugins/query-guard.ts), and
 * the write routes' bodies take every enum in any case (write-body.ts). The enums stay the canonical
 * values, so a client generated from the document gets enum types.
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
            Object.entries(query.properties).map(([name, property]) => [name, markedQuery(property)]),
          ),
        },
      }),
      ...(body && hooks.includes(WRITE_HOOKS.preValidation) && { body: markedBody(body) }),
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
