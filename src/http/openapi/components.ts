import { isDeepStrictEqual } from 'node:util';
import { IDEMPOTENCY_KEY_PARAMETER } from '../../schemas/idempotency.js';
import { type ErrorResponse, type HeaderSchema, SHARED_ERRORS, SHARED_HEADERS } from '../error-catalogue.js';
import { type Json, type OpenApiObject, operationsOf, type Parameter, ref } from './types.js';

/**
 * The first step of compactDocument (compact.ts): the budget headers and Retry-After (error-catalogue.ts
 * SHARED_HEADERS) to components.headers, the ApiError responses (error-catalogue.ts SHARED_ERRORS) to
 * components.responses, and the query and path parameters two or more operations declare
 * identically, with the Idempotency-Key header every POST under /v1 declares
 * (schemas/idempotency.ts), to components.parameters.
 */

/** A header as @fastify/swagger renders a route's response header: the schema, the description beside it. */
function headerObject({ description, ...schema }: HeaderSchema): Json {
  return { schema, description };
}

/** An error response as @fastify/swagger renders it from a route schema. */
function errorResponseObject({ description, headers }: ErrorResponse): Json {
  const response: Json = {
    description,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/ApiError' } } },
  };
  if (headers) response.headers = Object.fromEntries(Object.entries(headers).map(([n, h]) => [n, headerObject(h)]));
  return response;
}

/** The resource a path is about, for naming: /v1/demo/jobs/{id}/cancel -> jobs. */
function resourceOf(path: string): string {
  const [segment] = path.replace(/^\/v1(\/demo)?\//, '').split('/');
  return segment?.replace(/[^A-Za-z0-9_-]/g, '') || 'root';
}

const isIdempotencyKey = (p: Parameter) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key';

/** Whether the server applies Idempotency-Key to an operation: every POST under /v1 (plugins/idempotency.ts). */
export const takesIdempotencyKey = (path: string, method: string) => method === 'post' && path.startsWith('/v1/');

/**
 * The parameters two or more operations share, each with its component name: the parameter's
 * name where it has a single shared form, else the name qualified by the resource of the first
 * path that uses that form (lat.jobs, lat.estimate, id.bookings ...).
 */
function sharedParameters(doc: OpenApiObject): Map<string, { name: string; parameter: Parameter }> {
  const uses = new Map<string, { parameter: Parameter; paths: string[] }>();
  for (const [path, , operation] of operationsOf(doc)) {
    for (const parameter of operation.parameters ?? []) {
      // Idempotency-Key has a component of its own (below); Last-Event-ID is shared by the two streams.
      if ('$ref' in parameter || parameter.in === 'cookie' || isIdempotencyKey(parameter)) continue;
      const key = JSON.stringify(parameter);
      const use = uses.get(key) ?? { parameter, paths: [] };
      use.paths.push(path);
      uses.set(key, use);
    }
  }
  const repeated = [...uses.entries()].filter(([, use]) => use.paths.length > 1);
  const forms = new Map<string, number>();
  for (const [, { parameter }] of repeated) {
    forms.set(`${parameter.in} ${parameter.name}`, (forms.get(`${parameter.in} ${parameter.name}`) ?? 0) + 1);
  }
  const taken = new Set<string>([IDEMPOTENCY_KEY_PARAMETER.component]);
  const named = new Map<string, { name: string; parameter: Parameter }>();
  for (const [key, { parameter, paths }] of repeated) {
    const base =
      (forms.get(`${parameter.in} ${parameter.name}`) ?? 0) > 1
        ? `${parameter.name}.${resourceOf(paths[0] ?? '')}`
        : parameter.name;
    let name = base.replace(/[^A-Za-z0-9._-]/g, '_');
    for (let n = 2; taken.has(name); n++) name = `${base}.${n}`;
    taken.add(name);
    named.set(key, { name, parameter });
  }
  return named;
}

/**
 * The name of each shared header in components.headers: the header's name without the RateLimit
 * prefixes (RateLimit-Policy: Policy, X-RateLimit-Remaining: Remaining). Short, because every
 * response that carries the budget references five of them.
 */
export const HEADER_COMPONENT_NAMES: Readonly<Record<string, string>> = Object.fromEntries(
  Object.keys(SHARED_HEADERS).map((name) => [name, name.replace(/^(X-)?RateLimit-/, '')]),
);

/**
 * The name of each shared error (error-catalogue.ts SHARED_ERRORS) in components.responses: the first of
 * each status is named by its status (NotFound: 404), as operations reference it hundreds of
 * times; the others (the platform routes' and the documents' variants) keep their names.
 */
export const ERROR_COMPONENT_NAMES: Readonly<Record<string, string>> = (() => {
  const named = new Set<number>();
  return Object.fromEntries(
    Object.entries(SHARED_ERRORS).map(([name, { status }]) => {
      if (named.has(status)) return [name, name];
      named.add(status);
      return [name, String(status)];
    }),
  );
})();

/** The document with its shared headers, error responses and parameters moved to components. */
export function shareComponents(doc: OpenApiObject): OpenApiObject {
  const headers = Object.entries(SHARED_HEADERS).map(([name, schema]) => ({
    name,
    component: HEADER_COMPONENT_NAMES[name] ?? name,
    object: headerObject(schema),
  }));
  const responses = Object.entries(SHARED_ERRORS).map(([name, { status, response }]) => ({
    name: ERROR_COMPONENT_NAMES[name] ?? name,
    status: String(status),
    object: errorResponseObject(response),
  }));
  const parameters = sharedParameters(doc);

  const usedHeaders = new Set<string>();
  const usedResponses = new Set<string>();
  const usedParameters = new Map<string, Parameter>();

  const compactHeaders = (headerMap: Json) => {
    for (const [headerName, header] of Object.entries(headerMap)) {
      const shared = headers.find((h) => h.name === headerName && isDeepStrictEqual(h.object, header));
      if (!shared) continue;
      headerMap[headerName] = ref('headers', shared.component);
      usedHeaders.add(shared.name);
    }
  };

  for (const [path, method, operation] of operationsOf(doc)) {
    for (const [status, response] of Object.entries(operation.responses ?? {})) {
      const shared = responses.find((r) => r.status === status && isDeepStrictEqual(r.object, response));
      if (shared) {
        (operation.responses as Record<string, Json>)[status] = ref('responses', shared.name);
        usedResponses.add(shared.name);
      } else if (response.headers && typeof response.headers === 'object') {
        compactHeaders(response.headers as Json);
      }
    }

    const list = (operation.parameters ?? []).filter((p) => '$ref' in p || !isIdempotencyKey(p as Parameter));
    const compacted = list.map((p) => {
      if ('$ref' in p) return p;
      const shared = parameters.get(JSON.stringify(p));
      if (!shared) return p;
      usedParameters.set(shared.name, shared.parameter);
      return ref('parameters', shared.name);
    });
    if (takesIdempotencyKey(path, method)) {
      compacted.push(ref('parameters', IDEMPOTENCY_KEY_PARAMETER.component));
      usedParameters.set(IDEMPOTENCY_KEY_PARAMETER.component, IDEMPOTENCY_KEY_PARAMETER.parameter as Parameter);
    }
    if (compacted.length > 0) operation.parameters = compacted;
  }

  for (const { name, object } of responses) {
    if (usedResponses.has(name) && object.headers) compactHeaders(object.headers as Json);
  }

  const components = { ...doc.components };
  if (usedParameters.size > 0) {
    components.parameters = Object.fromEntries([...usedParameters].sort(([a], [b]) => a.localeCompare(b)));
  }
  if (usedHeaders.size > 0) {
    components.headers = Object.fromEntries(
      headers.filter((h) => usedHeaders.has(h.name)).map((h) => [h.component, h.object]),
    );
  }
  if (usedResponses.size > 0) {
    components.responses = Object.fromEntries(
      responses.filter((r) => usedResponses.has(r.name)).map((r) => [r.name, r.object]),
    );
  }
  return { ...doc, components };
}

/** Every parameter object of the document: components.parameters and those written in operations. */
function parameterObjects(doc: OpenApiObject): Parameter[] {
  const inline = [...operationsOf(doc)].flatMap(([, , operation]) =>
    (operation.parameters ?? []).filter((p): p is Parameter => !('$ref' in p)),
  );
  return [...Object.values((doc.components?.parameters ?? {}) as Record<string, Parameter>), ...inline];
}

/** `required: false` is a parameter's default (OpenAPI 3.1): left out; restoreRequiredFalse writes it back. */
export function dropRequiredFalse(doc: OpenApiObject): void {
  for (const parameter of parameterObjects(doc)) if (parameter.required === false) delete parameter.required;
}

export function restoreRequiredFalse(doc: OpenApiObject): void {
  for (const parameter of parameterObjects(doc)) parameter.required ??= false;
}
