import type { Kysely } from 'kysely';
import { notifyChanges } from './0019-change-notify.js';
import { isPostgres, textType } from './column-types.js';

/**
 * Issue 32 (money), first part: payments and the ledger.
 *
 * - payments: one sum owed by a payer to a payee for one thing (today: a helper's share of an
 *   accepted job), in integer cents, with the platform's fee, the provider that moves it (today
 *   `manual`: the parties settle in cash or by transfer and confirm it here) and its status.
 * - ledger_entries: the double-entry books. Every movement of money writes the entries of one
 *   transaction (`transaction_id`) in the same database transaction as the state change it belongs
 *   to; the entries of a transaction sum to zero (`npm run admin -- ledger check`).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on today's Database type.
export async function up(db: Kysely<any>): Promise<void> {
  const text = textType(db);
  await db.schema
    .createTable('payments')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('kind', text, (c) => c.notNull())
    .addColumn('provider', text, (c) => c.notNull())
    .addColumn('status', text, (c) => c.notNull())
    .addColumn('payer_account_id', text, (c) => c.notNull())
    .addColumn('payee_account_id', text, (c) => c.notNull())
    .addColumn('job_id', text)
    .addColumn('application_id', text)
    .addColumn('amount_cents', 'integer', (c) => c.notNull())
    .addColumn('fee_cents', 'integer', (c) => c.notNull())
    .addColumn('currency', text, (c) => c.notNull())
    .addColumn('created_at', text, (c) => c.notNull())
    .addColumn('paid_at', text)
    .addColumn('received_at', text)
    .addColumn('cancelled_at', text)
    .addColumn('updated_at', text, (c) => c.notNull())
    .execute();
  // One payment per accepted application: a second acceptance cannot create a second debt.
  await db.schema.createIndex('payments_application').on('payments').column('application_id').unique().execute();
  await db.schema.createIndex('payments_payer').on('payments').columns(['payer_account_id', 'created_at']).execute();
  await db.schema.createIndex('payments_payee').on('payments').columns(['payee_account_id', 'created_at']).execute();
  await db.schema.createIndex('payments_job').on('payments').column('job_id').execute();
  await db.schema
    .createTable('ledger_entries')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('transaction_id', text, (c) => c.notNull())
    .addColumn('payment_id', text)
    .addColumn('ledger_account', text, (c) => c.notNull())
    .addColumn('amount_cents', 'integer', (c) => c.notNull())
    .addColumn('kind', text, (c) => c.notNull())
    .addColumn('created_at', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('ledger_entries_transaction').on('ledger_entries').column('transaction_id').execute();
  await db.schema.createIndex('ledger_entries_payment').on('ledger_entries').column('payment_id').execute();
  await db.schema.createIndex('ledger_entries_account').on('ledger_entries').column('ledger_account').execute();
  if (isPostgres(db)) {
    await notifyChanges(db, 'payments');
    await notifyChanges(db, 'ledger_entries');
  }
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('ledger_entries').execute();
  await db.schema.dropTable('payments').execute();
}
