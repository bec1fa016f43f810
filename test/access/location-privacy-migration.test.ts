/**
 * Migration 0010 on a database that already has rows: every place keeps its point as exact_lat/
 * exact_lng, and what lat/lng showed becomes the approximate point, keyed by the account's new
 * salt where the row has an account (so an account's objects at one place share one point).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createDb } from '../../src/db/create-db.js';
import { migrateTo, migrateToLatest } from '../../src/db/migrate.js';
import { shownPoint } from '../../src/domain/approximate-place.js';
import { DEFAULT_CENTER, haversineKm, round } from '../../src/domain/geo.js';
import { freshDatabaseUrl } from '../helpers/database.js';
import { helperFixture, jobFixture, listingFixture, ownerFixture } from '../helpers/fixtures.js';
import { assertShownNear } from '../helpers/places.js';

const HOME = { lat: 49.00312, lng: 8.38657 };

/** A fixture row as it was before 0010: without the exact columns. */
function before<T extends { exact_lat: number; exact_lng: number }>(row: T) {
  const { exact_lat: _lat, exact_lng: _lng, ...rest } = row;
  return rest;
}

test('0010 keeps each place as exact_lat/lng and shows an approximate point, one per account and place', async (t) => {
  const db = createDb(await freshDatabaseUrl(t, { file: false }));
  t.after(() => db.close());
  await migrateTo(db, '0009-booking-expiry');
  const k = db.kysely as any;
  await k
    .insertInto('accounts')
    .values({
      id: 'acc_0000000000000001',
      name: 'Petra K.',
      email: 'petra@example.org',
      organisation: null,
      account_type: 'private',
      created_at: '2026-11-01T00:00:00.000Z',
    })
    .execute();
  const accountId = 'acc_0000000000000001';
  const ownJob = before(jobFixture({ ...HOME, owner_account_id: accountId }));
  // More rows than one page of the migration (500), spread over the area, without an account.
  const seeded = Array.from({ length: 1_100 }, (_, i) =>
    before(jobFixture({ lat: 48.9 + (i % 100) * 0.002, lng: 8.3 + Math.floor(i / 100) * 0.01 })),
  );
  for (let i = 0; i < seeded.length; i += 100)
    await k
      .insertInto('jobs')
      .values(seeded.slice(i, i + 100))
      .execute();
  await k.insertInto('jobs').values(ownJob).execute();
  const owner = ownerFixture({ account_id: accountId });
  await k.insertInto('owners').values(owner).execute();
  const listing = before(listingFixture(owner.id, HOME));
  await k.insertInto('listings').values(listing).execute();
  const { categories: _categories, ...helper } = helperFixture(['GARDENING'], { ...HOME, account_id: accountId });
  await k.insertInto('helpers').values(before(helper)).execute();

  // Public events already in the outbox show the object as it was: the exact point until now.
  const object = (lat: number, lng: number) =>
    JSON.stringify({
      id: ownJob.id,
      location: { city: 'Karlsruhe', plz: '76137', district: 'Südweststadt', lat, lng, distance_km: 1.4 },
    });
  const event = {
    subject_id: ownJob.id,
    category: 'GARDENING',
    audience: null,
    created_at: '2026-11-02T00:00:00.000Z',
  };
  const EARLIER = { lat: 49.02, lng: 8.41 }; // where the job was before it moved home
  const privateEvent = {
    ...event,
    type: 'application.created',
    subject_id: 'app_0000000000000001',
    lat: null,
    lng: null,
    audience: JSON.stringify([accountId]),
    payload: '{"id":"app_0000000000000001"}',
  };
  await k
    .insertInto('events')
    .values([
      { ...event, type: 'job.created', ...EARLIER, payload: object(EARLIER.lat, EARLIER.lng) },
      { ...event, type: 'job.updated', ...HOME, payload: object(HOME.lat, HOME.lng) },
      privateEvent,
    ])
    .execute();

  await migrateToLatest(db);

  const { place_salt } = await db.kysely
    .selectFrom('accounts')
    .select('place_salt')
    .where('id', '=', accountId)
    .executeTakeFirstOrThrow();
  assert.match(place_salt, /^[A-Za-z0-9_-]{22}$/);
  const expected = shownPoint(HOME, place_salt);
  const columns = ['id', 'lat', 'lng', 'exact_lat', 'exact_lng'] as const;
  for (const [table, id] of [
    ['jobs', ownJob.id],
    ['listings', listing.id],
    ['helpers', helper.id],
  ] as const) {
    const row = await db.kysely.selectFrom(table).select(columns).where('id', '=', id).executeTakeFirstOrThrow();
    assert.deepEqual(row, { id, ...expected, exact_lat: HOME.lat, exact_lng: HOME.lng }, table);
  }
  const events = await db.kysely.selectFrom('events').select(['type', 'lat', 'lng', 'payload']).orderBy('id').execute();
  const earlier = shownPoint(EARLIER, place_salt);
  for (const [got, shown] of [
    [events[0], earlier],
    [events[1], expected],
  ] as const) {
    assert.deepEqual([got?.lat, got?.lng], [shown.lat, shown.lng], got?.type);
    assert.deepEqual(JSON.parse(got?.payload ?? '').location, {
      city: 'Karlsruhe',
      plz: '76137',
      district: 'Südweststadt',
      ...shown,
      distance_km: round(haversineKm(DEFAULT_CENTER, shown), 2),
    });
  }
  assert.deepEqual(events[2], { type: 'application.created', lat: null, lng: null, payload: privateEvent.payload });

  const rows = await db.kysely.selectFrom('jobs').select(columns).where('owner_account_id', 'is', null).execute();
  assert.equal(rows.length, seeded.length);
  const byId = new Map(seeded.map((row) => [row.id, row]));
  for (const row of rows) {
    const old = byId.get(row.id);
    assert.deepEqual([row.exact_lat, row.exact_lng], [old?.lat, old?.lng], row.id);
    assertShownNear(row, { lat: row.exact_lat, lng: row.exact_lng }, row.id);
  }
});
