import { createHmac, randomBytes } from 'node:crypto';
import { type LatLng, pointAt, round } from './geo.js';

/**
 * Public answers never show where a job, listing or helper really is: homes are behind these
 * points. Every public coordinate, distance, radius filter and distance sort uses the *shown*
 * point, which lies PLACE_OFFSET_MIN_M to PLACE_OFFSET_MAX_M from the stored place in a direction
 * and at a distance that are fixed per account and place:
 * - fixed, so asking many times (or from many centres) converges on the shown point, not the home;
 * - one offset for every place of an account within one cell of a grid of about 220 m (CELL_*):
 *   ten listings from one flat, or the same flat typed in with a few metres of GPS jitter, are all
 *   moved by the same vector, so averaging an account's objects keeps that offset instead of
 *   cancelling it (only places in different cells have independent offsets);
 * - keyed by a random salt of the account that never leaves the database, so knowing this code
 *   does not let anyone undo the offset.
 * At least PLACE_OFFSET_MIN_M away, so no home happens to be shown (almost) as it is.
 */
export const PLACE_OFFSET_MIN_M = 200;
export const PLACE_OFFSET_MAX_M = 500;

/** Shown points are stored to 4 decimals (about 10 m), which says they are not exact. */
const SHOWN_DIGITS = 4;

/** A new account's salt: 128 random bits. */
export function newPlaceSalt(): string {
  return randomBytes(16).toString('base64url');
}

/**
 * The point `exact` moved by a distance and bearing drawn from u, v in [0, 1): uniform over the
 * area of the ring between the two offsets (so no distance is likelier than the ring's share of it).
 */
export function offsetPoint(exact: LatLng, u: number, v: number): LatLng {
  const [min, max] = [PLACE_OFFSET_MIN_M / 1000, PLACE_OFFSET_MAX_M / 1000];
  const km = Math.sqrt(min ** 2 + u * (max ** 2 - min ** 2));
  const shown = pointAt(exact, km, 2 * Math.PI * v);
  return { lat: round(shown.lat, SHOWN_DIGITS), lng: round(shown.lng, SHOWN_DIGITS) };
}

/** The grid whose cells share an offset: 0.002° of latitude by 0.003° of longitude, about 220 m here. */
const CELL_LAT = 0.002;
const CELL_LNG = 0.003;

/** The shown point of `exact` for the account with this salt: one offset per account and grid cell. */
export function shownPoint(exact: LatLng, salt: string): LatLng {
  const cell = `${Math.floor(exact.lat / CELL_LAT)},${Math.floor(exact.lng / CELL_LNG)}`;
  const digest = createHmac('sha256', salt).update(cell).digest();
  return offsetPoint(exact, digest.readUInt32BE(0) / 2 ** 32, digest.readUInt32BE(4) / 2 ** 32);
}

/** The columns of a place as stored: the exact point, and the shown point in lat/lng. */
export interface PlacePoint {
  lat: number;
  lng: number;
  exact_lat: number;
  exact_lng: number;
}

export function placePoint(exact: LatLng, salt: string): PlacePoint {
  return { ...shownPoint(exact, salt), exact_lat: exact.lat, exact_lng: exact.lng };
}
