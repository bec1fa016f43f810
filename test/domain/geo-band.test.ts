import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { boundingBox, haversineKm, planarBand } from '../../src/domain/geo.js';

/** The planar test in front of the haversine never decides wrongly: what it calls in is in, out is out. */
test('planarBand: surely inside is inside, surely outside is outside, at every latitude', () => {
  let decided = 0;
  fc.assert(
    fc.property(
      fc.double({ min: -85, max: 85, noNaN: true }),
      fc.double({ min: -179, max: 179, noNaN: true }),
      fc.double({ min: 0.01, max: 50, noNaN: true }),
      fc.double({ min: 0, max: 1, noNaN: true }),
      fc.double({ min: 0, max: 1, noNaN: true }),
      (lat, lng, radius, u, v) => {
        const center = { lat, lng };
        const box = boundingBox(center, radius);
        const band = planarBand(center, radius, box);
        if (!band) return;
        const point = {
          lat: box.minLat + u * (box.maxLat - box.minLat),
          lng: box.minLng + v * (box.maxLng - box.minLng),
        };
        const planar = (point.lat - lat) ** 2 * band.kLat + (point.lng - lng) ** 2 * band.kLng;
        const distance = haversineKm(center, point);
        if (planar <= band.inside) {
          decided += 1;
          assert.ok(
            distance <= radius,
            `in by the band, out by haversine: ${JSON.stringify({ center, point, radius })}`,
          );
        }
        if (planar > band.outside) {
          decided += 1;
          assert.ok(
            distance > radius,
            `out by the band, in by haversine: ${JSON.stringify({ center, point, radius })}`,
          );
        }
      },
    ),
    { numRuns: 50_000, seed: 20261121 },
  );
  assert.ok(decided > 40_000, `the band decides most points (${decided} of 50000)`);
});

test('planarBand: none near the poles, where the scale changes too much', () => {
  const center = { lat: 89.5, lng: 0 };
  assert.equal(planarBand(center, 50, boundingBox(center, 50)), null);
});
