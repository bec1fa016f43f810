import { insertInChunks, type Queryable } from '../db/queryable.js';
import type { ApplicationRow, BookingRow, ReviewRow, VerificationRow } from '../db/schema.js';

/** Inserts a generated history (seed/history.ts): applications, bookings, reviews, verifications. */
export async function insertHistory(
  db: Queryable,
  history: {
    applications: ApplicationRow[];
    bookings: BookingRow[];
    reviews: ReviewRow[];
    verifications: VerificationRow[];
  },
): Promise<void> {
  await insertInChunks(db, 'applications', history.applications);
  await insertInChunks(db, 'bookings', history.bookings);
  await insertInChunks(db, 'reviews', history.reviews);
  await insertInChunks(db, 'verifications', history.verifications);
}
