import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CATEGORIES } from '../../src/domain/categories.js';
import { buildTestApp, getJson } from '../helpers/app.js';
import { AT, helperFixture, insert } from '../helpers/fixtures.js';

async function withHelpers(t: Parameters<typeof buildTestApp>[0]) {
  const built = await buildTestApp(t);
  await insert(built.db.kysely, {
    helpers: [
      helperFixture(['GARDENING'], {
        id: 'hlp_0000000000000001',
        display_name: 'Anna M.',
        reliability_score: 95,
        ...AT.innenstadtOst,
      }),
      helperFixture(['GARDENING', 'CLEANING'], { id: 'hlp_0000000000000002', reliability_score: 95, ...AT.durlach }),
      helperFixture(['GARDENING'], { id: 'hlp_0000000000000003', reliability_score: 60, ...AT.ettlingen }),
      helperFixture(['GARDENING'], { id: 'hlp_0000000000000004', reliability_score: 99, verified: 0 }),
      helperFixture(['GARDENING'], { id: 'hlp_0000000000000005', reliability_score: 99, available: 0 }),
      helperFixture(['CLEANING'], { id: 'hlp_0000000000000006', reliability_score: 99 }),
      helperFixture(['GARDENING'], { id: 'hlp_0000000000000007', reliability_score: 90, ...AT.pforzheim }),
    ],
  });
  return built;
}

describe('GET /v1/helpers/availability', () => {
  test('counts verified, available helpers of the category; top ones by reliability then distance', async (t) => {
    const { app } = await withHelpers(t);
    const { status, body } = await getJson(app, '/v1/helpers/availability?category=GARDENING');
    assert.equal(status, 200);
    assert.deepEqual(
      { ...body, top_helpers: body.top_helpers.map((h: any) => h.id) },
      {
        category: 'GARDENING',
        query: 'GARDENING',
        location: { lat: 49.0069, lng: 8.4037 },
        radius_km: 50,
        min_reliability: 0,
        available_helpers: 4,
        avg_reliability: 85,
        nearest_km: 0.96,
        top_helpers: ['hlp_0000000000000001', 'hlp_0000000000000002', 'hlp_0000000000000007', 'hlp_0000000000000003'],
        suggestion: null,
        alternatives: [],
      },
    );
  });

  test('a top helper is a public profile: area and distance, no coordinates or contact data', async (t) => {
    const { app } = await withHelpers(t);
    const { body } = await getJson(app, '/v1/helpers/availability?category=gardening&min_reliability=95');
    assert.deepEqual(body.top_helpers[0], {
      id: 'hlp_0000000000000001',
      display_name: 'Anna M.',
      categories: ['GARDENING'],
      hourly_rate_eur: 16,
      location: { city: 'Karlsruhe', district: 'Innenstadt-Ost', plz: '76131', distance_km: 0.96 },
      reliability: {
        reliability_score: 95,
        completed_jobs: 20,
        avg_response_minutes: 30,
        cancellation_rate: 0.05,
        rating_avg: 4.6,
        rating_count: 15,
        verified: true,
      },
    });
    assert.deepEqual(body.top_helpers[1].categories, ['CLEANING', 'GARDENING']);
    assert.equal(body.available_helpers, 2);
  });

  test('German and English names, lower case, radius, min_reliability and location narrow it', async (t) => {
    const { app } = await withHelpers(t);
    const count = async (query: string) =>
      (await getJson(app, `/v1/helpers/availability?${query}`)).body.available_helpers as number;
    assert.equal(await count('category=Garten'), 4);
    assert.equal(await count('category=gardening'), 4);
    assert.equal(await count('category=Gartenarbeit'), 4);
    assert.equal(await count('category=Reinigung'), 2);
    assert.equal(await count('category=putzen'), 2);
    assert.equal(await count('category=GARDENING&min_reliability=80'), 3);
    assert.equal(await count('category=GARDENING&radius=10'), 3);
    assert.equal(await count(`category=GARDENING&lat=${AT.pforzheim.lat}&lng=${AT.pforzheim.lng}&radius=5`), 1);
    assert.equal(await count(''), 5);
  });

  test('a known category with nobody offering it: zero, and advice to widen the search', async (t) => {
    const { app } = await withHelpers(t);
    const { body } = await getJson(app, '/v1/helpers/availability?category=pet%20care');
    assert.equal(body.category, 'PETCARE');
    assert.equal(body.query, 'pet care');
    assert.equal(body.available_helpers, 0);
    assert.deepEqual(body.top_helpers, []);
    assert.equal(
      body.suggestion,
      'No helper matches here; widen radius, lower min_reliability, or try a nearby location.',
    );
    assert.deepEqual(body.alternatives, []);
  });

  test('an unknown term answers zero helpers with a did-you-mean', async (t) => {
    const { app } = await withHelpers(t);
    const { status, body } = await getJson(app, '/v1/helpers/availability?category=gartn');
    assert.equal(status, 200);
    assert.deepEqual(body, {
      category: null,
      query: 'gartn',
      location: { lat: 49.0069, lng: 8.4037 },
      radius_km: 50,
      min_reliability: 0,
      available_helpers: 0,
      avg_reliability: null,
      nearest_km: null,
      top_helpers: [],
      suggestion: "No category is called 'gartn'. Did you mean GARDENING?",
      alternatives: ['GARDENING'],
    });
    const unrelated = await getJson(app, '/v1/helpers/availability?category=xyzzyqq');
    assert.deepEqual(unrelated.body.alternatives, [...CATEGORIES]);
    assert.equal(unrelated.body.available_helpers, 0);
  });

  const bad: [string, string, string][] = [
    ['min_reliability=101', 'min_reliability', 'parameter_out_of_range'],
    ['min_reliability=-1', 'min_reliability', 'parameter_out_of_range'],
    ['min_reliability=50.5', 'min_reliability', 'invalid_parameter'],
    ['radius=51', 'radius', 'parameter_out_of_range'],
    ['lat=100', 'lat', 'parameter_out_of_range'],
    [`category=${'x'.repeat(61)}`, 'category', 'parameter_out_of_range'],
    ['categories=GARDENING', 'categories', 'unknown_parameter'],
  ];
  for (const [query, param, code] of bad) {
    test(`${query.slice(0, 40)} -> 400 ${code}`, async (t) => {
      const { app } = await buildTestApp(t);
      const { status, body } = await getJson(app, `/v1/helpers/availability?${query}`);
      assert.equal(status, 400);
      assert.equal(body.error, code);
      assert.equal(body.param, param);
    });
  }
});
