/**
 * The route registry as the MCP tools read it: every documented operation (a route with an
 * operationId) with its method, path, who may call it and the schemas its parameters are
 * validated with. app.ts collects it from its own routes in an onRoute hook (the /mcp endpoint
 * makes its tools from it); catalog.ts does the same for the stdio server, which has no app of its
 * own.
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
  /** The route's description in the OpenAPI document (Markdown), '' without one. */
  description: string;
  /** Whether the operation needs a developer key (its security requirements do not include none). */
  keyRequired: boolean;
  /** The route's own schemas of its path parameters, query string and body, where it has them. */
  params?: TSchema;
  query?: TSchema;
  body?: TSchema;
  /** Request headers it reads (besides the key and Idempotency-Key), e.g. X-Report-Token. */
  headers?: TSchema;
  /** The status of its success answer (the lowest 2xx it declares; 200 when it declares none). */
  successStatus: number;
  /** The schema of that answer's JSON body, where it declares one (not for 204, nor for non-JSON answers). */
  response?: TSchema;
  /** Whether the success answer is JSON (or empty): false for calendar feeds and other documents. */
  json: boolean;
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
  description?: string;
  security?: readonly Record<string, unknown>[];
  params?: TSchema;
  querystring?: TSchema;
  body?: TSchema;
  headers?: TSchema;
  response?: Record<string, TSchema & { content?: Record<string, unknown> }>;
}

/** The operation a route registers: undefined without an operationId, and for the HEAD twins of GET routes. */
export function operationOf(route: RegisteredRoute): Operation | undefined {
  const schema = route.schema as OperationSchema | undefined;
  if (!schema?.operationId || route.method === 'HEAD') return undefined;
  const statuses = Object.keys(schema.response ?? {})
    .filter((status) => /^2\d\d$/.test(status))
    .sort();
  const successStatus = Number(statuses[0] ?? 200);
  const success = schema.response?.[successStatus];
  const content = success?.content;
  const json = content === undefined || Object.keys(content).some((type) => type.includes('json'));
  const body =
    json && successStatus !== 204 && (success as { type?: unknown } | undefined)?.type !== 'null' ? success : undefined;
  // No security of its own: the document's default, where a key is optional.
  const keyRequired = schema.security !== undefined && !schema.security.some((r) => Object.keys(r).length === 0);
  return {
    operationId: schema.operationId,
    method: String(route.method),
    path: route.url.replace(/:(\w+)/g, '{$1}'),
    summary: schema.summary ?? '',
    description: schema.description ?? '',
    keyRequired,
    ...(schema.params && { params: schema.params }),
    ...(schema.querystring && { query: schema.querystring }),
    ...(schema.body && { body: schema.body }),
    ...(schema.headers && { headers: schema.headers }),
    successStatus,
    ...(body && { response: body }),
    json,
  };
}
