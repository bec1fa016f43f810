import { sql } from 'kysely';
import type { Queryable } from '../db/queryable.js';
import type { VerificationMethod, VerificationRow } from '../db/schema.js';
import { newId } from '../domain/ids.js';
import type { Verification } from '../schemas/verifications.js';
import type { WriteTransaction } from './write-transaction.js';

export function verificationRowToVerification(row: VerificationRow): Verification {
  return {
    id: row.id,
    helper_id: row.helper_id ?? '',
    method: row.method,
    status: row.status,
    created_at: row.created_at,
    decided_at: row.decided_at,
    reason: row.reason,
  };
}

/** The helper's pending request, if any. */
export function pendingVerificationOf(db: Queryable, helperId: string): Promise<VerificationRow | undefined> {
  return db
    .selectFrom('verifications')
    .selectAll()
    .where('helper_id', '=', helperId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
}

/**
 * The helper's pending request, or a new one. The first statement locks the helper's row (SQLite:
 * the database's write lock), so two requests at once make one pending request on either engine.
 */
export async function pendingOrNewVerification(
  trx: WriteTransaction,
  input: { helperId: string; accountId: string; method: VerificationMethod },
  now: Date,
): Promise<VerificationRow> {
  await trx.updateTable('helpers').set({ id: sql`id` }).where('id', '=', input.helperId).execute();
  return (await pendingVerificationOf(trx, input.helperId)) ?? insertVerificationRequest(trx, input, now);
}

async function insertVerificationRequest(
  trx: WriteTransaction,
  input: { helperId: string; accountId: string; method: VerificationMethod },
  now: Date,
): Promise<VerificationRow> {
  const row: VerificationRow = {
    id: newId('ver'),
    helper_id: input.helperId,
    owner_id: null,
    account_id: input.accountId,
    method: input.method,
    status: 'pending',
    created_at: now.toISOString(),
    decided_at: null,
    reason: null,
  };
  await trx.insertInto('verifications').values(row).execute();
  return row;
}

/** Pending requests of helpers, oldest first, with the helper's name and the account's email. */
export function listPendingVerifications(db: Queryable) {
  return db
    .selectFrom('verifications')
    .innerJoin('helpers', 'helpers.id', 'verifications.helper_id')
    .leftJoin('accounts', 'accounts.id', 'verifications.account_id')
    .selectAll('verifications')
    .select(['helpers.display_name', 'accounts.email'])
    .where('verifications.status', '=', 'pending')
    .orderBy('verifications.created_at')
    .orderBy('verifications.id')
    .execute();
}

export function findVerification(db: Queryable, id: string): Promise<VerificationRow | undefined> {
  return db.selectFrom('verifications').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Decides a pending request (a conditional update: of two admins, one decides), or revokes the
 * approved verifications of a helper. Returns the rows changed.
 */
export async function decideVerifications(
  trx: WriteTransaction,
  which: { id: string; from: 'pending' } | { helperId: string; from: 'approved' },
  to: 'approved' | 'rejected' | 'revoked',
  reason: string | null,
  now: Date,
): Promise<VerificationRow[]> {
  let update = trx
    .updateTable('verifications')
    .set({ status: to, decided_at: now.toISOString(), reason })
    .where('status', '=', which.from);
  update = 'id' in which ? update.where('id', '=', which.id) : update.where('helper_id', '=', which.helperId);
  return update.returningAll().execute();
}

/** The email of the account behind a helper, for the decision's notice. */
export async function accountEmail(db: Queryable, accountId: string | null): Promise<string | undefined> {
  if (!accountId) return undefined;
  const row = await db.selectFrom('accounts').select('email').where('id', '=', accountId).executeTakeFirst();
  return row?.email;
}
