import { readFileSync } from 'node:fs';
import { DEFAULT_CENTER, haversineKm, type LatLng, MAX_RADIUS_KM } from './geo.js';

export interface Place extends LatLng {
  city: string;
  /** Set for the districts (Stadtteile) of the city of Karlsruhe, null for the towns around it. */
  district: string | null;
  plz: string;
  population: number;
}

const CSV_URL = new URL('../../assets/karlsruhe-places.csv', import.meta.url);

function parsePlaces(csv: string): Place[] {
  const [header, ...lines] = csv.trim().split(/\r?\n/);
  if (header !== 'city,district,plz,lat,lng,population_approx,distance_km') {
    throw new Error(`Unexpected header in ${CSV_URL.pathname}: ${header}`);
  }
  return lines.map((line) => {
    const [city = '', district = '', plz = '', lat = '', lng = '', population = ''] = line.split(',');
    return {
      city,
      district: district === '' ? null : district,
      plz,
      lat: Number(lat),
      lng: Number(lng),
      population: Number(population),
    };
  });
}

/** The 27 districts of Karlsruhe and the 24 towns around it (assets/karlsruhe-places.csv). */
export const PLACES: readonly Place[] = Object.freeze(parsePlaces(readFileSync(CSV_URL, 'utf8')));

/** The name people use for a place: the district inside Karlsruhe, the town outside it. */
export function placeName(place: Pick<Place, 'city' | 'district'>): string {
  return place.district ?? place.city;
}

export interface ResolvedLocation {
  city: string;
  plz: string;
  district: string | null;
  lat: number;
  lng: number;
}

export type LocationProblem =
  | { problem: 'unknown_plz'; similar: string[] }
  | { problem: 'outside_service_area'; distanceKm: number };

/**
 * Where a written job, listing or helper is. Coordinates keep their point and take city, postal
 * code and district from the nearest reference place; a postal code alone takes the place's point.
 * Anything beyond the service area (50 km around the centre) is refused.
 */
export function resolveLocation(input: {
  lat?: number;
  lng?: number;
  plz?: string;
}): ResolvedLocation | LocationProblem {
  if (input.plz !== undefined) {
    const place = PLACES.find((p) => p.plz === input.plz);
    if (!place) {
      const similar = [...new Set(PLACES.map((p) => p.plz))].filter(
        (plz) => plz.slice(0, 3) === input.plz?.slice(0, 3),
      );
      return { problem: 'unknown_plz', similar: similar.slice(0, 8) };
    }
    return { city: place.city, plz: place.plz, district: place.district, lat: place.lat, lng: place.lng };
  }
  const point = { lat: input.lat ?? Number.NaN, lng: input.lng ?? Number.NaN };
  const distanceKm = haversineKm(DEFAULT_CENTER, point);
  if (!(distanceKm <= MAX_RADIUS_KM)) return { problem: 'outside_service_area', distanceKm };
  let nearest = PLACES[0] as Place;
  for (const place of PLACES) if (haversineKm(point, place) < haversineKm(point, nearest)) nearest = place;
  return { city: nearest.city, plz: nearest.plz, district: nearest.district, lat: point.lat, lng: point.lng };
}
