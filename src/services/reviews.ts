import { isUniqueViolation } from '../db/errors.js';
import type { Queryable } from '../db/queryable.js';
import type { AccountRow, ReviewRow, ReviewSide } from '../db/schema.js';
import { type CompletionColumns, completionFinalAt } from '../domain/completions.js';
import { isPublished, reviewWindowCloses } from '../domain/reviews.js';
import { firstNameAndInitial } from '../domain/text.js';
import { findHelperProfile, isRemovedHelper } from '../repositories/helper-profiles.js';
import { findListing } from '../repositories/listings.js';
import { recordEvent } from '../repositories/outbox.js';
import { refreshHelperRecords, refreshOwnerRecords } from '../repositories/reliability-records.js';
import {
  findApplicationForReview,
  findBookingForReview,
  findReview,
  insertReview,
  lockReviewSubject,
  publishBothSides,
  publishClosedReview,
  publishedReviewsOf,
  type ReviewSubject,
  reviewRowToReview,
  reviewsDueForPublication,
  setReply,
} from '../repositories/reviews.js';
import { inWriteTransaction, type WriteContext, type WriteTransaction } from '../repositories/write-transaction.js';
import type { PublicReviewPage, Review, ReviewCreateBody } from '../schemas/reviews.js';
import { ApiError } from './errors.js';

/** What the review rules depend on besides the request. */
export interface ReviewSettings {
  /** Days after completion or return during which both sides may review (REVIEW_WINDOW_DAYS). */
  windowDays: number;
}

/** A side's review of the other side of an accepted application of a completed job. */
export async function reviewApplication(
  context: WriteContext,
  account: AccountRow,
  ids: { jobId: string; applicationId: string },
  body: ReviewCreateBody,
  settings: ReviewSettings,
): Promise<Review> {
  const found = await findApplicationForReview(context.db, ids.jobId, ids.applicationId);
  const side: ReviewSide | null =
    found?.owner_account_id === account.id ? 'client' : found?.account_id === account.id ? 'helper' : null;
  if (!found || !side) throw notAParty('application', ids.applicationId);
  if (found.status !== 'accepted' || found.withdrawn_at !== null) {
    throw notReviewable(
      `The application is ${found.status === 'accepted' ? 'withdrawn' : found.status}; only accepted applications of completed jobs are reviewed.`,
    );
  }
  if (found.job_status !== 'completed' || found.completed_at === null) {
    throw notReviewable(
      `The job is ${found.job_status}; reviews open when its owner completes it (POST /v1/jobs/${ids.jobId}/complete).`,
    );
  }
  // The owner's word is not enough: the helper's confirmation, or the window to object closed (issue 30, 3).
  const finalAt = completionFinalAt(found, context.now);
  if (finalAt === null) throw completionNotFinal(found, side, ids);
  const subject: ReviewSubject = {
    type: 'application',
    id: found.id,
    windowClosesAt: reviewWindowCloses(finalAt, settings.windowDays),
    reviewed:
      side === 'client'
        ? { helperId: found.helper_id, ownerId: null, listingId: null, accountId: found.account_id }
        : { helperId: null, ownerId: null, listingId: null, accountId: found.owner_account_id },
    otherAccountId: side === 'client' ? found.account_id : found.owner_account_id,
  };
  const name = side === 'helper' ? found.helper_name : account.name;
  return writeReview(context, account, subject, side, name, body);
}

/** The renter's or the owner's review of the other side of a returned booking. */
export async function reviewBooking(
  context: WriteContext,
  account: AccountRow,
  bookingId: string,
  body: ReviewCreateBody,
  settings: ReviewSettings,
): Promise<Review> {
  const found = await findBookingForReview(context.db, bookingId);
  const side: ReviewSide | null =
    found?.renter_account_id === account.id ? 'renter' : found?.owner_account_id === account.id ? 'owner' : null;
  if (!found || !side) throw notAParty('booking', bookingId);
  if (found.status !== 'returned') {
    throw notReviewable(
      `The booking is ${found.status}; reviews open when the owner records the return (POST /v1/bookings/${bookingId}/return).`,
    );
  }
  const subject: ReviewSubject = {
    type: 'booking',
    id: found.id,
    // A returned booking changes no more: its last change is the return.
    windowClosesAt: reviewWindowCloses(found.updated_at, settings.windowDays),
    reviewed:
      side === 'renter'
        ? { helperId: null, ownerId: found.owner_id, listingId: found.listing_id, accountId: found.owner_account_id }
        : { helperId: null, ownerId: null, listingId: found.listing_id, accountId: found.renter_account_id },
    otherAccountId: side === 'renter' ? found.owner_account_id : found.renter_account_id,
  };
  const name = side === 'owner' ? found.owner_name : account.name;
  return writeReview(context, account, subject, side, name, body);
}

async function writeReview(
  context: WriteContext,
  account: AccountRow,
  subject: ReviewSubject,
  side: ReviewSide,
  name: string,
  body: ReviewCreateBody,
): Promise<Review> {
  if (subject.windowClosesAt <= context.now.toISOString()) {
    throw new ApiError(409, 'review_window_closed', `The review window closed at ${subject.windowClosesAt}.`, {
      param: null,
      suggestion:
        'Reviews are written within the window after completion or return; this one can no longer be reviewed.',
    });
  }
  const { now } = context;
  const input = {
    subject,
    side,
    authorAccountId: account.id,
    authorName: firstNameAndInitial(name),
    rating: body.rating,
    text: body.text ?? null,
  };
  try {
    return await inWriteTransaction(context, async (trx) => {
      // The subject's row first: two sides reviewing at once run one after the other, so the
      // second always sees the first and publishes both.
      await lockReviewSubject(trx, subject);
      const row = await insertReview(trx, input, now);
      const published = await publishBothSides(trx, subject, now);
      await announcePublished(trx, published, [account.id, subject.otherAccountId], now);
      return reviewRowToReview(published.find((r) => r.id === row.id) ?? row, now);
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    throw new ApiError(409, 'already_reviewed', `You have reviewed this ${subject.type} already (as its ${side}).`, {
      param: null,
      suggestion: 'One review per side; the reviewed party may answer it once with POST /v1/reviews/{id}/reply.',
    });
  }
}

/** A review for its author, or, once published, for the reviewed party; 404 for anyone else. */
export async function getReview(db: Queryable, account: AccountRow, id: string, now: Date): Promise<Review> {
  const row = await findReview(db, id);
  const visible =
    row &&
    (row.author_account_id === account.id ||
      (row.reviewed_account_id === account.id && isPublished(row, now) && row.removed_at === null));
  if (!row || !visible) throw reviewNotFound(id);
  return reviewRowToReview(row, now);
}

/** The reviewed party's one public reply to a published review. */
export async function replyToReview(
  context: WriteContext,
  account: AccountRow,
  id: string,
  text: string,
): Promise<Review> {
  const row = await findReview(context.db, id);
  if (!row || row.reviewed_account_id !== account.id || !isPublished(row, context.now)) throw reviewNotFound(id);
  await inWriteTransaction(context, async (trx) => {
    // Thrown in the transaction: the refusal commits nothing, not even the key's mark.
    if (!(await setReply(trx, id, text, context.now))) {
      throw new ApiError(409, 'already_replied', 'This review has a reply already; a review is answered once.', {
        param: null,
        suggestion: `GET /v1/reviews/${id} shows the reply.`,
      });
    }
  });
  return getReview(context.db, account, id, context.now);
}

/** Published reviews clients wrote about a helper; 404 for no such helper. */
export async function helperReviews(
  db: Queryable,
  helperId: string,
  page: { limit: number; offset: number },
  now: Date,
): Promise<PublicReviewPage> {
  // Removed by a moderation decision: as unknown as an id that never existed.
  if (!(await findHelperProfile(db, helperId)) || (await isRemovedHelper(db, helperId))) {
    throw new ApiError(404, 'not_found', `No helper has the id '${helperId}'.`, {
      param: 'id',
      suggestion: 'Check the id (helper ids start with hlp_); GET /v1/helpers/availability lists verified helpers.',
    });
  }
  return pageOf(await publishedReviewsOf(db, { helperId }, page, now), page);
}

/** Published reviews renters wrote about a listing and its owner; 404 for no such listing, and for a removed one. */
export async function listingReviews(
  db: Queryable,
  listingId: string,
  page: { limit: number; offset: number },
  now: Date,
): Promise<PublicReviewPage> {
  const listing = await findListing(db, listingId);
  if (!listing || listing.status === 'removed') {
    throw new ApiError(404, 'not_found', `No listing has the id '${listingId}'.`, {
      param: 'id',
      suggestion: 'Check the id (listing ids start with lst_); GET /v1/listings finds listings.',
    });
  }
  return pageOf(await publishedReviewsOf(db, { listingId }, page, now), page);
}

/**
 * Writes the publication of reviews whose window closed without the other side (reads show them
 * published already), each in its own transaction with its review.published event and the reviewed
 * party's figures: a background write, at most `batch` per call. Returns how many it published.
 */
export async function publishClosedReviews(context: WriteContext, batch = 100): Promise<number> {
  const due = await reviewsDueForPublication(context.db, context.now, batch);
  let published = 0;
  for (const review of due) {
    const rows = await inWriteTransaction(context, async (trx) => {
      const closed = await publishClosedReview(trx, review.id, context.now);
      await announcePublished(trx, closed, [], context.now);
      return closed;
    });
    if (rows.length > 0) published++;
  }
  return published;
}

/**
 * What a publication records: a review.published event for each review to both parties (the
 * `audience` and each review's author and reviewed account), and the reviewed parties' figures
 * computed again.
 */
async function announcePublished(
  trx: WriteTransaction,
  rows: readonly ReviewRow[],
  audience: readonly (string | null)[],
  now: Date,
): Promise<void> {
  for (const row of rows) {
    const data = reviewRowToReview(row, now);
    const parties = [...audience, row.author_account_id, row.reviewed_account_id];
    await recordEvent(trx, { type: 'review.published', subjectId: row.id, place: null, audience: parties, data }, now);
  }
  await refreshHelperRecords(
    trx,
    rows.flatMap((r) => (r.helper_id ? [r.helper_id] : [])),
  );
  await refreshOwnerRecords(
    trx,
    rows.flatMap((r) => (r.owner_id ? [r.owner_id] : [])),
  );
}

function pageOf(found: { data: PublicReviewPage['data']; total: number }, page: { limit: number; offset: number }) {
  return { ...found, ...page, has_more: page.offset + page.limit < found.total };
}

function notAParty(what: string, id: string): ApiError {
  return new ApiError(404, 'not_found', `No ${what} with the id '${id}' is yours to review.`, {
    param: what === 'application' ? 'application_id' : 'id',
    suggestion:
      what === 'application'
        ? "Reviews of an application are written by the job's owner and the accepted helper's account."
        : "Reviews of a booking are written by its renter and the listing's owner.",
  });
}

/** 409 completion_not_final: when the reviews of the application open, and what the caller can do about it. */
function completionNotFinal(
  found: CompletionColumns,
  side: ReviewSide,
  ids: { jobId: string; applicationId: string },
): ApiError {
  const confirm = `POST /v1/jobs/${ids.jobId}/applications/${ids.applicationId}/confirm-completion`;
  if (found.completion_objected_at !== null) {
    return new ApiError(
      409,
      'completion_not_final',
      `The helper objected to the job's completion at ${found.completion_objected_at}; it does not stand for this application, and its reviews stay closed.`,
      {
        param: null,
        suggestion:
          side === 'helper'
            ? `If the work was done after all, confirm the completion (${confirm}); the reviews open then.`
            : 'Settle it with the helper in the conversation (POST /v1/conversations); the reviews open once they confirm the completion.',
      },
    );
  }
  const until = found.completion_objectable_until;
  return new ApiError(
    409,
    'completion_not_final',
    `The job's completion awaits the helper's confirmation; it becomes final at ${until} unless they object before, and the reviews open then.`,
    {
      param: null,
      suggestion:
        side === 'helper'
          ? `Confirm the completion (${confirm}) to review now, or object to it before ${until}.`
          : `Review at ${until} or later, or once the helper has confirmed the completion.`,
    },
  );
}

function notReviewable(message: string): ApiError {
  return new ApiError(409, 'not_reviewable', message, {
    param: null,
    suggestion: 'Review after the job is completed or the booking returned, within the review window.',
  });
}

function reviewNotFound(id: string): ApiError {
  return new ApiError(404, 'not_found', `No review with the id '${id}' is yours to see.`, {
    param: 'id',
    suggestion:
      'A review is seen by its author, and once published by the reviewed party; GET /v1/helpers/{id}/reviews and GET /v1/listings/{id}/reviews list published ones.',
  });
}
