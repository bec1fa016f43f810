import type { Kysely } from 'kysely';

/**
 * Idempotency keys remember which request holds them (claim_token, random per attempt) and, beside
 * 'running' and 'done', the state 'committed': set inside the request's own write transaction, so
 * after a crash a key tells whether its write took effect (see repositories/idempotency.ts).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on today's Database type.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('idempotency_keys').addColumn('claim_token', 'text').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('idempotency_keys').dropColumn('claim_token').execute();
}
