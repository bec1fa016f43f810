import { offsetPoint } from '../domain/approximate-place.js';
import { DEFAULT_CENTER, haversineKm, type LatLng, MAX_RADIUS_KM, round } from '../domain/geo.js';
import { PLACES, type Place, placeName } from '../domain/places.js';
import { type Placed, type Region, StatePlacer } from './regions.js';
import type { Rng } from './rng.js';

/** Building blocks every generated row uses: ids, places, texts, photos. */

export const DAY_MS = 86_400_000;
const PHOTO_HOST = 'https://cdn.karlsruhe-marketplace.example/photos';

const placeWeights = PLACES.map((p) => [p, p.population] as const);

/**
 * How generated rows are marked (the real dataset plainly, the sandbox's with an id prefix and a
 * visible "Demo") and where they are placed.
 */
export interface Marking {
  /** Put before every id (`demo_` gives `demo_job_…`). */
  idPrefix: string;
  /** Titles start with "[Demo] " and display names with "Demo ". */
  demo: boolean;
  /** Around Karlsruhe (the default) or over the whole state (regions.ts). */
  region?: Region;
}

export const idOf = (rng: Rng, marking: Marking, kind: string) => `${marking.idPrefix}${kind}_${rng.hex16()}`;
export const titled = (marking: Marking, title: string) => (marking.demo ? `[Demo] ${title}` : title);
export const named = (marking: Marking, name: string) => (marking.demo ? `Demo ${name}` : name);

/** A point scattered around a place (about 1 km for districts, 1.5 km for towns), inside the service area. */
export function scatteredLocation(rng: Rng, place: Place): LatLng {
  const spreadKm = place.district ? 0.9 : 1.5;
  for (;;) {
    const lat = place.lat + (rng.normal() * spreadKm) / 111.2;
    const lng = place.lng + (rng.normal() * spreadKm) / (111.2 * Math.cos((place.lat * Math.PI) / 180));
    const point = { lat: round(lat, 5), lng: round(lng, 5) };
    if (haversineKm(DEFAULT_CENTER, point) <= MAX_RADIUS_KM) return point;
  }
}

let statePlacer: StatePlacer | undefined;

/**
 * Where a generated row is: its place (exact_lat/exact_lng) and the point public answers show, a
 * few hundred metres off in a direction drawn here (accounts key theirs; seeded rows have none).
 */
export function placedAt(rng: Rng, marking: Marking) {
  let placed: Placed;
  if (marking.region === 'bw') {
    statePlacer ??= new StatePlacer();
    placed = statePlacer.place(rng);
  } else {
    const place = rng.weighted(placeWeights);
    const { city, plz, district } = place;
    placed = { place, location: { city, plz, district, ...scatteredLocation(rng, place) } };
  }
  const exact = placed.location;
  const shown = offsetPoint(exact, rng.next(), rng.next());
  return { place: placed.place, location: { ...exact, ...shown, exact_lat: exact.lat, exact_lng: exact.lng } };
}

export function fill(text: string, place: Place): string {
  return text.replaceAll('{ort}', placeName(place));
}

export function describe(rng: Rng, sentences: readonly string[], place: Place): string {
  const [first, ...rest] = sentences;
  const extra = rng.sample(rest, rng.int(1, Math.min(2, rest.length)));
  return [first ?? '', ...extra].map((s) => fill(s, place)).join(' ');
}

export function photos(rng: Rng, id: string, probability: number): string {
  const count = rng.chance(probability) ? rng.int(1, 3) : 0;
  return JSON.stringify(Array.from({ length: count }, (_, i) => `${PHOTO_HOST}/${id}/${i + 1}.jpg`));
}
