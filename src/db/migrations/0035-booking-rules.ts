import type { Kysely } from 'kysely';

/**
 * A listing's booking rules (issue 35): `min_lead_hours` (a booking starts at least this far
 * ahead), `buffer_hours` (kept free between two bookings) and `max_booking_days` (null: no limit).
 * Existing listings keep today's behaviour: no lead time, no buffer, no limit.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on today's Database type.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('listings')
    .addColumn('min_lead_hours', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('listings')
    .addColumn('buffer_hours', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('listings').addColumn('max_booking_days', 'integer').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('listings').dropColumn('max_booking_days').execute();
  await db.schema.alterTable('listings').dropColumn('buffer_hours').execute();
  await db.schema.alterTable('listings').dropColumn('min_lead_hours').execute();
}
