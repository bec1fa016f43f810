import { type Static, type TSchema, Type } from 'typebox';
import { PLACE_OFFSET_MAX_M, PLACE_OFFSET_MIN_M } from '../domain/approximate-place.js';
import { CANCELLATION_POLICIES } from '../domain/cancellation.js';
import { CATEGORIES } from '../domain/categories.js';
import { DEFAULT_CENTER, MAX_RADIUS_KM } from '../domain/geo.js';
import { RELIABILITY_FORMULA } from '../domain/reliability.js';
import { PLAIN_TEXT_PATTERN, VISIBLE_TEXT_PATTERN } from '../domain/text.js';

/** A string enum rendered as `{type: string, enum: [...]}`: one JSON Schema shape for ajv, OpenAPI and TS. */
export function StringEnum<const T extends readonly string[]>(values: T, options: Record<string, unknown> = {}) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

/** A job's or listing's cancellation policy (domain/cancellation.ts). */
export const CancellationPolicySchema = (options: Record<string, unknown> = {}) =>
  StringEnum(CANCELLATION_POLICIES, {
    description: 'What a cancellation by the payer refunds; the tiers are in the Payments rules.',
    ...options,
  });

/** What a cancellation did to the money (the cancel endpoints' answers only). */
export const CancellationOutcome = Type.Optional(
  Type.Object(
    {
      policy: StringEnum(CANCELLATION_POLICIES),
      hours_before_start: Nullable(Type.Number(), { description: 'Hours left before the start; null without one.' }),
      refund_percent: Type.Integer({ minimum: 0, maximum: 100 }),
      refund_eur: Type.Number({ minimum: 0, description: 'What the payer gets back or no longer owes.' }),
      fee_eur: Type.Number({ minimum: 0, description: 'What the payee keeps or is owed as a cancellation fee.' }),
    },
    {
      additionalProperties: false,
      description:
        'Only in the answer of the cancellation: the policy applied to the payments (GET /v1/payments shows the fee and refund payments).',
    },
  ),
);

/** A name, title or description: length bounds, visible text, no direction controls (domain/text.ts). */
export const Text = (min: number, max: number, description: string, options: Record<string, unknown> = {}) =>
  Type.String({ minLength: min, maxLength: max, pattern: VISIBLE_TEXT_PATTERN, description, ...options });

/** Free text that may be empty (a note, a bio): no direction controls (domain/text.ts). */
export const PlainText = (max: number, options: Record<string, unknown> = {}) =>
  Type.String({ maxLength: max, pattern: PLAIN_TEXT_PATTERN, ...options });

/**
 * The schema keyword of a text everyone reads (a title, a description, a helper's name and bio):
 * true refuses contact data in it (domain/contact-shield.ts) with a 400 naming the field. An
 * OpenAPI extension (`x-`), checked by an Ajv keyword of the same name (http/compiler-cache.ts).
 */
export const NO_CONTACT_DATA = 'x-no-contact-data';
const PUBLIC_NOTE = 'Public: contact data is refused (400).';

/** A public name, title or description: Text that refuses contact data. */
export const PublicText = (min: number, max: number, description: string) =>
  Text(min, max, `${description} ${PUBLIC_NOTE}`, { [NO_CONTACT_DATA]: true });

/** Public free text that may be empty (a bio): PlainText that refuses contact data. */
export const PublicPlainText = (max: number, options: Record<string, unknown> & { description: string }) =>
  PlainText(max, { ...options, description: `${options.description} ${PUBLIC_NOTE}`, [NO_CONTACT_DATA]: true });

/**
 * A nullable schema: `type: [t, 'null']` where the schema has a single type (OpenAPI 3.1 and
 * fast-json-stringify both read it directly), `anyOf` with null for a `$ref`.
 */
export function Nullable<T extends TSchema>(schema: T, options: Record<string, unknown> = {}) {
  const { type, ...rest } = schema as unknown as { type?: string; enum?: unknown[] };
  if (typeof type !== 'string') return Type.Unsafe<Static<T> | null>({ anyOf: [schema, { type: 'null' }], ...options });
  const values = rest.enum ? { enum: [...rest.enum, null] } : {};
  return Type.Unsafe<Static<T> | null>({ ...rest, ...values, type: [type, 'null'], ...options });
}

/**
 * A typed `$ref` to a component schema registered with app.addSchema: the OpenAPI document shows
 * it once under components, and TypeScript still sees the referenced type.
 */
export function RefTo<T extends TSchema>(schema: T) {
  const id = (schema as { $id?: unknown }).$id;
  if (typeof id !== 'string') throw new Error('RefTo needs a schema with an $id');
  return Type.Unsafe<Static<T>>({ $ref: id });
}

export const CategorySchema = StringEnum(CATEGORIES, { $id: 'Category', description: 'Category value.' });

/** The category query parameter: inline (not a $ref) so validation errors can list its values. */
export const CategoryParam = StringEnum(CATEGORIES, {
  description: 'Category value, in any case.',
});

// No `default` keyword: a default filled in by validation could not be told from a sent value
// (near and lat/lng exclude each other); the default centre is applied by domain/geo.ts searchArea.
export const Lat = (description: string) =>
  Type.Number({ minimum: -90, maximum: 90, description: `${description} Default ${DEFAULT_CENTER.lat}.` });
export const Lng = (description: string) =>
  Type.Number({ minimum: -180, maximum: 180, description: `${description} Default ${DEFAULT_CENTER.lng}.` });
export const Radius = (description: string) =>
  Type.Number({ exclusiveMinimum: 0, maximum: MAX_RADIUS_KM, default: MAX_RADIUS_KM, description });

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 20;
/** Deeper pages cost a scan of every row before them; past this, narrow the search instead. */
export const MAX_OFFSET = 10_000;

export const SEARCH_SORTS = ['newest', 'price_asc', 'price_desc', 'distance', 'relevance'] as const;

export const PagingQuery = {
  sort: Type.Optional(
    StringEnum(SEARCH_SORTS, {
      description:
        'newest first, price ascending or descending, nearest to the centre first, or (with q) relevance: title matches before category, place and description matches, whole words before parts, exact before one typo, then newest. Default: relevance with q, else newest. Ties break by id.',
    }),
  ),
  limit: Type.Optional(
    Type.Integer({
      format: 'int32',
      minimum: 1,
      maximum: MAX_PAGE_SIZE,
      default: DEFAULT_PAGE_SIZE,
      description: 'Results per page.',
    }),
  ),
  offset: Type.Optional(
    Type.Integer({
      format: 'int32',
      minimum: 0,
      maximum: MAX_OFFSET,
      default: 0,
      description: `Results to skip. At most ${MAX_OFFSET}; an offset past the end answers an empty page.`,
    }),
  ),
};

/**
 * The paging fields of a list answer (total over all pages, the limit and offset asked for);
 * `has_more` where the list says whether a page follows. Spread into each page schema beside its
 * `data`.
 */
export const PageFields = {
  total: Type.Integer({ minimum: 0 }),
  limit: Type.Integer({ minimum: 1 }),
  offset: Type.Integer({ minimum: 0 }),
};
export const HasMore = Type.Boolean({
  description: 'Whether a page after this one has results (offset + limit < total).',
});

/** What every public Location says about its point (and the exact place's endpoints refer to). */
export const SHOWN_POINT_NOTE = `Public answers never show where a job, listing or helper really is: lat/lng is an approximate point ${PLACE_OFFSET_MIN_M} to ${PLACE_OFFSET_MAX_M} m from the place, in a direction and at a distance fixed per account and area of about 220 m (every answer, and every object the account has there, is moved by the same vector, so repeating or averaging does not get closer). distance_km, radius filters and the distance sort use this point too. city, plz and district are exact. The place itself is for the owner and, once an application is accepted or on the first day of a confirmed booking, the other party (each read recorded for the owner to see): GET /v1/jobs/{id}/location, /v1/listings/{id}/location, /v1/helpers/{id}/location.`;

export const LocationSchema = Type.Object(
  {
    city: Type.String(),
    plz: Type.String({ description: 'Postal code.' }),
    district: Nullable(Type.String(), { description: 'District of the city of Karlsruhe; null elsewhere.' }),
    lat: Type.Number({
      description: `Latitude of the approximate point (${PLACE_OFFSET_MIN_M} to ${PLACE_OFFSET_MAX_M} m from the place).`,
    }),
    lng: Type.Number({
      description: `Longitude of the approximate point (${PLACE_OFFSET_MIN_M} to ${PLACE_OFFSET_MAX_M} m from the place).`,
    }),
    distance_km: Type.Number({
      description:
        'Great-circle distance of the approximate point from the search centre in km (two decimals); from the default centre when the request has none.',
    }),
  },
  { $id: 'Location', additionalProperties: false, description: SHOWN_POINT_NOTE },
);
export type Location = Static<typeof LocationSchema>;

export const ReliabilityScoreSchema = Type.Object(
  {
    reliability_score: Type.Integer({
      minimum: 0,
      maximum: 100,
      description: '0 to 100 by the formula above; above 80 is suggested for time-sensitive tasks.',
    }),
    completed_jobs: Type.Integer({
      minimum: 0,
      description: 'A helper: jobs completed with their application accepted. A listing owner: bookings returned.',
    }),
    avg_response_minutes: Type.Integer({
      minimum: 0,
      description:
        "Mean minutes to answer (0 before the first): a helper from a job's posting to their application; a listing owner from a booking request to confirming or declining it; both from the first message of a conversation the other side opened to their first reply.",
    }),
    cancellation_rate: Type.Number({
      minimum: 0,
      maximum: 1,
      description:
        'Cancellations by this party / commitments, 0 to 1: a helper withdrawing an accepted application; an owner cancelling a booking (commitments: confirmed, active, returned and owner-cancelled bookings).',
    }),
    rating_avg: Type.Number({
      minimum: 0,
      maximum: 5,
      description: 'Mean of the ratings rating_count counts, 1 to 5 stars, two decimals (0 when unrated).',
    }),
    rating_count: Type.Integer({
      minimum: 0,
      description:
        'Reviewers counted: published reviews of clients (or renters), one per reviewer, from accounts a day old when they wrote.',
    }),
    verified: Type.Boolean({
      description: 'An approved verification by the platform exists and was not revoked.',
    }),
  },
  {
    $id: 'ReliabilityScore',
    additionalProperties: false,
    description: `Computed from stored history, never set: every write that changes the history (an application, its acceptance, a job's completion, a booking decision, cancellation or return, a published review, a verification) computes the figures again in its own transaction, so the next read shows them. ${RELIABILITY_FORMULA}`,
  },
);
export type ReliabilityScore = Static<typeof ReliabilityScoreSchema>;

export const PriceBand = (description: string) =>
  Type.Object(
    {
      low: Type.Number({ description: '10th percentile, EUR.' }),
      median: Type.Number({ description: 'Median, EUR.' }),
      high: Type.Number({ description: '90th percentile, EUR.' }),
    },
    { description, additionalProperties: false },
  );

export const IdParams = (what: string, example: string, options: { pattern?: string } = {}) =>
  Type.Object(
    { id: Type.String({ minLength: 1, maxLength: 64, ...options, description: `${what} id, e.g. ${example}.` }) },
    { additionalProperties: false },
  );

/** For endpoints without query parameters: any given is unknown and rejected with advice. */
export const NoQuery = Type.Object({}, { additionalProperties: false });
