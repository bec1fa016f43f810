import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildTestApp, getJson } from '../helpers/app.js';
import { AT, insert, listingFixture, ownerFixture } from '../helpers/fixtures.js';

describe('GET /v1/listings/{id}', () => {
  test('answers the whole Listing with the owner reliability', async (t) => {
    const { app, db } = await buildTestApp(t);
    const owner = ownerFixture({ id: 'own_0000000000000001' });
    await insert(db.kysely, { owners: [owner], listings: [listingFixture(owner.id, { id: 'lst_00000000000000aa' })] });

    const { status, body } = await getJson(app, '/v1/listings/lst_00000000000000aa');

    assert.equal(status, 200);
    assert.deepEqual(body, {
      id: 'lst_00000000000000aa',
      title: 'Bohrmaschine Bosch PSB 750 zu verleihen',
      description: 'Schlagbohrmaschine mit Koffer und Bohrersatz.',
      category: 'TECH_REPAIR',
      type: 'lending',
      status: 'available',
      price_per_day_eur: 8,
      price_per_week_eur: 35,
      deposit_eur: 50,
      late_fee_per_day_eur: null,
      condition: 'good',
      location: {
        city: 'Karlsruhe',
        plz: '76131',
        district: 'Innenstadt-Ost',
        lat: 49.0142,
        lng: 8.4108,
        distance_km: 0.96,
      },
      instant_booking: true,
      cancellation_policy: 'flexible',
      min_lead_hours: 0,
      buffer_hours: 0,
      max_booking_days: null,
      price_per_hour_eur: null,
      min_hours: 1,
      opening_hours: null,
      photos: [],
      owner_reliability: {
        reliability_score: 88,
        completed_jobs: 40,
        avg_response_minutes: 25,
        cancellation_rate: 0.02,
        rating_avg: 4.8,
        rating_count: 31,
        verified: true,
      },
      provider: null,
    });
  });

  test('an unknown id is a 404 ApiError with similar available listings', async (t) => {
    const { app, db } = await buildTestApp(t);
    const owner = ownerFixture();
    await insert(db.kysely, {
      owners: [owner],
      listings: [listingFixture(owner.id, { id: 'lst_0000000000000001', title: 'Leiter' })],
    });
    const { status, body } = await getJson(app, '/v1/listings/lst_nope');
    assert.equal(status, 404);
    assert.deepEqual(body, {
      error: 'not_found',
      message: "No listing has the id 'lst_nope'.",
      param: 'id',
      suggestion:
        'Check the id (listing ids start with lst_), or find listings with GET /v1/listings. Available listings with similar ids are listed in alternatives.',
      alternatives: [{ id: 'lst_0000000000000001', title: 'Leiter', url: '/v1/listings/lst_0000000000000001' }],
      alternatives_count: 1,
    });
  });
});

describe('GET /v1/listings', () => {
  test('the page has data, total, limit, offset and has_more, as job pages do; available listings only', async (t) => {
    const { app, db } = await buildTestApp(t);
    const owner = ownerFixture();
    await insert(db.kysely, {
      owners: [owner],
      listings: [
        listingFixture(owner.id, { id: 'lst_0000000000000001', created_at: '2026-11-02T10:00:00.000Z' }),
        listingFixture(owner.id, { id: 'lst_0000000000000002', created_at: '2026-11-03T10:00:00.000Z' }),
        listingFixture(owner.id, { id: 'lst_0000000000000003', status: 'paused' }),
        listingFixture(owner.id, { id: 'lst_0000000000000004', status: 'archived' }),
      ],
    });
    const { status, body } = await getJson(app, '/v1/listings?limit=1');
    assert.equal(status, 200);
    assert.deepEqual(Object.keys(body), ['data', 'total', 'limit', 'offset', 'has_more']);
    assert.equal(body.limit, 1);
    assert.equal(body.offset, 0);
    assert.deepEqual(
      body.data.map((l: any) => l.id),
      ['lst_0000000000000002'],
    );
    assert.equal(body.total, 2);
    assert.equal(body.has_more, true);
    const second = await getJson(app, '/v1/listings?limit=1&offset=1');
    assert.deepEqual(
      second.body.data.map((l: any) => l.id),
      ['lst_0000000000000001'],
    );
    assert.equal(second.body.has_more, false);
    const past = await getJson(app, '/v1/listings?offset=5');
    assert.deepEqual(past.body, { data: [], total: 2, limit: 20, offset: 5, has_more: false });
  });

  test('filters: category (any case), price_max per day, condition, instant_booking, radius; sorts', async (t) => {
    const { app, db } = await buildTestApp(t);
    const owner = ownerFixture();
    await insert(db.kysely, {
      owners: [owner],
      listings: [
        listingFixture(owner.id, {
          id: 'lst_0000000000000001',
          category: 'GARDENING',
          price_per_day_cents: 2500,
          condition: 'new',
          ...AT.pforzheim,
        }),
        listingFixture(owner.id, {
          id: 'lst_0000000000000002',
          category: 'EVENTS',
          price_per_day_cents: 4000,
          instant_booking: 0,
          ...AT.durlach,
        }),
        listingFixture(owner.id, { id: 'lst_0000000000000003', category: 'MOVING', price_per_day_cents: 150 }),
      ],
    });
    const ids = async (query: string) => (await getJson(app, `/v1/listings?${query}`)).body.data.map((l: any) => l.id);
    assert.deepEqual(await ids('category=gardening'), ['lst_0000000000000001']);
    assert.deepEqual(await ids('price_max=25&sort=price_asc'), ['lst_0000000000000003', 'lst_0000000000000001']);
    assert.deepEqual(await ids('condition=new'), ['lst_0000000000000001']);
    assert.deepEqual(await ids('instant_booking=false'), ['lst_0000000000000002']);
    assert.deepEqual(await ids('instant_booking=true&sort=price_desc'), [
      'lst_0000000000000001',
      'lst_0000000000000003',
    ]);
    assert.deepEqual(await ids('radius=6&sort=distance'), ['lst_0000000000000003', 'lst_0000000000000002']);
    assert.deepEqual(await ids('sort=price_desc'), [
      'lst_0000000000000002',
      'lst_0000000000000001',
      'lst_0000000000000003',
    ]);
  });

  const bad: [string, string, string][] = [
    ['limit=0', 'limit', 'parameter_out_of_range'],
    ['limit=101', 'limit', 'parameter_out_of_range'],
    ['radius=50.01', 'radius', 'parameter_out_of_range'],
    ['condition=broken', 'condition', 'invalid_enum_value'],
    ['price_max=-1', 'price_max', 'parameter_out_of_range'],
    ['price_max=cheap', 'price_max', 'invalid_parameter'],
    ['instant=true', 'instant', 'unknown_parameter'],
    ['budget_max=10', 'budget_max', 'unknown_parameter'],
  ];
  for (const [query, param, code] of bad) {
    test(`${query} -> 400 ${code}`, async (t) => {
      const { app } = await buildTestApp(t);
      const { status, body } = await getJson(app, `/v1/listings?${query}`);
      assert.equal(status, 400);
      assert.equal(body.error, code);
      assert.equal(body.param, param);
      assert.equal(body.alternatives_count, body.alternatives.length);
    });
  }

  test('an unknown parameter close to a known one is suggested', async (t) => {
    const { app } = await buildTestApp(t);
    const { body } = await getJson(app, '/v1/listings?instant=true');
    assert.equal(body.suggestion, "Did you mean 'instant_booking'?");
    assert.deepEqual(body.alternatives, ['instant_booking']);
  });
});

describe('a search outside the service area', () => {
  test('answers 200 with an empty page and a notice naming the service area; inside it, no notice', async (t) => {
    const { app, db } = await buildTestApp(t);
    const owner = ownerFixture();
    await insert(db.kysely, { owners: [owner], listings: [listingFixture(owner.id, { id: 'lst_0000000000000001' })] });
    const notice =
      'The search area (10 km around 52.52, 13.405) is 525.4 km from Karlsruhe, outside the service area: 50 km around Karlsruhe (49.0069, 8.4037). Search within it: leave out lat and lng, or name a place with near (GET /v1/places?q=... lists them).';
    for (const path of ['/v1/listings', '/v1/jobs']) {
      const far = await getJson(app, `${path}?lat=52.52&lng=13.405&radius=10`);
      assert.equal(far.status, 200, path);
      assert.deepEqual(far.body, { data: [], total: 0, limit: 20, offset: 0, has_more: false, notice }, path);
    }
    // A search area that reaches into the service area, even when nothing is found there: no notice.
    const edge = await getJson(app, '/v1/listings?lat=49.5&lng=8.4037&radius=10&category=GARDENING');
    assert.deepEqual(edge.body, { data: [], total: 0, limit: 20, offset: 0, has_more: false });
    const near = await getJson(app, '/v1/listings');
    assert.equal(near.body.total, 1);
    assert.equal(near.body.notice, undefined);
  });
});
