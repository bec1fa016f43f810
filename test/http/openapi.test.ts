import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import { describe, test } from 'node:test';
import { CATEGORIES } from '../../src/domain/categories.js';
import { ANY_CASE } from '../../src/http/openapi/accepted.js';
import { AvailabilityQuery } from '../../src/schemas/availability.js';
import { CategoriesQuery } from '../../src/schemas/categories.js';
import { LocationSchema, NoQuery, ReliabilityScoreSchema } from '../../src/schemas/common.js';
import { ApiErrorSchema, ERROR_CODES } from '../../src/schemas/error.js';
import { EstimateQuery, EstimateSchema } from '../../src/schemas/estimates.js';
import { JobIdParams, JobSchema, JobSearchQuery } from '../../src/schemas/jobs.js';
import { ListingIdParams, ListingSchema, ListingSearchQuery } from '../../src/schemas/listings.js';
import { PlacesQuery } from '../../src/schemas/search-words.js';
import { buildTestApp } from '../helpers/app.js';
import { resolveShared } from '../helpers/openapi.js';
import { AGENT_OPERATIONS, EVENT_OPERATIONS, WRITE_OPERATIONS } from '../helpers/operations.js';

/** What these tests read of a TypeBox object schema or of a component schema. */
interface ObjectSchema {
  properties: Record<string, object>;
  required?: readonly string[];
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema: Record<string, unknown>;
}

interface Operation {
  operationId: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: Parameter[];
  responses: Record<string, { description?: string; content?: Record<string, { schema?: Record<string, unknown> }> }>;
}

interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, ObjectSchema & Record<string, unknown>> };
}

interface OperationSpec {
  operationId: string;
  path: string;
  query: ObjectSchema;
  params?: ObjectSchema;
  errors: number[];
}

/**
 * Every read operation with the route schemas it is built from. Every route validates its query
 * string (unknown, repeated and empty parameters are a 400), so every operation documents a 400;
 * the ones that look a resource up by id also document a 404.
 */
const READ_OPERATIONS: OperationSpec[] = [
  { operationId: 'searchJobs', path: '/v1/jobs', query: JobSearchQuery, errors: [400] },
  { operationId: 'getJob', path: '/v1/jobs/{id}', query: NoQuery, params: JobIdParams, errors: [400, 404] },
  { operationId: 'searchListings', path: '/v1/listings', query: ListingSearchQuery, errors: [400] },
  {
    operationId: 'getListing',
    path: '/v1/listings/{id}',
    query: NoQuery,
    params: ListingIdParams,
    errors: [400, 404],
  },
  { operationId: 'getCategories', path: '/v1/categories', query: CategoriesQuery, errors: [400] },
  { operationId: 'getPriceEstimate', path: '/v1/estimate', query: EstimateQuery, errors: [400] },
  { operationId: 'checkAvailability', path: '/v1/helpers/availability', query: AvailabilityQuery, errors: [400] },
  { operationId: 'getStats', path: '/v1/stats', query: NoQuery, errors: [400] },
];

/** The sandbox twins of the read operations (spec 4.9): the same schemas under /v1/demo. */
const SANDBOX_OPERATIONS: OperationSpec[] = READ_OPERATIONS.map((o) => ({
  ...o,
  operationId: `demo${o.operationId.charAt(0).toUpperCase()}${o.operationId.slice(1)}`,
  path: o.path.replace(/^\/v1\//, '/v1/demo/'),
}));

const OPERATIONS: OperationSpec[] = [
  ...READ_OPERATIONS,
  ...SANDBOX_OPERATIONS,
  { operationId: 'getHealth', path: '/healthz', query: NoQuery, errors: [400] },
  { operationId: 'getReadiness', path: '/readyz', query: NoQuery, errors: [400, 503] },
  { operationId: 'getMetrics', path: '/metrics', query: NoQuery, errors: [400, 401, 404] },
  { operationId: 'getLlmsTxt', path: '/llms.txt', query: NoQuery, errors: [400] },
  { operationId: 'getApiCatalog', path: '/.well-known/api-catalog', query: NoQuery, errors: [400] },
  { operationId: 'getWorkflows', path: '/v1/workflows.arazzo.yaml', query: NoQuery, errors: [400] },
  { operationId: 'getMe', path: '/v1/me', query: NoQuery, errors: [400, 401, 429] },
  { operationId: 'listPlaces', path: '/v1/places', query: PlacesQuery, errors: [400] },
];

/** The JSON Schema keywords of a parameter that the document must carry over from the route. */
const PARAMETER_KEYWORDS = [
  'type',
  'enum',
  'format',
  'default',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
];

const pick = (schema: object, keys: readonly string[]) => {
  const fields = schema as Record<string, unknown>;
  return Object.fromEntries(keys.filter((k) => fields[k] !== undefined).map((k) => [k, fields[k]]));
};

/** The served document as it is, shared parameters, headers and responses referenced by $ref. */
async function served(t: TestContext): Promise<OpenApiDocument> {
  const { app } = await buildTestApp(t);
  const response = await app.inject({ method: 'GET', url: '/v1/openapi.json' });
  assert.equal(response.statusCode, 200);
  assert.match(String(response.headers['content-type']), /^application\/json/);
  return response.json() as OpenApiDocument;
}

/** The served document with its shared parameters, headers and responses resolved in place. */
async function openapi(t: TestContext): Promise<OpenApiDocument> {
  return resolveShared(await served(t));
}

function operationOf(doc: OpenApiDocument, path: string): Operation {
  const operation = doc.paths[path]?.get;
  assert.ok(operation, `GET ${path} is not in the document`);
  return operation;
}

/** The successes that are not application/json, by operation. */
const NOT_JSON: Record<string, string> = {
  getMetrics: 'text/plain',
  getLlmsTxt: 'text/markdown',
  getApiCatalog: 'application/linkset+json',
  getWorkflows: 'application/vnd.oai.workflows+yaml',
};

describe('GET /v1/openapi.json', () => {
  test('answers an OpenAPI 3.1.0 document of API version 1.1.0', async (t) => {
    const doc = await openapi(t);
    assert.equal(doc.openapi, '3.1.0');
    assert.equal(doc.info.version, '1.1.0');
    assert.ok(doc.info.title.length > 0);
  });

  test('documents every operation at its path, and no other', async (t) => {
    const doc = await openapi(t);
    const documented = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => `${method.toUpperCase()} ${path} ${op.operationId}`),
    );
    assert.deepEqual(
      documented.sort(),
      [
        ...OPERATIONS.map((o) => `GET ${o.path} ${o.operationId}`),
        'POST /v1/developer/key-requests requestDeveloperKey',
        ...WRITE_OPERATIONS,
        ...EVENT_OPERATIONS,
        ...AGENT_OPERATIONS,
      ].sort(),
    );
  });

  test('sandbox twins are tagged Sandbox and say they serve fake data; real operations are not', async (t) => {
    const doc = await openapi(t);
    for (const { operationId, path } of SANDBOX_OPERATIONS) {
      const operation = operationOf(doc, path);
      assert.equal(operation.operationId, operationId);
      assert.deepEqual(operation.tags, ['Sandbox'], operationId);
      assert.match(operation.summary ?? '', /sandbox, fake data/, operationId);
      assert.match(operation.description ?? '', /^Sandbox twin of \w+\./, operationId);
    }
    for (const { operationId, path } of READ_OPERATIONS) {
      assert.equal(operationOf(doc, path).tags?.includes('Sandbox'), false, operationId);
    }
    const section = (doc as unknown as { tags: { name: string; description: string }[] }).tags.find(
      (tag) => tag.name === 'Sandbox',
    );
    assert.match(section?.description ?? '', /fixed, fake dataset .* that never touches real data\. No key needed/);
  });

  for (const { operationId, path, query, params } of OPERATIONS) {
    test(`${operationId}: its parameters are those of the route schema`, async (t) => {
      const parameters = operationOf(await openapi(t), path).parameters ?? [];
      const expected = [
        ...Object.entries(query.properties).map(([name, schema]) => ({ name, in: 'query', schema })),
        ...Object.entries(params?.properties ?? {}).map(([name, schema]) => ({ name, in: 'path', schema })),
      ];
      assert.deepEqual(
        parameters.map((p) => `${p.in} ${p.name}`),
        expected.map((p) => `${p.in} ${p.name}`),
      );
      for (const want of expected) {
        const got = parameters.find((p) => p.name === want.name && p.in === want.in);
        assert.ok(got);
        const required = want.in === 'path' || (query.required ?? []).includes(want.name);
        assert.equal(got.required ?? false, required, `${want.name}: required`);
        assert.equal(
          got.description,
          (want.schema as { description?: string }).description,
          `${want.name}: description`,
        );
        assert.ok(got.description, `${want.name} has a description`);
        // As declared (enums as their canonical values), marked where the query guard takes the
        // value in any letter case: enums of texts and booleans.
        assert.deepEqual(pick(got.schema, PARAMETER_KEYWORDS), pick(want.schema, PARAMETER_KEYWORDS), want.name);
        const declared = want.schema as { type?: unknown; enum?: unknown[] };
        const anyCase = declared.type === 'boolean' || (declared.enum ?? []).some((v) => typeof v === 'string');
        assert.equal(got.schema[ANY_CASE], anyCase ? true : undefined, `${want.name}: ${ANY_CASE}`);
        assert.equal(got.schema.anyOf, undefined, `${want.name}: no anyOf of spellings`);
      }
    });
  }

  test('search parameters have the defaults and limits of the spec', async (t) => {
    const doc = await openapi(t);
    const schemaOf = (path: string, name: string) => {
      const parameter = operationOf(doc, path).parameters?.find((p) => p.name === name && p.in === 'query');
      assert.ok(parameter, `${path} has no query parameter ${name}`);
      return parameter.schema;
    };
    for (const path of ['/v1/jobs', '/v1/listings']) {
      // The default centre is said in words, not as a schema default (near excludes a sent lat/lng).
      assert.deepEqual(pick(schemaOf(path, 'lat'), ['type', 'default', 'minimum', 'maximum']), {
        type: 'number',
        minimum: -90,
        maximum: 90,
      });
      assert.match(JSON.stringify(operationOf(doc, path).parameters), /Default 49\.0069\./);
      assert.deepEqual(pick(schemaOf(path, 'lng'), ['type', 'default', 'minimum', 'maximum']), {
        type: 'number',
        minimum: -180,
        maximum: 180,
      });
      assert.match(JSON.stringify(operationOf(doc, path).parameters), /Default 8\.4037\./);
      assert.deepEqual(pick(schemaOf(path, 'radius'), ['type', 'default', 'exclusiveMinimum', 'maximum']), {
        type: 'number',
        default: 50,
        exclusiveMinimum: 0,
        maximum: 50,
      });
      assert.deepEqual(pick(schemaOf(path, 'category'), ['type', 'enum']), {
        type: 'string',
        enum: [...CATEGORIES],
      });
      assert.deepEqual(pick(schemaOf(path, 'sort'), ['type', 'default', 'enum']), {
        // No schema default: it is relevance with q and newest without (said in the description).
        type: 'string',
        enum: ['newest', 'price_asc', 'price_desc', 'distance', 'relevance'],
      });
      assert.deepEqual(pick(schemaOf(path, 'limit'), ['type', 'default', 'minimum', 'maximum']), {
        type: 'integer',
        default: 20,
        minimum: 1,
        maximum: 100,
      });
      assert.deepEqual(pick(schemaOf(path, 'offset'), ['type', 'default', 'minimum']), {
        type: 'integer',
        default: 0,
        minimum: 0,
      });
    }
    for (const name of ['budget_min', 'budget_max']) assert.equal(schemaOf('/v1/jobs', name).minimum, 0);
    assert.deepEqual(pick(schemaOf('/v1/jobs', 'date'), ['type', 'format']), { type: 'string', format: 'date' });
    assert.equal(schemaOf('/v1/jobs', 'urgent').type, 'boolean');
    assert.equal(schemaOf('/v1/jobs', 'urgent')[ANY_CASE], true);
    assert.equal(schemaOf('/v1/helpers/availability', 'radius').maximum, 50);
    const estimate = operationOf(doc, '/v1/estimate').parameters ?? [];
    assert.equal(estimate.find((p) => p.name === 'category')?.required, true);
  });

  test('every operation documents its errors with the ApiError schema', async (t) => {
    const doc = await openapi(t);
    const apiError = { $ref: '#/components/schemas/ApiError' };
    const undocumented = OPERATIONS.flatMap(({ operationId, path, errors }) =>
      errors.filter((s) => !operationOf(doc, path).responses[String(s)]).map((s) => `${operationId} ${s}`),
    );
    assert.deepEqual(undocumented, [], 'operations that answer these statuses but do not document them');
    for (const { operationId, path } of OPERATIONS) {
      const { responses } = operationOf(doc, path);
      // Prometheus reads text, llms.txt is Markdown, the catalog a linkset; every other success is JSON.
      const type = NOT_JSON[operationId] ?? 'application/json';
      assert.ok(responses['200']?.content?.[type]?.schema, `${operationId}: 200 with a ${type} schema`);
      for (const [status, response] of Object.entries(responses)) {
        if (Number(status) < 400) continue;
        assert.ok(response.description, `${operationId} ${status}: description`);
        assert.deepEqual(response.content?.['application/json']?.schema, apiError, `${operationId} ${status}`);
      }
    }
  });

  test('components.schemas holds the shared schemas, as the code defines them', async (t) => {
    const { components } = await openapi(t);
    const shared: [string, ObjectSchema][] = [
      ['Job', JobSchema],
      ['Listing', ListingSchema],
      ['Location', LocationSchema],
      ['ReliabilityScore', ReliabilityScoreSchema],
      ['Estimate', EstimateSchema],
      ['ApiError', ApiErrorSchema],
    ];
    for (const [name, source] of shared) {
      const schema = components.schemas[name];
      assert.ok(schema, `components.schemas.${name}`);
      assert.equal(schema.type, 'object', name);
      assert.deepEqual(Object.keys(schema.properties), Object.keys(source.properties), `${name}: properties`);
      assert.deepEqual(schema.required, source.required, `${name}: required`);
      assert.equal(schema.additionalProperties, false, `${name}: additionalProperties`);
    }
    const errorCode = components.schemas.ApiError?.properties.error as { enum?: unknown } | undefined;
    assert.deepEqual(errorCode?.enum, [...ERROR_CODES]);
  });

  test('every $ref points at an entry of components', async (t) => {
    const doc = await served(t);
    const refs = new Set<string>();
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node !== null && typeof node === 'object') {
        for (const [key, value] of Object.entries(node)) {
          if (key === '$ref' && typeof value === 'string') refs.add(value);
          else walk(value);
        }
      }
    };
    walk(doc);
    assert.ok(refs.size > 0);
    const components = doc.components as unknown as Record<string, Record<string, unknown>>;
    for (const ref of refs) {
      const [, kind, name] = /^#\/components\/(schemas|parameters|headers|responses)\/([^/]+)$/.exec(ref) ?? [];
      assert.ok(kind && name && components[kind]?.[name], `unresolved $ref ${ref}`);
    }
  });
});

describe('GET /docs', () => {
  test('answers the Swagger UI page, which loads this document', async (t) => {
    const { app } = await buildTestApp(t);
    const get = (url: string) => app.inject({ method: 'GET', url });
    let url = '/docs';
    let response = await get(url);
    for (let hops = 0; response.statusCode >= 300 && response.statusCode < 400 && hops < 5; hops++) {
      url = new URL(String(response.headers.location), `http://localhost${url}`).pathname;
      response = await get(url);
    }
    assert.equal(response.statusCode, 200);
    assert.match(String(response.headers['content-type']), /^text\/html/);
    assert.match(response.body, /<div id="swagger-ui">/);

    // Every script of the page is served; one of them points Swagger UI at the document.
    const scripts = [...response.body.matchAll(/<script src="([^"]+)"/g)].map(
      (m) => new URL(m[1] ?? '', `http://localhost${url}`).pathname,
    );
    assert.ok(scripts.length > 0, 'the page loads scripts');
    let documentUrl: string | undefined;
    for (const script of scripts) {
      const served = await get(script);
      assert.equal(served.statusCode, 200, script);
      assert.match(String(served.headers['content-type']), /javascript/, script);
      const target = /\burl:\s*(?:resolveUrl\()?['"]([^'"]+)['"]/.exec(served.body)?.[1];
      // Swagger UI resolves the URL against the page URL with a trailing slash.
      if (target) documentUrl = new URL(target, `http://localhost${url.endsWith('/') ? url : `${url}/`}`).pathname;
    }
    assert.ok(documentUrl, 'a script of the page names the document Swagger UI loads');

    const loaded = await get(documentUrl);
    assert.equal(loaded.statusCode, 200, documentUrl);
    assert.deepEqual(loaded.json(), (await get('/v1/openapi.json')).json());
  });
});
