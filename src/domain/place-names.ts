import { DEFAULT_CENTER } from './geo.js';
import { PLACES, type Place, placeName } from './places.js';
import { foldText } from './search-text.js';
import { closestMatches } from './text.js';

/** A place a search may be centred on by name: a district, a town, the city itself. */
export interface NamedPlace {
  name: string;
  city: string;
  district: string | null;
  /** null for the city of Karlsruhe as a whole (its districts have several). */
  plz: string | null;
  lat: number;
  lng: number;
}

const CITY = 'Karlsruhe';

function named(place: Place): NamedPlace {
  return {
    name: placeName(place),
    city: place.city,
    district: place.district,
    plz: place.plz,
    lat: place.lat,
    lng: place.lng,
  };
}

/** Every place by name: the 51 reference places and the city of Karlsruhe at its centre. */
export const NAMED_PLACES: readonly NamedPlace[] = Object.freeze([
  { name: CITY, city: CITY, district: null, plz: null, lat: DEFAULT_CENTER.lat, lng: DEFAULT_CENTER.lng },
  ...PLACES.map(named),
]);

/** A name as compared: folded, without "(Baden)"-style notes, spaces and hyphens. */
function key(text: string): string {
  return foldText(text.replace(/\([^)]*\)/g, ' '))
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** The names a place answers to: "Mühlburg", "Karlsruhe-Mühlburg", "Karlsruhe Mühlburg", "Weingarten". */
function keysOf(place: NamedPlace): string[] {
  const own = [key(place.name), key(place.name.replace(/\s*\(.*\)\s*/, ''))];
  if (place.district) own.push(key(`${place.city} ${place.district}`));
  return [...new Set(own)];
}

/** Each place with the names it answers to, worked out once. */
const KEYED = NAMED_PLACES.map((place) => ({ place, keys: keysOf(place) }));

const BY_KEY = new Map<string, NamedPlace[]>();
for (const { place, keys } of KEYED) {
  for (const k of keys) BY_KEY.set(k, [...(BY_KEY.get(k) ?? []), place]);
}

export type PlaceResolution =
  | { place: NamedPlace }
  | { problem: 'unknown_place'; alternatives: NamedPlace[] }
  | { problem: 'ambiguous_place'; candidates: NamedPlace[] };

/** Longest `near` value taken (the longest name is 24 characters). */
export const MAX_PLACE_NAME_LENGTH = 100;

/**
 * The place a `near` value names: a district, a town, "Karlsruhe" (its centre) or a postal code,
 * folded as search words are. A postal code of several districts is ambiguous.
 */
export function resolvePlaceName(input: string): PlaceResolution {
  const wanted = key(input);
  if (/^\d{5}$/.test(wanted)) {
    const found = NAMED_PLACES.filter((p) => p.plz === wanted);
    if (found.length === 1) return { place: found[0] as NamedPlace };
    if (found.length > 1) return { problem: 'ambiguous_place', candidates: found };
    const near = NAMED_PLACES.filter((p) => p.plz?.slice(0, 3) === wanted.slice(0, 3));
    return { problem: 'unknown_place', alternatives: near.slice(0, 5) };
  }
  const exact = BY_KEY.get(wanted);
  if (exact && exact.length === 1) return { place: exact[0] as NamedPlace };
  if (exact) return { problem: 'ambiguous_place', candidates: exact };
  const starting =
    wanted.length < 3 ? [] : KEYED.filter(({ keys }) => keys.some((k) => k.startsWith(wanted))).map((k) => k.place);
  if (starting.length === 1) return { place: starting[0] as NamedPlace };
  if (starting.length > 1) return { problem: 'ambiguous_place', candidates: starting.slice(0, 10) };
  const keys = [...BY_KEY.keys()];
  const closest = closestMatches(wanted, keys, 5).flatMap((k) => BY_KEY.get(k) ?? []);
  return { problem: 'unknown_place', alternatives: [...new Set(closest)] };
}

/** Places whose name, district or postal code starts with (or whose name contains) the typed text. */
export function placesTypeahead(q: string | undefined, limit: number): NamedPlace[] {
  const wanted = q === undefined ? '' : key(q);
  if (wanted === '') return [...NAMED_PLACES].slice(0, limit);
  const scored = KEYED.map(({ place, keys }) => {
    const score = keys.some((k) => k === wanted)
      ? 0
      : place.plz?.startsWith(wanted) ||
          keys.some((k) => k.startsWith(wanted) || k.split(' ').some((w) => w.startsWith(wanted)))
        ? 1
        : keys.some((k) => k.includes(wanted))
          ? 2
          : -1;
    return { place, score };
  }).filter((s) => s.score >= 0);
  scored.sort((a, b) => a.score - b.score || a.place.name.localeCompare(b.place.name, 'de'));
  return scored.slice(0, limit).map((s) => s.place);
}
