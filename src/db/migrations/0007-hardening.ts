import type { Kysely } from 'kysely';

/**
 * Issue 7 (hardening):
 * - Idempotency keys remember which request holds them (claim_token, random per attempt) and, beside
 *   'running' and 'done', the state 'committed': set inside the request's own write transaction, so
 *   after a crash a key tells whether its write took effect (see repositories/idempotency.ts).
 * - Applications and bookings are counted per account and hour (repositories/account-quotas.ts):
 *   indexes that make the count read only the account's latest rows.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on today's Database type.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('idempotency_keys').addColumn('claim_token', 'text').execute();
  await db.schema
    .createIndex('applications_account_created')
    .on('applications')
    .columns(['account_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('bookings_renter_created')
    .on('bookings')
    .columns(['renter_account_id', 'created_at'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('bookings_renter_created').execute();
  await db.schema.dropIndex('applications_account_created').execute();
  await db.schema.alterTable('idempotency_keys').dropColumn('claim_token').execute();
}
