import type { Kysely } from 'kysely';
import { notifyChanges } from './0019-change-notify.js';
import { isPostgres, textType } from './column-types.js';

/**
 * Notifications (issue 36):
 *
 * - notification_settings: an account's choices (language, quiet hours, digest time, per kind the
 *   channels, as JSON) and the random key of its one-click unsubscribe links. No row: the defaults.
 * - notifications: what is to be sent, or was, to one account on one channel: made from an event
 *   (`source` its id) once, whichever instance's sweep reads the event first (unique by account,
 *   channel and source), claimed before it is sent (`claimed_until`) so one instance sends it, and
 *   kept with its outcome. `fold_key` gathers what is sent as one (the messages of a conversation).
 * - push_subscriptions: a browser's PushSubscription of an account (its endpoint, unique, and the
 *   keys its pushes are encrypted with), with the last send's outcome; one the push service
 *   answers 404 or 410 for is deleted.
 * - meta gains, when first needed, `notifications_cursor` (the last event id the planning sweep
 *   read; made by its first round at the newest event older than a day, so an upgrade tells only
 *   the last day) and `vapid_keys` (the web push key pair, unless the settings give one).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on today's Database type.
export async function up(db: Kysely<any>): Promise<void> {
  const text = textType(db);
  await db.schema
    .createTable('notification_settings')
    .addColumn('account_id', text, (c) => c.primaryKey())
    .addColumn('language', text, (c) => c.notNull())
    .addColumn('quiet_start', text)
    .addColumn('quiet_end', text)
    .addColumn('digest_time', text, (c) => c.notNull())
    .addColumn('kinds', text, (c) => c.notNull())
    .addColumn('unsubscribe_key', text, (c) => c.notNull())
    .addColumn('updated_at', text, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('notifications')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('account_id', text, (c) => c.notNull())
    .addColumn('kind', text, (c) => c.notNull())
    .addColumn('channel', text, (c) => c.notNull())
    .addColumn('source', text, (c) => c.notNull())
    .addColumn('event_type', text, (c) => c.notNull())
    .addColumn('subject_id', text, (c) => c.notNull())
    .addColumn('fold_key', text)
    .addColumn('payload', text, (c) => c.notNull())
    .addColumn('status', text, (c) => c.notNull())
    .addColumn('due_at', text, (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('claimed_until', text)
    .addColumn('sent_at', text)
    .addColumn('last_error', text)
    .addColumn('created_at', text, (c) => c.notNull())
    .addUniqueConstraint('notifications_once', ['account_id', 'channel', 'source'])
    .execute();
  await db.schema
    .createTable('push_subscriptions')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('account_id', text, (c) => c.notNull())
    .addColumn('endpoint', text, (c) => c.notNull().unique())
    .addColumn('p256dh', text, (c) => c.notNull())
    .addColumn('auth', text, (c) => c.notNull())
    .addColumn('created_at', text, (c) => c.notNull())
    .addColumn('last_sent_at', text)
    .addColumn('last_error', text)
    .execute();
  await db.schema.createIndex('push_subscriptions_account').on('push_subscriptions').columns(['account_id']).execute();
  await db.schema.createIndex('notifications_due').on('notifications').columns(['status', 'due_at']).execute();
  await db.schema.createIndex('notifications_account').on('notifications').columns(['account_id', 'id']).execute();
  if (isPostgres(db)) {
    await notifyChanges(db, 'notification_settings');
    await notifyChanges(db, 'notifications');
    await notifyChanges(db, 'push_subscriptions');
  }
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('meta').where('key', 'in', ['notifications_cursor', 'vapid_keys']).execute();
  await db.schema.dropTable('push_subscriptions').execute();
  await db.schema.dropTable('notifications').execute();
  await db.schema.dropTable('notification_settings').execute();
}
