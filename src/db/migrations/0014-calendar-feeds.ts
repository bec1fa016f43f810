import type { Kysely } from 'kysely';
import { textType } from './column-types.js';

/**
 * Issue 18: one private calendar feed per account (GET /v1/calendar-feeds/{token}.ics). Only the
 * SHA-256 of the feed's secret token is kept, as with API keys; a new feed replaces the row, so
 * the old URL stops working.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on today's Database type.
export async function up(db: Kysely<any>): Promise<void> {
  const text = textType(db);
  await db.schema
    .createTable('calendar_feeds')
    .addColumn('account_id', text, (c) => c.primaryKey().references('accounts.id'))
    .addColumn('token_hash', text, (c) => c.notNull().unique())
    .addColumn('created_at', text, (c) => c.notNull())
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('calendar_feeds').execute();
}
