import { readFileSync } from 'node:fs';
import { haversineKm, type LatLng, round } from '../domain/geo.js';
import { PLACES, type Place } from '../domain/places.js';
import type { Rng } from './rng.js';

/**
 * Where generated rows lie. `karlsruhe` (the default): around the districts and towns of the
 * service area. `bw`: over all of Baden-Wuerttemberg, for the benchmark's large dataset; searches
 * still centre on Karlsruhe, so most of these rows lie outside every search's radius.
 */
export const REGIONS = ['karlsruhe', 'bw'] as const;
export type Region = (typeof REGIONS)[number];

const CSV_URL = new URL('../../assets/bw-places.csv', import.meta.url);

/** The state's larger towns beyond the service area (assets/bw-places.csv). */
function stateTowns(): Place[] {
  const [header, ...lines] = readFileSync(CSV_URL, 'utf8').trim().split(/\r?\n/);
  if (header !== 'city,plz,lat,lng,population_approx') throw new Error(`Unexpected header in ${CSV_URL.pathname}`);
  return lines.map((line) => {
    const [city = '', plz = '', lat = '', lng = '', population = ''] = line.split(',');
    return { city, district: null, plz, lat: Number(lat), lng: Number(lng), population: Number(population) };
  });
}

/** A coarse outline of Baden-Wuerttemberg as [lng, lat] corners, for the rural share. */
const OUTLINE: readonly (readonly [number, number])[] = [
  [8.45, 49.58],
  [8.62, 49.57],
  [8.9, 49.5],
  [9.08, 49.6],
  [9.3, 49.74],
  [9.52, 49.79],
  [9.92, 49.58],
  [10.13, 49.25],
  [10.45, 48.94],
  [10.3, 48.5],
  [10.1, 48.1],
  [9.9, 47.6],
  [9.55, 47.55],
  [8.9, 47.66],
  [8.6, 47.8],
  [8.2, 47.6],
  [7.6, 47.55],
  [7.55, 48.1],
  [7.8, 48.6],
  [8.2, 48.97],
  [8.35, 49.2],
  [8.45, 49.4],
];

function insideOutline(lng: number, lat: number): boolean {
  let inside = false;
  for (let i = 0, j = OUTLINE.length - 1; i < OUTLINE.length; j = i++) {
    const [xi, yi] = OUTLINE[i] as readonly [number, number];
    const [xj, yj] = OUTLINE[j] as readonly [number, number];
    if (yi > lat !== yj > lat && lng < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

export interface Placed {
  place: Place;
  location: LatLng & Pick<Place, 'city' | 'plz' | 'district'>;
}

const SERVICE_AREA: ReadonlySet<Place> = new Set(PLACES);

/** Share of the state's rows spread evenly over the land rather than around a town. */
const RURAL_SHARE = 0.3;

export class StatePlacer {
  private readonly places: readonly Place[];
  private readonly weights: readonly (readonly [Place, number])[];

  constructor() {
    this.places = [...PLACES, ...stateTowns()];
    this.weights = this.places.map((p) => [p, p.population] as const);
  }

  place(rng: Rng): Placed {
    if (rng.chance(RURAL_SHARE)) {
      for (;;) {
        const point = { lat: round(rng.between(47.55, 49.79), 5), lng: round(rng.between(7.55, 10.45), 5) };
        if (insideOutline(point.lng, point.lat)) return this.labelled(point, this.nearest(point));
      }
    }
    const place = rng.weighted(this.weights);
    // Districts about 1 km, the service area's towns 1.5 km, the state's cities by their size.
    const spreadKm = place.district ? 0.9 : 1.5 + (SERVICE_AREA.has(place) ? 0 : Math.sqrt(place.population) / 250);
    const lat = place.lat + (rng.normal() * spreadKm) / 111.2;
    const lng = place.lng + (rng.normal() * spreadKm) / (111.2 * Math.cos((place.lat * Math.PI) / 180));
    return this.labelled({ lat: round(lat, 5), lng: round(lng, 5) }, place);
  }

  private nearest(point: LatLng): Place {
    let best = this.places[0] as Place;
    let bestKm = Number.POSITIVE_INFINITY;
    for (const p of this.places) {
      const km = haversineKm(point, p);
      if (km < bestKm) [best, bestKm] = [p, km];
    }
    return best;
  }

  private labelled(point: LatLng, place: Place): Placed {
    return { place, location: { city: place.city, plz: place.plz, district: place.district, ...point } };
  }
}
