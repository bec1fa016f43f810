import { type Kysely, sql } from 'kysely';
import { textType } from './column-types.js';

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on today's Database type.
export async function up(db: Kysely<any>): Promise<void> {
  const text = textType(db);
  // Who created what: null for the seeded marketplace, an account for everything written through the API.
  await db.schema.alterTable('jobs').addColumn('owner_account_id', text).execute();
  await db.schema.alterTable('jobs').addColumn('updated_at', text).execute();
  await db.schema.createIndex('jobs_owner').on('jobs').column('owner_account_id').execute();
  await db.schema.alterTable('owners').addColumn('account_id', text).execute();
  await sql`create unique index owners_account on owners (account_id) where account_id is not null`.execute(db);
  await db.schema.alterTable('listings').addColumn('updated_at', text).execute();
  await db.schema.alterTable('helpers').addColumn('account_id', text).execute();
  await db.schema.alterTable('helpers').addColumn('availability', text).execute();
  await db.schema.createIndex('helpers_account').on('helpers').column('account_id').execute();

  await db.schema
    .createTable('applications')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('job_id', text, (c) => c.notNull().references('jobs.id'))
    .addColumn('helper_id', text, (c) => c.notNull().references('helpers.id'))
    .addColumn('account_id', text, (c) => c.notNull())
    .addColumn('message', text)
    .addColumn('status', text, (c) => c.notNull())
    .addColumn('created_at', text, (c) => c.notNull())
    .addColumn('decided_at', text)
    // One helper applies to one job once.
    .addUniqueConstraint('applications_job_helper', ['job_id', 'helper_id'])
    .execute();
  await db.schema.createIndex('applications_job').on('applications').columns(['job_id', 'status']).execute();

  await db.schema
    .createTable('bookings')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('listing_id', text, (c) => c.notNull().references('listings.id'))
    .addColumn('renter_account_id', text, (c) => c.notNull())
    .addColumn('start_date', text, (c) => c.notNull())
    .addColumn('end_date', text, (c) => c.notNull())
    .addColumn('days', 'integer', (c) => c.notNull())
    .addColumn('price_cents', 'integer', (c) => c.notNull())
    .addColumn('deposit_cents', 'integer', (c) => c.notNull())
    .addColumn('status', text, (c) => c.notNull())
    .addColumn('created_at', text, (c) => c.notNull())
    .addColumn('updated_at', text, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('bookings_listing')
    .on('bookings')
    .columns(['listing_id', 'status', 'end_date'])
    .execute();
  await db.schema.createIndex('bookings_renter').on('bookings').column('renter_account_id').execute();

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('account_id', text, (c) => c.notNull())
    .addColumn('key', text, (c) => c.notNull())
    .addColumn('request_hash', text, (c) => c.notNull())
    .addColumn('state', text, (c) => c.notNull())
    .addColumn('response_status', 'integer')
    .addColumn('response_body', text)
    .addColumn('created_at', text, (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['account_id', 'key'])
    .execute();
  await db.schema.createIndex('idempotency_keys_created').on('idempotency_keys').column('created_at').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['idempotency_keys', 'bookings', 'applications']) await db.schema.dropTable(table).execute();
}
