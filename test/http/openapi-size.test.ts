/**
 * The served OpenAPI document is compact (issue 15): what operations share (the budget headers,
 * the ApiError responses, repeated parameters, Idempotency-Key) is written once under components
 * and referenced, and resolving the references loses nothing.
 */
import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import { describe, test } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import { IDEMPOTENCY_RETENTION_HOURS } from '../../src/domain/idempotency.js';
import { compactDocument, type OpenApiObject } from '../../src/http/plugins/openapi-components.js';
import { SHARED_ERRORS, SHARED_HEADERS } from '../../src/http/routes/route-kit.js';
import {
  IDEMPOTENCY_KEY_PATTERN,
  IDEMPOTENCY_KEY_PATTERN_SOURCE,
  IdempotencyKeySchema,
} from '../../src/schemas/idempotency.js';
import { buildTestApp } from '../helpers/app.js';
import { resolveShared } from '../helpers/openapi.js';

/**
 * The most the document may weigh, in bytes of JSON. Inlined it was 494,571 bytes; compacted it is
 * about 194,500. (The aim is 150 KB; the rest is descriptions and the references themselves.)
 */
const MAX_DOCUMENT_BYTES = 200_000;

type Json = Record<string, unknown>;
interface Operation extends Json {
  parameters?: Json[];
  responses: Record<string, Json>;
}
interface Document extends Json {
  paths: Record<string, Record<string, Operation>>;
  components: Record<string, Record<string, Json>>;
}

async function served(t: TestContext): Promise<{ body: string; doc: Document }> {
  const { app } = await buildTestApp(t);
  const response = await app.inject({ method: 'GET', url: '/v1/openapi.json' });
  assert.equal(response.statusCode, 200);
  return { body: response.body, doc: response.json() as Document };
}

function* operations(doc: Document): Generator<[string, string, Operation]> {
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(item)) yield [path, method, operation];
  }
}

const IDEMPOTENCY_REF = '#/components/parameters/Idempotency-Key';

describe('the OpenAPI document is compact', () => {
  test(`weighs less than ${MAX_DOCUMENT_BYTES} bytes`, async (t) => {
    const { body } = await served(t);
    const bytes = Buffer.byteLength(body);
    assert.ok(bytes < MAX_DOCUMENT_BYTES, `the document weighs ${bytes} bytes`);
  });

  test('the budget headers and Retry-After are components.headers, referenced from every response', async (t) => {
    const { doc } = await served(t);
    assert.deepEqual(Object.keys(doc.components.headers ?? {}).sort(), Object.keys(SHARED_HEADERS).sort());
    const inline: string[] = [];
    let referenced = 0;
    const check = (where: string, response: Json) => {
      for (const [name, header] of Object.entries((response.headers ?? {}) as Record<string, Json>)) {
        if (header.$ref === `#/components/headers/${name}`) referenced++;
        else if (name in SHARED_HEADERS) inline.push(`${where} ${name}`);
      }
    };
    for (const [path, method, operation] of operations(doc)) {
      for (const [status, response] of Object.entries(operation.responses))
        check(`${method} ${path} ${status}`, response);
    }
    for (const [name, response] of Object.entries(doc.components.responses ?? {})) check(`responses.${name}`, response);
    assert.deepEqual(inline, [], 'shared headers written out instead of referenced');
    assert.ok(referenced > 100, `${referenced} references`);
  });

  test('every error response is a reference to components.responses', async (t) => {
    const { doc } = await served(t);
    const responses = doc.components.responses ?? {};
    for (const name of Object.keys(responses)) assert.ok(name in SHARED_ERRORS, `components.responses.${name}`);
    const inline: string[] = [];
    for (const [path, method, operation] of operations(doc)) {
      for (const [status, response] of Object.entries(operation.responses)) {
        if (Number(status) < 400) continue;
        const name = /^#\/components\/responses\/(.+)$/.exec(String(response.$ref ?? ''))?.[1];
        if (!name) inline.push(`${method} ${path} ${status}`);
        else assert.equal(SHARED_ERRORS[name]?.status, Number(status), `${method} ${path} ${status}: ${name}`);
      }
    }
    // The few errors only one route answers (readiness, metrics) stay written where they are.
    assert.ok(inline.length <= 5, `inline error responses: ${inline.join(', ')}`);
  });

  test('no parameter is written out in two operations: shared ones are components.parameters', async (t) => {
    const { doc } = await served(t);
    const seen = new Map<string, string>();
    const repeated: string[] = [];
    for (const [path, method, operation] of operations(doc)) {
      for (const parameter of operation.parameters ?? []) {
        if (parameter.$ref) continue;
        const key = JSON.stringify(parameter);
        const first = seen.get(key);
        if (first) repeated.push(`${parameter.in} ${parameter.name}: ${first} and ${method} ${path}`);
        else seen.set(key, `${method} ${path}`);
      }
    }
    assert.deepEqual(repeated, []);
    const parameters = doc.components.parameters ?? {};
    for (const name of ['lat.jobs', 'lng.jobs', 'radius.jobs', 'category.jobs', 'limit', 'offset', 'id.jobs']) {
      assert.ok(parameters[name], `components.parameters.${name}`);
    }
    assert.equal(doc.paths['/v1/jobs']?.get?.parameters?.[0]?.$ref, '#/components/parameters/lat.jobs');
  });

  test('resolving the references gives back every piece: compacting the full document loses nothing', async (t) => {
    const { doc } = await served(t);
    const full = resolveShared(doc);
    const { parameters, headers, responses, ...rest } = full.components;
    const inlined = { ...full, components: rest } as unknown as OpenApiObject;
    const again = compactDocument(structuredClone(inlined)) as unknown as Document;
    assert.ok(isDeepStrictEqual(resolveShared(again), full), 'resolve(compact(document)) differs from the document');
    assert.deepEqual(again, doc, 'compacting again gives the served document');
  });
});

describe('Idempotency-Key is one component, declared on every POST under /v1', () => {
  test('every POST under /v1 references it, once; nothing else declares the header', async (t) => {
    const { doc } = await served(t);
    const posts: string[] = [];
    for (const [path, method, operation] of operations(doc)) {
      const refs = (operation.parameters ?? []).filter((p) => p.$ref === IDEMPOTENCY_REF).length;
      const inline = (operation.parameters ?? []).filter((p) => String(p.name).toLowerCase() === 'idempotency-key');
      assert.deepEqual(inline, [], `${method} ${path}: the header written out`);
      if (method === 'post' && path.startsWith('/v1/')) {
        posts.push(path);
        assert.equal(refs, 1, `POST ${path} declares Idempotency-Key`);
      } else {
        assert.equal(refs, 0, `${method} ${path} does not take Idempotency-Key`);
      }
    }
    for (const path of [
      '/v1/jobs',
      '/v1/jobs/{id}/applications',
      '/v1/helpers',
      '/v1/developer/key-requests',
      '/v1/listings',
      '/v1/webhooks',
    ]) {
      assert.ok(posts.includes(path), `POST ${path}`);
    }
  });

  test('the component states the format, the retention and what anonymous requests get', async (t) => {
    const { doc } = await served(t);
    const parameter = doc.components.parameters?.['Idempotency-Key'] as
      | { name: string; in: string; required: boolean; description: string; schema: Json }
      | undefined;
    assert.ok(parameter);
    assert.equal(parameter.in, 'header');
    assert.equal(parameter.name, 'Idempotency-Key');
    assert.equal(parameter.required, false);
    assert.deepEqual(parameter.schema, { ...IdempotencyKeySchema });
    assert.equal(parameter.schema.maxLength, 255);
    assert.equal(parameter.schema.pattern, IDEMPOTENCY_KEY_PATTERN_SOURCE);
    assert.match(parameter.description, new RegExp(`within ${IDEMPOTENCY_RETENTION_HOURS} hours`));
    assert.match(parameter.description, /developer key/);
    assert.match(parameter.description, /anonymous/);
  });

  test('the pattern: 1 to 255 visible ASCII characters', () => {
    for (const key of ['a', crypto.randomUUID(), '!~', 'x'.repeat(255)])
      assert.ok(IDEMPOTENCY_KEY_PATTERN.test(key), key);
    for (const key of ['', 'a b', 'ä', 'x'.repeat(256), 'a\n', '\t'])
      assert.ok(!IDEMPOTENCY_KEY_PATTERN.test(key), key);
    assert.equal(new RegExp(IDEMPOTENCY_KEY_PATTERN_SOURCE).source, IDEMPOTENCY_KEY_PATTERN.source);
  });
});
