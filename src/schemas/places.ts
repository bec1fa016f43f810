import { Type } from 'typebox';
import { HasMore, Nullable, PageFields, PagingQuery, SHOWN_POINT_NOTE, StringEnum } from './common.js';

export const ExactLocationSchema = Type.Object(
  {
    id: Type.String({ description: 'The job, listing or helper this place belongs to.' }),
    city: Type.String(),
    plz: Type.String({ description: 'Postal code.' }),
    district: Nullable(Type.String(), { description: 'District of the city of Karlsruhe; null elsewhere.' }),
    lat: Type.Number({ description: 'Latitude of the place as its owner gave it.' }),
    lng: Type.Number({ description: 'Longitude of the place as its owner gave it.' }),
  },
  {
    $id: 'ExactLocation',
    additionalProperties: false,
    description: `The place itself, for whom it concerns; never cached, never in public answers, events or webhooks. ${SHOWN_POINT_NOTE}`,
  },
);

/** GET /v1/me/place-releases: one read of one of your places, per reader and day. */
export const PlaceRelease = Type.Object(
  {
    about: Type.Object(
      {
        type: StringEnum(['job', 'listing'] as const),
        id: Type.String(),
      },
      { additionalProperties: false },
    ),
    read_by: Type.String({ description: 'Who was shown the place: first name and initial.' }),
    day: Type.String({ format: 'date', description: 'The Europe/Berlin day of the reads.' }),
    first_read_at: Type.String({ format: 'date-time' }),
    last_read_at: Type.String({ format: 'date-time' }),
    reads: Type.Integer({ minimum: 1, description: 'How often that day.' }),
  },
  { additionalProperties: false },
);

export const PlaceReleasePage = Type.Object(
  { data: Type.Array(PlaceRelease), ...PageFields, has_more: HasMore },
  {
    additionalProperties: false,
    description: 'Who was shown the exact places of your jobs and listings, newest first.',
  },
);

export const PlaceReleaseQuery = Type.Object(
  { limit: PagingQuery.limit, offset: PagingQuery.offset },
  { additionalProperties: false },
);
