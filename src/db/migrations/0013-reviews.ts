import type { Kysely } from 'kysely';
import { textType } from './column-types.js';

/**
 * Issue 17 (reviews, reliability from history, verification):
 * - reviews: one row per side of a completed job's accepted application (the client reviews the
 *   helper, the helper the client) or of a returned booking (renter and owner review each other).
 *   A review is published when the other side has written theirs (published_at, set in the same
 *   transaction) or when its window closed (window_closes_at, compared at read time).
 * - verifications: a helper's requests to be verified and the platform's decisions; `verified` is
 *   "an approved record exists" (revoked ones do not count).
 * - applications.withdrawn_at, bookings.decided_at and bookings.cancelled_by: the history the
 *   reliability figures are computed from (a helper's withdrawals, an owner's decision times and
 *   cancellations); the figures on helpers and owners are a cache of it, updated in the transaction
 *   of every write that changes it.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on today's Database type.
export async function up(db: Kysely<any>): Promise<void> {
  const text = textType(db);
  await db.schema
    .createTable('reviews')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('about_type', text, (c) => c.notNull())
    .addColumn('about_id', text, (c) => c.notNull())
    .addColumn('author_side', text, (c) => c.notNull())
    .addColumn('author_account_id', text)
    .addColumn('author_name', text, (c) => c.notNull())
    .addColumn('helper_id', text)
    .addColumn('owner_id', text)
    .addColumn('listing_id', text)
    .addColumn('reviewed_account_id', text)
    .addColumn('rating', 'integer', (c) => c.notNull())
    .addColumn('text', text)
    .addColumn('created_at', text, (c) => c.notNull())
    .addColumn('window_closes_at', text, (c) => c.notNull())
    .addColumn('published_at', text)
    .addColumn('reply', text)
    .addColumn('replied_at', text)
    .addUniqueConstraint('reviews_one_per_side', ['about_type', 'about_id', 'author_side'])
    .execute();
  await db.schema.createIndex('reviews_helper').on('reviews').columns(['helper_id', 'created_at']).execute();
  await db.schema.createIndex('reviews_owner').on('reviews').columns(['owner_id', 'created_at']).execute();
  await db.schema.createIndex('reviews_listing').on('reviews').columns(['listing_id', 'created_at']).execute();
  await db.schema
    .createIndex('reviews_unpublished')
    .on('reviews')
    .columns(['published_at', 'window_closes_at'])
    .execute();

  await db.schema
    .createTable('verifications')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('helper_id', text)
    .addColumn('owner_id', text)
    .addColumn('account_id', text)
    .addColumn('method', text, (c) => c.notNull())
    .addColumn('status', text, (c) => c.notNull())
    .addColumn('created_at', text, (c) => c.notNull())
    .addColumn('decided_at', text)
    .addColumn('reason', text)
    .execute();
  await db.schema.createIndex('verifications_helper').on('verifications').columns(['helper_id', 'status']).execute();
  await db.schema.createIndex('verifications_owner').on('verifications').columns(['owner_id', 'status']).execute();
  await db.schema.createIndex('verifications_status').on('verifications').columns(['status', 'created_at']).execute();

  await db.schema.alterTable('applications').addColumn('withdrawn_at', text).execute();
  await db.schema.createIndex('applications_helper').on('applications').columns(['helper_id', 'status']).execute();
  await db.schema.alterTable('bookings').addColumn('decided_at', text).execute();
  await db.schema.alterTable('bookings').addColumn('cancelled_by', text).execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('bookings').dropColumn('cancelled_by').execute();
  await db.schema.alterTable('bookings').dropColumn('decided_at').execute();
  await db.schema.dropIndex('applications_helper').execute();
  await db.schema.alterTable('applications').dropColumn('withdrawn_at').execute();
  await db.schema.dropTable('verifications').execute();
  await db.schema.dropTable('reviews').execute();
}
