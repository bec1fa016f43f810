import { readFileSync } from 'node:fs';
import type { LatLng } from './geo.js';

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
