import type { Kysely } from 'kysely';
import { notifyChanges } from './0019-change-notify.js';
import { isPostgres, textType } from './column-types.js';

/**
 * Issue 21 (drafts a person confirms): a write an agent prepared for an account, waiting for the
 * person to confirm or decline it on the page its token opens. Only the token's SHA-256 is kept.
 * status moves once, by a conditional update, from pending to confirmed (with result_id, in the
 * transaction of the write it ran) or declined; a pending draft past expires_at reads as expired.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on today's Database type.
export async function up(db: Kysely<any>): Promise<void> {
  const text = textType(db);
  await db.schema
    .createTable('drafts')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('account_id', text, (c) => c.notNull())
    .addColumn('operation', text, (c) => c.notNull())
    .addColumn('path_id', text)
    .addColumn('body', text, (c) => c.notNull())
    .addColumn('summary', text, (c) => c.notNull())
    .addColumn('token_hash', text, (c) => c.notNull().unique())
    .addColumn('status', text, (c) => c.notNull())
    .addColumn('result_id', text)
    .addColumn('result_location', text)
    .addColumn('created_at', text, (c) => c.notNull())
    .addColumn('expires_at', text, (c) => c.notNull())
    .addColumn('decided_at', text)
    .execute();
  await db.schema.createIndex('drafts_account').on('drafts').columns(['account_id', 'status', 'expires_at']).execute();
  if (isPostgres(db)) await notifyChanges(db, 'drafts');
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('drafts').execute();
}
