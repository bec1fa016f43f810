/**
 * The geometry of the in-memory search index against brute force: every point the grid's runs,
 * the inside cells and the row bands admit is exactly a point whose mirrored haversine is within
 * the radius, for random searches near Karlsruhe, far north, at the antimeridian and with
 * subnormal inputs; packed ids come back as they went in.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { IdColumn } from '../../src/search/columns.js';
import { PointIndex, RUN } from '../../src/search/point-index.js';
import { RadiusTest } from '../../src/search/radius-test.js';
import { seeded } from '../helpers/random.js';

/** The slots the production scan admits (job-index.ts and listing-index.ts run the same steps). */
function admitted(points: PointIndex, search: RadiusTest, part = -1): Set<number> {
  const found = new Set<number>();
  const runs = points.runs(search, part);
  for (let r = 0; r < runs.length; r += RUN) {
    const [kLng, bandIn, bandOut] = [runs[r + 3] as number, runs[r + 4] as number, runs[r + 5] as number];
    for (let s = (runs[r] as number) | 0; s < ((runs[r + 1] as number) | 0); s++) {
      const [lat, lng] = [points.lat[s] as number, points.lng[s] as number];
      const yes =
        runs[r + 2] === 1 ||
        (Number.isNaN(kLng) ? search.contains(lat, lng) : search.containsInRow(lat, lng, kLng, bandIn, bandOut));
      if (yes) found.add(s);
    }
  }
  return found;
}

describe('the search index geometry', () => {
  for (const cellDeg of [0.2, 0.05, 0.02])
    test(`admits exactly the points within the radius, for 1,000 random searches (${cellDeg}° cells)`, () => {
      const { next } = seeded(Math.round(cellDeg * 1000));
      const n = 40_000;
      const [lat, lng] = [new Float64Array(n), new Float64Array(n)];
      const ids = new IdColumn('job_', n);
      const parts = new Uint8Array(n);
      for (let i = 0; i < n; i++) {
        parts[i] = Math.floor(next() * 4);
        const where = next();
        // Mostly around Karlsruhe at the seed's 5 decimals; some far north and at the antimeridian.
        const [cLat, cLng] = where < 0.8 ? [49, 8.4] : where < 0.9 ? [71, 25] : [-17, 179.7];
        lat[i] = Math.round((cLat + (next() - 0.5) * 1.6) * 1e5) / 1e5;
        lng[i] = Math.max(-180, Math.min(180, Math.round((cLng + (next() - 0.5) * 2.4) * 1e5) / 1e5));
        ids.push(`job_${i.toString(16).padStart(16, '0')}`);
      }
      const points = new PointIndex(ids, lat, lng, parts, 4, cellDeg);
      const partOf = points.permute(parts);
      let admittedTotal = 0;
      for (let q = 0; q < 1000; q++) {
        const where = next();
        const [cLat, cLng] = where < 0.8 ? [49, 8.4] : where < 0.9 ? [71, 25] : [-17, 179.7];
        // Centres on data points now and then: distances of exactly 0 and shared coordinates.
        const onPoint = next() < 0.1 ? Math.floor(next() * n) : -1;
        const center =
          onPoint >= 0
            ? { lat: points.lat[onPoint] as number, lng: points.lng[onPoint] as number }
            : { lat: cLat + (next() - 0.5) * 1.2, lng: cLng + (next() - 0.5) * 1.8 };
        const radius = [0.01, 0.3, 2.5, 10, 33.3, 50][Math.floor(next() * 6)] as number;
        const search = new RadiusTest(center, radius);
        // Every point, or those of one partition (a category).
        const part = next() < 0.5 ? -1 : Math.floor(next() * 4);
        const found = admitted(points, search, part);
        for (let s = 0; s < n; s++) {
          const within =
            search.distanceKm(points.lat[s] as number, points.lng[s] as number) <= radius &&
            (part < 0 || partOf[s] === part);
          if (within !== found.has(s)) {
            assert.fail(
              `${JSON.stringify(center)} r=${radius}: point ${points.lat[s]}, ${points.lng[s]} within=${within}`,
            );
          }
        }
        admittedTotal += found.size;
      }
      assert.ok(admittedTotal > 150_000, `searches found points: ${admittedTotal}`);
    });

  test('a subnormal centre is the origin, as the SQL binds it', () => {
    const ids = new IdColumn('job_', 2);
    ids.push('job_0000000000000001');
    ids.push('job_0000000000000002');
    const points = new PointIndex(ids, Float64Array.of(0, 0.5), Float64Array.of(0, 0.5));
    const search = new RadiusTest({ lat: -5e-324, lng: 5e-324 }, 10);
    assert.deepEqual([...admitted(points, search)], [0]);
  });

  test('the tail: appended points are found, dead ones skipped, and id order holds across build and tail', () => {
    const built = ['job_0000000000000010', 'job_0000000000000030', 'job_0000000000000050'];
    const ids = new IdColumn('job_', built.length);
    for (const id of built) ids.push(id);
    const points = new PointIndex(
      ids,
      Float64Array.of(49, 49, 49),
      Float64Array.of(8.4, 8.4, 8.4),
      undefined,
      1,
      0.2,
      8,
    );
    const added = ['job_0000000000000020', 'job_00000000000000300', 'job_0000000000000031', 'job_0000000000000001'];
    const slots = added.map((id) => points.append(id, 49, 8.4));
    assert.deepEqual(slots, [3, 4, 5, 6]);
    const all = [...built, ...added];
    const bySlot = Array.from({ length: points.end }, (_, s) => s);
    bySlot.sort((a, b) => (points.tieBefore(a, b) ? -1 : points.tieBefore(b, a) ? 1 : 0));
    assert.deepEqual(
      bySlot.map((s) => all[s]),
      [...all].sort(),
      'slots in the order SQL sorts their ids',
    );
    // Every slot within the radius is read, the tail's too; a removed one is marked dead.
    const test_ = new RadiusTest({ lat: 49, lng: 8.4 }, 1);
    const runs = points.runs(test_);
    const read = new Set<number>();
    for (let r = 0; r < runs.length; r += RUN) {
      for (let s = runs[r] as number; s < (runs[r + 1] as number); s++) read.add(s);
    }
    assert.equal(read.size, 7);
    const [first, second] = [points.slotOf('job_0000000000000030'), points.slotOf('job_0000000000000031')];
    assert.equal(points.remove('job_0000000000000030'), first, 'the slot it held');
    assert.equal(points.remove('job_0000000000000031'), second);
    assert.equal(points.remove('job_0000000000000030'), -1, 'already dead');
    assert.equal(points.slotOf('job_0000000000000030'), -1);
    assert.equal(points.dead[1], 1);
    assert.equal(points.dead[5], 1);
    assert.equal(points.slotOf('job_0000000000000020'), 3);
    // Room for eight appended points (dead ones still hold theirs): four more fit, the ninth does not.
    const more = [
      'job_0000000000000002',
      'job_0000000000000003',
      'job_0000000000000004',
      'job_0000000000000005',
      'job_0000000000000006',
    ];
    assert.deepEqual(
      more.map((id) => points.append(id, 49, 8.4)),
      [7, 8, 9, 10, -1],
    );
  });

  test('ids come back as they went in, packed or not, past the expected count', () => {
    const given = [
      'job_0123456789abcdef',
      'job_ffffffffffffffff',
      'job_0000000000000000',
      'job_ABCDEF0123456789',
      'job_short',
      'lst_0123456789abcdef',
      'demo_job_0123456789abcdef',
      'job_0123456789abcdef0',
      ...Array.from({ length: 40 }, (_, i) => `job_${(i * 7919).toString(16).padStart(16, 'a')}`),
    ];
    const ids = new IdColumn('job_', 3);
    for (const id of given) ids.push(id);
    assert.deepEqual(
      given.map((_, i) => ids.get(i)),
      given,
    );
  });
});
