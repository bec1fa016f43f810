import { type TProperties, type TSchema, Type } from 'typebox';
import { DEFAULT_CENTER, MAX_RADIUS_KM } from '../domain/geo.js';
import { CategoryParam, Lat, Lng, PagingQuery, Radius, RefTo } from './common.js';
import { NamedPlaceSchema, NearParam, TextSearchParams } from './search-words.js';

/** What the searches of jobs and listings share: their parameters and their pages. */

/**
 * The query of a search: words, the area (near, or lat/lng and radius), category, then the
 * filters of its own resource, then sort and paging.
 */
export function searchQuery<P extends TProperties>(radiusDescription: string, filters: P) {
  return Type.Object(
    {
      ...TextSearchParams,
      near: NearParam,
      lat: Type.Optional(Lat('Latitude of the search centre.')),
      lng: Type.Optional(Lng('Longitude of the search centre.')),
      radius: Type.Optional(Radius(radiusDescription)),
      category: Type.Optional(CategoryParam),
      ...filters,
      ...PagingQuery,
    },
    { additionalProperties: false },
  );
}

/**
 * Why a page is empty when the search area lies wholly outside the service area (a write there is
 * refused with the distance; a search says it here, so clients reading the page keep working).
 */
export const SearchNotice = Type.String({
  description: `Present only on an empty page whose search area lies wholly outside the service area (${MAX_RADIUS_KM} km around Karlsruhe, ${DEFAULT_CENTER.lat}, ${DEFAULT_CENTER.lng}): says how far the centre is and what to search instead.`,
});

/** One page of a search: its items, the exact total, the paging asked for, the place `near` named. */
export function searchPage<T extends TSchema>(item: T, totalDescription: string) {
  return Type.Object(
    {
      data: Type.Array(item),
      total: Type.Integer({ minimum: 0, description: totalDescription }),
      limit: Type.Integer(),
      offset: Type.Integer(),
      has_more: Type.Boolean({ description: 'Whether a page after this one has results (offset + limit < total).' }),
      near: Type.Optional(RefTo(NamedPlaceSchema)),
      notice: Type.Optional(SearchNotice),
    },
    { additionalProperties: false },
  );
}
