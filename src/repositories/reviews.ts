import { sql } from 'kysely';
import type { Queryable } from '../db/queryable.js';
import type { ReviewAbout, ReviewRow, ReviewSide } from '../db/schema.js';
import { maskContactData } from '../domain/contact-shield.js';
import { newId } from '../domain/ids.js';
import { isPublished, publishedAt } from '../domain/reviews.js';
import type { PublicReview, Review } from '../schemas/reviews.js';
import type { WriteTransaction } from './write-transaction.js';

const replyOf = (row: ReviewRow) =>
  row.reply === null || row.replied_at === null ? null : { text: row.reply, created_at: row.replied_at };

/** A review as its author (or, once published, the reviewed party) sees it. */
export function reviewRowToReview(row: ReviewRow, now: Date): Review {
  return {
    id: row.id,
    about: { type: row.about_type, id: row.about_id },
    side: row.author_side,
    author_name: row.author_name,
    rating: row.rating,
    text: row.text,
    created_at: row.created_at,
    published: isPublished(row, now),
    published_at: publishedAt(row, now),
    window_closes_at: row.window_closes_at,
    reply: replyOf(row),
  };
}

/**
 * A published review as anyone reads it. Contact data in its text or reply is masked always (the
 * contact-data shield of conversations, src/domain/contact-shield.ts): a public page is no place
 * for a phone number or an e-mail address, whoever's they are.
 */
function publicReview(row: ReviewRow, now: Date): PublicReview {
  const reply = replyOf(row);
  return {
    id: row.id,
    rating: row.rating,
    text: row.text === null ? null : maskContactData(row.text).text,
    author_name: row.author_name,
    created_at: row.created_at,
    published_at: publishedAt(row, now) ?? row.created_at,
    reply: reply && { ...reply, text: maskContactData(reply.text).text },
  };
}

/** What a review is about, as the service found it: the parties and the window. */
export interface ReviewSubject {
  type: ReviewAbout;
  id: string;
  windowClosesAt: string;
  /** Who each side reviews: the helper or the listing owner whose figures the review feeds, and the account. */
  reviewed: { helperId: string | null; ownerId: string | null; listingId: string | null; accountId: string | null };
  /** The other side's account: it hears of the publication too. */
  otherAccountId: string | null;
}

/** The application, its job and the helper's display name: what a review of one needs. */
export function findApplicationForReview(db: Queryable, jobId: string, applicationId: string) {
  return db
    .selectFrom('applications')
    .innerJoin('jobs', 'jobs.id', 'applications.job_id')
    .innerJoin('helpers', 'helpers.id', 'applications.helper_id')
    .select([
      'applications.id',
      'applications.status',
      'applications.account_id',
      'applications.helper_id',
      'applications.withdrawn_at',
      'applications.completion_requested_at',
      'applications.completion_objectable_until',
      'applications.completion_confirmed_at',
      'applications.completion_objected_at',
      'applications.completion_objection',
      'applications.completion_final_at',
      'jobs.status as job_status',
      'jobs.completed_at',
      'jobs.owner_account_id',
      'helpers.display_name as helper_name',
    ])
    .where('applications.id', '=', applicationId)
    .where('applications.job_id', '=', jobId)
    .executeTakeFirst();
}

/** A booking with its listing's owner: what a review of it needs. */
export function findBookingForReview(db: Queryable, bookingId: string) {
  return db
    .selectFrom('bookings')
    .innerJoin('listings', 'listings.id', 'bookings.listing_id')
    .innerJoin('owners', 'owners.id', 'listings.owner_id')
    .select([
      'bookings.id',
      'bookings.status',
      'bookings.updated_at',
      'bookings.renter_account_id',
      'bookings.listing_id',
      'owners.id as owner_id',
      'owners.account_id as owner_account_id',
      'owners.display_name as owner_name',
    ])
    .where('bookings.id', '=', bookingId)
    .executeTakeFirst();
}

/**
 * Writes the row a review is about without changing it: the first statement of a review locks it,
 * so two sides reviewing at once run one after the other and the second always sees the first.
 */
export async function lockReviewSubject(trx: WriteTransaction, subject: Pick<ReviewSubject, 'type' | 'id'>) {
  if (subject.type === 'application') {
    await trx.updateTable('applications').set({ decided_at: sql`decided_at` }).where('id', '=', subject.id).execute();
  } else {
    await trx.updateTable('bookings').set({ updated_at: sql`updated_at` }).where('id', '=', subject.id).execute();
  }
}

/**
 * Inserts a review of one side, unpublished. The unique (about, side) constraint refuses a second
 * one (a unique violation the service turns into already_reviewed).
 */
export async function insertReview(
  trx: WriteTransaction,
  input: {
    subject: ReviewSubject;
    side: ReviewSide;
    authorAccountId: string;
    authorName: string;
    rating: number;
    text: string | null;
  },
  now: Date,
): Promise<ReviewRow> {
  const { subject } = input;
  const row: ReviewRow = {
    removed_at: null,
    id: newId('rev'),
    about_type: subject.type,
    about_id: subject.id,
    author_side: input.side,
    author_account_id: input.authorAccountId,
    author_name: input.authorName,
    helper_id: subject.reviewed.helperId,
    owner_id: subject.reviewed.ownerId,
    listing_id: subject.reviewed.listingId,
    reviewed_account_id: subject.reviewed.accountId,
    rating: input.rating,
    text: input.text,
    created_at: now.toISOString(),
    window_closes_at: subject.windowClosesAt,
    published_at: null,
    reply: null,
    replied_at: null,
  };
  await trx.insertInto('reviews').values(row).execute();
  return row;
}

/** Publishes both reviews of a subject once both sides have written theirs; the rows it published. */
export function publishBothSides(
  trx: WriteTransaction,
  subject: Pick<ReviewSubject, 'type' | 'id'>,
  now: Date,
): Promise<ReviewRow[]> {
  return trx
    .updateTable('reviews')
    .set({ published_at: now.toISOString() })
    .where('about_type', '=', subject.type)
    .where('about_id', '=', subject.id)
    .where('published_at', 'is', null)
    .where(
      sql<boolean>`(select count(*) from reviews as r where r.about_type = reviews.about_type and r.about_id = reviews.about_id) = 2`,
    )
    .returningAll()
    .execute();
}

/** Reviews whose window has closed without the other side: the background publication's work, oldest first. */
export function reviewsDueForPublication(db: Queryable, now: Date, limit: number): Promise<ReviewRow[]> {
  return db
    .selectFrom('reviews')
    .selectAll()
    .where('published_at', 'is', null)
    .where('window_closes_at', '<=', now.toISOString())
    .orderBy('window_closes_at')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/**
 * Writes the publication of a review whose window closed (published_at = the window's end, as
 * reads already showed it); returns it, or nothing when another instance did it first.
 */
export function publishClosedReview(trx: WriteTransaction, id: string, now: Date): Promise<ReviewRow[]> {
  return trx
    .updateTable('reviews')
    .set({ published_at: sql`window_closes_at` })
    .where('id', '=', id)
    .where('published_at', 'is', null)
    .where('window_closes_at', '<=', now.toISOString())
    .returningAll()
    .execute();
}

export function findReview(db: Queryable, id: string): Promise<ReviewRow | undefined> {
  return db.selectFrom('reviews').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Sets the reply of a review once; false when it has one already. */
export async function setReply(trx: WriteTransaction, id: string, text: string, now: Date): Promise<boolean> {
  const result = await trx
    .updateTable('reviews')
    .set({ reply: text, replied_at: now.toISOString() })
    .where('id', '=', id)
    .where('reply', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** A page of the published reviews about a helper (by clients) or a listing (by renters), newest first. */
export async function publishedReviewsOf(
  db: Queryable,
  of: { helperId: string } | { listingId: string },
  page: { limit: number; offset: number },
  now: Date,
): Promise<{ data: PublicReview[]; total: number }> {
  const at = now.toISOString();
  const query = db
    .selectFrom('reviews')
    .where((eb) =>
      'helperId' in of
        ? eb.and([eb('helper_id', '=', of.helperId), eb('author_side', '=', 'client')])
        : eb.and([eb('listing_id', '=', of.listingId), eb('author_side', '=', 'renter')]),
    )
    .where((eb) => eb.or([eb('published_at', 'is not', null), eb('window_closes_at', '<=', at)]))
    .where('removed_at', 'is', null);
  const count = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  const total = Number(count?.n ?? 0);
  if (page.offset >= total) return { data: [], total };
  const rows = await query
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return { data: rows.map((row) => publicReview(row, now)), total };
}
