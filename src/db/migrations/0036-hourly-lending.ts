import { type Kysely, sql } from 'kysely';
import { notifyChanges } from './0019-change-notify.js';
import { isPostgres, textType } from './column-types.js';

/**
 * Lending by the hour, extensions and waiting lists (issue 35):
 *
 * - listings gain `price_per_hour_cents` (null: lent by the day only), `min_hours` (the shortest
 *   hourly booking) and `opening_hours` (JSON: per weekday the local times in which an item is
 *   picked up and returned; null: any time).
 * - bookings gain `start_at`/`end_at` (instants, ISO 8601 UTC) for a booking by the hour (null for
 *   a day booking, whose dates are its days), `hours` (its length in real hours) and the hourly
 *   price it was booked at with the hours charged at it. start_date/end_date stay set for every
 *   booking (for an hourly one, the local days it touches), so everything reading days still reads.
 * - booking_extensions: a renter's request to keep the item longer (`until_date` for a day booking,
 *   `until_at` for an hourly one), what it adds to the rent, its decision.
 * - waitlist_entries: someone waiting for a listing's taken time to come free; when it does, the
 *   first waiting is offered it and holds it until `hold_until` (mailed once: `mailed_at`).
 * - busy_calendars: an owner's or helper's own iCalendar feed (its secret address) blocking a
 *   listing or a helper profile, one each, fetched on a schedule (`next_fetch_at`, claimed by
 *   one instance), with the last fetch's outcome; busy_times: when it is busy (nothing else of the
 *   events is kept), replaced with each fetch that read something.
 * - payments: a booking may owe several rent payments (an accepted extension adds one); still one
 *   deposit per booking.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on today's Database type.
export async function up(db: Kysely<any>): Promise<void> {
  const text = textType(db);
  await db.schema.alterTable('listings').addColumn('price_per_hour_cents', 'integer').execute();
  await db.schema
    .alterTable('listings')
    .addColumn('min_hours', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.alterTable('listings').addColumn('opening_hours', text).execute();
  await db.schema.alterTable('bookings').addColumn('start_at', text).execute();
  await db.schema.alterTable('bookings').addColumn('end_at', text).execute();
  await db.schema.alterTable('bookings').addColumn('hours', 'integer').execute();
  await db.schema.alterTable('bookings').addColumn('hourly_cents', 'integer').execute();
  await db.schema.alterTable('bookings').addColumn('extra_hours', 'integer').execute();
  await db.schema
    .createTable('booking_extensions')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('booking_id', text, (c) => c.notNull())
    .addColumn('status', text, (c) => c.notNull())
    .addColumn('until_date', text, (c) => c.notNull())
    .addColumn('until_at', text)
    .addColumn('price_cents', 'integer', (c) => c.notNull())
    .addColumn('created_at', text, (c) => c.notNull())
    .addColumn('decided_at', text)
    .execute();
  await db.schema
    .createIndex('booking_extensions_booking')
    .on('booking_extensions')
    .columns(['booking_id', 'status'])
    .execute();
  await db.schema
    .createTable('waitlist_entries')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('listing_id', text, (c) => c.notNull())
    .addColumn('account_id', text, (c) => c.notNull())
    .addColumn('status', text, (c) => c.notNull())
    .addColumn('start_date', text, (c) => c.notNull())
    .addColumn('end_date', text, (c) => c.notNull())
    .addColumn('start_at', text)
    .addColumn('end_at', text)
    .addColumn('hold_until', text)
    .addColumn('mailed_at', text)
    .addColumn('created_at', text, (c) => c.notNull())
    .addColumn('updated_at', text, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('waitlist_entries_listing')
    .on('waitlist_entries')
    .columns(['status', 'listing_id', 'created_at'])
    .execute();
  await db.schema.createIndex('waitlist_entries_account').on('waitlist_entries').columns(['account_id']).execute();
  await db.schema
    .createTable('busy_calendars')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('account_id', text, (c) => c.notNull())
    .addColumn('listing_id', text, (c) => c.unique())
    .addColumn('helper_id', text, (c) => c.unique())
    .addColumn('url', text, (c) => c.notNull())
    .addColumn('status', text, (c) => c.notNull())
    .addColumn('etag', text)
    .addColumn('last_modified', text)
    .addColumn('last_fetch_at', text)
    .addColumn('last_error', text)
    .addColumn('busy_count', 'integer', (c) => c.notNull())
    .addColumn('next_fetch_at', text, (c) => c.notNull())
    .addColumn('created_at', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('busy_calendars_due').on('busy_calendars').columns(['next_fetch_at']).execute();
  await db.schema.createIndex('busy_calendars_account').on('busy_calendars').columns(['account_id']).execute();
  await db.schema
    .createTable('busy_times')
    .addColumn('calendar_id', text, (c) => c.notNull())
    .addColumn('start_at', text, (c) => c.notNull())
    .addColumn('end_at', text, (c) => c.notNull())
    .addPrimaryKeyConstraint('busy_times_pk', ['calendar_id', 'start_at', 'end_at'])
    .execute();
  await db.schema.dropIndex('payments_booking').execute();
  await db.schema
    .createIndex('payments_booking')
    .on('payments')
    .columns(['booking_id', 'kind'])
    .unique()
    .where(sql.ref('kind'), '=', 'deposit')
    .execute();
  if (isPostgres(db)) {
    await notifyChanges(db, 'booking_extensions');
    await notifyChanges(db, 'waitlist_entries');
    await notifyChanges(db, 'busy_calendars');
    await notifyChanges(db, 'busy_times');
  }
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('payments_booking').execute();
  await db.schema
    .createIndex('payments_booking')
    .on('payments')
    .columns(['booking_id', 'kind'])
    .unique()
    .where(sql.ref('kind'), 'in', ['rent', 'deposit'])
    .execute();
  await db.schema.dropTable('busy_times').execute();
  await db.schema.dropTable('busy_calendars').execute();
  await db.schema.dropTable('waitlist_entries').execute();
  await db.schema.dropTable('booking_extensions').execute();
  for (const column of ['extra_hours', 'hourly_cents', 'hours', 'end_at', 'start_at']) {
    await db.schema.alterTable('bookings').dropColumn(column).execute();
  }
  for (const column of ['opening_hours', 'min_hours', 'price_per_hour_cents']) {
    await db.schema.alterTable('listings').dropColumn(column).execute();
  }
}
