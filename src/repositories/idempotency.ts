import type { Selectable } from 'kysely';
import type { IdempotencyKeysTable } from '../db/schema.js';
import { isUniqueViolation, type Queryable } from './db.js';

export type IdempotencyRecord = Selectable<IdempotencyKeysTable>;

/** Keys are kept at least this long (the issue asks for 24 hours). */
export const IDEMPOTENCY_RETENTION_HOURS = 48;

/**
 * Claims a key for a request: the row is inserted as running, or the row already there is returned
 * (the primary key decides between concurrent retries). Old keys are purged on the way.
 */
export async function claimIdempotencyKey(
  db: Queryable,
  claim: { accountId: string; key: string; requestHash: string },
  now: Date,
): Promise<{ claimed: true } | { claimed: false; existing: IdempotencyRecord }> {
  const cutoff = new Date(now.getTime() - IDEMPOTENCY_RETENTION_HOURS * 3_600_000).toISOString();
  await db.deleteFrom('idempotency_keys').where('created_at', '<', cutoff).execute();
  try {
    await db
      .insertInto('idempotency_keys')
      .values({
        account_id: claim.accountId,
        key: claim.key,
        request_hash: claim.requestHash,
        state: 'running',
        response_status: null,
        response_body: null,
        created_at: now.toISOString(),
      })
      .execute();
    return { claimed: true };
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const existing = await db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('account_id', '=', claim.accountId)
      .where('key', '=', claim.key)
      .executeTakeFirstOrThrow();
    return { claimed: false, existing };
  }
}

export async function completeIdempotencyKey(
  db: Queryable,
  accountId: string,
  key: string,
  response: { status: number; body: string },
): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({ state: 'done', response_status: response.status, response_body: response.body })
    .where('account_id', '=', accountId)
    .where('key', '=', key)
    .execute();
}

/** Frees a key whose request failed on the server's side, so that a retry does the work. */
export async function releaseIdempotencyKey(db: Queryable, accountId: string, key: string): Promise<void> {
  await db.deleteFrom('idempotency_keys').where('account_id', '=', accountId).where('key', '=', key).execute();
}
