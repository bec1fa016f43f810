import { randomUUID } from 'node:crypto';
import type { Selectable } from 'kysely';
import { isUniqueViolation } from '../db/errors.js';
import type { Queryable } from '../db/queryable.js';
import type { IdempotencyKeysTable } from '../db/schema.js';
import { IDEMPOTENCY_RETENTION_HOURS } from '../domain/idempotency.js';

export type IdempotencyRecord = Selectable<IdempotencyKeysTable>;

/**
 * How long a claim may stay 'running' before a retry may take the key over. Nothing is lost by a
 * takeover, however long the first attempt still runs: each attempt's write transaction marks the
 * key 'committed' only while it holds the claim (markCommitted), so exactly one attempt's write
 * commits. A longer lease only makes the retry after a crash wait longer.
 */
export const IDEMPOTENCY_LEASE_MS = 15_000;

/** Whether a key's claim is older than the lease: its attempt may be gone (a crash). */
export function pastLease(record: Pick<IdempotencyRecord, 'created_at'>, now: Date): boolean {
  return Date.parse(record.created_at) <= now.getTime() - IDEMPOTENCY_LEASE_MS;
}

/** One attempt's hold on a key. */
export interface Claim {
  accountId: string;
  key: string;
  token: string;
}

export type ClaimOutcome =
  | { claimed: true; claim: Claim; takeover: boolean }
  | { claimed: false; existing: IdempotencyRecord };

/**
 * Claims a key for a request: the row is inserted as running, or the row already there is returned
 * (the primary key decides between concurrent retries). A 'running' claim older than the lease,
 * for the same request, is taken over: its attempt died (a crash) before its write committed.
 * Old keys are purged on the way.
 */
export async function claimIdempotencyKey(
  db: Queryable,
  request: { accountId: string; key: string; requestHash: string },
  now: Date,
): Promise<ClaimOutcome> {
  const cutoff = new Date(now.getTime() - IDEMPOTENCY_RETENTION_HOURS * 3_600_000).toISOString();
  await db.deleteFrom('idempotency_keys').where('created_at', '<', cutoff).execute();
  const claim: Claim = { accountId: request.accountId, key: request.key, token: randomUUID() };
  try {
    await db
      .insertInto('idempotency_keys')
      .values({
        account_id: claim.accountId,
        key: claim.key,
        request_hash: request.requestHash,
        state: 'running',
        response_status: null,
        response_body: null,
        response_headers: null,
        created_at: now.toISOString(),
        claim_token: claim.token,
      })
      .execute();
    return { claimed: true, claim, takeover: false };
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
  const existing = await db
    .selectFrom('idempotency_keys')
    .selectAll()
    .where('account_id', '=', claim.accountId)
    .where('key', '=', claim.key)
    .executeTakeFirstOrThrow();
  if (existing.state === 'running' && pastLease(existing, now) && existing.request_hash === request.requestHash) {
    // Conditional on the token read: of two retries taking over at once, one wins.
    const taken = await db
      .updateTable('idempotency_keys')
      .set({ claim_token: claim.token, created_at: now.toISOString() })
      .where('account_id', '=', claim.accountId)
      .where('key', '=', claim.key)
      .where('state', '=', 'running')
      .where((eb) =>
        existing.claim_token === null ? eb('claim_token', 'is', null) : eb('claim_token', '=', existing.claim_token),
      )
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) === 1) return { claimed: true, claim, takeover: true };
  }
  return { claimed: false, existing };
}

/** Thrown inside a write transaction whose claim was taken over: the write is rolled back. */
export class ClaimLostError extends Error {
  constructor() {
    super('The idempotency key was taken over by a retry; this attempt must not write.');
  }
}

/**
 * Marks, inside a request's write transaction, that its write took effect: the key then survives a
 * crash between the commit and the stored response as 'committed' (the work is never done twice).
 * Throws ClaimLostError when a retry took the key over, which rolls the transaction back.
 */
export async function markCommitted(trx: Queryable, claim: Claim): Promise<void> {
  const result = await trx
    .updateTable('idempotency_keys')
    .set({ state: 'committed' })
    .where('account_id', '=', claim.accountId)
    .where('key', '=', claim.key)
    .where('claim_token', '=', claim.token)
    .where('state', 'in', ['running', 'committed'])
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) throw new ClaimLostError();
}

/** A stored answer: its status, body and the headers that describe it (replayed with it). */
export interface StoredResponse {
  status: number;
  body: string;
  headers: Record<string, string>;
}

/** Stores the response of the attempt holding the key. */
export async function completeIdempotencyKey(db: Queryable, claim: Claim, response: StoredResponse): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({
      state: 'done',
      response_status: response.status,
      response_body: response.body,
      response_headers: JSON.stringify(response.headers),
    })
    .where('account_id', '=', claim.accountId)
    .where('key', '=', claim.key)
    .where('claim_token', '=', claim.token)
    .execute();
}

/**
 * Frees a key whose attempt wrote nothing, so that a retry with it does the work: the request was
 * refused before its write (validation, a missing precondition, a 404), its write rolled back (an
 * error thrown inside the write transaction also undoes the transaction's mark), it failed on the
 * server's side or was told to try later (429, 503). Only a claim still 'running' goes: a committed
 * key stays, its work is done and must not be done again. Answers whether the key was freed.
 */
export async function releaseIdempotencyKey(db: Queryable, claim: Claim): Promise<boolean> {
  return deleteClaim(db, claim, 'running');
}

/**
 * Drops a claim whatever its state, also 'committed': for a key that serves as a lock only, whose
 * write's exactly-once rests on a conditional update of its own (a draft's confirmation: the
 * draft moves from pending in the write's transaction). After a refusal the write may have
 * committed (a refused application records nothing but the refusal), and the key must not make the
 * next attempt wait for its retention.
 */
export async function dropIdempotencyClaim(db: Queryable, claim: Claim): Promise<void> {
  await deleteClaim(db, claim, undefined);
}

/** Deletes the claim's key if the claim still holds it, and if given only in that state; whether it did. */
async function deleteClaim(db: Queryable, claim: Claim, state: 'running' | undefined): Promise<boolean> {
  let query = db
    .deleteFrom('idempotency_keys')
    .where('account_id', '=', claim.accountId)
    .where('key', '=', claim.key)
    .where('claim_token', '=', claim.token);
  if (state) query = query.where('state', '=', state);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
