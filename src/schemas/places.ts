import { Type } from 'typebox';
import { Nullable, SHOWN_POINT_NOTE } from './common.js';

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
