/**
 * The request check of `npm test` (scripts/check-requests.mjs): every request the suite sends that
 * the server accepts must be valid against the served document, judged by Prism's validator
 * (test/helpers/request-check.ts) over what test/helpers/request-log.mjs logged. The document
 * declares enums as their canonical values (generated clients type them as enums) and marks with
 * `x-any-case` where the server takes them in any letter case; the check takes those spellings as the
 * server does. These tests prove the check would catch a document narrower than the server (the
 * category=cleaning that Prism answered 422 for), and that the log records requests as they were sent.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { CATEGORIES } from '../../src/domain/categories.js';
import { ANY_CASE } from '../../src/http/openapi/accepted.js';
import { buildTestApp } from '../helpers/app.js';
import { JOB_BODY } from '../helpers/bodies.js';
import { resolveShared } from '../helpers/openapi.js';
import { type LoggedRequest, requestChecker } from '../helpers/request-check.js';

const CATEGORY = { type: 'string', enum: [...CATEGORIES] };
/** The category as the served document declares it: the canonical enum, marked as taken in any case. */
const MARKED = { ...CATEGORY, [ANY_CASE]: true };

/** A small document of two operations, with the category written `category` (plain or marked). */
function documentWith(category: object, schemes: Record<string, object> = {}) {
  const key = { ApiKeyAuth: { type: 'apiKey', in: 'header', name: 'X-API-Key' }, ...schemes };
  return {
    openapi: '3.1.0',
    info: { title: 'Jobs', version: '1' },
    components: { securitySchemes: key },
    paths: {
      '/v1/jobs': {
        get: {
          operationId: 'searchJobs',
          parameters: [{ name: 'category', in: 'query', schema: category }],
          responses: { '200': { description: 'OK.' } },
        },
        post: {
          operationId: 'createJob',
          security: Object.keys(key).map((name) => ({ [name]: [] })),
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: { type: 'object', required: ['category'], properties: { category } },
              },
            },
          },
          responses: { '201': { description: 'Created.' } },
        },
      },
    },
  };
}

const get = (url: string): LoggedRequest => ({ method: 'GET', url, headers: {}, status: 200 });
const post = (body: object, headers: Record<string, string>): LoggedRequest => ({
  method: 'POST',
  url: '/v1/jobs',
  headers: { 'content-type': 'application/json', ...headers },
  body,
  status: 201,
});

describe('the request check', () => {
  test('refuses category=cleaning where the document does not mark the enum, naming the parameter', async () => {
    const check = await requestChecker(documentWith(CATEGORY));
    const verdict = await check(get('/v1/jobs?category=cleaning'));
    assert.equal(verdict.kind, 'invalid');
    assert.ok(verdict.kind === 'invalid' && verdict.problems.some((p) => p.startsWith('query.category: ')));
    assert.deepEqual(await check(get('/v1/jobs?category=CLEANING')), {
      kind: 'valid',
      operation: 'searchJobs (GET /v1/jobs)',
    });
    const body = await check(post({ category: 'gardening' }, { 'x-api-key': 'kmp_[redacted]' }));
    assert.ok(body.kind === 'invalid' && body.problems.some((p) => p.startsWith('body.category: ')));
  });

  test('takes every case of the values where the document marks the enum x-any-case, and nothing else', async () => {
    const check = await requestChecker(documentWith(MARKED));
    for (const spelling of ['cleaning', 'Cleaning', 'cLeAnInG', 'CLEANING', 'tech_repair', 'Petcare']) {
      assert.equal((await check(get(`/v1/jobs?category=${spelling}`))).kind, 'valid', spelling);
    }
    for (const spelling of ['Garten', 'tech-repair', ' cleaning', 'cleaningx']) {
      const url = `/v1/jobs?category=${encodeURIComponent(spelling)}`;
      assert.equal((await check(get(url))).kind, 'invalid', spelling);
    }
    const body = await check(post({ category: 'gardening' }, { 'x-api-key': 'kmp_[redacted]' }));
    assert.equal(body.kind, 'valid');
  });

  test('a write with the key as Authorization: Bearer needs the bearer scheme in the document', async () => {
    const bearer = post({ category: 'GARDENING' }, { authorization: 'Bearer [redacted]' });
    const without = await (await requestChecker(documentWith(CATEGORY)))(bearer);
    assert.ok(without.kind === 'invalid' && without.problems.some((p) => /security/i.test(p)));
    const scheme = { Bearer: { type: 'http', scheme: 'bearer' } };
    assert.equal((await (await requestChecker(documentWith(CATEGORY, scheme)))(bearer)).kind, 'valid');
  });

  test('a route the document does not describe is not judged', async () => {
    const check = await requestChecker(documentWith(CATEGORY));
    assert.equal((await check(get('/docs/static/index.html'))).kind, 'undocumented');
  });

  test('the served document takes what the server takes, and refuses what it refuses', async (t) => {
    const { app } = await buildTestApp(t);
    const served = (await app.inject({ url: '/v1/openapi.json' })).json();
    const check = await requestChecker(served);
    // The document itself declares the canonical values, marked; the check widens them.
    const category = resolveShared(served).paths['/v1/jobs'].get.parameters.find(
      (p: { name: string }) => p.name === 'category',
    ).schema;
    assert.deepEqual(category, { type: 'string', enum: [...CATEGORIES], [ANY_CASE]: true });
    const accepted = [
      '/v1/jobs?category=cleaning&sort=Price_Asc&urgent=TRUE',
      '/v1/listings?category=Events&condition=LIKE_NEW&instant_booking=False',
      // U+212A KELVIN SIGN lower-cases to k: the server takes it for like_new, so does the document.
      '/v1/listings?condition=li%E2%84%AAe_new',
      '/v1/categories?lang=DE&type=Service',
    ];
    for (const url of accepted) {
      assert.equal((await app.inject({ url })).statusCode, 200, url);
      assert.equal((await check(get(url))).kind, 'valid', url);
    }
    for (const url of ['/v1/jobs?category=Garten', '/v1/jobs?urgent=yes', '/v1/jobs?sort=newest%20']) {
      assert.equal((await app.inject({ url })).statusCode, 400, url);
      assert.equal((await check(get(url))).kind, 'invalid', url);
    }
  });
});

describe('the request log', () => {
  test('records an accepted request as it was sent (body before the server makes its enums canonical)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'request-log-'));
    try {
      const script = `
        const { buildTestApp, createKey } = await import(${JSON.stringify(resolve('test/helpers/app.ts'))});
        const after = [];
        const { app, db } = await buildTestApp({ after: (f) => after.push(f) });
        const { key } = await createKey(db);
        const body = ${JSON.stringify({ ...JOB_BODY, category: 'gardening' })};
        const created = await app.inject({ method: 'POST', url: '/v1/jobs', headers: { 'x-api-key': key }, payload: body });
        const refused = await app.inject({ url: '/v1/jobs?category=Garten' });
        console.log(created.statusCode, refused.statusCode);
        for (const f of after) await f();`;
      const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
        env: {
          ...process.env,
          // What is logged does not depend on the engine. On PostgreSQL the test database helper
          // keeps an admin connection that node:test's after() closes, and this script runs outside
          // the test runner: the process would never exit (it hung CI's PostgreSQL pass).
          TEST_DATABASE: 'sqlite',
          REQUEST_LOG_DIR: dir,
          REQUEST_LOG_SOURCE: 'request-check.test.ts',
          NODE_OPTIONS: `--import=${resolve('test/helpers/request-log.mjs')}`,
        },
        encoding: 'utf8',
        // Whatever goes wrong in the child, the suite goes on.
        timeout: 120_000,
      });
      assert.equal(child.stdout.trim(), '201 400', `${child.error ?? ''} ${child.stderr}`);
      const lines = readdirSync(dir).flatMap((file) =>
        readFileSync(join(dir, file), 'utf8').trim().split('\n').filter(Boolean),
      );
      // Only the accepted request: the refused one never passed validation.
      assert.equal(lines.length, 1, lines.join('\n'));
      const logged = JSON.parse(lines[0] ?? '{}') as LoggedRequest;
      assert.equal(logged.method, 'POST');
      assert.equal(logged.url, '/v1/jobs');
      assert.equal(logged.status, 201);
      assert.equal(logged.route, '/v1/jobs');
      assert.equal(logged.source, 'request-check.test.ts');
      assert.deepEqual(logged.headers, {
        'content-type': 'application/json',
        'content-length': logged.headers['content-length'],
        'x-api-key': 'kmp_[redacted]',
      });
      assert.deepEqual(logged.body, { ...JOB_BODY, category: 'gardening' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
