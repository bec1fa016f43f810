import type { Kysely } from 'kysely';
import { textType } from './column-types.js';

/**
 * Issue 19, DSA notice and action: reports (Art. 16), the platform's decisions with their
 * statement of reasons (Art. 17) and appeals (Art. 20). Removed or restricted content is marked
 * where it lives: jobs and listings get the status `removed` (their status before is kept in the
 * decision, for a reversal), helper profiles, reviews and messages a `removed_at`; a suspended
 * account a `suspended_at`. Transparency figures are counted from these rows, never kept apart.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on today's Database type.
export async function up(db: Kysely<any>): Promise<void> {
  const text = textType(db);
  await db.schema
    .createTable('reports')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('about_type', text, (c) => c.notNull())
    .addColumn('about_id', text, (c) => c.notNull())
    .addColumn('reason', text, (c) => c.notNull())
    .addColumn('explanation', text, (c) => c.notNull())
    .addColumn('reporter_email', text)
    .addColumn('reporter_account_id', text, (c) => c.references('accounts.id'))
    .addColumn('token_hash', text, (c) => c.notNull().unique())
    .addColumn('status', text, (c) => c.notNull())
    .addColumn('decision_id', text)
    .addColumn('created_at', text, (c) => c.notNull())
    .addColumn('decided_at', text)
    .execute();
  await db.schema.createIndex('reports_queue').on('reports').columns(['status', 'created_at']).execute();
  await db.schema
    .createTable('moderation_decisions')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('report_id', text, (c) => c.references('reports.id'))
    .addColumn('about_type', text, (c) => c.notNull())
    .addColumn('about_id', text, (c) => c.notNull())
    .addColumn('account_id', text, (c) => c.references('accounts.id'))
    .addColumn('action', text, (c) => c.notNull())
    .addColumn('ground', text, (c) => c.notNull())
    .addColumn('explanation', text, (c) => c.notNull())
    .addColumn('automated', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status_before', text)
    .addColumn('created_at', text, (c) => c.notNull())
    .addColumn('reversed_at', text)
    .execute();
  await db.schema
    .createIndex('moderation_decisions_account')
    .on('moderation_decisions')
    .columns(['account_id'])
    .execute();
  await db.schema
    .createTable('appeals')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('decision_id', text, (c) => c.notNull().unique().references('moderation_decisions.id'))
    .addColumn('account_id', text, (c) => c.notNull().references('accounts.id'))
    .addColumn('text', text, (c) => c.notNull())
    .addColumn('status', text, (c) => c.notNull())
    .addColumn('created_at', text, (c) => c.notNull())
    .addColumn('decided_at', text)
    .addColumn('explanation', text)
    .execute();
  for (const table of ['helpers', 'reviews', 'messages']) {
    await db.schema.alterTable(table).addColumn('removed_at', text).execute();
  }
  await db.schema.alterTable('accounts').addColumn('suspended_at', text).execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('accounts').dropColumn('suspended_at').execute();
  for (const table of ['helpers', 'reviews', 'messages']) {
    await db.schema.alterTable(table).dropColumn('removed_at').execute();
  }
  await db.schema.dropTable('appeals').execute();
  await db.schema.dropTable('moderation_decisions').execute();
  await db.schema.dropTable('reports').execute();
}
