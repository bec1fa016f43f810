import type { LatLng } from '../domain/geo.js';
import { searchArea } from '../domain/geo.js';
import { type NamedPlace, resolvePlaceName } from '../domain/place-names.js';
import { MAX_QUERY_WORDS, type QueryWord, queryWords } from '../domain/search-text.js';
import type { SearchSort } from '../repositories/search-order.js';
import { badRequest } from './errors.js';

export interface AreaQuery {
  lat?: number;
  lng?: number;
  radius?: number;
  near?: string;
}

/** The centre and radius of a search: lat/lng, or the place `near` names; the place too when named. */
export function searchAreaOf(
  query: AreaQuery,
  /** The parameter's name in errors (filters.near in a webhook body). */
  param = 'near',
): { center: LatLng; radiusKm: number; place?: NamedPlace } {
  if (query.near === undefined) return searchArea(query);
  if (query.lat !== undefined || query.lng !== undefined) {
    throw badRequest(
      'conflicting_parameters',
      param,
      `${param} and lat/lng both set the centre of the search.`,
      `Send either ${param} (a place name or postal code) or lat and lng, not both.`,
      [param, param.replace('near', 'lat'), param.replace('near', 'lng')],
    );
  }
  const resolved = resolvePlaceName(query.near);
  if ('place' in resolved) {
    const { place } = resolved;
    return { ...searchArea({ lat: place.lat, lng: place.lng, radius: query.radius }), place };
  }
  if (resolved.problem === 'ambiguous_place') {
    const names = resolved.candidates.map((p) => p.name);
    throw badRequest(
      'ambiguous_place',
      param,
      `${param} '${query.near}' names more than one place: ${names.join(', ')}.`,
      `Send one of the places in alternatives as ${param}, or lat and lng.`,
      names,
    );
  }
  throw badRequest(
    'unknown_place',
    param,
    `No place in the service area is called '${query.near}'.`,
    resolved.alternatives.length > 0
      ? 'Did you mean one of the places in alternatives? GET /v1/places?q=... lists the places by name.'
      : 'GET /v1/places?q=... lists the places the service knows by name; or send lat and lng.',
    resolved.alternatives.map((p) => p.name),
  );
}

/** The words of q and the order a search takes: relevance by default with words, newest without. */
export function searchWordsAndSort(query: { q?: string; sort?: SearchSort }): {
  text?: QueryWord[];
  sort: SearchSort;
} {
  if (query.sort === 'relevance' && query.q === undefined) {
    throw badRequest(
      'conflicting_parameters',
      'sort',
      'sort=relevance orders by how well q matches, and q is missing.',
      'Add q (the words to search for), or use another sort: newest, price_asc, price_desc, distance.',
      ['newest', 'price_asc', 'price_desc', 'distance'],
    );
  }
  if (query.q === undefined) return { sort: query.sort ?? 'newest' };
  const words = queryWords(query.q);
  if (words.length > MAX_QUERY_WORDS) {
    throw badRequest(
      'parameter_out_of_range',
      'q',
      `q has ${words.length} words; at most ${MAX_QUERY_WORDS} are searched for.`,
      'Leave out words: every word must match, so fewer words find more.',
    );
  }
  // Only small words (in, und …): nothing to match, every row is found in its newest order.
  if (words.length === 0) return { sort: query.sort === 'relevance' ? 'newest' : (query.sort ?? 'newest') };
  return { text: words, sort: query.sort ?? 'relevance' };
}

/** The area filter of an event stream or webhook: lat/lng/radius as sent, or the centre `near` names. */
export function filterArea(query: AreaQuery, param = 'near'): { lat?: number; lng?: number; radius?: number } {
  if (query.near === undefined) return { lat: query.lat, lng: query.lng, radius: query.radius };
  const { center, radiusKm } = searchAreaOf(query, param);
  return { lat: center.lat, lng: center.lng, radius: radiusKm };
}
