import { type Kysely, sql } from 'kysely';
import { notifyChanges } from './0019-change-notify.js';
import { isPostgres, textType } from './column-types.js';

/**
 * Issue 32 (money), third part: no-shows and the Stripe Connect provider.
 *
 * - applications gain `no_show` (who did not come: `helper` or `poster`) and `no_show_at`, set by
 *   the other side's report within NO_SHOW_WINDOW_HOURS of the job's time.
 * - payments gain what Stripe knows them by: `provider_ref` (the PaymentIntent), `checkout_ref`
 *   (the Checkout Session the payer confirms in), `customer_ref` and `payment_method_ref` (the card
 *   saved for an off-session charge), `provider_attempt` (the attempt the idempotency keys count)
 *   and `provider_error` (the last refusal, e.g. a declined card).
 * - payout_accounts: a payee's Stripe connected account (Express) and what Stripe last said of it.
 * - provider_events: the Stripe events received, by event id, so each is processed once.
 * - provider_tasks: calls to Stripe a write decided on (capture, cancel, refund, charge), made
 *   after its commit by a sweep, each with an idempotency key from its id and attempt.
 * - the unique (booking_id, kind) of payments holds for rent and deposit only: a booking may owe
 *   several fees (a late return, a claim asked of the renter after a lapsed hold).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on today's Database type.
export async function up(db: Kysely<any>): Promise<void> {
  const text = textType(db);
  await db.schema.alterTable('applications').addColumn('no_show', text).execute();
  await db.schema.alterTable('applications').addColumn('no_show_at', text).execute();
  for (const column of ['provider_ref', 'checkout_ref', 'customer_ref', 'payment_method_ref', 'provider_error']) {
    await db.schema.alterTable('payments').addColumn(column, text).execute();
  }
  await db.schema
    .alterTable('payments')
    .addColumn('provider_attempt', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('payments_provider_ref').on('payments').column('provider_ref').execute();
  // One rent and one deposit per booking still; fees (late returns, a claim asked of the payer
  // after a lapsed hold) may be several.
  await db.schema.dropIndex('payments_booking').execute();
  await db.schema
    .createIndex('payments_booking')
    .on('payments')
    .columns(['booking_id', 'kind'])
    .unique()
    .where(sql.ref('kind'), 'in', ['rent', 'deposit'])
    .execute();
  await db.schema
    .createTable('payout_accounts')
    .addColumn('account_id', text, (c) => c.primaryKey())
    .addColumn('provider_account_id', text, (c) => c.notNull().unique())
    .addColumn('charges_enabled', 'integer', (c) => c.notNull())
    .addColumn('payouts_enabled', 'integer', (c) => c.notNull())
    .addColumn('details_submitted', 'integer', (c) => c.notNull())
    .addColumn('currently_due', text, (c) => c.notNull())
    .addColumn('created_at', text, (c) => c.notNull())
    .addColumn('updated_at', text, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('provider_events')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('type', text, (c) => c.notNull())
    .addColumn('object_id', text, (c) => c.notNull())
    .addColumn('received_at', text, (c) => c.notNull())
    .addColumn('processed_at', text)
    .execute();
  await db.schema
    .createTable('provider_tasks')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('payment_id', text, (c) => c.notNull())
    .addColumn('action', text, (c) => c.notNull())
    .addColumn('amount_cents', 'integer', (c) => c.notNull())
    .addColumn('intent_ref', text)
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('status', text, (c) => c.notNull())
    .addColumn('error', text)
    .addColumn('due_at', text, (c) => c.notNull())
    .addColumn('created_at', text, (c) => c.notNull())
    .addColumn('updated_at', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('provider_tasks_due').on('provider_tasks').columns(['status', 'due_at']).execute();
  await db.schema.createIndex('provider_tasks_payment').on('provider_tasks').column('payment_id').execute();
  if (isPostgres(db)) {
    for (const table of ['payout_accounts', 'provider_events', 'provider_tasks']) await notifyChanges(db, table);
  }
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['provider_tasks', 'provider_events', 'payout_accounts']) {
    await db.schema.dropTable(table).execute();
  }
  await db.schema.dropIndex('payments_provider_ref').execute();
  await db.schema.dropIndex('payments_booking').execute();
  await db.schema.createIndex('payments_booking').on('payments').columns(['booking_id', 'kind']).unique().execute();
  for (const column of [
    'provider_attempt',
    'provider_error',
    'payment_method_ref',
    'customer_ref',
    'checkout_ref',
    'provider_ref',
  ]) {
    await db.schema.alterTable('payments').dropColumn(column).execute();
  }
  await db.schema.alterTable('applications').dropColumn('no_show_at').execute();
  await db.schema.alterTable('applications').dropColumn('no_show').execute();
}
