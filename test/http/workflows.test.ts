/**
 * The Arazzo workflows at GET /v1/workflows.arazzo.yaml: served as the file in assets/ is, a valid
 * YAML Arazzo 1.0 document whose steps name operations the served OpenAPI document has, and linked
 * from llms.txt and the API catalog. That the workflows run is checked by scripts/workflows.mjs
 * (Redocly's respect against a real server, in .ci/run).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { parse } from 'yaml';
import { buildTestApp, NOW } from '../helpers/app.js';

const PUBLIC_URL = 'https://api.example.org';
const URL_PATH = '/v1/workflows.arazzo.yaml';
const SOURCE = readFileSync(new URL('../../assets/workflows.arazzo.yaml', import.meta.url), 'utf8');

interface Parameter {
  name: string;
  in: string;
  value?: unknown;
}
interface Step {
  stepId: string;
  operationId?: string;
  parameters?: Parameter[];
  requestBody?: { contentType?: string; payload?: unknown };
  successCriteria?: { condition: string }[];
}
interface Workflow {
  workflowId: string;
  inputs?: { properties?: Record<string, object>; required?: string[] };
  steps: Step[];
}
interface Arazzo {
  arazzo: string;
  sourceDescriptions: { name: string; url: string; type: string }[];
  workflows: Workflow[];
}
interface OpenApiOperation {
  operationId?: string;
  parameters?: ({ name: string; in: string } | { $ref: string })[];
  requestBody?: object;
  responses: Record<string, unknown>;
}
interface OpenApi {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: {
    parameters?: Record<string, { name: string; in: string }>;
    securitySchemes: Record<string, { type: string; in?: string; name?: string }>;
  };
}

async function app(t: Parameters<typeof buildTestApp>[0]) {
  return (await buildTestApp(t, NOW, { PUBLIC_URL, RATE_LIMIT_ANONYMOUS_PER_MIN: '1' })).app;
}

/** Every operation of the OpenAPI document by operationId, with its path and the parameters it takes. */
function operationsOf(doc: OpenApi) {
  const byId = new Map<string, { path: string; op: OpenApiOperation; parameters: { name: string; in: string }[] }>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const op of Object.values(item)) {
      if (!op.operationId) continue;
      const parameters = (op.parameters ?? []).map((p) => {
        if (!('$ref' in p)) return p;
        const resolved = doc.components.parameters?.[p.$ref.split('/').at(-1) ?? ''];
        assert.ok(resolved, `${op.operationId}: unresolved ${p.$ref}`);
        return resolved;
      });
      byId.set(op.operationId, { path, op, parameters });
    }
  }
  return byId;
}

describe('GET /v1/workflows.arazzo.yaml', () => {
  test('the file in assets/, as it is, in the Arazzo media type; a document: ETag, outside the tier budgets', async (t) => {
    const api = await app(t);
    const response = await api.inject({ url: URL_PATH });
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers['content-type'], 'application/vnd.oai.workflows+yaml;version=1.0.1');
    assert.equal(response.headers['cache-control'], 'public, max-age=3600');
    assert.equal(response.body, SOURCE, 'served byte for byte');
    assert.equal(response.headers['ratelimit-policy']?.toString().split(';')[0], '"documents"');
    const etag = String(response.headers.etag);
    const again = await api.inject({ url: URL_PATH, headers: { 'if-none-match': etag } });
    assert.equal(again.statusCode, 304);
    // RATE_LIMIT_ANONYMOUS_PER_MIN is 1: the documents do not spend the tier budget.
    assert.equal((await api.inject({ url: URL_PATH })).statusCode, 200);
    const packed = await api.inject({ url: URL_PATH, headers: { 'accept-encoding': 'br' } });
    assert.equal(packed.headers['content-encoding'], 'br');
    assert.equal((await api.inject({ url: `${URL_PATH}?x=1` })).statusCode, 400, 'takes no query');
  });

  test('Arazzo 1.0 in YAML: the stories of the API, against the OpenAPI document beside it', async (t) => {
    const api = await app(t);
    const document = parse((await api.inject({ url: URL_PATH })).body) as Arazzo;
    assert.match(document.arazzo, /^1\.0\.\d+$/);
    assert.deepEqual(
      document.workflows.map((w) => w.workflowId),
      ['requestKey', 'subscribeToWebhooks', 'hireHelper', 'lendItem', 'reportItem'],
    );
    assert.deepEqual(document.sourceDescriptions, [{ name: 'marketplace', url: 'openapi.json', type: 'openapi' }]);
    // Relative to the document's own URL (RFC 3986), the source is the OpenAPI document this API serves.
    const source = new URL(document.sourceDescriptions[0]?.url ?? '', `${PUBLIC_URL}${URL_PATH}`);
    assert.equal(source.href, `${PUBLIC_URL}/v1/openapi.json`);
    assert.equal((await api.inject({ url: source.pathname })).statusCode, 200);
  });

  test('every step names an operation of the served OpenAPI document, with parameters it takes', async (t) => {
    const api = await app(t);
    const document = parse((await api.inject({ url: URL_PATH })).body) as Arazzo;
    const openapi = (await api.inject({ url: '/v1/openapi.json' })).json() as OpenApi;
    const operations = operationsOf(openapi);
    const apiKey = openapi.components.securitySchemes.ApiKeyAuth;
    assert.equal(apiKey?.in, 'header');
    const used = new Set<string>();
    for (const workflow of document.workflows) {
      const inputs = new Set(Object.keys(workflow.inputs?.properties ?? {}));
      for (const step of workflow.steps) {
        const where = `${workflow.workflowId}.${step.stepId}`;
        assert.ok(step.operationId, `${where}: names an operationId`);
        const found = operations.get(step.operationId);
        assert.ok(found, `${where}: ${step.operationId} is not an operation of /v1/openapi.json`);
        used.add(step.operationId);
        for (const parameter of step.parameters ?? []) {
          const declared =
            found.parameters.some(
              (p) => p.in === parameter.in && p.name.toLowerCase() === parameter.name.toLowerCase(),
            ) ||
            (parameter.in === 'header' && parameter.name.toLowerCase() === apiKey?.name?.toLowerCase());
          assert.ok(declared, `${where}: ${step.operationId} takes no ${parameter.in} parameter ${parameter.name}`);
          const input = /^\$inputs\.(\w+)$/.exec(String(parameter.value))?.[1];
          if (input) assert.ok(inputs.has(input), `${where}: no input ${input}`);
        }
        const pathParameters = [...found.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
        const given = (step.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
        assert.deepEqual(given.sort(), pathParameters.sort(), `${where}: the path parameters of ${found.path}`);
        assert.equal(Boolean(step.requestBody), Boolean(found.op.requestBody), `${where}: a body where one is taken`);
        assert.ok(
          step.successCriteria?.some((c) => /^\$statusCode == \d{3}$/.test(c.condition)),
          `${where}: a status`,
        );
      }
    }
    for (const story of [
      'createJob',
      'applyToJob',
      'acceptApplication',
      'completeJob',
      'reviewApplication',
      'createListing',
      'createBooking',
      'confirmBooking',
      'pickUpBooking',
      'returnBooking',
      'reviewBooking',
      'requestDeveloperKey',
      'createWebhook',
      'fileReport',
      'getReport',
    ]) {
      assert.ok(used.has(story), `no step runs ${story}`);
    }
  });
});

describe('the workflows are discoverable', () => {
  test('llms.txt links them under Docs', async (t) => {
    const api = await app(t);
    const body = (await api.inject({ url: '/llms.txt' })).body;
    const docs = body.slice(body.indexOf('## Docs'), body.indexOf('## Key endpoints'));
    assert.match(docs, /^- \[Workflows\]\(https:\/\/api\.example\.org\/v1\/workflows\.arazzo\.yaml\): Arazzo 1\.0, /m);
  });

  test('the API catalog names them as a service-desc, with the type the document is served in', async (t) => {
    const api = await app(t);
    const { linkset } = (await api.inject({ url: '/.well-known/api-catalog' })).json() as {
      linkset: { 'service-desc': { href: string; type: string }[] }[];
    };
    const served = await api.inject({ url: URL_PATH });
    const link = linkset[0]?.['service-desc'].find((l) => l.href === `${PUBLIC_URL}${URL_PATH}`);
    assert.deepEqual(link, { href: `${PUBLIC_URL}${URL_PATH}`, type: served.headers['content-type'] });
  });
});
