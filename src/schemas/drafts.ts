import { type Static, Type } from 'typebox';
import { DRAFT_OPERATIONS, DRAFT_STATUSES } from '../domain/drafts.js';
import { IdParams, Nullable, StringEnum } from './common.js';

/** What the draft routes and the page say about a draft's life, once. */
export const draftRules = (ttlHours: number, pendingCap: number) =>
  `A draft is a write prepared for a person: nothing happens until the person opens confirmation_url and presses Confirm (no key needed there: the token in the URL is the secret; it is shown once, stored only as a hash, works once and for ${ttlHours} hours, DRAFT_TTL_HOURS). Confirming runs the operation for the account that made the draft, exactly once (a second click or tab shows the result), with its usual rules at that moment: if the job closed or the days were booked meanwhile, the page shows the operation's error and the draft stays pending. At most ${pendingCap} pending drafts per account (409 limit_reached). The outcome reaches the account's webhooks and private stream as draft.confirmed or draft.declined.`;

export const DraftCreateBody = Type.Object(
  {
    operation: StringEnum(DRAFT_OPERATIONS, { description: 'The operationId of the write to prepare.' }),
    path: Type.Optional(
      Type.Object(
        {
          id: Type.String({
            minLength: 1,
            maxLength: 64,
            description: 'applyToJob: the job id; createBooking: the listing id.',
          }),
        },
        {
          additionalProperties: false,
          description: 'The path parameters of the operation: needed for applyToJob and createBooking only.',
        },
      ),
    ),
    body: Type.Object(
      {},
      {
        additionalProperties: true,
        description:
          'The request body of the operation, exactly as it takes it (see its request body); checked as the operation checks it, with the same errors and param names.',
      },
    ),
  },
  { additionalProperties: false },
);
export type DraftCreateBody = Static<typeof DraftCreateBody>;

export const DraftParams = IdParams('Draft', 'drf_4f9c2a7b1d3e5f60', { pattern: '^[A-Za-z0-9_-]+$' });

const draftProperties = {
  id: Type.String({ description: 'Draft id, prefixed `drf_`.' }),
  operation: StringEnum(DRAFT_OPERATIONS),
  status: StringEnum(DRAFT_STATUSES, {
    description:
      'pending until the person decides; confirmed (see result), declined, or expired after DRAFT_TTL_HOURS.',
  }),
  path: Nullable(Type.Object({ id: Type.String() }, { additionalProperties: false }), {
    description: 'The path parameters of the operation, null when it has none.',
  }),
  body: Type.Object({}, { additionalProperties: true, description: 'The body as validated, sent on confirmation.' }),
  summary: Type.Object(
    { de: Type.String(), en: Type.String() },
    { additionalProperties: false, description: 'What confirming does, in German and English, as the page shows it.' },
  ),
  details: Type.Object(
    {
      title: Type.String({ description: 'The job or listing title.' }),
      place: Type.String({ description: 'District or town with postal code; never a point or an address.' }),
      price_eur: Type.Number({ description: "The job's price, the booking's rent, or the listing's price per day." }),
      deposit_eur: Nullable(Type.Number(), { description: 'The deposit of a booking or listing; null for jobs.' }),
      starts: Nullable(Type.String(), { description: 'Job: desired_at; booking: start_date.' }),
      ends: Nullable(Type.String(), { description: 'Job: deadline; booking: end_date.' }),
    },
    { additionalProperties: false },
  ),
  result: Nullable(
    Type.Object(
      {
        id: Type.String({ description: 'The created job, application, booking or listing.' }),
        location: Type.String({ description: 'Where to GET it (the Location the operation answers).' }),
      },
      { additionalProperties: false },
    ),
    { description: 'What the confirmation created; null unless confirmed.' },
  ),
  created_at: Type.String({ format: 'date-time' }),
  expires_at: Type.String({ format: 'date-time' }),
  decided_at: Nullable(Type.String({ format: 'date-time' }), { description: 'When it was confirmed or declined.' }),
};

export const DraftSchema = Type.Object(draftProperties, { additionalProperties: false });
export type Draft = Static<typeof DraftSchema>;

export const DraftCreatedSchema = Type.Object(
  {
    ...draftProperties,
    confirmation_url: Type.String({
      format: 'uri',
      description: 'The page for the person (no key): show or send it to them. Shown only in this answer.',
    }),
  },
  { additionalProperties: false },
);
export type DraftCreated = Static<typeof DraftCreatedSchema>;
