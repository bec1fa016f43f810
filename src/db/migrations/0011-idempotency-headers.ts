import type { Kysely } from 'kysely';
import { textType } from './column-types.js';

/**
 * Issue 14: a replayed answer carries the headers that describe it (Content-Type, Location), kept
 * beside its status and body as a JSON object. Keys stored before this migration have none and are
 * replayed as JSON, which every one of them is.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on today's Database type.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('idempotency_keys').addColumn('response_headers', textType(db)).execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('idempotency_keys').dropColumn('response_headers').execute();
}
