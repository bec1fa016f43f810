import { boundFloat } from '../db/distance.js';
import { boundingBox, EARTH_RADIUS_KM, type LatLng, planarBand } from '../domain/geo.js';

const RAD = Math.PI / 180;

/**
 * A radius query as db/distance.ts withinRadiusSql states it, with the values it binds: which
 * points lie within the radius, and their distances, are decided exactly as that SQL decides them
 * (same bounding box, same planar band, same haversine with radians(x) = x × π/180), so the index
 * and the database agree row for row.
 */
export class RadiusTest {
  readonly minLat: number;
  readonly maxLat: number;
  readonly minLng: number;
  readonly maxLng: number;
  readonly cLat: number;
  readonly cLng: number;
  private readonly cosCLat: number;
  private readonly radius: number;
  /** The planar band (domain/geo.ts planarBand) with its bounds as bound; null where there is none. */
  readonly band: { kLat: number; kLng: number; inside: number; outside: number; margin: number } | null;

  constructor(center: LatLng, radiusKm: number) {
    const box = boundingBox(center, radiusKm);
    [this.minLat, this.maxLat, this.minLng, this.maxLng] = [box.minLat, box.maxLat, box.minLng, box.maxLng].map(
      boundFloat,
    ) as [number, number, number, number];
    this.radius = boundFloat(radiusKm);
    this.cLat = boundFloat(center.lat);
    this.cLng = boundFloat(center.lng);
    this.cosCLat = Math.cos(this.cLat * RAD);
    const band = planarBand(center, this.radius, box);
    this.band = band && { ...band, inside: boundFloat(band.inside), outside: boundFloat(band.outside) };
  }

  /** The planar measure the band compares (needs a band). */
  planar(lat: number, lng: number): number {
    const band = this.band as NonNullable<RadiusTest['band']>;
    return (lat - this.cLat) * (lat - this.cLat) * band.kLat + (lng - this.cLng) * (lng - this.cLng) * band.kLng;
  }

  /**
   * A planar band for one latitude row of cells, far narrower than the SQL's: its longitude scale
   * is that of the mean latitude of the centre and the row, which is off by at most the change of
   * cosine across half a row (plus 0.2 % for the sphere), so it decides all but a thin ring of
   * points that contains() would send to the haversine. [kLng, inside, outside]; null when the
   * search has no band (near the poles).
   */
  rowBand(rowMinLat: number, rowMaxLat: number): [number, number, number] | null {
    const band = this.band;
    if (!band) return null;
    const mid = ((this.cLat + (rowMinLat + rowMaxLat) / 2) / 2) * RAD;
    const half = ((rowMaxLat - rowMinLat) / 4 + 1e-9) * RAD;
    const cos = Math.cos(mid);
    if (cos < 0.05) return null;
    const margin = 2 * (Math.abs(Math.tan(mid)) * half + half * half) + 0.002;
    const kLng = (RAD * EARTH_RADIUS_KM * cos) ** 2;
    return [kLng, this.radius ** 2 * (1 - margin), this.radius ** 2 * (1 + margin)];
  }

  /**
   * contains() for a point of a row with the given band: the same answer, sooner. Outside the
   * box: no. Planar measure beyond `outside`: no; at most `inside`: yes; between: the haversine.
   */
  containsInRow(lat: number, lng: number, kLng: number, inside: number, outside: number): boolean {
    if (lat < this.minLat || lat > this.maxLat || lng < this.minLng || lng > this.maxLng) return false;
    const dLat = lat - this.cLat;
    const dLng = lng - this.cLng;
    const planar = dLat * dLat * (this.band as NonNullable<RadiusTest['band']>).kLat + dLng * dLng * kLng;
    if (planar > outside) return false;
    return planar <= inside || this.contains(lat, lng);
  }

  /** Whether the point is within the radius. */
  contains(lat: number, lng: number): boolean {
    if (lat < this.minLat || lat > this.maxLat || lng < this.minLng || lng > this.maxLng) return false;
    const band = this.band;
    if (band) {
      const planar =
        (lat - this.cLat) * (lat - this.cLat) * band.kLat + (lng - this.cLng) * (lng - this.cLng) * band.kLng;
      if (planar <= band.inside) return true;
      if (planar > band.outside) return false;
    }
    return this.distanceKm(lat, lng) <= this.radius;
  }

  /**
   * Whether every point of the rectangle is surely within the radius: its corners are in the box
   * and well inside the planar band (an ellipse, so convex: corners inside, all inside). Points
   * there pass contains() without exception, so a search may skip the test for them.
   */
  containsRect(minLat: number, maxLat: number, minLng: number, maxLng: number): boolean {
    const band = this.band;
    if (!band) return false;
    if (minLat < this.minLat || maxLat > this.maxLat || minLng < this.minLng || maxLng > this.maxLng) return false;
    const limit = band.inside * (1 - 1e-9);
    return (
      this.planar(minLat, minLng) <= limit &&
      this.planar(minLat, maxLng) <= limit &&
      this.planar(maxLat, minLng) <= limit &&
      this.planar(maxLat, maxLng) <= limit
    );
  }

  /** The SQL distance (db/distance.ts distanceKmSql), operation for operation. */
  distanceKm(lat: number, lng: number): number {
    const h =
      Math.sin(((lat - this.cLat) * RAD) / 2) ** 2 +
      this.cosCLat * Math.cos(lat * RAD) * Math.sin(((lng - this.cLng) * RAD) / 2) ** 2;
    return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1.0, Math.sqrt(h)));
  }
}
