import type { Kysely } from 'kysely';

/**
 * Issue 14: a booking request the owner does not answer within BOOKING_REQUEST_TTL_HOURS expires.
 * Every instance sweeps for such requests every EVENTS_POLL_MS (sweeps/booking-requests.ts); this
 * index makes that a short range read of the requests past their time instead of a scan of every
 * booking. The status column is plain text (no CHECK or enum), so `expired` needs no change there.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on today's Database type.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('bookings_status_created').on('bookings').columns(['status', 'created_at']).execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('bookings_status_created').execute();
}
