import type { Kysely } from 'kysely';
import { notifyChanges } from './0019-change-notify.js';
import { isPostgres, textType } from './column-types.js';

/**
 * Issue 32 (money), second part: a booking's rent and deposit, and damage claims.
 *
 * - payments gain `booking_id` (a booking's rent and deposit), `kept_cents` (of a released
 *   deposit, what stayed with the owner for an accepted or decided claim) and `released_at`.
 * - bookings gain `returned_at`: the claim window (CLAIM_WINDOW_HOURS) counts from it.
 * - claims: an owner's claim on a returned booking's held deposit, one per booking; the renter
 *   accepts or disputes it, an operator decides a disputed one.
 * - cancellation policies: jobs and listings gain `cancellation_policy` (flexible, moderate,
 *   strict; flexible for what exists), a booking keeps its listing's policy of the booking time.
 * - late returns: a listing may ask `late_fee_per_day_cents` (null: none), a booking keeps it of
 *   the booking time.
 * - an application's payments: its share, and a cancellation fee or refund beside it, so the
 *   unique index on application_id becomes one on (application_id, kind).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on today's Database type.
export async function up(db: Kysely<any>): Promise<void> {
  const text = textType(db);
  await db.schema.alterTable('payments').addColumn('booking_id', text).execute();
  await db.schema
    .alterTable('payments')
    .addColumn('kept_cents', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('payments').addColumn('released_at', text).execute();
  // One rent and one deposit per booking: a second confirmation cannot create a second debt.
  await db.schema.createIndex('payments_booking').on('payments').columns(['booking_id', 'kind']).unique().execute();
  await db.schema.alterTable('bookings').addColumn('returned_at', text).execute();
  for (const table of ['jobs', 'listings', 'bookings']) {
    await db.schema
      .alterTable(table)
      .addColumn('cancellation_policy', text, (c) => c.notNull().defaultTo('flexible'))
      .execute();
  }
  for (const table of ['listings', 'bookings']) {
    await db.schema.alterTable(table).addColumn('late_fee_per_day_cents', 'integer').execute();
  }
  await db.schema.dropIndex('payments_application').execute();
  await db.schema
    .createIndex('payments_application')
    .on('payments')
    .columns(['application_id', 'kind'])
    .unique()
    .execute();
  await db.schema
    .createTable('claims')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('booking_id', text, (c) => c.notNull())
    .addColumn('payment_id', text, (c) => c.notNull())
    .addColumn('owner_account_id', text, (c) => c.notNull())
    .addColumn('renter_account_id', text, (c) => c.notNull())
    .addColumn('amount_cents', 'integer', (c) => c.notNull())
    .addColumn('text', text, (c) => c.notNull())
    .addColumn('photos', text, (c) => c.notNull())
    .addColumn('status', text, (c) => c.notNull())
    .addColumn('response_text', text)
    .addColumn('decided_cents', 'integer')
    .addColumn('explanation', text)
    .addColumn('created_at', text, (c) => c.notNull())
    .addColumn('answered_at', text)
    .addColumn('decided_at', text)
    .addColumn('updated_at', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('claims_booking').on('claims').column('booking_id').unique().execute();
  await db.schema.createIndex('claims_status').on('claims').columns(['status', 'created_at']).execute();
  if (isPostgres(db)) await notifyChanges(db, 'claims');
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('claims').execute();
  await db.schema.dropIndex('payments_booking').execute();
  await db.schema.dropIndex('payments_application').execute();
  await db.schema.createIndex('payments_application').on('payments').column('application_id').unique().execute();
  for (const table of ['jobs', 'listings', 'bookings']) {
    await db.schema.alterTable(table).dropColumn('cancellation_policy').execute();
  }
  for (const table of ['listings', 'bookings']) {
    await db.schema.alterTable(table).dropColumn('late_fee_per_day_cents').execute();
  }
  await db.schema.alterTable('bookings').dropColumn('returned_at').execute();
  await db.schema.alterTable('payments').dropColumn('released_at').execute();
  await db.schema.alterTable('payments').dropColumn('kept_cents').execute();
  await db.schema.alterTable('payments').dropColumn('booking_id').execute();
}
