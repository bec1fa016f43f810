import { type Kysely, sql } from 'kysely';
import { textType } from './column-types.js';

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on today's Database type.
export async function up(db: Kysely<any>): Promise<void> {
  const text = textType(db);
  await db.schema
    .createTable('accounts')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('name', text, (c) => c.notNull())
    .addColumn('email', text, (c) => c.notNull().unique())
    .addColumn('organisation', text)
    .addColumn('account_type', text, (c) => c.notNull())
    .addColumn('created_at', text, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('account_id', text, (c) => c.notNull().references('accounts.id'))
    .addColumn('key_hash', text, (c) => c.notNull().unique())
    .addColumn('last4', text, (c) => c.notNull())
    .addColumn('created_at', text, (c) => c.notNull())
    .addColumn('expires_at', text)
    .addColumn('revoked_at', text)
    .addColumn('replaced_by', text)
    // The first key of a rotation chain: successors share its rate-limit budget.
    .addColumn('lineage_id', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('api_keys_account').on('api_keys').column('account_id').execute();

  await db.schema
    .createTable('key_requests')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('name', text, (c) => c.notNull())
    .addColumn('email', text, (c) => c.notNull())
    .addColumn('organisation', text)
    .addColumn('account_type', text, (c) => c.notNull())
    .addColumn('intended_use', text, (c) => c.notNull())
    .addColumn('status', text, (c) => c.notNull())
    .addColumn('created_at', text, (c) => c.notNull())
    .addColumn('decided_at', text)
    .addColumn('reason', text)
    .addColumn('key_id', text)
    .execute();
  await db.schema.createIndex('key_requests_status').on('key_requests').columns(['status', 'created_at']).execute();
  // One pending request per email, enforced by the database even under concurrent submissions.
  await sql`create unique index key_requests_one_pending on key_requests (email) where status = 'pending'`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['key_requests', 'api_keys', 'accounts']) await db.schema.dropTable(table).execute();
}
