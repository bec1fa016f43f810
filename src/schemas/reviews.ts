import { type Static, Type } from 'typebox';
import {
  HasMore,
  IdParams,
  MAX_PAGE_SIZE,
  Nullable,
  PageFields,
  PagingQuery,
  PlainText,
  RefTo,
  StringEnum,
} from './common.js';

export const REVIEW_SIDES = ['client', 'helper', 'owner', 'renter'] as const;

/**
 * A review's body; `of` names what is reviewed in the rating's description. (Two operations with
 * word-for-word equal bodies would make the document's compaction share a whole body under an
 * operation's name, which it reserves for generated schemas: src/http/openapi/schemas.ts.)
 */
const reviewBody = (of: string) =>
  Type.Object(
    {
      rating: Type.Integer({
        format: 'int32',
        minimum: 1,
        maximum: 5,
        description: `Stars for ${of}, 1 (bad) to 5 (excellent).`,
      }),
      text: Type.Optional(
        PlainText(2000, { minLength: 1, description: 'What you want to say, at most 2000 characters.' }),
      ),
    },
    { additionalProperties: false },
  );
export const ApplicationReviewBody = reviewBody('the other side of the job');
export const BookingReviewBody = reviewBody('the other side of the booking');
export type ReviewCreateBody = Static<typeof ApplicationReviewBody>;

export const ReviewReplyBody = Type.Object(
  {
    text: PlainText(2000, { minLength: 1, description: 'The public reply, at most 2000 characters.' }),
  },
  { additionalProperties: false },
);
export type ReviewReplyBody = Static<typeof ReviewReplyBody>;

const ReplySchema = Nullable(
  Type.Object(
    {
      text: Type.String(),
      created_at: Type.String({ format: 'date-time' }),
    },
    { additionalProperties: false },
  ),
  { description: "The reviewed party's one public reply, or null." },
);

export const ReviewSchema = Type.Object(
  {
    id: Type.String({ description: 'Review id, prefixed `rev_`.' }),
    about: Type.Object(
      {
        type: StringEnum(['application', 'booking'] as const),
        id: Type.String({ description: 'The accepted application (of a completed job) or the returned booking.' }),
      },
      { additionalProperties: false },
    ),
    side: StringEnum(REVIEW_SIDES, {
      description:
        "Who wrote it: client (the job's owner, about the helper), helper (about the job's owner), renter (about the listing and its owner), owner (about the renter).",
    }),
    author_name: Type.String({ description: 'First name and initial of the author, e.g. "Anna M.".' }),
    rating: Type.Integer({ minimum: 1, maximum: 5 }),
    text: Nullable(Type.String()),
    created_at: Type.String({ format: 'date-time' }),
    published: Type.Boolean({
      description:
        'false while only its author sees it: until the other side has reviewed too or the window has closed.',
    }),
    published_at: Nullable(Type.String({ format: 'date-time' }), {
      description: 'When both became visible (the second review, or the end of the window).',
    }),
    window_closes_at: Type.String({ format: 'date-time' }),
    reply: ReplySchema,
  },
  { $id: 'Review', additionalProperties: false, description: 'A review of one side of a completed job or booking.' },
);
export type Review = Static<typeof ReviewSchema>;

export const PublicReviewSchema = Type.Object(
  {
    id: Type.String(),
    rating: Type.Integer({ minimum: 1, maximum: 5 }),
    text: Nullable(Type.String()),
    author_name: Type.String({ description: 'First name and initial only, e.g. "Anna M.".' }),
    created_at: Type.String({ format: 'date-time' }),
    published_at: Type.String({ format: 'date-time' }),
    reply: ReplySchema,
  },
  { $id: 'PublicReview', additionalProperties: false, description: 'A published review as anyone may read it.' },
);
export type PublicReview = Static<typeof PublicReviewSchema>;

export const PublicReviewPage = Type.Object(
  {
    data: Type.Array(RefTo(PublicReviewSchema), { description: 'Newest first.' }),
    ...PageFields,
    total: Type.Integer({ minimum: 0, description: 'Published reviews, over all pages.' }),
    has_more: HasMore,
  },
  { additionalProperties: false },
);
export type PublicReviewPage = Static<typeof PublicReviewPage>;

export const ReviewPageQuery = Type.Object(
  { limit: PagingQuery.limit, offset: PagingQuery.offset },
  { additionalProperties: false },
);

export const ReviewIdParams = IdParams('Review', 'rev_5d1c9e0a7b3f2468');

/** The review rules, said on every review operation. */
export const reviewRules = (windowDays: number) =>
  `Reviews are double-blind. After a job's completion is final, its owner (side client) reviews each helper whose application was accepted, and each such helper (side helper) the owner: POST /v1/jobs/{id}/applications/{application_id}/reviews. After a booking is returned, the renter reviews the listing's owner and the owner the renter: POST /v1/bookings/{id}/reviews. The side is the caller's role; anyone else gets 404. One review per side (409 already_reviewed); before completion or return 409 not_reviewable, and while a job's completion is not final for the helper (not confirmed, the window to object open, or objected) 409 completion_not_final; the window is ${windowDays} days (REVIEW_WINDOW_DAYS) from the final completion or the return, then 409 review_window_closed. A review is seen only by its author until the other side has reviewed too or the window has closed; then both are published at once (at read time: no request or background job is needed for that; a review.published event to both parties follows). Published reviews of helpers and listing owners count in their rating_avg and rating_count at once: one per reviewer, and none of an account younger than a day when it wrote. Public reads show the author as first name and initial only (GET /v1/helpers/{id}/reviews, GET /v1/listings/{id}/reviews, at most ${MAX_PAGE_SIZE} per page). The reviewed party may reply once, publicly: POST /v1/reviews/{id}/reply.`;
