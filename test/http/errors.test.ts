import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildTestApp, getJson } from '../helpers/app.js';
import { EVENT_ROUTES, WRITE_ROUTES } from '../helpers/operations.js';

describe('errors outside the endpoints are ApiErrors too', () => {
  test('an unknown route is a JSON 404 listing the endpoints', async (t) => {
    const { app } = await buildTestApp(t);
    const { status, headers, body } = await getJson(app, '/v2/jobs');
    assert.equal(status, 404);
    assert.match(String(headers['content-type']), /^application\/json/);
    assert.deepEqual(body, {
      error: 'route_not_found',
      message: 'There is no endpoint at GET /v2/jobs.',
      param: null,
      suggestion: 'See /v1/openapi.json or /docs for the endpoints of this API; every one starts with /v1.',
      alternatives: [
        'GET /v1/workflows.arazzo.yaml',
        'GET /v1/jobs',
        'GET /v1/jobs/{id}',
        'GET /v1/listings',
        'GET /v1/listings/{id}',
        'GET /v1/categories',
        'GET /v1/estimate',
        'GET /v1/helpers/availability',
        'GET /v1/stats',
        'GET /v1/places',
        'GET /v1/me',
        'POST /v1/developer/key-requests',
        ...WRITE_ROUTES,
        ...EVENT_ROUTES,
      ],
      alternatives_count: 12 + WRITE_ROUTES.length + EVENT_ROUTES.length,
    });
  });

  test('a known path with another method is a 405 with Allow', async (t) => {
    const { app } = await buildTestApp(t);
    const response = await app.inject({ method: 'DELETE', url: '/v1/jobs/job_0000000000000001' });
    assert.equal(response.statusCode, 405);
    assert.equal(response.headers.allow, 'GET, HEAD, PATCH');
    assert.deepEqual(response.json(), {
      error: 'method_not_allowed',
      message: 'DELETE is not allowed on /v1/jobs/job_0000000000000001.',
      param: null,
      suggestion: 'Use GET or HEAD or PATCH.',
      alternatives: ['GET', 'HEAD', 'PATCH'],
      alternatives_count: 3,
    });
  });

  test('HEAD works wherever GET does', async (t) => {
    const { app } = await buildTestApp(t);
    const response = await app.inject({ method: 'HEAD', url: '/v1/jobs' });
    assert.equal(response.statusCode, 200);
    assert.equal(response.body, '');
  });

  test('a failure inside is a 500 ApiError that shows no internals', async (t) => {
    const { app, db } = await buildTestApp(t);
    await db.kysely.schema.dropTable('helper_categories').execute();
    const { status, body } = await getJson(app, '/v1/helpers/availability?category=GARDENING');
    assert.equal(status, 500);
    assert.deepEqual(body, {
      error: 'internal_error',
      message: 'Something went wrong on our side.',
      param: null,
      suggestion: 'Try again in a moment; if it keeps happening, report it with the time of the request.',
      alternatives: [],
      alternatives_count: 0,
    });
  });

  test('GET /healthz answers 200 while the process is up', async (t) => {
    const { app } = await buildTestApp(t);
    const { status, body } = await getJson(app, '/healthz');
    assert.equal(status, 200);
    assert.deepEqual(body, { status: 'ok' });
  });
});

describe('over-long ids', () => {
  for (const length of [65, 500, 3000]) {
    test(`an id of ${length} characters is a 400 naming the limit`, async (t) => {
      const { app } = await buildTestApp(t);
      const { status, body } = await getJson(app, `/v1/jobs/job_${'a'.repeat(length - 4)}`);
      assert.equal(status, 400);
      assert.equal(body.error, 'parameter_out_of_range');
      assert.equal(body.param, 'id');
      assert.match(body.message, /^id must be a text of 1 to 64 characters/);
    });
  }
});
