import { sql } from 'kysely';
import { isUniqueViolation } from '../db/errors.js';
import type { Queryable } from '../db/queryable.js';
import type { AccountRow, AccountType, KeyRequestRow } from '../db/schema.js';
import { newId } from '../domain/ids.js';
import { findOrCreateAccount, type IssuedKey, issueKey, revokeKey } from './access.js';
import type { WriteTransaction } from './write-transaction.js';

export interface KeyRequestInput {
  name: string;
  email: string;
  organisation: string | null;
  account_type: AccountType;
  intended_use: string;
}

/** Inserts a pending key request (emails are stored in lower case); a unique violation when the email has one pending. */
export async function createKeyRequest(
  trx: WriteTransaction,
  input: KeyRequestInput,
  now: Date,
): Promise<KeyRequestRow> {
  const row: KeyRequestRow = {
    id: newId('kr'),
    ...input,
    email: input.email.toLowerCase(),
    status: 'pending',
    created_at: now.toISOString(),
    decided_at: null,
    reason: null,
    key_id: null,
  };
  await trx.insertInto('key_requests').values(row).execute();
  return row;
}

export async function listPendingRequests(db: Queryable): Promise<KeyRequestRow[]> {
  return db
    .selectFrom('key_requests')
    .selectAll()
    .where('status', '=', 'pending')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function findRequest(db: Queryable, id: string): Promise<KeyRequestRow | undefined> {
  return db.selectFrom('key_requests').selectAll().where('id', '=', id).executeTakeFirst();
}

export interface Approval {
  /** The request as it is now: approved, with the new key's id. */
  request: KeyRequestRow;
  /** The account the key belongs to; when it existed already it was kept as it was. */
  account: AccountRow;
  accountCreated: boolean;
  issued: IssuedKey;
}

/**
 * Approves a pending request: its account (found or created by email) gets a new key. Returns
 * undefined when the request is not pending (unknown, or decided meanwhile).
 *
 * The first statement is the conditional status change, so of two concurrent decisions exactly
 * one wins, and the transaction holds the write lock from its start instead of upgrading a read.
 * Keep the transaction short (never send mail inside it): while it is open, every other writer of
 * the database, the server's key-request form included, waits. Without a transaction of the
 * caller's, it runs in one of its own.
 */
export async function approveRequest(db: Queryable, id: string, now: Date): Promise<Approval | undefined> {
  if (!db.isTransaction) return db.transaction().execute((trx) => approveRequest(trx, id, now));
  const claimed = await db
    .updateTable('key_requests')
    .set({ status: 'approved', decided_at: now.toISOString() })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .returningAll()
    .executeTakeFirst();
  if (!claimed) return undefined;
  const account = await findOrCreateAccount(db, claimed, now);
  const issued = await issueKey(db, account.row.id, now);
  await db.updateTable('key_requests').set({ key_id: issued.row.id }).where('id', '=', id).execute();
  return {
    request: { ...claimed, key_id: issued.row.id },
    account: account.row,
    accountCreated: account.created,
    issued,
  };
}

/**
 * What undoing an approval did: 'pending' (the request can be approved again), 'superseded' (a
 * newer request from the same email was filed meanwhile, and only one may be pending: this one
 * was closed as rejected instead), or 'changed' (the request no longer carried that key).
 */
export type UndoneApproval = 'pending' | 'superseded' | 'changed';

export const SUPERSEDED_REASON = 'The key could not be delivered; a newer request from this address is pending.';

/**
 * Takes back an approval whose key never reached the requester: the key is revoked (it can never
 * authenticate) and the request is pending again. The account, if the approval created it, stays:
 * the revoked key still refers to it. Without a transaction of the caller's, it runs in one of its own.
 */
export async function undoApproval(db: Queryable, id: string, keyId: string, now: Date): Promise<UndoneApproval> {
  if (!db.isTransaction) return db.transaction().execute((trx) => undoApproval(trx, id, keyId, now));
  await revokeKey(db, keyId, now);
  // On PostgreSQL a newer request filed at this moment is not yet visible to the check below, and
  // the unique index refuses the update only when it commits: the savepoint keeps that refusal from
  // aborting the revocation, and it counts as superseded.
  await sql`savepoint undo_to_pending`.execute(db);
  const request = await reopen(db, id, keyId).catch(async (error: unknown) => {
    if (!isUniqueViolation(error)) throw error;
    await sql`rollback to savepoint undo_to_pending`.execute(db);
    return { numUpdatedRows: 0n };
  });
  await sql`release savepoint undo_to_pending`.execute(db);
  if (Number(request.numUpdatedRows) > 0) return 'pending';
  const closed = await db
    .updateTable('key_requests')
    .set({ status: 'rejected', decided_at: now.toISOString(), reason: SUPERSEDED_REASON, key_id: null })
    .where('id', '=', id)
    .where('status', '=', 'approved')
    .where('key_id', '=', keyId)
    .executeTakeFirst();
  return Number(closed.numUpdatedRows) > 0 ? 'superseded' : 'changed';
}

/** Puts an approved request back to pending unless another request of its email is pending. */
function reopen(db: Queryable, id: string, keyId: string) {
  return (
    db
      .updateTable('key_requests')
      .set({ status: 'pending', decided_at: null, key_id: null })
      .where('id', '=', id)
      .where('status', '=', 'approved')
      .where('key_id', '=', keyId)
      // At most one pending request per email (a unique index): a newer one may have been filed.
      .where(({ not, exists, selectFrom, ref }) =>
        not(
          exists(
            selectFrom('key_requests as other')
              .select('other.id')
              .whereRef('other.email', '=', ref('key_requests.email'))
              .where('other.status', '=', 'pending'),
          ),
        ),
      )
      .executeTakeFirstOrThrow()
  );
}

/**
 * Rejects a pending request with a reason; returns undefined when it is not pending (unknown, or
 * decided meanwhile). The status change is conditional, so it never overwrites an approval.
 */
export async function rejectRequest(
  db: Queryable,
  id: string,
  reason: string,
  now: Date,
): Promise<KeyRequestRow | undefined> {
  return db
    .updateTable('key_requests')
    .set({ status: 'rejected', decided_at: now.toISOString(), reason })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .returningAll()
    .executeTakeFirst();
}
