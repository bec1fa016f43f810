/**
 * Suspending and restoring an account from the operators' console (issue 33). A suspension is a
 * moderation decision like one taken on a report (DSA Art. 17): the account is told with a
 * statement of reasons (the private moderation.decided event, GET /v1/me/moderation-decisions)
 * and may appeal it; its keys, tokens and sessions stop working at once. Restoring reverses the
 * account's standing suspensions (not while one is appealed: the appeal decides). Both are audited
 * in their own transaction, and both are refused on one's own account and, unless an admin acts,
 * on an operator's (a suspended account cannot sign in).
 */
import type { AccountRow } from '../db/schema.js';
import { newId } from '../domain/ids.js';
import { activeSuspensions, liftSuspension, markSuspended, pendingAppealOn } from '../repositories/console.js';
import { type DecisionRow, recordDecision, undoModeration } from '../repositories/notices.js';
import { findOperator } from '../repositories/operators.js';
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

/** Who may suspend or restore whom: never oneself; an operator's account only an admin. */
async function mayActOn(db: WriteContext['db'], account: AccountRow, actor: Actor): Promise<void> {
  if (actor === 'cli') return;
  if (account.id === actor.accountId) throw new OperatorError('Not your own account; another operator acts on it.');
  const operator = await findOperator(db, account.id);
  if (operator && actor.role !== 'admin') {
    throw new OperatorError(`This account is an operator (${operator.role}); only an admin suspends or restores it.`);
  }
}

/** Suspends the account with a statement of reasons; refused when it is erased or suspended already. */
export async function suspendAccount(
  context: WriteContext,
  account: AccountRow,
  input: { ground: 'legal' | 'terms'; explanation: string },
  actor: Actor,
): Promise<DecisionRow> {
  await mayActOn(context.db, account, actor);
  return inWriteTransaction(context, async (trx) => {
    // Conditional: of two operators suspending at once, one does; an erased account is never suspended.
    if (!(await markSuspended(trx, account.id, context.now))) {
      throw new OperatorError('This account is erased or suspended already.');
    }
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
  await mayActOn(context.db, account, actor);
  await inWriteTransaction(context, async (trx) => {
    const standing = await activeSuspensions(trx, account.id);
    if (
      await pendingAppealOn(
        trx,
        standing.map((decision) => decision.id),
      )
    ) {
      throw new OperatorError('The suspension is appealed: the appeal decides it (four eyes).');
    }
    if (!(await liftSuspension(trx, account.id))) throw new OperatorError('This account is not suspended.');
    for (const decision of standing) {
      await undoModeration(trx, decision, context.now);
      await told(trx, { ...decision, reversed_at: context.now.toISOString() }, account.id, context.now);
    }
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
