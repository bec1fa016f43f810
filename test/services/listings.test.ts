import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import type { Api } from '../../src/http/route-deps.js';
import { buildTestApp, createKey, getJson } from '../helpers/app.js';
import { insert, listingFixture, ownerFixture } from '../helpers/fixtures.js';
import { shownLocation } from '../helpers/places.js';

const DURLACH = { city: 'Karlsruhe', plz: '76227', district: 'Durlach', lat: 48.9921, lng: 8.4684 };
const INNENSTADT_OST = { city: 'Karlsruhe', plz: '76131', district: 'Innenstadt-Ost', lat: 49.0142, lng: 8.4108 };

type Method = 'GET' | 'POST' | 'PATCH';

async function call(app: Api, method: Method, url: string, key?: string, body?: unknown) {
  const response = await app.inject({
    method,
    url,
    headers: key ? { 'x-api-key': key } : {},
    ...(body === undefined ? {} : { payload: body as object }),
  });
  return { status: response.statusCode, body: response.json() as any };
}

/** A complete, valid create body; tests override what they look at. */
const BODY = {
  title: 'Bierzeltgarnitur',
  description: 'Ein Tisch und zwei Bänke für acht Personen, mit Transporttaschen.',
  category: 'EVENTS',
  price_per_day_eur: 12.5,
  price_per_week_eur: 50,
  deposit_eur: 40,
  condition: 'good',
  location: { plz: '76227' },
  instant_booking: true,
  photos: ['https://example.org/garnitur/1.jpg'],
};

/** The reliability a new owner starts with: an empty record scores 48 (the neutral start, see reliabilityScore). */
const FRESH_OWNER = {
  reliability_score: 48,
  completed_jobs: 0,
  avg_response_minutes: 0,
  cancellation_rate: 0,
  rating_avg: 0,
  rating_count: 0,
  verified: false,
};

async function setup(t: Parameters<typeof buildTestApp>[0]) {
  const { app, db } = await buildTestApp(t);
  const owner = await createKey(db, { email: 'owner@example.org' });
  const stranger = await createKey(db, { email: 'stranger@example.org' });
  const create = async (overrides: Record<string, unknown> = {}) => {
    const { status, body } = await call(app, 'POST', '/v1/listings', owner.key, { ...BODY, ...overrides });
    assert.equal(status, 201, JSON.stringify(body));
    return body;
  };
  return { app, db, owner, stranger, create };
}

describe('POST /v1/listings', () => {
  test('answers 201 with the whole Listing, exactly as GET shows it, owned by a fresh owner row', async (t) => {
    const { app, db, owner } = await setup(t);
    const { status, body } = await call(app, 'POST', '/v1/listings', owner.key, {
      ...BODY,
      title: '  Bierzeltgarnitur  ',
      category: 'events',
      condition: 'GOOD',
    });
    assert.equal(status, 201);
    assert.match(body.id, /^lst_[0-9a-f]{16}$/);
    assert.deepEqual(body, {
      id: body.id,
      title: 'Bierzeltgarnitur',
      description: 'Ein Tisch und zwei Bänke für acht Personen, mit Transporttaschen.',
      category: 'EVENTS',
      type: 'lending',
      status: 'available',
      price_per_day_eur: 12.5,
      price_per_week_eur: 50,
      deposit_eur: 40,
      late_fee_per_day_eur: null,
      condition: 'good',
      location: shownLocation(DURLACH, body.location),
      instant_booking: true,
      cancellation_policy: 'flexible',
      min_lead_hours: 0,
      buffer_hours: 0,
      max_booking_days: null,
      price_per_hour_eur: null,
      min_hours: 1,
      opening_hours: null,
      photos: ['https://example.org/garnitur/1.jpg'],
      owner_reliability: FRESH_OWNER,
      provider: null,
    });
    assert.deepEqual((await getJson(app, `/v1/listings/${body.id}`)).body, body);

    const owners = await db.kysely.selectFrom('owners').selectAll().execute();
    assert.equal(owners.length, 1);
    assert.equal(owners[0]?.account_id, owner.accountId);
    assert.equal(owners[0]?.display_name, 'Test D.'); // the account's name is "Test Developer"
  });

  test('optional fields take their defaults; coordinates keep their point', async (t) => {
    const { app, owner } = await setup(t);
    const { price_per_week_eur, deposit_eur, instant_booking, photos, ...required } = BODY;
    const { status, body } = await call(app, 'POST', '/v1/listings', owner.key, {
      ...required,
      location: { lat: 49.0142, lng: 8.4108 },
    });
    assert.equal(status, 201);
    assert.equal(body.price_per_week_eur, null);
    assert.equal(body.deposit_eur, 0);
    assert.equal(body.instant_booking, false);
    assert.deepEqual(body.photos, []);
    assert.deepEqual(body.location, shownLocation(INNENSTADT_OST, body.location));
  });

  test('a second listing of the same account reuses its owner row', async (t) => {
    const { db, create } = await setup(t);
    await create();
    await create({ title: 'Beamer' });
    assert.equal((await db.kysely.selectFrom('owners').select('id').execute()).length, 1);
    const listings = await db.kysely.selectFrom('listings').select('owner_id').execute();
    assert.equal(new Set(listings.map((l) => l.owner_id)).size, 1);
  });

  test('is in search, categories and stats at once; leaves search and counts once paused', async (t) => {
    const { app, owner, create } = await setup(t);
    assert.equal((await getJson(app, '/v1/stats')).body.totals.available_listings, 0);

    const listing = await create({ price_per_day_eur: 9 });
    const search = await getJson(app, '/v1/listings?category=events');
    assert.deepEqual(
      search.body.data.map((l: any) => l.id),
      [listing.id],
    );
    assert.deepEqual(search.body.data[0], { ...listing, location: shownLocation(DURLACH, listing.location) });
    const stats = (await getJson(app, '/v1/stats')).body;
    assert.equal(stats.totals.available_listings, 1);
    assert.equal(stats.totals.instant_booking_listings, 1);
    assert.equal(stats.pricing.median_price_per_day_eur, 9);
    const events = (await getJson(app, '/v1/categories?type=borrowing')).body.data.find((c: any) => c.id === 'EVENTS');
    assert.equal(events.borrowing.listings, 1);
    assert.deepEqual(events.borrowing.price_per_day_eur, { low: 9, median: 9, high: 9 });

    assert.equal((await call(app, 'POST', `/v1/listings/${listing.id}/pause`, owner.key)).status, 200);
    assert.equal((await getJson(app, '/v1/listings?category=events')).body.total, 0);
    assert.equal((await getJson(app, '/v1/stats')).body.totals.available_listings, 0);
    const paused = (await getJson(app, '/v1/categories?type=borrowing')).body.data.find((c: any) => c.id === 'EVENTS');
    assert.equal(paused.borrowing.listings, 0);
    assert.equal((await getJson(app, `/v1/listings/${listing.id}`)).body.status, 'paused');
  });

  test('a change is visible at once in get and search', async (t) => {
    const { app, owner, create } = await setup(t);
    const listing = await create();
    const patched = await call(app, 'PATCH', `/v1/listings/${listing.id}`, owner.key, {
      title: 'Festzeltgarnitur',
      category: 'other',
    });
    assert.equal(patched.status, 200);
    assert.equal((await getJson(app, `/v1/listings/${listing.id}`)).body.title, 'Festzeltgarnitur');
    assert.equal((await getJson(app, '/v1/listings?category=events')).body.total, 0);
    assert.equal((await getJson(app, '/v1/listings?category=OTHER')).body.data[0].title, 'Festzeltgarnitur');
  });

  test('refuses bodies that break the rules, naming the field', async (t) => {
    const { app, owner } = await setup(t);
    const cases: [Record<string, unknown>, number, string, string | null][] = [
      [{ id: 'lst_mine' }, 400, 'unknown_parameter', 'id'],
      [{ status: 'paused' }, 400, 'unknown_parameter', 'status'],
      [{ owner_reliability: {} }, 400, 'unknown_parameter', 'owner_reliability'],
      [{ type: 'lending' }, 400, 'unknown_parameter', 'type'],
      [{ price_per_day: 3 }, 400, 'unknown_parameter', 'price_per_day'],
      [{ title: 'ab' }, 400, 'parameter_out_of_range', 'title'],
      [{ title: '      ' }, 400, 'invalid_parameter', 'title'],
      [{ title: 'x'.repeat(121) }, 400, 'parameter_out_of_range', 'title'],
      [{ description: 'zu kurz' }, 400, 'parameter_out_of_range', 'description'],
      [{ category: 'Werkzeug' }, 400, 'invalid_enum_value', 'category'],
      [{ condition: 'used' }, 400, 'invalid_enum_value', 'condition'],
      [{ price_per_day_eur: 0.49 }, 400, 'parameter_out_of_range', 'price_per_day_eur'],
      [{ price_per_day_eur: 10_000.01 }, 400, 'parameter_out_of_range', 'price_per_day_eur'],
      [{ price_per_day_eur: 12.345 }, 400, 'invalid_parameter', 'price_per_day_eur'],
      [{ price_per_day_eur: '12' }, 400, 'invalid_parameter', 'price_per_day_eur'],
      [{ price_per_week_eur: 87.5 }, 400, 'conflicting_parameters', 'price_per_week_eur'],
      [{ price_per_week_eur: 50_000.01 }, 400, 'parameter_out_of_range', 'price_per_week_eur'],
      [{ deposit_eur: -1 }, 400, 'parameter_out_of_range', 'deposit_eur'],
      [{ deposit_eur: 100_001 }, 400, 'parameter_out_of_range', 'deposit_eur'],
      [{ deposit_eur: null }, 400, 'invalid_parameter', 'deposit_eur'],
      [{ location: { plz: '10115' } }, 400, 'invalid_location', 'location.plz'],
      [{ location: { lat: 52.52, lng: 13.4 } }, 400, 'invalid_location', 'location'],
      [{ location: { city: 'Karlsruhe' } }, 400, 'invalid_parameter', 'location'],
      [{ photos: ['http://example.org/a.jpg'] }, 400, 'invalid_parameter', 'photos.0'],
      [{ photos: [`https://example.org/${'a'.repeat(490)}.jpg`] }, 400, 'parameter_out_of_range', 'photos.0'],
      [
        { photos: Array.from({ length: 9 }, (_, i) => `https://example.org/${i}.jpg`) },
        400,
        'parameter_out_of_range',
        'photos',
      ],
      [{ instant_booking: 'yes' }, 400, 'invalid_parameter', 'instant_booking'],
    ];
    for (const [override, status, error, param] of cases) {
      const response = await call(app, 'POST', '/v1/listings', owner.key, { ...BODY, ...override });
      assert.equal(response.status, status, JSON.stringify(override));
      assert.equal(response.body.error, error, JSON.stringify(override));
      assert.equal(response.body.param, param, JSON.stringify(override));
    }
    const { title, ...untitled } = BODY;
    const missing = await call(app, 'POST', '/v1/listings', owner.key, untitled);
    assert.equal(missing.body.error, 'missing_parameter');
    assert.equal(missing.body.param, 'title');
  });

  test('the weekly price rule and unknown fields say why, with advice', async (t) => {
    const { app, owner } = await setup(t);
    const weekly = await call(app, 'POST', '/v1/listings', owner.key, { ...BODY, price_per_week_eur: 87.5 });
    assert.deepEqual(weekly.body, {
      error: 'conflicting_parameters',
      message:
        'price_per_week_eur (87.5) must be below 7 × price_per_day_eur (7 × 12.5 = 87.5): a week may not cost as much as seven single days.',
      param: 'price_per_week_eur',
      suggestion:
        'Send a price_per_week_eur below 87.5, a higher price_per_day_eur, or price_per_week_eur: null for no weekly price.',
      alternatives: [],
      alternatives_count: 0,
    });
    const unknown = await call(app, 'POST', '/v1/listings', owner.key, { ...BODY, deposit: 5 });
    assert.deepEqual(unknown.body, {
      error: 'unknown_parameter',
      message: "Unknown field 'deposit'.",
      param: 'deposit',
      suggestion: "Did you mean 'deposit_eur'?",
      alternatives: ['deposit_eur'],
      alternatives_count: 1,
    });
  });

  test('anonymous callers get 401 before their body is judged, on every listing write', async (t) => {
    const { app, db } = await setup(t);
    const owner = ownerFixture();
    const listing = listingFixture(owner.id);
    await insert(db.kysely, { owners: [owner], listings: [listing] });
    const writes: [Method, string, unknown][] = [
      ['POST', '/v1/listings', { nonsense: true }],
      ['PATCH', `/v1/listings/${listing.id}`, { title: 'Neu' }],
      ['POST', `/v1/listings/${listing.id}/pause`, undefined],
      ['POST', `/v1/listings/${listing.id}/resume`, undefined],
      ['POST', `/v1/listings/${listing.id}/archive`, undefined],
    ];
    for (const [method, url, body] of writes) {
      const response = await call(app, method, url, undefined, body);
      assert.equal(response.status, 401, url);
      assert.equal(response.body.error, 'authentication_required', url);
      assert.equal(response.body.param, 'X-API-Key');
    }
  });
});

describe('PATCH /v1/listings/{id}', () => {
  test('changes the fields sent, keeps the others, and answers the whole Listing', async (t) => {
    const { app, owner, create } = await setup(t);
    const listing = await create();
    const { status, body } = await call(app, 'PATCH', `/v1/listings/${listing.id}`, owner.key, {
      price_per_day_eur: 10,
      price_per_week_eur: null,
      instant_booking: false,
      photos: [],
      location: { plz: '76131' },
    });
    assert.equal(status, 200);
    assert.deepEqual(body, {
      ...listing,
      price_per_day_eur: 10,
      price_per_week_eur: null,
      instant_booking: false,
      photos: [],
      location: shownLocation(INNENSTADT_OST, body.location),
    });
    assert.deepEqual((await getJson(app, `/v1/listings/${listing.id}`)).body, body);
  });

  test('the weekly rule holds against the stored price too', async (t) => {
    const { app, owner, create } = await setup(t);
    const listing = await create(); // 12.50 a day, 50 a week
    const cheaperDay = await call(app, 'PATCH', `/v1/listings/${listing.id}`, owner.key, { price_per_day_eur: 7 });
    assert.equal(cheaperDay.status, 400);
    assert.equal(cheaperDay.body.error, 'conflicting_parameters');
    assert.equal(cheaperDay.body.param, 'price_per_day_eur');
    const dearerWeek = await call(app, 'PATCH', `/v1/listings/${listing.id}`, owner.key, { price_per_week_eur: 90 });
    assert.equal(dearerWeek.body.param, 'price_per_week_eur');
    const both = await call(app, 'PATCH', `/v1/listings/${listing.id}`, owner.key, {
      price_per_day_eur: 7,
      price_per_week_eur: 45,
    });
    assert.equal(both.status, 200);
    assert.equal((await getJson(app, `/v1/listings/${listing.id}`)).body.price_per_week_eur, 45);
  });

  test('someone else’s listing, a seeded one and an unknown id are all 404', async (t) => {
    const { app, db, stranger, create } = await setup(t);
    const listing = await create();
    const seededOwner = ownerFixture();
    const seeded = listingFixture(seededOwner.id);
    await insert(db.kysely, { owners: [seededOwner], listings: [seeded] });
    for (const id of [listing.id, seeded.id, 'lst_0000000000000bad']) {
      const response = await call(app, 'PATCH', `/v1/listings/${id}`, stranger.key, { title: 'Meins' });
      assert.equal(response.status, 404);
      assert.deepEqual(response.body, {
        error: 'not_found',
        message: `No listing with the id '${id}' is yours to change.`,
        param: 'id',
        suggestion:
          'Check the id; you can change only what your account created or what concerns it. GET /v1/listings lists what exists.',
        alternatives: [],
        alternatives_count: 0,
      });
    }
    assert.equal((await getJson(app, `/v1/listings/${listing.id}`)).body.title, 'Bierzeltgarnitur');
  });

  test('an archived listing cannot be changed: 409', async (t) => {
    const { app, owner, create } = await setup(t);
    const listing = await create();
    await call(app, 'POST', `/v1/listings/${listing.id}/archive`, owner.key);
    const response = await call(app, 'PATCH', `/v1/listings/${listing.id}`, owner.key, { title: 'Wieder da' });
    assert.equal(response.status, 409);
    assert.deepEqual(response.body, {
      error: 'invalid_state_transition',
      message: "The listing is archived; 'update' is not possible from there.",
      param: null,
      suggestion: 'This listing is archived and cannot change any more.',
      alternatives: [],
      alternatives_count: 0,
    });
  });
});

describe('POST /v1/listings/{id}/pause, /resume, /archive', () => {
  test('every legal transition answers 200 with the listing in its new state', async (t) => {
    const { app, owner, create } = await setup(t);
    const listing = await create();
    const steps: [string, string][] = [
      ['pause', 'paused'],
      ['resume', 'available'],
      ['archive', 'archived'],
    ];
    for (const [action, status] of steps) {
      const response = await call(app, 'POST', `/v1/listings/${listing.id}/${action}`, owner.key);
      assert.equal(response.status, 200, action);
      assert.deepEqual(response.body, { ...listing, status });
    }
    const pausedFirst = await create();
    await call(app, 'POST', `/v1/listings/${pausedFirst.id}/pause`, owner.key);
    const archived = await call(app, 'POST', `/v1/listings/${pausedFirst.id}/archive`, owner.key);
    assert.equal(archived.body.status, 'archived');
  });

  test('every illegal transition answers 409 naming the state, with the allowed actions', async (t) => {
    const { app, owner, create } = await setup(t);
    const available = await create();
    const paused = await create();
    await call(app, 'POST', `/v1/listings/${paused.id}/pause`, owner.key);
    const archived = await create();
    await call(app, 'POST', `/v1/listings/${archived.id}/archive`, owner.key);
    const cases: [string, string, string, string[]][] = [
      [available.id, 'resume', 'available', ['pause', 'archive']],
      [paused.id, 'pause', 'paused', ['resume', 'archive']],
      [archived.id, 'pause', 'archived', []],
      [archived.id, 'resume', 'archived', []],
      [archived.id, 'archive', 'archived', []],
    ];
    for (const [id, action, state, allowed] of cases) {
      const response = await call(app, 'POST', `/v1/listings/${id}/${action}`, owner.key);
      assert.equal(response.status, 409, `${action} from ${state}`);
      assert.deepEqual(response.body, {
        error: 'invalid_state_transition',
        message: `The listing is ${state}; '${action}' is not possible from there.`,
        param: null,
        suggestion:
          allowed.length > 0
            ? `From ${state} you can: ${allowed.join(', ')}.`
            : `This listing is ${state} and cannot change any more.`,
        alternatives: allowed,
        alternatives_count: allowed.length,
      });
    }
  });

  test('a stranger gets 404 and changes nothing', async (t) => {
    const { app, stranger, create } = await setup(t);
    const listing = await create();
    for (const action of ['pause', 'resume', 'archive']) {
      const response = await call(app, 'POST', `/v1/listings/${listing.id}/${action}`, stranger.key);
      assert.equal(response.status, 404, action);
      assert.equal(response.body.error, 'not_found');
    }
    assert.equal((await getJson(app, `/v1/listings/${listing.id}`)).body.status, 'available');
  });
});

describe('hostile listing bodies', () => {
  test('whatever a key holder sends, the answer is below 500 and every error an ApiError', async (t) => {
    const { app, owner, create } = await setup(t);
    const listing = await create();
    const field = fc.constantFrom(...Object.keys(BODY), 'status', 'id', '__proto__', 'constructor', 'Title');
    const body = fc.oneof(
      fc.jsonValue(),
      // A valid body with some fields replaced by anything or dropped.
      fc.array(fc.tuple(field, fc.option(fc.jsonValue(), { nil: undefined })), { maxLength: 4 }).map((changes) => {
        const mutated: Record<string, unknown> = { ...BODY };
        for (const [name, value] of changes) {
          if (value === undefined) delete mutated[name];
          else mutated[name] = value;
        }
        return mutated;
      }),
    );
    await fc.assert(
      fc.asyncProperty(body, fc.boolean(), async (payload, patch) => {
        const response = await app.inject({
          method: patch ? 'PATCH' : 'POST',
          url: patch ? `/v1/listings/${listing.id}` : '/v1/listings',
          headers: { 'x-api-key': owner.key, 'content-type': 'application/json' },
          payload: JSON.stringify(payload),
        });
        assert.ok(response.statusCode < 500, `${response.statusCode} for ${JSON.stringify(payload)}: ${response.body}`);
        if (response.statusCode >= 400) {
          // `errors` lists the problems when a body has several (docs/api.md, Errors).
          assert.deepEqual(
            Object.keys(response.json()).filter((key) => key !== 'errors'),
            ['error', 'message', 'param', 'suggestion', 'alternatives', 'alternatives_count'],
          );
        }
      }),
      { numRuns: 400, seed: 20261120 },
    );
  });
});
