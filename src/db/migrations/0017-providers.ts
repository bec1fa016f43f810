import type { Kysely } from 'kysely';
import { textType } from './column-types.js';

/**
 * Issue 19: the legal details of commercial providers (§ 5 DDG, the Impressum; DSA Art. 30
 * self-certification), one row per commercial account, given with PUT /v1/me/provider. Jobs and
 * listings of the account show the public part (legal name, address, register).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on today's Database type.
export async function up(db: Kysely<any>): Promise<void> {
  const text = textType(db);
  await db.schema
    .createTable('providers')
    .addColumn('account_id', text, (c) => c.primaryKey().references('accounts.id'))
    .addColumn('legal_name', text, (c) => c.notNull())
    .addColumn('street', text, (c) => c.notNull())
    .addColumn('plz', text, (c) => c.notNull())
    .addColumn('city', text, (c) => c.notNull())
    .addColumn('country', text, (c) => c.notNull())
    .addColumn('email', text, (c) => c.notNull())
    .addColumn('phone', text, (c) => c.notNull())
    .addColumn('register_court', text)
    .addColumn('register_number', text)
    .addColumn('vat_id', text)
    .addColumn('self_certified_at', text, (c) => c.notNull())
    .addColumn('created_at', text, (c) => c.notNull())
    .addColumn('updated_at', text, (c) => c.notNull())
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('providers').execute();
}
