import { type Static, Type } from 'typebox';
import { DRAFT_OPERATIONS, DRAFT_STATUSES, type DraftDetails } from '../domain/drafts.js';
import { IdParams, Nullable, StringEnum } from './common.js';

/** What the draft routes say about a draft's life, once. */
export const draftRules = (ttlHours: number, pendingCap: number) =>
  `It runs for your account, once, when the person confirms at confirmation_url (no key, DRAFT_TTL_HOURS: ${ttlHours}). At most ${pendingCap} pending (409).`;

export const DraftCreateBody = Type.Object(
  {
    operation: StringEnum(DRAFT_OPERATIONS),
    path: Type.Optional(
      Type.Object(
        {
          id: Type.String({
            minLength: 1,
            maxLength: 64,
          }),
        },
        {
          additionalProperties: false,
        },
      ),
    ),
    body: Type.Object(
      {},
      {
        additionalProperties: true,
        description: "The operation's body.",
      },
    ),
  },
  { additionalProperties: false },
);
export type DraftCreateBody = Static<typeof DraftCreateBody>;

export const DraftParams = IdParams('Draft', 'drf_4f9c2a7b1d3e5f60', { pattern: '^[A-Za-z0-9_-]+$' });

export const DraftSchema = Type.Object(
  {
    id: Type.String(),
    operation: StringEnum(DRAFT_OPERATIONS),
    status: StringEnum(DRAFT_STATUSES),
    body: Type.Object({}, { additionalProperties: true }),
    summary: Type.Object({ de: Type.String(), en: Type.String() }, { additionalProperties: false }),
    result: Nullable(Type.Object({ id: Type.String(), location: Type.String() }, { additionalProperties: false })),
    confirmation_url: Nullable(Type.String({ format: 'uri' }), {
      description: 'Only in the 201.',
    }),
    created_at: Type.String({ format: 'date-time' }),
    expires_at: Type.String({ format: 'date-time' }),
    decided_at: Nullable(Type.String({ format: 'date-time' })),
  },
  { $id: 'Draft', additionalProperties: false },
);
export type Draft = Static<typeof DraftSchema>;

/** What the confirmation page shows of a draft: its answer, and the facts behind the summary. */
export type DraftView = Draft & { details: DraftDetails };
