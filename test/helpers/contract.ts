/**
 * The HTTP contract the served OpenAPI document promises, checked on real answers (the fuzz suites
 * test/http/property.test.ts and test/services/property-writes.test.ts): below 500; JSON; a status the operation
 * documents; every error a well-formed ApiError; every success matching its documented schema.
 */
import assert from 'node:assert/strict';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { LightMyRequestResponse } from 'fastify';
import { ERROR_CODES, MAX_ERROR_DETAILS } from '../../src/schemas/error.js';
import { resolveShared } from './openapi.js';

// ---------------------------------------------------------------------------------------------
// The served OpenAPI document, as far as this test reads it
// ---------------------------------------------------------------------------------------------

export interface ParamSchema {
  type?: string | string[];
  enum?: string[];
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  maxLength?: number;
}

export interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema: ParamSchema;
}

export interface Operation {
  operationId: string;
  parameters?: Parameter[];
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}

export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
}

export interface FuzzRequest {
  method: string;
  url: string;
}

const API_ERROR_KEYS = ['error', 'message', 'param', 'suggestion', 'alternatives', 'alternatives_count'];

const escapePointer = (part: string) => part.replaceAll('~', '~0').replaceAll('/', '~1');

/**
 * Checks answers against the served document with ajv (JSON Schema 2020-12, as OpenAPI 3.1 uses),
 * its shared responses and parameters resolved in place (test/helpers/openapi.ts).
 */
export function contractOf(served: OpenApiDocument) {
  const doc = resolveShared(served);
  const ajv = new Ajv2020.default({ allErrors: true, strict: true, strictTypes: false });
  addFormats.default(ajv);
  // The document is added whole, so `$ref: '#/components/schemas/X'` resolves inside it; its
  // top-level OpenAPI fields are declared as (non-validating) keywords to keep ajv strict.
  ajv.addVocabulary(Object.keys(doc));
  ajv.addSchema({ ...doc, $id: 'openapi.json' });
  const validators = new Map<string, ReturnType<typeof ajv.compile>>();
  const validate = (pointer: string, body: unknown, what: string) => {
    let validator = validators.get(pointer);
    if (!validator) {
      validator = ajv.compile({ $ref: `openapi.json#${pointer}` });
      validators.set(pointer, validator);
    }
    if (!validator(body)) {
      assert.fail(`${what}: the body does not match ${pointer}: ${ajv.errorsText(validator.errors)}`);
    }
  };

  /** The documented operation a Fastify route URL ('/v1/jobs/:id') and method stand for. */
  const operation = (routeUrl: string | undefined, method: string) => {
    if (!routeUrl) return undefined;
    const path = routeUrl.replace(/:(\w+)/g, '{$1}');
    const verb = method === 'HEAD' ? 'get' : method.toLowerCase();
    const op = doc.paths[path]?.[verb];
    return op ? { path, verb, op } : undefined;
  };

  const responseSchemaPointer = (path: string, verb: string, status: number) =>
    ['', 'paths', path, verb, 'responses', String(status), 'content', 'application/json', 'schema']
      .map(escapePointer)
      .join('/');

  return { validate, operation, responseSchemaPointer };
}

// ---------------------------------------------------------------------------------------------
// What every answer must satisfy
// ---------------------------------------------------------------------------------------------

export function checkerFor(
  doc: OpenApiDocument,
  servedRoute: (response: LightMyRequestResponse) => string | undefined,
) {
  const contract = contractOf(doc);

  return (request: FuzzRequest, response: LightMyRequestResponse): void => {
    const status = response.statusCode;
    const what = `${request.method} ${request.url.slice(0, 300)} -> ${status}`;
    assert.ok(status < 500, `${what}: server error: ${response.body.slice(0, 500)}`);

    const route = servedRoute(response);
    // Swagger UI serves HTML, scripts, styles and redirects; only its errors are ours.
    if (route?.startsWith('/docs') && status < 400) return;
    assert.ok(status < 300 || status >= 400, `${what}: unexpected redirect to ${response.headers.location}`);

    const contentType = String(response.headers['content-type'] ?? '');
    const documented = contract.operation(route, request.method);
    // 204 No Content (DELETE of a webhook, a saved search, the calendar feed) has no body to judge.
    if (status === 204) {
      assert.ok(documented?.op.responses['204'], `${what}: 204 is not documented`);
      assert.equal(response.body, '', `${what}: a 204 has no body`);
      return;
    }
    // A success documented in another media type (llms.txt, the API catalog, metrics) has that type.
    const documentedTypes = Object.keys(documented?.op.responses[String(status)]?.content ?? {});
    if (status < 300 && documentedTypes.length > 0 && !documentedTypes.includes('application/json')) {
      assert.ok(
        documentedTypes.some((type) => contentType.startsWith(type)),
        `${what}: content-type '${contentType}', documented ${documentedTypes.join(', ')}`,
      );
      return;
    }
    assert.match(contentType, /^application\/json\b/, `${what}: content-type '${contentType}' is not JSON`);
    if (request.method === 'HEAD') {
      assert.equal(response.body, '', `${what}: a HEAD answer has no body`);
      return;
    }
    let body: unknown;
    try {
      body = JSON.parse(response.body);
    } catch {
      assert.fail(`${what}: the body is not JSON: ${response.body.slice(0, 300)}`);
    }

    if (documented) {
      assert.ok(
        documented.op.responses[String(status)],
        `${what}: ${documented.op.operationId} does not document status ${status}; body ${response.body.slice(0, 300)}`,
      );
    }

    if (status >= 400) {
      checkApiError(what, body, request.method, response);
      contract.validate('/components/schemas/ApiError', body, what);
      return;
    }
    if (route === '/v1/openapi.json') {
      assert.equal((body as { openapi?: unknown }).openapi, '3.1.0', what);
      return;
    }
    assert.ok(documented, `${what}: a success from an undocumented route (${route ?? 'none'})`);
    contract.validate(contract.responseSchemaPointer(documented.path, documented.verb, status), body, what);
  };
}

/** Several problems: at least two, at most MAX_ERROR_DETAILS, the first being the error's own. */
function checkErrorList(what: string, error: Record<string, unknown>): void {
  const list = error.errors;
  assert.ok(Array.isArray(list), `${what}: errors is not an array`);
  assert.ok(list.length >= 2 && list.length <= MAX_ERROR_DETAILS, `${what}: ${list.length} errors`);
  for (const item of list) assert.deepEqual(Object.keys(item), ['error', 'param', 'message', 'suggestion'], what);
  const { error: code, param, message, suggestion } = error;
  assert.deepEqual(list[0], { error: code, param, message, suggestion }, `${what}: errors[0] is not the error`);
  const params = list.map((item: { param: unknown }) => item.param);
  assert.equal(new Set(params).size, params.length, `${what}: a parameter listed twice in errors`);
}

function checkApiError(what: string, body: unknown, method: string, response: LightMyRequestResponse): void {
  assert.ok(body !== null && typeof body === 'object' && !Array.isArray(body), `${what}: the error is not an object`);
  const error = body as Record<string, unknown>;
  const keys = Object.keys(error);
  const expected = keys.length > API_ERROR_KEYS.length ? [...API_ERROR_KEYS, 'errors'] : API_ERROR_KEYS;
  assert.deepEqual(keys, expected, `${what}: not an ApiError: ${response.body.slice(0, 300)}`);
  if ('errors' in error) checkErrorList(what, error);
  assert.ok(
    typeof error.error === 'string' && (ERROR_CODES as readonly string[]).includes(error.error),
    `${what}: unknown error code ${JSON.stringify(error.error)}`,
  );
  assert.ok(typeof error.message === 'string' && error.message.length > 0, `${what}: empty message`);
  assert.ok(error.param === null || typeof error.param === 'string', `${what}: param is ${typeof error.param}`);
  assert.ok(typeof error.suggestion === 'string' && error.suggestion.length > 0, `${what}: empty suggestion`);
  assert.ok(Array.isArray(error.alternatives), `${what}: alternatives is not an array`);
  assert.equal(error.alternatives_count, error.alternatives.length, `${what}: alternatives_count is off`);
  if (response.statusCode === 405) {
    assert.ok(!error.alternatives.includes(method), `${what}: 405 names the method used as allowed`);
    assert.equal(response.headers.allow, error.alternatives.join(', '), `${what}: Allow header and alternatives`);
  }
}
