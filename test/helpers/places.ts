import assert from 'node:assert/strict';
import { PLACE_OFFSET_MAX_M, PLACE_OFFSET_MIN_M } from '../../src/domain/approximate-place.js';
import { DEFAULT_CENTER, haversineKm, type LatLng, round } from '../../src/domain/geo.js';

/** Rounding the shown point to 4 decimals moves it by at most about 6 m. */
const SLACK_M = 10;

/**
 * The public Location of a place written through the API: its names, and the approximate point
 * the answer shows (asserted to lie in the documented band around the place), with the distance
 * from `center` computed from that point. For whole-body assertions on written jobs and listings.
 */
/** Asserts that a shown point lies in the documented band around the place: not closer, not farther. */
export function assertShownNear(shown: LatLng, place: LatLng, what = 'the shown point'): void {
  const metres = haversineKm(place, shown) * 1000;
  assert.ok(
    metres >= PLACE_OFFSET_MIN_M - SLACK_M && metres <= PLACE_OFFSET_MAX_M + SLACK_M,
    `${what} is ${metres.toFixed(0)} m from the place; documented: ${PLACE_OFFSET_MIN_M} to ${PLACE_OFFSET_MAX_M} m`,
  );
}

export function shownLocation(
  place: LatLng & { city: string; plz: string; district: string | null },
  shown: LatLng,
  center: LatLng = DEFAULT_CENTER,
) {
  assertShownNear(shown, place);
  const { city, plz, district } = place;
  return { city, plz, district, lat: shown.lat, lng: shown.lng, distance_km: round(haversineKm(center, shown), 2) };
}
