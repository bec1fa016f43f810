import type { Kysely } from 'kysely';

/**
 * The prices a booking was made at, so its price breakdown stays what was charged when the
 * listing's prices change later.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on today's Database type.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('bookings')
    .addColumn('daily_cents', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('bookings').addColumn('weekly_cents', 'integer').execute();
  await db.schema
    .alterTable('bookings')
    .addColumn('weeks', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('bookings')
    .addColumn('extra_days', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ['extra_days', 'weeks', 'weekly_cents', 'daily_cents']) {
    await db.schema.alterTable('bookings').dropColumn(column).execute();
  }
}
