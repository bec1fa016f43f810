/**
 * The route registry as the MCP tools read it: every documented operation (a route with an
 * operationId) with its method, path and the schemas its parameters are validated with. app.ts
 * collects it from its own routes in an onRoute hook (the /mcp endpoint makes its tools from it);
 * catalog.ts does the same for the stdio server, which has no app of its own.
 */
import type { TSchema } from 'typebox';

/** One documented REST operation, as registered. */
export interface Operation {
  /** The operationId of its schema (see /v1/openapi.json). */
  operationId: string;
  method: string;
  /** The route path with `{name}` placeholders for path parameters, e.g. /v1/jobs/{id}. */
  path: string;
  summary: string;
  /** The route's own schemas of its path parameters, query string and body, where it has them. */
  params?: TSchema;
  query?: TSchema;
  body?: TSchema;
  /** The schema of its success answer (200, else 201), where it declares one. */
  response?: TSchema;
}

/** What an onRoute hook is given, as far as it is read here. */
interface RegisteredRoute {
  method: string | readonly string[];
  url: string;
  schema?: unknown;
}

interface OperationSchema {
  operationId?: string;
  summary?: string;
  params?: TSchema;
  querystring?: TSchema;
  body?: TSchema;
  response?: Record<string, TSchema>;
}

/** The operation a route registers: undefined without an operationId, and for the HEAD twins of GET routes. */
export function operationOf(route: RegisteredRoute): Operation | undefined {
  const schema = route.schema as OperationSchema | undefined;
  if (!schema?.operationId || route.method === 'HEAD') return undefined;
  const success = schema.response?.[200] ?? schema.response?.[201];
  return {
    operationId: schema.operationId,
    method: String(route.method),
    path: route.url.replace(/:(\w+)/g, '{$1}'),
    summary: schema.summary ?? '',
    ...(schema.params && { params: schema.params }),
    ...(schema.querystring && { query: schema.querystring }),
    ...(schema.body && { body: schema.body }),
    ...(success && { response: success }),
  };
}
