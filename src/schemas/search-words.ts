import { type Static, Type } from 'typebox';
import { MAX_PLACE_NAME_LENGTH } from '../domain/place-names.js';
import { MAX_QUERY_LENGTH, MAX_QUERY_WORDS } from '../domain/search-text.js';
import { Nullable, PlainText, RefTo } from './common.js';

/** A place the service knows by name (GET /v1/places; the centre `near` resolved to). */
export const NamedPlaceSchema = Type.Object(
  {
    name: Type.String({ description: 'The district inside Karlsruhe, the town outside it, or Karlsruhe itself.' }),
    city: Type.String(),
    district: Nullable(Type.String()),
    plz: Nullable(Type.String(), { description: 'Postal code; null for the city of Karlsruhe as a whole.' }),
    lat: Type.Number(),
    lng: Type.Number(),
  },
  { $id: 'Place', additionalProperties: false },
);
export type NamedPlace = Static<typeof NamedPlaceSchema>;

/** `q` and `near`: the search parameters of issue 18 (jobs, listings and their sandbox twins). */
export const TextSearchParams = {
  q: Type.Optional(
    PlainText(MAX_QUERY_LENGTH, {
      description: `Words that must all match the title, the description, the category's German or English name or the place (city, district). Case, umlauts and ß fold (Maeher = Mäher); inflections match (Fahrräder finds Fahrrad); a word of 4+ letters matches part of a compound (Mäher finds Rasenmäher); one typo is forgiven in words of 5+ letters; the last word may be a prefix. Small words (in, und, für, suche …) are ignored. At most ${MAX_QUERY_WORDS} words. Example: q=bohrmaschine.`,
    }),
  ),
};

/** `near`: a centre by name. */
export const NearParam = Type.Optional(
  PlainText(MAX_PLACE_NAME_LENGTH, {
    description:
      'The centre as a place name (Durlach, Ettlingen, Karlsruhe-Mühlburg), district or postal code (76227), folded like q, instead of lat/lng (both together are a 400). An unknown name is a 400 with the closest places in alternatives; an ambiguous one lists the candidates. GET /v1/places lists them.',
  }),
);

export const MAX_PLACES = 20;

export const PlacesQuery = Type.Object(
  {
    q: Type.Optional(
      PlainText(MAX_PLACE_NAME_LENGTH, {
        description:
          'What was typed so far: the start of a name, district or postal code (folded like the search q). All places when not given.',
      }),
    ),
    limit: Type.Optional(
      Type.Integer({ format: 'int32', minimum: 1, maximum: MAX_PLACES, default: 10, description: 'Places to show.' }),
    ),
  },
  { additionalProperties: false },
);
export type PlacesQuery = Static<typeof PlacesQuery>;

export const PlaceList = Type.Object({ data: Type.Array(RefTo(NamedPlaceSchema)) }, { additionalProperties: false });
