/**
 * Radius searches find exactly the rows within the radius, on every engine: the index box and the
 * planar test in front of the haversine (db/distance.ts) only save work. Random centres and radii
 * over random points, counted against the haversine in JavaScript.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { haversineKm } from '../../src/domain/geo.js';
import { searchJobs } from '../../src/repositories/jobs.js';
import { NOW } from '../helpers/app.js';
import { createTestDb } from '../helpers/database.js';
import { insert, jobFixture } from '../helpers/fixtures.js';
import { seeded } from '../helpers/random.js';

test('search totals equal an exact count of the points within the radius', async (t) => {
  const db = await createTestDb(t);
  const { next } = seeded(42);
  // Points around Karlsruhe and around a place far north, where longitude degrees are short.
  const areas = [
    { lat: 49.0, lng: 8.4 },
    { lat: 69.6, lng: 18.9 },
  ];
  const points = Array.from({ length: 3000 }, (_, i) => {
    const area = areas[i % 2] as { lat: number; lng: number };
    return { lat: area.lat + (next() - 0.5) * 1.2, lng: area.lng + (next() - 0.5) * 2.4 };
  });
  await insert(db.kysely, { jobs: points.map((p) => jobFixture({ ...p, deadline: null })) });

  for (let i = 0; i < 120; i++) {
    const area = areas[i % 2] as { lat: number; lng: number };
    const center = { lat: area.lat + (next() - 0.5) * 0.8, lng: area.lng + (next() - 0.5) * 1.6 };
    const radiusKm = 0.5 + next() * 49.5;
    const { total } = await searchJobs(db.kysely, { center, radiusKm, sort: 'newest', limit: 1, offset: 0 }, NOW);
    const exact = points.filter((p) => haversineKm(center, p) <= radiusKm).length;
    assert.equal(total, exact, JSON.stringify({ center, radiusKm }));
  }
});
