import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildTestApp, getJson } from '../helpers/app.js';
import { AT, insert, jobFixture } from '../helpers/fixtures.js';

/** Ten completed gardening jobs in Durlach paying 10..19 EUR per hour, five in Pforzheim paying 30. */
async function withHistory(t: Parameters<typeof buildTestApp>[0]) {
  const built = await buildTestApp(t);
  const durlach = Array.from({ length: 10 }, (_, i) =>
    jobFixture({
      status: 'completed',
      ...AT.durlach,
      duration_hours: 2,
      helpers_needed: 1,
      price_cents: (10 + i) * 200,
    }),
  );
  const pforzheim = Array.from({ length: 5 }, () =>
    jobFixture({ status: 'completed', ...AT.pforzheim, duration_hours: 1, helpers_needed: 2, price_cents: 6000 }),
  );
  // Open jobs are not learned from.
  const open = jobFixture({ status: 'open', price_cents: 100_000 });
  await insert(built.db.kysely, { jobs: [...durlach, ...pforzheim, open] });
  return built;
}

describe('GET /v1/estimate', () => {
  test('learns per-helper-hour rates from completed jobs and scales by hours x helpers', async (t) => {
    const { app } = await withHistory(t);
    const { status, body } = await getJson(app, '/v1/estimate?category=GARDENING&duration_hours=2&helpers=2');
    assert.equal(status, 200);
    // Sorted rates 10..19, 30 x5 (n = 15): p10 = 11, median = 17, p90 = 30; x 4 helper-hours.
    assert.deepEqual(body, {
      category: 'GARDENING',
      price_estimate_eur: 68,
      price_min_eur: 44,
      price_max_eur: 120,
      confidence: 0.43,
      based_on_jobs: 15,
      currency: 'EUR',
      duration_hours: 2,
      helpers: 2,
      area: null,
    });
  });

  test('with lat/lng it learns from jobs within 15 km when there are at least 10', async (t) => {
    const { app } = await withHistory(t);
    const { body } = await getJson(app, `/v1/estimate?category=gardening&lat=${AT.durlach.lat}&lng=${AT.durlach.lng}`);
    assert.deepEqual(body, {
      category: 'GARDENING',
      price_estimate_eur: 14,
      price_min_eur: 10,
      price_max_eur: 18,
      confidence: 0.33,
      based_on_jobs: 10,
      currency: 'EUR',
      duration_hours: 1,
      helpers: 1,
      area: { lat: AT.durlach.lat, lng: AT.durlach.lng, radius_km: 15 },
    });
  });

  test('too few nearby jobs: it falls back to the whole service area', async (t) => {
    const { app } = await withHistory(t);
    const { body } = await getJson(
      app,
      `/v1/estimate?category=GARDENING&lat=${AT.pforzheim.lat}&lng=${AT.pforzheim.lng}`,
    );
    assert.equal(body.based_on_jobs, 15);
    assert.equal(body.area, null);
  });

  test('hours is a synonym of duration_hours', async (t) => {
    const { app } = await withHistory(t);
    const viaHours = await getJson(app, '/v1/estimate?category=GARDENING&hours=3');
    const viaDuration = await getJson(app, '/v1/estimate?category=GARDENING&duration_hours=3');
    const both = await getJson(app, '/v1/estimate?category=GARDENING&duration_hours=3&hours=3');
    assert.equal(viaHours.status, 200);
    assert.deepEqual(viaHours.body, viaDuration.body);
    assert.deepEqual(both.body, viaDuration.body);
    assert.equal(viaHours.body.price_estimate_eur, 51);
  });

  test('no completed jobs: typical rates with confidence 0', async (t) => {
    const { app } = await buildTestApp(t);
    const { body } = await getJson(app, '/v1/estimate?category=PETCARE&duration_hours=2');
    assert.deepEqual(body, {
      category: 'PETCARE',
      price_estimate_eur: 28,
      price_min_eur: 22,
      price_max_eur: 36,
      confidence: 0,
      based_on_jobs: 0,
      currency: 'EUR',
      duration_hours: 2,
      helpers: 1,
      area: null,
    });
  });

  const bad: [string, string, string][] = [
    ['', 'category', 'missing_parameter'],
    ['category=PLUMBING', 'category', 'invalid_enum_value'],
    ['category=GARDENING&hours=2&duration_hours=3', 'hours', 'conflicting_parameters'],
    ['category=GARDENING&lat=49', 'lng', 'missing_parameter'],
    ['category=GARDENING&lng=8.4', 'lat', 'missing_parameter'],
    ['category=GARDENING&helpers=5', 'helpers', 'parameter_out_of_range'],
    ['category=GARDENING&helpers=0', 'helpers', 'parameter_out_of_range'],
    ['category=GARDENING&duration_hours=0', 'duration_hours', 'parameter_out_of_range'],
    ['category=GARDENING&duration_hours=101', 'duration_hours', 'parameter_out_of_range'],
    ['category=GARDENING&hours=-1', 'hours', 'parameter_out_of_range'],
    ['category=GARDENING&duration=2', 'duration', 'unknown_parameter'],
  ];
  for (const [query, param, code] of bad) {
    test(`${query || '(no parameters)'} -> 400 ${code}`, async (t) => {
      const { app } = await buildTestApp(t);
      const { status, body } = await getJson(app, `/v1/estimate?${query}`);
      assert.equal(status, 400);
      assert.equal(body.error, code);
      assert.equal(body.param, param);
      assert.equal(body.alternatives_count, body.alternatives.length);
    });
  }

  test('a missing category lists the values to choose from', async (t) => {
    const { app } = await buildTestApp(t);
    const { body } = await getJson(app, '/v1/estimate');
    assert.equal(body.message, "The query parameter 'category' is required.");
    assert.equal(body.alternatives_count, 10);
  });
});
