import { type Static, Type } from 'typebox';

/** A location in a request body: coordinates, or a postal code of the service area. */
export const LocationInput = Type.Union(
  [
    Type.Object(
      {
        lat: Type.Number({ minimum: -90, maximum: 90, description: 'Latitude.' }),
        lng: Type.Number({ minimum: -180, maximum: 180, description: 'Longitude.' }),
      },
      { additionalProperties: false },
    ),
    Type.Object(
      {
        plz: Type.String({
          pattern: '^[0-9]{5}$',
          maxLength: 5,
          description: 'A postal code of the service area, e.g. 76227.',
        }),
      },
      { additionalProperties: false },
    ),
  ],
  { description: 'Either {lat, lng} within 50 km of Karlsruhe (49.0069, 8.4037), or {plz}.' },
);
export type LocationInput = Static<typeof LocationInput>;
