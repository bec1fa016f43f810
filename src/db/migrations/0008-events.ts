import type { Kysely } from 'kysely';
import { isPostgres, textType } from './column-types.js';

/**
 * Issue 8 (events):
 * - events: the outbox. Every write that changes a job, listing, application or booking adds its
 *   event in the same transaction (repositories/outbox.ts), numbered in commit order; the SSE stream and
 *   webhook delivery read it, so neither loses an event to a crash or a restart.
 * - webhooks: a developer account's subscriptions (url, event types, filters, signing secret).
 * - webhook_deliveries: one row per event and subscription, written with the event (so it is as
 *   durable as the write), with its attempts and when to try next.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on today's Database type.
export async function up(db: Kysely<any>): Promise<void> {
  const text = textType(db);
  await db.schema
    .createTable('events')
    .addColumn('id', isPostgres(db) ? 'bigint' : 'integer', (c) =>
      isPostgres(db) ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement(),
    )
    .addColumn('type', text, (c) => c.notNull())
    .addColumn('subject_id', text, (c) => c.notNull())
    .addColumn('category', text)
    .addColumn('lat', 'double precision')
    .addColumn('lng', 'double precision')
    // null: public (anyone may see it); else a JSON array of the accounts it concerns.
    .addColumn('audience', text)
    .addColumn('payload', text, (c) => c.notNull())
    .addColumn('created_at', text, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('webhooks')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('account_id', text, (c) => c.notNull().references('accounts.id'))
    .addColumn('url', text, (c) => c.notNull())
    // The subscribed types, each framed by commas (",job.created,listing.created,").
    .addColumn('events', text, (c) => c.notNull())
    .addColumn('filter_category', text)
    .addColumn('filter_lat', 'double precision')
    .addColumn('filter_lng', 'double precision')
    .addColumn('filter_radius_km', 'double precision')
    .addColumn('secret', text, (c) => c.notNull())
    .addColumn('created_at', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhooks_account').on('webhooks').columns(['account_id', 'created_at']).execute();
  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('webhook_id', text, (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
    .addColumn('event_id', isPostgres(db) ? 'bigint' : 'integer', (c) => c.notNull().references('events.id'))
    // pending: to be tried (at next_attempt_at); delivered: a 2xx came back; failed: attempts used up.
    .addColumn('status', text, (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', text)
    // A worker that took the delivery holds it until then; past it, another may take it.
    .addColumn('locked_until', text)
    .addColumn('last_attempt_at', text)
    .addColumn('response_status', 'integer')
    .addColumn('last_error', text)
    .addColumn('delivered_at', text)
    // Set on a delivery made by POST .../redeliver: the delivery it repeats.
    .addColumn('redelivery_of', text)
    .addColumn('created_at', text, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_due')
    .on('webhook_deliveries')
    .columns(['status', 'next_attempt_at'])
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_webhook')
    .on('webhook_deliveries')
    .columns(['webhook_id', 'created_at', 'id'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('webhook_deliveries').execute();
  await db.schema.dropTable('webhooks').execute();
  await db.schema.dropTable('events').execute();
}
