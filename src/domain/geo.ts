export interface LatLng {
  lat: number;
  lng: number;
}

/** Mean Earth radius (IUGG), the one the reference data's distances use. */
export const EARTH_RADIUS_KM = 6371.0088;

/** The API's default search centre: Karlsruhe, Marktplatz area. */
export const DEFAULT_CENTER: Readonly<LatLng> = Object.freeze({ lat: 49.0069, lng: 8.4037 });

/** Search radius default and maximum: the service area is 50 km around the centre. */
export const MAX_RADIUS_KM = 50;

const toRad = (deg: number): number => (deg * Math.PI) / 180;

/** Kilometres per degree of latitude (and of longitude at the equator). */
export const KM_PER_DEGREE = toRad(1) * EARTH_RADIUS_KM;

/**
 * The point `km` from `from` towards `bearing` (radians, clockwise from north), on the local plane:
 * exact enough for the few kilometres it is used for (shown points, test centres).
 */
export function pointAt(from: LatLng, km: number, bearing: number): LatLng {
  return {
    lat: from.lat + (km * Math.cos(bearing)) / KM_PER_DEGREE,
    lng: from.lng + (km * Math.sin(bearing)) / (KM_PER_DEGREE * Math.cos(toRad(from.lat))),
  };
}

export function haversineKm(a: LatLng, b: LatLng): number {
  const dLat = toRad(b.lat - a.lat);
  const dLng = toRad(b.lng - a.lng);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(toRad(a.lat)) * Math.cos(toRad(b.lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

export interface BoundingBox {
  minLat: number;
  maxLat: number;
  minLng: number;
  maxLng: number;
}

/**
 * A box that contains every point within radiusKm of the centre, so an index on lat/lng can narrow
 * the candidates before the exact distance is computed. Near the poles it spans all longitudes.
 */
export function boundingBox(center: LatLng, radiusKm: number): BoundingBox {
  const dLat = (radiusKm / EARTH_RADIUS_KM) * (180 / Math.PI);
  const minLat = Math.max(-90, center.lat - dLat);
  const maxLat = Math.min(90, center.lat + dLat);
  const cos = Math.cos(toRad(Math.max(Math.abs(minLat), Math.abs(maxLat))));
  if (cos < 1e-6 || minLat <= -90 || maxLat >= 90) return { minLat, maxLat, minLng: -180, maxLng: 180 };
  const dLng = Math.min(180, dLat / cos);
  return { minLat, maxLat, minLng: center.lng - dLng, maxLng: center.lng + dLng };
}

/** Rounds to `digits` decimals; distances are shown to 10 m, prices to the cent. */
export function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/**
 * A cheap test in front of the exact distance: the planar squared distance
 * kLat·Δlat² + kLng·Δlng² (degrees) with the longitude scale of the centre's latitude. Within the
 * box, that scale is off by at most the relative change of cos(latitude) across the box, so a
 * point at most `inside` is surely within the radius and one beyond `outside` surely not (1 % on
 * top covers the sphere's curvature, far below it at these radii). Only points between the two
 * need the haversine. Null where the scale changes too much to help (near the poles).
 */
export interface PlanarBand {
  kLat: number;
  kLng: number;
  inside: number;
  outside: number;
  /** Relative bound on planar ÷ true squared distance − 1 for any point in the box. */
  margin: number;
}

export function planarBand(center: LatLng, radiusKm: number, box: BoundingBox): PlanarBand | null {
  const cosCenter = Math.cos(toRad(center.lat));
  const spread = Math.abs(Math.cos(toRad(box.minLat)) - Math.cos(toRad(box.maxLat))) / cosCenter;
  const margin = 2 * spread + 0.01;
  if (cosCenter < 0.05 || margin > 0.5 || box.maxLng - box.minLng >= 360) return null;
  return {
    kLat: KM_PER_DEGREE ** 2,
    kLng: (KM_PER_DEGREE * cosCenter) ** 2,
    inside: radiusKm ** 2 * (1 - margin),
    outside: radiusKm ** 2 * (1 + margin),
    margin,
  };
}

/** The search area of a query: lat/lng/radius as given, or the defaults (Karlsruhe centre, 50 km). */
export function searchArea(query: { lat?: number; lng?: number; radius?: number }): {
  center: LatLng;
  radiusKm: number;
} {
  return {
    center: { lat: query.lat ?? DEFAULT_CENTER.lat, lng: query.lng ?? DEFAULT_CENTER.lng },
    radiusKm: query.radius ?? MAX_RADIUS_KM,
  };
}
