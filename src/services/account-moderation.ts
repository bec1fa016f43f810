/**
 * Suspending and restoring an account from the operators' console (issue 33). A suspension is a
 * moderation decision like one taken on a report (DSA Art. 17): the account is told with a
 * statement of reasons (the private moderation.decided event, GET /v1/me/moderation-decisions)
 * and may appeal it; its keys, tokens and sessions stop working at once. Restoring reverses the
 * account's standing suspensions. Both are audited in their own transaction.
 */
import type { AccountRow } from '../db/schema.js';
import { newId } from '../domain/ids.js';
import { activeSuspensions, liftSuspension } from '../repositories/console.js';
import { applyModeration, type DecisionRow, recordDecision, undoModeration } from '../repositories/notices.js';
import { recordEvent } from '../repositories/outbox.js';
import { inWriteTransaction, type WriteContext, type WriteTransaction } from '../repositories/write-transaction.js';
import { statementOf } from './notices.js';
import { type Actor, audit, OperatorError } from './operators.js';

const told = (trx: WriteTransaction, decision: DecisionRow, accountId: string, now: Date) =>
  recordEvent(
    trx,
    {
      type: 'moderation.decided',
      subjectId: decision.id,
      place: null,
      audience: [accountId],
      data: statementOf(decision, undefined),
    },
    now,
  );

/** Suspends the account with a statement of reasons; refused when it is erased or suspended already. */
export async function suspendAccount(
  context: WriteContext,
  account: AccountRow,
  input: { ground: 'legal' | 'terms'; explanation: string },
  actor: Actor,
): Promise<DecisionRow> {
  if (account.erased_at !== null) throw new OperatorError('This account is erased; there is nothing to suspend.');
  if (account.suspended_at !== null)
    throw new OperatorError(`This account is suspended since ${account.suspended_at}.`);
  return inWriteTransaction(context, async (trx) => {
    const decision: DecisionRow = {
      id: newId('mod'),
      report_id: null,
      about_type: 'account',
      about_id: account.id,
      account_id: account.id,
      action: 'suspend_account',
      ground: input.ground,
      explanation: input.explanation,
      automated: 0,
      status_before: null,
      created_at: context.now.toISOString(),
      reversed_at: null,
      decided_by: actor === 'cli' ? 'cli' : actor.accountId,
    };
    await applyModeration(trx, { type: 'account', id: account.id }, account.id, 'suspend_account', context.now);
    await recordDecision(trx, decision);
    await told(trx, decision, account.id, context.now);
    await audit(
      trx,
      actor,
      {
        action: 'account.suspended',
        targetType: 'account',
        targetId: account.id,
        reason: input.explanation,
        details: { decision: decision.id, ground: input.ground },
      },
      context.now,
    );
    return decision;
  });
}

/** Lifts the account's suspension: its standing suspension decisions are reversed, and it is told. */
export async function restoreAccount(
  context: WriteContext,
  account: AccountRow,
  explanation: string,
  actor: Actor,
): Promise<void> {
  if (account.suspended_at === null) throw new OperatorError('This account is not suspended.');
  await inWriteTransaction(context, async (trx) => {
    const standing = await activeSuspensions(trx, account.id);
    for (const decision of standing) {
      await undoModeration(trx, decision, context.now);
      await told(trx, { ...decision, reversed_at: context.now.toISOString() }, account.id, context.now);
    }
    await liftSuspension(trx, account.id);
    await audit(
      trx,
      actor,
      {
        action: 'account.restored',
        targetType: 'account',
        targetId: account.id,
        reason: explanation,
        details: { reversed: standing.map((decision) => decision.id) },
      },
      context.now,
    );
  });
}
