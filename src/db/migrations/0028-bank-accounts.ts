import type { Kysely } from 'kysely';
import { notifyChanges } from './0019-change-notify.js';
import { isPostgres, textType } from './column-types.js';

/**
 * Issue 32 (manual provider): the bank account a payee gives for transfers, one per account. Its
 * IBAN (validated with ibantools) is shown to a payer only while a payment to this account is open
 * (the deal agreed, nothing received yet); erasure deletes it.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on today's Database type.
export async function up(db: Kysely<any>): Promise<void> {
  const text = textType(db);
  await db.schema
    .createTable('bank_accounts')
    .addColumn('account_id', text, (c) => c.primaryKey())
    .addColumn('iban', text, (c) => c.notNull())
    .addColumn('account_holder', text, (c) => c.notNull())
    .addColumn('created_at', text, (c) => c.notNull())
    .addColumn('updated_at', text, (c) => c.notNull())
    .execute();
  if (isPostgres(db)) await notifyChanges(db, 'bank_accounts');
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('bank_accounts').execute();
}
