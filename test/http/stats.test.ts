import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildTestApp, getJson, NOW } from '../helpers/app.js';
import { helperFixture, insert, jobFixture, listingFixture, ownerFixture } from '../helpers/fixtures.js';
import { AGENT_OPERATIONS, EVENT_OPERATIONS, WRITE_OPERATIONS } from '../helpers/operations.js';

describe('GET /v1/stats', () => {
  test('live figures from the data, coverage and capabilities (with the configured limits)', async (t) => {
    const { app, db } = await buildTestApp(t, NOW, {
      RATE_LIMIT_ANONYMOUS_PER_MIN: '20',
      RATE_LIMIT_DEVELOPER_PER_MIN: '100',
      RATE_LIMIT_SANDBOX_PER_MIN: '25',
    });
    const owner = ownerFixture();
    await insert(db.kysely, {
      jobs: [
        jobFixture({ price_cents: 4000, urgent: 1 }),
        jobFixture({ price_cents: 8000, category: 'MOVING' }),
        jobFixture({ price_cents: 3000, duration_hours: 2, status: 'completed' }),
        jobFixture({ deadline: '2026-11-19T00:00:00.000Z' }),
      ],
      owners: [owner],
      listings: [
        listingFixture(owner.id, { price_per_day_cents: 1000, deposit_cents: 2000 }),
        listingFixture(owner.id, { price_per_day_cents: 3000, deposit_cents: 8000, instant_booking: 0 }),
        listingFixture(owner.id, { status: 'paused' }),
      ],
      helpers: [helperFixture(['GARDENING', 'MOVING']), helperFixture(['GARDENING'], { verified: 0 })],
    });

    const { status, body } = await getJson(app, '/v1/stats');

    assert.equal(status, 200);
    assert.equal(body.generated_at, NOW.toISOString());
    assert.equal(body.api_version, '1.1.0');
    assert.deepEqual(body.totals, {
      open_jobs: 2,
      urgent_open_jobs: 1,
      completed_jobs: 1,
      available_listings: 2,
      instant_booking_listings: 1,
      helpers: 2,
      verified_available_helpers: 1,
    });
    assert.deepEqual(body.pricing, {
      median_job_price_eur: 40,
      median_hourly_rate_eur: 15,
      median_price_per_day_eur: 10,
      median_deposit_eur: 20,
    });
    assert.deepEqual(body.categories[0], {
      category: 'GARDENING',
      open_jobs: 1,
      completed_jobs: 1,
      available_listings: 0,
      available_helpers: 1,
      median_price_eur: 40,
      median_hourly_rate_eur: 15,
      median_price_per_day_eur: null,
    });
    assert.equal(body.categories.length, 10);
    assert.deepEqual(body.coverage.center, { lat: 49.0069, lng: 8.4037 });
    assert.equal(body.coverage.radius_km, 50);
    assert.equal(body.coverage.places_count, 51);
    assert.equal(body.coverage.places.length, 51);
    assert.deepEqual(
      body.coverage.places.find((p: any) => p.district === 'Durlach'),
      {
        city: 'Karlsruhe',
        district: 'Durlach',
        plz: '76227',
        lat: 48.9921,
        lng: 8.4684,
        distance_km: 5,
        open_jobs: 2,
        listings: 0,
      },
    );
    const caps = body.capabilities;
    assert.equal(caps.api_version, '1.1.0');
    assert.deepEqual(
      caps.endpoints.map((e: any) => `${e.method} ${e.path} ${e.operation_id}`),
      [
        'GET /healthz getHealth',
        'GET /readyz getReadiness',
        'GET /metrics getMetrics',
        'GET /llms.txt getLlmsTxt',
        'GET /.well-known/api-catalog getApiCatalog',
        'GET /v1/workflows.arazzo.yaml getWorkflows',
        'GET /v1/jobs searchJobs',
        'GET /v1/jobs/{id} getJob',
        'GET /v1/listings searchListings',
        'GET /v1/listings/{id} getListing',
        'GET /v1/categories getCategories',
        'GET /v1/estimate getPriceEstimate',
        'GET /v1/helpers/availability checkAvailability',
        'GET /v1/stats getStats',
        'GET /v1/places listPlaces',
        'GET /v1/demo/jobs demoSearchJobs',
        'GET /v1/demo/jobs/{id} demoGetJob',
        'GET /v1/demo/listings demoSearchListings',
        'GET /v1/demo/listings/{id} demoGetListing',
        'GET /v1/demo/categories demoGetCategories',
        'GET /v1/demo/estimate demoGetPriceEstimate',
        'GET /v1/demo/helpers/availability demoCheckAvailability',
        'GET /v1/demo/stats demoGetStats',
        'GET /v1/me getMe',
        'POST /v1/developer/key-requests requestDeveloperKey',
        ...WRITE_OPERATIONS,
        ...EVENT_OPERATIONS,
        ...AGENT_OPERATIONS,
      ],
    );
    assert.deepEqual(caps.tiers, [
      { tier: 'anonymous', credential: 'none', rate_limit_per_minute: 20, access: 'read only' },
      { tier: 'developer', credential: 'X-API-Key header', rate_limit_per_minute: 100, access: 'read and write' },
      { tier: 'sandbox', credential: 'none', rate_limit_per_minute: 25, access: '/v1/demo/*' },
    ]);
    assert.equal(caps.max_page_size, 100);
    assert.equal(caps.max_radius_km, 50);
    assert.deepEqual(caps.languages, ['de', 'en']);
  });

  test('an empty platform answers zeros and null medians, never an error', async (t) => {
    const { app } = await buildTestApp(t);
    const { status, body } = await getJson(app, '/v1/stats');
    assert.equal(status, 200);
    assert.deepEqual(body.pricing, {
      median_job_price_eur: null,
      median_hourly_rate_eur: null,
      median_price_per_day_eur: null,
      median_deposit_eur: null,
    });
    assert.equal(body.totals.open_jobs, 0);
  });

  test('takes no parameters', async (t) => {
    const { app } = await buildTestApp(t);
    const { status, body } = await getJson(app, '/v1/stats?verbose=1');
    assert.equal(status, 400);
    assert.deepEqual(body, {
      error: 'unknown_parameter',
      message: "Unknown query parameter 'verbose'.",
      param: 'verbose',
      suggestion: "Remove 'verbose'; this endpoint takes no query parameters.",
      alternatives: [],
      alternatives_count: 0,
    });
  });
});
