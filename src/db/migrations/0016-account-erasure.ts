import type { Kysely } from 'kysely';
import { textType } from './column-types.js';

/**
 * Issue 19: erasure of an account (GDPR Art. 17, DELETE /v1/me). The account row stays, stripped
 * of its name and e-mail, so what others still hold (a booking's amounts, a rating in a count)
 * keeps its foreign keys; erased_at says when, and that no key of it works any more.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on today's Database type.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('accounts').addColumn('erased_at', textType(db)).execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('accounts').dropColumn('erased_at').execute();
}
