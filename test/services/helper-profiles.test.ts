import assert from 'node:assert/strict';
import { describe, type TestContext, test } from 'node:test';
import { buildTestApp, clientFor, createKey } from '../helpers/app.js';
import { helperFixture, insert } from '../helpers/fixtures.js';
import { shownLocation } from '../helpers/places.js';

async function setup(t: TestContext) {
  const { app, db } = await buildTestApp(t);
  const mine = await createKey(db, { email: 'helper@example.org' });
  const other = await createKey(db, { email: 'other@example.org' });
  return { app, db, me: clientFor(app, mine.key), other: clientFor(app, other.key), anonymous: clientFor(app, null) };
}

const HELPER = {
  display_name: 'Jonas W.',
  categories: ['moving', 'GARDENING'],
  location: { plz: '76227' },
  hourly_rate_eur: 18.5,
  availability: { weekdays: ['sat', 'Mon', 'wed'], from: '08:00', to: '18:30' },
  bio: 'Student, kräftig, mit Lastenrad.',
};

/** What a fresh record looks like: nothing done yet, not verified (reliabilityScore of it: 48, the neutral start). */
const FRESH = {
  reliability_score: 48,
  completed_jobs: 0,
  avg_response_minutes: 0,
  cancellation_rate: 0,
  rating_avg: 0,
  rating_count: 0,
  verified: false,
};

describe('POST /v1/helpers', () => {
  test('registers an unverified profile of the account: 201 with the public profile', async (t) => {
    const { me, anonymous, db } = await setup(t);
    const { status, body } = await me.post('/v1/helpers', HELPER);
    assert.equal(status, 201);
    assert.match(body.id, /^hlp_[0-9a-f]{16}$/);
    assert.deepEqual(body, {
      id: body.id,
      display_name: 'Jonas W.',
      categories: ['GARDENING', 'MOVING'],
      hourly_rate_eur: 18.5,
      location: { city: 'Karlsruhe', district: 'Durlach', plz: '76227', distance_km: body.location.distance_km },
      reliability: FRESH,
      availability: { weekdays: ['mon', 'wed', 'sat'], from: '08:00', to: '18:30' },
      available: true,
      bio: 'Student, kräftig, mit Lastenrad.',
    });
    assert.deepEqual((await anonymous.get(`/v1/helpers/${body.id}`)).body, body);
    const row = await db.kysely.selectFrom('helpers').selectAll().where('id', '=', body.id).executeTakeFirstOrThrow();
    assert.ok(row.account_id?.startsWith('acc_'));
    assert.deepEqual([row.exact_lat, row.exact_lng, row.hourly_rate_cents, row.verified], [48.9921, 8.4684, 1850, 0]);
    // The distance is the shown point's, a few hundred metres from the place.
    const shown = shownLocation(
      { city: 'Karlsruhe', district: 'Durlach', plz: '76227', lat: 48.9921, lng: 8.4684 },
      row,
    );
    assert.equal(body.location.distance_km, shown.distance_km);
  });

  test('defaults: any time, available, no bio; coordinates are stored but never shown', async (t) => {
    const { me } = await setup(t);
    const { status, body } = await me.post('/v1/helpers', {
      display_name: 'Ada',
      categories: ['TECH_REPAIR'],
      location: { lat: 49.015, lng: 8.412 },
      hourly_rate_eur: 30,
    });
    assert.equal(status, 201);
    assert.deepEqual(
      { availability: body.availability, available: body.available, bio: body.bio, location: body.location },
      {
        availability: null,
        available: true,
        bio: '',
        location: {
          city: 'Karlsruhe',
          district: 'Innenstadt-Ost',
          plz: '76131',
          distance_km: body.location.distance_km,
        },
      },
    );
    // From the shown point, at most 0.5 km from the place's 1.09 km.
    assert.ok(Math.abs(body.location.distance_km - 1.09) <= 0.51, String(body.location.distance_km));
    assert.ok(!JSON.stringify(body).includes('49.015'));
  });

  test('new profiles do not count in availability or smart_eta_minutes until verified', async (t) => {
    const { me, anonymous, db } = await setup(t);
    const helper = (await me.post('/v1/helpers', HELPER)).body;
    const count = async () =>
      (await anonymous.get('/v1/helpers/availability?category=GARDENING&lat=48.9921&lng=8.4684')).body
        .available_helpers;
    assert.equal(await count(), 0);
    await db.kysely.updateTable('helpers').set({ verified: 1 }).where('id', '=', helper.id).execute();
    assert.equal(await count(), 1);
    assert.equal((await anonymous.get('/v1/stats')).body.totals.helpers, 1);
  });

  test('validation: ranges, time windows, duplicates, enum case and unknown fields', async (t) => {
    const { me } = await setup(t);
    const cases: [object, string, string][] = [
      [{ display_name: 'A' }, 'display_name', 'parameter_out_of_range'],
      [{ categories: [] }, 'categories', 'invalid_parameter'],
      [{ categories: ['gardening', 'GARDENING'] }, 'categories', 'invalid_parameter'],
      [{ categories: ['Garten'] }, 'categories.0', 'invalid_enum_value'],
      [{ hourly_rate_eur: 4.99 }, 'hourly_rate_eur', 'parameter_out_of_range'],
      [{ hourly_rate_eur: 20.001 }, 'hourly_rate_eur', 'invalid_parameter'],
      [{ availability: { weekdays: [], from: '08:00', to: '12:00' } }, 'availability.weekdays', 'invalid_parameter'],
      [{ availability: { weekdays: ['mon'], from: '8:00', to: '12:00' } }, 'availability.from', 'invalid_parameter'],
      [{ availability: { weekdays: ['mon'], from: '24:00', to: '12:00' } }, 'availability.from', 'invalid_parameter'],
      [
        { availability: { weekdays: ['mon'], from: '12:00', to: '12:00' } },
        'availability.to',
        'conflicting_parameters',
      ],
      [{ bio: 'x'.repeat(1001) }, 'bio', 'parameter_out_of_range'],
      [{ location: { lat: 48.4, lng: 8.4 } }, 'location', 'invalid_location'],
      [{ verified: true }, 'verified', 'unknown_parameter'],
      [{ reliability_score: 100 }, 'reliability_score', 'unknown_parameter'],
    ];
    for (const [fields, param, error] of cases) {
      const { status, body } = await me.post('/v1/helpers', { ...HELPER, ...fields });
      assert.equal(status, 400, JSON.stringify(fields));
      assert.deepEqual([body.param, body.error], [param, error], JSON.stringify(body));
    }
    const weekday = await me.post('/v1/helpers', {
      ...HELPER,
      availability: { ...HELPER.availability, weekdays: ['Montag'] },
    });
    assert.deepEqual(weekday.body, {
      error: 'invalid_enum_value',
      message: "availability.weekdays.0 must be one of mon, tue, wed, thu, fri, sat, sun; got 'Montag'.",
      param: 'availability.weekdays.0',
      suggestion: "Did you mean 'mon'?",
      alternatives: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
      alternatives_count: 7,
    });
    const twice = await me.post('/v1/helpers', { ...HELPER, categories: ['MOVING', 'moving'] });
    assert.equal(twice.body.message, 'categories lists "MOVING" more than once.');
  });

  test('anonymous callers get 401', async (t) => {
    const { anonymous } = await setup(t);
    const response = await anonymous.post('/v1/helpers', HELPER);
    assert.equal(response.status, 401);
    assert.equal(response.body.error, 'authentication_required');
  });
});

describe('GET /v1/helpers/{id}', () => {
  test('any helper, anonymously; unknown ids 404', async (t) => {
    const { anonymous, db } = await setup(t);
    const seeded = helperFixture(['PETCARE', 'CLEANING'], { id: 'hlp_00000000000000aa' });
    await insert(db.kysely, { helpers: [seeded] });
    const { status, body } = await anonymous.get('/v1/helpers/hlp_00000000000000aa');
    assert.equal(status, 200);
    assert.deepEqual(body, {
      id: 'hlp_00000000000000aa',
      display_name: 'Jonas W.',
      categories: ['CLEANING', 'PETCARE'],
      hourly_rate_eur: 16,
      location: { city: 'Karlsruhe', district: 'Innenstadt-Ost', plz: '76131', distance_km: 0.96 },
      reliability: {
        reliability_score: 80,
        completed_jobs: 20,
        avg_response_minutes: 30,
        cancellation_rate: 0.05,
        rating_avg: 4.6,
        rating_count: 15,
        verified: true,
      },
      availability: null,
      available: true,
      bio: 'Ich helfe gern.',
    });
    const unknown = await anonymous.get('/v1/helpers/hlp_ffffffffffffffff');
    assert.equal(unknown.status, 404);
    assert.deepEqual(unknown.body, {
      error: 'not_found',
      message: "No helper has the id 'hlp_ffffffffffffffff'.",
      param: 'id',
      suggestion: 'Check the id (helper ids start with hlp_); GET /v1/helpers/availability lists verified helpers.',
      alternatives: [],
      alternatives_count: 0,
    });
    // The static route still wins over the id.
    assert.equal((await anonymous.get('/v1/helpers/availability')).body.radius_km, 50);
  });
});

describe('PATCH /v1/helpers/{id}', () => {
  test('the owning account changes fields; categories are replaced', async (t) => {
    const { me } = await setup(t);
    const helper = (await me.post('/v1/helpers', HELPER)).body;
    const { status, body } = await me.patch(`/v1/helpers/${helper.id}`, {
      categories: ['petcare'],
      hourly_rate_eur: 20,
      availability: null,
      available: false,
      location: { plz: '76131' },
    });
    assert.equal(status, 200);
    assert.deepEqual(body, {
      ...helper,
      categories: ['PETCARE'],
      hourly_rate_eur: 20,
      availability: null,
      available: false,
      location: { city: 'Karlsruhe', district: 'Innenstadt-Ost', plz: '76131', distance_km: body.location.distance_km },
    });
    assert.ok(Math.abs(body.location.distance_km - 0.96) <= 0.51, String(body.location.distance_km));
    const onlyCategories = await me.patch(`/v1/helpers/${helper.id}`, { categories: ['CLEANING', 'MOVING'] });
    assert.deepEqual(onlyCategories.body.categories, ['CLEANING', 'MOVING']);
    const nothing = await me.patch(`/v1/helpers/${helper.id}`, {});
    assert.deepEqual(nothing.body, onlyCategories.body);
  });

  test("another account's helper, a seeded one and unknown ids answer 404; anonymous 401", async (t) => {
    const { me, other, anonymous, db } = await setup(t);
    const helper = (await me.post('/v1/helpers', HELPER)).body;
    await insert(db.kysely, { helpers: [helperFixture(['GARDENING'], { id: 'hlp_00000000000000bb' })] });
    for (const id of [helper.id, 'hlp_00000000000000bb', 'hlp_ffffffffffffffff']) {
      const response = await other.patch(`/v1/helpers/${id}`, { display_name: 'Gekapert' });
      assert.equal(response.status, 404, id);
      assert.deepEqual(response.body, {
        error: 'not_found',
        message: `No helper with the id '${id}' is yours to change.`,
        param: 'id',
        suggestion:
          'Check the id; you can change only what your account created or what concerns it. GET /v1/helpers/availability lists what exists.',
        alternatives: [],
        alternatives_count: 0,
      });
    }
    assert.equal((await anonymous.patch(`/v1/helpers/${helper.id}`, { display_name: 'Gekapert' })).status, 401);
    assert.equal((await me.get(`/v1/helpers/${helper.id}`)).body.display_name, 'Jonas W.');
    const verified = await me.patch(`/v1/helpers/${helper.id}`, { verified: true });
    assert.equal(verified.status, 400);
    assert.equal(verified.body.error, 'unknown_parameter');
  });
});
