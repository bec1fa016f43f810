import { type Static, Type } from 'typebox';
import { IdParams, PageFields, PagingQuery, RefTo, StringEnum, Text } from './common.js';
import { JobSchema } from './jobs.js';
import { ListingSchema } from './listings.js';

export const SAVED_SEARCH_RESOURCES = ['jobs', 'listings'] as const;

/** Paging parameters belong to a page of results, not to what a saved search matches: refused in `query`. */
export const PAGING_PARAMETERS = ['limit', 'offset', 'sort'] as const;

const SavedQuerySchema = Type.Object(
  {},
  {
    additionalProperties: true,
    description:
      'The parameters of GET /v1/jobs or GET /v1/listings (by `resource`), validated as that search validates them, with the same errors; numbers and booleans may be JSON or strings. No limit, offset or sort.',
  },
);

export const SavedSearchCreateBody = Type.Object(
  {
    name: Text(1, 100, 'Your name for the search, 1 to 100 characters.'),
    resource: StringEnum(SAVED_SEARCH_RESOURCES, { description: 'What it searches.' }),
    query: SavedQuerySchema,
    email_digest: Type.Optional(
      Type.Boolean({ default: false, description: 'Send a daily e-mail of new matches (with an unsubscribe link).' }),
    ),
  },
  { additionalProperties: false },
);
export type SavedSearchCreateBody = Static<typeof SavedSearchCreateBody>;

export const SavedSearchSchema = Type.Object(
  {
    id: Type.String({ description: 'Saved search id, prefixed `svs_`.' }),
    name: Type.String(),
    resource: StringEnum(SAVED_SEARCH_RESOURCES),
    query: Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean()]), {
      description: 'The search parameters as validated (typed).',
    }),
    email_digest: Type.Boolean(),
    created_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'SavedSearch', additionalProperties: false },
);
export type SavedSearch = Static<typeof SavedSearchSchema>;

export const SavedSearchPage = Type.Object(
  {
    data: Type.Array(RefTo(SavedSearchSchema), { description: 'Newest first.' }),
    ...PageFields,
  },
  { additionalProperties: false },
);

export const SavedSearchListQuery = Type.Object(
  { limit: PagingQuery.limit, offset: PagingQuery.offset },
  { additionalProperties: false },
);

export const SavedSearchMatchSchema = Type.Object(
  {
    matched_at: Type.String({ format: 'date-time' }),
    job: Type.Optional(RefTo(JobSchema)),
    listing: Type.Optional(RefTo(ListingSchema)),
  },
  { additionalProperties: false, description: 'job or listing (by the search’s resource), as it is now.' },
);

export const SavedSearchMatchPage = Type.Object(
  {
    data: Type.Array(SavedSearchMatchSchema, { description: 'Newest match first.' }),
    ...PageFields,
  },
  { additionalProperties: false },
);
export type SavedSearchMatchPage = Static<typeof SavedSearchMatchPage>;

export const SavedSearchParams = IdParams('Saved search', 'svs_4f9c2a7b1d3e5f60', { pattern: '^[A-Za-z0-9_-]+$' });

export const UnsubscribeQuery = Type.Object(
  {
    token: Type.String({
      minLength: 1,
      maxLength: 128,
      pattern: '^[A-Za-z0-9._-]+$',
      description: 'The token of the digest e-mail’s link.',
    }),
  },
  { additionalProperties: false },
);

export const UnsubscribedSchema = Type.Object(
  {
    unsubscribed: Type.Boolean(),
    saved_search_id: Type.String(),
    message: Type.String(),
  },
  { additionalProperties: false },
);
