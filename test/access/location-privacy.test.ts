/**
 * Issue 14, item 1: homes cannot be located from public answers. The attacks of the report, run
 * through HTTP: trilateration from the distances /v1/helpers/availability and job searches give,
 * bisection of the radius filter, and averaging several objects of one account. Each recovers the
 * approximate point to metres (the attack works), and that point is 200-500 m from the home.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PLACE_OFFSET_MAX_M, PLACE_OFFSET_MIN_M } from '../../src/domain/approximate-place.js';
import { haversineKm, KM_PER_DEGREE, type LatLng, pointAt } from '../../src/domain/geo.js';
import type { Api } from '../../src/http/route-deps.js';
import { PLACE_RELEASES_PER_ACCOUNT_PER_DAY } from '../../src/services/places.js';
import { buildTestApp, createKey, NOW, sendJson } from '../helpers/app.js';
import { JOB_BODY, LISTING_BODY } from '../helpers/bodies.js';
import { assertShownNear } from '../helpers/places.js';

/** A home in the Südweststadt; the stored point every attack is after. */
const HOME = { lat: 49.00312, lng: 8.38657 };
/** Rounding of the shown point to 4 decimals moves it by at most about 6 m (as helpers/places.ts allows). */
const SLACK_M = 10;

const metres = (a: LatLng, b: LatLng) => haversineKm(a, b) * 1000;

function client(app: Api, key?: string) {
  return {
    get: (url: string) => sendJson(app, 'GET', url, key),
    post: (url: string, payload?: object) => sendJson(app, 'POST', url, key, payload),
  };
}

/** A point `km` from `from` towards `bearingDeg`. */
const moved = (from: LatLng, km: number, bearingDeg: number) => pointAt(from, km, (bearingDeg * Math.PI) / 180);

/**
 * Least-squares trilateration in a local plane: the point whose distances to the centres best
 * match the measured ones (linearised by subtracting the first circle, then Gauss-Newton).
 */
function trilaterate(samples: { center: LatLng; km: number }[]): LatLng {
  const origin = samples[0]?.center as LatLng;
  const kx = KM_PER_DEGREE * Math.cos((origin.lat * Math.PI) / 180);
  const ky = KM_PER_DEGREE;
  const xy = (p: LatLng) => [(p.lng - origin.lng) * kx, (p.lat - origin.lat) * ky] as const;
  let [x, y] = samples.reduce(([sx, sy], s) => [sx + xy(s.center)[0], sy + xy(s.center)[1]], [0, 0]);
  [x, y] = [x / samples.length, y / samples.length];
  for (let i = 0; i < 50; i++) {
    let [a11, a12, a22, b1, b2] = [0, 0, 0, 0, 0];
    for (const s of samples) {
      const [cx, cy] = xy(s.center);
      const d = Math.hypot(x - cx, y - cy) || 1e-9;
      const [jx, jy] = [(x - cx) / d, (y - cy) / d];
      const r = d - s.km;
      a11 += jx * jx;
      a12 += jx * jy;
      a22 += jy * jy;
      b1 += jx * r;
      b2 += jy * r;
    }
    const det = a11 * a22 - a12 * a12;
    x -= (a22 * b1 - a12 * b2) / det;
    y -= (a11 * b2 - a12 * b1) / det;
  }
  return { lat: origin.lat + y / ky, lng: origin.lng + x / kx };
}

/** The approximate point is within the documented band around the home: not closer, not farther. */
const assertInBand = (point: LatLng, what: string) => assertShownNear(point, HOME, what);

const CENTERS = [0, 72, 144, 216, 288].map((bearing) => moved(HOME, 4, bearing));

test('trilateration from the distances of /v1/helpers/availability finds the approximate point, not the home', async (t) => {
  const { app, db } = await buildTestApp(t);
  const { key } = await createKey(db);
  const created = await client(app, key).post('/v1/helpers', {
    display_name: 'Jonas W.',
    categories: ['GARDENING'],
    location: HOME,
    hourly_rate_eur: 18,
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  // Availability counts verified helpers; verification is the platform's.
  await db.kysely.updateTable('helpers').set({ verified: 1 }).where('id', '=', created.body.id).execute();

  const anonymous = client(app);
  const samples = [];
  for (const center of CENTERS) {
    const { status, body } = await anonymous.get(
      `/v1/helpers/availability?category=GARDENING&lat=${center.lat}&lng=${center.lng}&radius=10`,
    );
    assert.equal(status, 200);
    const helper = body.top_helpers.find((h: any) => h.id === created.body.id);
    assert.ok(helper, 'the helper is among the top helpers');
    assert.deepEqual(Object.keys(helper.location).sort(), ['city', 'distance_km', 'district', 'plz']);
    samples.push({ center, km: helper.location.distance_km });
  }
  const estimate = trilaterate(samples);
  const exact = await client(app, key).get(`/v1/helpers/${created.body.id}/location`);
  assert.equal(exact.status, 200);
  assert.deepEqual(exact.body, {
    id: created.body.id,
    ...HOME,
    city: 'Karlsruhe',
    plz: '76137',
    district: 'Südweststadt',
  });
  assertInBand(estimate, 'the trilaterated point');
});

test('radius-boundary bisection and the shown coordinates of a job find the approximate point, not the home', async (t) => {
  const { app, db } = await buildTestApp(t);
  const { key } = await createKey(db);
  const created = await client(app, key).post('/v1/jobs', { ...JOB_BODY, location: HOME });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const id = created.body.id;
  assertInBand(created.body.location, 'the shown lat/lng of the created job');

  const anonymous = client(app);
  const { body: got } = await anonymous.get(`/v1/jobs/${id}`);
  assert.deepEqual(got.location, created.body.location, 'get by id shows the same point as the write answer');

  const found = async (center: LatLng, radius: number) => {
    const { status, body } = await anonymous.get(`/v1/jobs?lat=${center.lat}&lng=${center.lng}&radius=${radius}`);
    assert.equal(status, 200);
    return body.data.some((job: any) => job.id === id);
  };
  const samples = [];
  for (const center of CENTERS.slice(0, 4)) {
    let [inside, outside] = [10, 0.5];
    assert.equal(await found(center, inside), true);
    assert.equal(await found(center, outside), false);
    for (let i = 0; i < 24; i++) {
      const mid = (inside + outside) / 2;
      if (await found(center, mid)) inside = mid;
      else outside = mid;
    }
    samples.push({ center, km: inside });
  }
  const estimate = trilaterate(samples);
  assert.ok(metres(estimate, created.body.location) < 5, 'the bisection does recover the shown point');
  assertInBand(estimate, 'the bisected point');
});

test('objects an account puts at one place show one point; another account at the same place shows another', async (t) => {
  const { app, db } = await buildTestApp(t);
  const owner = client(app, (await createKey(db, { email: 'a@example.org' })).key);
  const other = client(app, (await createKey(db, { email: 'b@example.org' })).key);
  const shown = [];
  for (let i = 0; i < 6; i++) {
    const { status, body } = await owner.post('/v1/listings', { ...LISTING_BODY, title: `Ding ${i}`, location: HOME });
    assert.equal(status, 201);
    shown.push(body.location);
  }
  const job = await owner.post('/v1/jobs', { ...JOB_BODY, location: HOME });
  shown.push(job.body.location);
  for (const location of shown) {
    assert.deepEqual([location.lat, location.lng], [shown[0].lat, shown[0].lng], 'averaging gets nowhere');
  }
  assertInBand(shown[0], 'the shared shown point');
  // The same flat typed in with a few metres of GPS jitter: every point moves by the same vector,
  // so the mean of many shown points is as far from the home as each of them.
  const jittered = [];
  for (let i = 0; i < 8; i++) {
    const place = { lat: HOME.lat + ((i % 3) - 1) * 0.00003, lng: HOME.lng + ((i % 4) - 1.5) * 0.00004 };
    const { body } = await owner.post('/v1/listings', { ...LISTING_BODY, title: `Teil ${i}`, location: place });
    jittered.push(body.location);
  }
  const mean = {
    lat: jittered.reduce((sum, p) => sum + p.lat, 0) / jittered.length,
    lng: jittered.reduce((sum, p) => sum + p.lng, 0) / jittered.length,
  };
  assertInBand(mean, 'the mean of jittered shown points');
  const theirs = await other.post('/v1/jobs', { ...JOB_BODY, location: HOME });
  assertInBand(theirs.body.location, "the other account's shown point");
  assert.notDeepEqual([theirs.body.location.lat, theirs.body.location.lng], [shown[0].lat, shown[0].lng]);
});

test('the documented band holds for many places, and events carry only the approximate point', async (t) => {
  const { app, db } = await buildTestApp(t);
  const owner = client(app, (await createKey(db)).key);
  let nearest = Number.POSITIVE_INFINITY;
  let farthest = 0;
  for (let i = 0; i < 40; i++) {
    const place = moved({ lat: 49.0069, lng: 8.4037 }, (i % 10) + 0.3, i * 37);
    const { status, body } = await owner.post('/v1/jobs', { ...JOB_BODY, location: place });
    assert.equal(status, 201, JSON.stringify(body));
    const m = metres(body.location, place);
    [nearest, farthest] = [Math.min(nearest, m), Math.max(farthest, m)];
    const events = await db.kysely
      .selectFrom('events')
      .select(['lat', 'lng', 'payload'])
      .where('subject_id', '=', body.id)
      .execute();
    for (const event of events) {
      assert.deepEqual([event.lat, event.lng], [body.location.lat, body.location.lng]);
      assert.ok(!event.payload.includes(String(place.lat)), 'the exact latitude is in no event');
    }
  }
  assert.ok(nearest >= PLACE_OFFSET_MIN_M - SLACK_M, `nearest shown point ${nearest.toFixed(0)} m`);
  assert.ok(farthest <= PLACE_OFFSET_MAX_M + SLACK_M, `farthest shown point ${farthest.toFixed(0)} m`);
});

test('the exact place goes to the owner and, once accepted or on the booking’s first day, the other party; everyone else gets 404', async (t) => {
  let now = NOW.getTime();
  const { app, db } = await buildTestApp(t, () => new Date(now));
  const owner = client(app, (await createKey(db, { email: 'owner@example.org' })).key);
  const helper = client(app, (await createKey(db, { email: 'helper@example.org' })).key);
  const stranger = client(app, (await createKey(db, { email: 'stranger@example.org' })).key);
  const anonymous = client(app);

  const job = (await owner.post('/v1/jobs', { ...JOB_BODY, location: HOME })).body;
  const place = { id: job.id, city: 'Karlsruhe', plz: '76137', district: 'Südweststadt', ...HOME };
  const mine = await owner.get(`/v1/jobs/${job.id}/location`);
  assert.equal(mine.status, 200);
  assert.deepEqual(mine.body, place);
  assert.equal(mine.headers['cache-control'], 'private, no-store');
  for (const [who, c] of [
    ['stranger', stranger],
    ['helper before acceptance', helper],
  ] as const) {
    const r = await c.get(`/v1/jobs/${job.id}/location`);
    assert.equal(r.status, 404, who);
    assert.equal(r.body.error, 'not_found');
  }
  assert.equal((await anonymous.get(`/v1/jobs/${job.id}/location`)).status, 401);

  const profile = await helper.post('/v1/helpers', {
    display_name: 'Jonas W.',
    categories: ['GARDENING'],
    location: { plz: '76131' },
    hourly_rate_eur: 18,
  });
  const application = await helper.post(`/v1/jobs/${job.id}/applications`, { helper_id: profile.body.id });
  assert.equal(application.status, 201);
  assert.equal((await helper.get(`/v1/jobs/${job.id}/location`)).status, 404, 'pending is not enough');
  const accepted = await owner.post(`/v1/jobs/${job.id}/applications/${application.body.id}/accept`);
  assert.equal(accepted.status, 200);
  assert.deepEqual((await helper.get(`/v1/jobs/${job.id}/location`)).body, place);
  assert.equal((await stranger.get(`/v1/jobs/${job.id}/location`)).status, 404);
  assert.equal((await stranger.get(`/v1/helpers/${profile.body.id}/location`)).status, 404);
  assert.equal((await helper.get(`/v1/helpers/${profile.body.id}/location`)).status, 200);

  const listing = (await owner.post('/v1/listings', { ...LISTING_BODY, location: HOME })).body;
  // Tomorrow (NOW is 2026-11-20): the renter may know where to pick it up on that day, not before.
  const booking = await helper.post(`/v1/listings/${listing.id}/bookings`, {
    start_date: '2026-11-21',
    end_date: '2026-11-23',
  });
  assert.equal(booking.status, 201);
  assert.equal(booking.body.status, 'requested');
  assert.equal((await helper.get(`/v1/listings/${listing.id}/location`)).status, 404, 'a request is not enough');
  assert.equal((await owner.post(`/v1/bookings/${booking.body.id}/confirm`)).status, 200);
  // Confirmed for tomorrow, and free to cancel: an instant booking would be book, read, cancel (issue 30, 4).
  assert.equal((await helper.get(`/v1/listings/${listing.id}/location`)).status, 404, 'not the day before');
  now += 86_400_000;
  assert.deepEqual((await helper.get(`/v1/listings/${listing.id}/location`)).body, { ...place, id: listing.id });
  // Each read by someone but the owner is recorded, and the owner sees who read which place when.
  const releases = await owner.get('/v1/me/place-releases');
  assert.equal(releases.status, 200, JSON.stringify(releases.body));
  assert.equal(releases.headers['cache-control'], 'private, no-store');
  assert.deepEqual(
    releases.body.data.map((r: any) => [r.about.type, r.about.id, r.read_by, r.day, r.reads]),
    [
      ['listing', listing.id, 'Test D.', '2026-11-21', 1],
      ['job', job.id, 'Test D.', '2026-11-20', 1],
    ],
  );
  assert.equal(releases.body.total, 2);
  assert.deepEqual(
    (await helper.get('/v1/me/place-releases')).body.data,
    [],
    'the reader’s own list holds only its places',
  );
  assert.equal((await anonymous.get('/v1/me/place-releases')).status, 401);

  // An instant booking is confirmed at once: months ahead it does not give the place away (book, read, cancel).
  const instant = (await owner.post('/v1/listings', { ...LISTING_BODY, instant_booking: true, location: HOME })).body;
  const ahead = await stranger.post(`/v1/listings/${instant.id}/bookings`, {
    start_date: '2027-02-01',
    end_date: '2027-02-02',
  });
  assert.equal(ahead.body.status, 'confirmed');
  assert.equal((await stranger.get(`/v1/listings/${instant.id}/location`)).status, 404, 'not months ahead');
  assert.equal((await stranger.get(`/v1/listings/${listing.id}/location`)).status, 404);
  assert.equal((await helper.post(`/v1/bookings/${booking.body.id}/pick-up`)).status, 403);
  assert.equal((await owner.post(`/v1/bookings/${booking.body.id}/pick-up`)).status, 200);
  assert.equal((await owner.post(`/v1/bookings/${booking.body.id}/return`)).status, 200);
  assert.equal((await helper.get(`/v1/listings/${listing.id}/location`)).status, 404, 'after the return, no more');
});

test('an account is shown at most PLACE_RELEASES_PER_ACCOUNT_PER_DAY places of others a day; a place read again counts once', async (t) => {
  const { app, db } = await buildTestApp(t);
  const owner = client(app, (await createKey(db, { email: 'owner@example.org' })).key);
  const reader = await createKey(db, { email: 'reader@example.org' });
  const helper = client(app, reader.key);
  const profile = await helper.post('/v1/helpers', {
    display_name: 'Jonas W.',
    categories: ['GARDENING'],
    location: { plz: '76131' },
    hourly_rate_eur: 18,
  });
  const acceptedJob = async () => {
    const job = (await owner.post('/v1/jobs', { ...JOB_BODY, location: HOME })).body;
    const applied = await helper.post(`/v1/jobs/${job.id}/applications`, { helper_id: profile.body.id });
    assert.equal((await owner.post(`/v1/jobs/${job.id}/applications/${applied.body.id}/accept`)).status, 200);
    return job.id as string;
  };
  const first = await acceptedJob();
  const second = await acceptedJob();
  assert.equal((await helper.get(`/v1/jobs/${first}/location`)).status, 200);
  // The reader was shown the places of nine more objects today (as many reads would record).
  const day = '2026-11-20';
  await db.kysely
    .insertInto('place_releases')
    .values(
      Array.from({ length: PLACE_RELEASES_PER_ACCOUNT_PER_DAY - 1 }, (_, i) => ({
        resource: 'listings' as const,
        object_id: `lst_${String(i).padStart(16, '0')}`,
        owner_account_id: 'acc_elsewhere',
        reader_account_id: reader.accountId,
        day,
        first_at: NOW.toISOString(),
        last_at: NOW.toISOString(),
        reads: 1,
      })),
    )
    .execute();
  const refused = await helper.get(`/v1/jobs/${second}/location`);
  assert.deepEqual([refused.status, refused.body.error], [429, 'account_limit_reached'], JSON.stringify(refused.body));
  assert.match(String(refused.headers['retry-after']), /^\d+$/);
  const again = await helper.get(`/v1/jobs/${first}/location`);
  assert.equal(again.status, 200, 'a place read today already does not count twice');
  const row = await db.kysely
    .selectFrom('place_releases')
    .selectAll()
    .where('object_id', '=', first)
    .executeTakeFirstOrThrow();
  assert.equal(row.reads, 2);
  // The owner reads their own places without limit or record.
  assert.equal((await owner.get(`/v1/jobs/${second}/location`)).status, 200);
});
