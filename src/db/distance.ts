import { type Expression, type RawBuilder, sql } from 'kysely';
import { boundingBox, EARTH_RADIUS_KM, type LatLng, planarBand } from '../domain/geo.js';
import type { DialectName } from './create-db.js';

/**
 * A float as a bound parameter: subnormal numbers (|x| < 2.2e-308, e.g. lat=-5e-324 from a query
 * string) become 0, because PostgreSQL's float8 input refuses them as out of range. They are 0 for
 * every purpose of a coordinate or radius.
 */
export function boundFloat(value: number): number {
  return Math.abs(value) < Number.MIN_VALUE * 2 ** 52 ? 0 : value;
}

/**
 * Great-circle distance in km from `center` to the row's lat/lng, as SQL: the same haversine as
 * domain/geo.ts, built from math functions both SQLite (3.35+) and PostgreSQL have. The only
 * dialect difference is the name of the two-argument minimum that guards asin against rounding.
 */
export function distanceKmSql(
  dialect: DialectName,
  lat: Expression<number>,
  lng: Expression<number>,
  center: LatLng,
): RawBuilder<number> {
  const least = dialect === 'sqlite' ? sql.raw('min') : sql.raw('least');
  const [cLat, cLng] = [boundFloat(center.lat), boundFloat(center.lng)];
  const h = sql`power(sin(radians(${lat} - ${cLat}) / 2), 2) + cos(radians(${cLat})) * cos(radians(${lat})) * power(sin(radians(${lng} - ${cLng}) / 2), 2)`;
  return sql<number>`(${2 * EARTH_RADIUS_KM} * asin(${least}(1.0, sqrt(${h}))))`;
}

/**
 * `distance <= radius` for the row's lat/lng columns (qualified names like 'listings.lat' allowed),
 * decided by a cheap planar test where it can be (domain/geo.ts planarBand) and by the haversine
 * only near the circle's edge, preceded by a bounding box that an index narrows the rows with:
 * SQLite's b-tree on (lat, lng), PostgreSQL's GiST on point(lng, lat) (migration 0005), whose
 * expression the box test repeats so the planner can use it.
 */
export function withinRadiusSql(
  dialect: DialectName,
  latColumn: string,
  lngColumn: string,
  center: LatLng,
  radiusKm: number,
): RawBuilder<boolean> {
  const lat = sql.ref<number>(latColumn);
  const lng = sql.ref<number>(lngColumn);
  const box = boundingBox(center, radiusKm);
  const [minLat, maxLat, minLng, maxLng] = [box.minLat, box.maxLat, box.minLng, box.maxLng].map(boundFloat);
  const radius = boundFloat(radiusKm);
  const inBox =
    dialect === 'postgres'
      ? sql`point(${lng}, ${lat}) <@ box(point(${minLng}, ${minLat}), point(${maxLng}, ${maxLat}))`
      : sql`${lat} between ${minLat} and ${maxLat} and ${lng} between ${minLng} and ${maxLng}`;
  const exact = sql<boolean>`${distanceKmSql(dialect, lat, lng, center)} <= ${radius}`;
  const band = planarBand(center, radius, box);
  if (!band) return sql<boolean>`(${inBox} and ${exact})`;
  // The haversine only for points the planar test cannot decide (see planarBand).
  const [cLat, cLng] = [boundFloat(center.lat), boundFloat(center.lng)];
  const planar = sql`((${lat} - ${cLat}) * (${lat} - ${cLat}) * ${band.kLat} + (${lng} - ${cLng}) * (${lng} - ${cLng}) * ${band.kLng})`;
  return sql<boolean>`(${inBox} and case when ${planar} <= ${boundFloat(band.inside)} then true when ${planar} > ${boundFloat(band.outside)} then false else ${exact} end)`;
}
