import type { AccountRow, VerificationMethod, VerificationRow } from '../db/schema.js';
import { isOwnHelper } from '../repositories/helper-profiles.js';
import { recordEvent } from '../repositories/outbox.js';
import { refreshHelperRecords } from '../repositories/reliability-records.js';
import {
  decideVerifications,
  findVerification,
  pendingOrNewVerification,
  verificationRowToVerification,
} from '../repositories/verifications.js';
import { inWriteTransaction, type WriteContext, type WriteTransaction } from '../repositories/write-transaction.js';
import type { Verification } from '../schemas/verifications.js';
import { ApiError } from './errors.js';
import { type Actor, audit } from './operators.js';

/** The helper's account asks to be verified; the pending request (a new one, or the one already waiting). */
export async function requestVerification(
  context: WriteContext,
  account: AccountRow,
  helperId: string,
  method: VerificationMethod,
): Promise<Verification> {
  if (!(await isOwnHelper(context.db, helperId, account.id))) {
    throw new ApiError(404, 'not_found', `No helper with the id '${helperId}' is yours.`, {
      param: 'id',
      suggestion: 'Ask for verification of a helper your account registered with POST /v1/helpers.',
    });
  }
  const row = await inWriteTransaction(context, (trx) =>
    pendingOrNewVerification(trx, { helperId, accountId: account.id, method }, context.now),
  );
  return verificationRowToVerification(row);
}

/** Why an admin decision could not be taken, for the operator. */
export class VerificationProblem extends Error {}

/** The platform approves or rejects a pending request (admin command). */
export async function decideVerification(
  context: WriteContext,
  id: string,
  decision: 'approved' | 'rejected',
  reason: string | null,
  actor: Actor = 'cli',
): Promise<VerificationRow> {
  const found = await findVerification(context.db, id);
  if (!found)
    throw new VerificationProblem(
      `There is no verification request ${id}; \`verifications list\` shows the pending ones.`,
    );
  if (found.status !== 'pending') {
    throw new VerificationProblem(
      `Verification request ${id} is not pending: it was ${found.status} at ${found.decided_at}.`,
    );
  }
  if (actor !== 'cli' && found.account_id === actor.accountId) {
    throw new VerificationProblem('This is your own verification request; another operator decides it.');
  }
  const [row] = await inWriteTransaction(context, async (trx) => {
    const rows = await decide(trx, { id, from: 'pending' }, decision, reason, context.now);
    if (rows.length > 0) {
      await audit(
        trx,
        actor,
        { action: `verification.${decision}`, targetType: 'verification', targetId: id, reason },
        context.now,
      );
    }
    return rows;
  });
  if (!row) throw new VerificationProblem(`Verification request ${id} was decided by someone else a moment ago.`);
  return row;
}

/** The platform revokes a helper's verification (admin command); the revoked records. */
export async function unverifyHelper(
  context: WriteContext,
  helperId: string,
  reason: string,
  actor: Actor = 'cli',
): Promise<VerificationRow[]> {
  const rows = await inWriteTransaction(context, async (trx) => {
    const revoked = await decide(trx, { helperId, from: 'approved' }, 'revoked', reason, context.now);
    if (revoked.length > 0) {
      await audit(
        trx,
        actor,
        { action: 'verification.revoked', targetType: 'helper', targetId: helperId, reason },
        context.now,
      );
    }
    return revoked;
  });
  if (rows.length === 0) throw new VerificationProblem(`Helper ${helperId} has no approved verification to revoke.`);
  return rows;
}

/**
 * A decision inside its transaction: the rows changed (decideVerifications), the helpers' figures
 * computed again, and a private verification.decided event for each row's account.
 */
async function decide(
  trx: WriteTransaction,
  which: Parameters<typeof decideVerifications>[1],
  to: 'approved' | 'rejected' | 'revoked',
  reason: string | null,
  now: Date,
): Promise<VerificationRow[]> {
  const rows = await decideVerifications(trx, which, to, reason, now);
  await refreshHelperRecords(
    trx,
    rows.flatMap((r) => (r.helper_id ? [r.helper_id] : [])),
  );
  for (const row of rows) {
    const data = verificationRowToVerification(row);
    await recordEvent(
      trx,
      { type: 'verification.decided', subjectId: row.id, place: null, audience: [row.account_id], data },
      now,
    );
  }
  return rows;
}
