import { isUniqueViolation } from '../db/errors.js';
import type { KeyRequestRow } from '../db/schema.js';
import { newId } from '../domain/ids.js';
import { keyEmail, rejectionEmail } from '../mail/key-email.js';
import type { Delivery, Mailer } from '../mail/mailer.js';
import {
  type Approval,
  approveRequest,
  createKeyRequest,
  findRequest,
  type KeyRequestInput,
  listPendingRequests,
  rejectRequest,
  type UndoneApproval,
  undoApproval,
} from '../repositories/key-requests.js';
import { inWriteTransaction, type WriteContext } from '../repositories/write-transaction.js';
import { type Actor, audit } from './operators.js';

/** What filing a key request answers: the same shape whether a request was filed or not. */
export interface KeyRequestReceipt {
  id: string;
  email: string;
  created_at: string;
}

/**
 * Files a request for a developer key. One request per email may be pending (the database's
 * partial unique index decides, also between concurrent submissions): another one for the same
 * address files nothing, and is answered alike, with an id and time of its own, so an anonymous
 * caller cannot learn whether an address has a request waiting, and the address gets one e-mail,
 * when the pending request is decided. Both ways try the same insert, so neither answers faster.
 */
export async function fileKeyRequest(context: WriteContext, input: KeyRequestInput): Promise<KeyRequestReceipt> {
  try {
    const row = await inWriteTransaction(context, (trx) => createKeyRequest(trx, input, context.now));
    return { id: row.id, email: row.email, created_at: row.created_at };
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    return { id: newId('kr'), email: input.email.toLowerCase(), created_at: context.now.toISOString() };
  }
}

/** What deciding a key request needs besides the database: the mailer and the figures its e-mails name. */
export interface KeyDecisionContext {
  db: WriteContext['db'];
  now: Date;
  mailer: Mailer;
  baseUrl: string;
  /** Requests per minute the key allows, and an anonymous caller gets (named in the e-mails). */
  perMinute: number;
  anonymousPerMinute: number;
}

/** Why a key request could not be decided, for the operator. */
export class KeyRequestProblem extends Error {}

export const MAX_DECISION_REASON_LENGTH = 1000;

const problemOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** A request that exists and is still pending, or a problem that says why not. */
async function pendingRequest(db: WriteContext['db'], id: string): Promise<KeyRequestRow> {
  const request = await findRequest(db, id);
  if (!request)
    throw new KeyRequestProblem(
      `There is no key request ${id}; the pending ones are listed by \`requests list\` and in the console.`,
    );
  if (request.status !== 'pending')
    throw new KeyRequestProblem(`Key request ${id} is not pending: it was ${request.status} at ${request.decided_at}.`);
  return request;
}

const changedMeanwhile = (id: string) =>
  new KeyRequestProblem(`Key request ${id} was decided by someone else a moment ago.`);

/** What is left after an approval was taken back, for the operator. */
function afterUndo(undone: UndoneApproval, id: string, keyId: string): string {
  if (undone === 'pending') return `Nothing was granted: key ${keyId} is revoked and ${id} is pending again.`;
  if (undone === 'superseded')
    return `Nothing was granted: key ${keyId} is revoked. A newer request from the same address was filed meanwhile, so ${id} was closed as rejected; \`requests list\` and the console show the newer one.`;
  return `Nothing was granted: key ${keyId} is revoked; ${id} was changed by someone else meanwhile.`;
}

export interface KeyApproval {
  request: KeyRequestRow;
  approval: Approval;
  delivery: Delivery;
}

/**
 * Approves in one short transaction (account, key, status, audit entry), commits, and only then
 * sends the key: the database must not stay locked for the seconds an SMTP server may take. When
 * the key cannot be sent, the approval is taken back in a second short transaction (the key is
 * revoked, nobody ever saw it: only its hash is stored; the request is pending again), audited too,
 * so the decision can simply be taken again. The key itself is never shown to the operator.
 */
export async function approveKeyRequest(context: KeyDecisionContext, id: string, actor: Actor): Promise<KeyApproval> {
  const request = await pendingRequest(context.db, id);
  const write = { db: context.db, now: context.now, claim: null };
  const approval = await inWriteTransaction(write, async (trx) => {
    const approved = await approveRequest(trx, id, context.now);
    if (approved) {
      await audit(
        trx,
        actor,
        {
          action: 'key_request.approved',
          targetType: 'key_request',
          targetId: id,
          reason: null,
          details: { key: approved.issued.row.id, account: approved.account.id },
        },
        context.now,
      );
    }
    return approved;
  });
  if (!approval) throw changedMeanwhile(id);
  const message = keyEmail({
    to: request.email,
    requestId: id,
    key: approval.issued.key,
    perMinute: context.perMinute,
    baseUrl: context.baseUrl,
  });
  try {
    return { request, approval, delivery: await context.mailer.send(message) };
  } catch (error) {
    const failure = `Not approved: the key could not be sent to ${request.email} (${problemOf(error)}).`;
    const keyId = approval.issued.row.id;
    let undone: UndoneApproval;
    try {
      undone = await inWriteTransaction(write, async (trx) => {
        const result = await undoApproval(trx, id, keyId, context.now);
        await audit(
          trx,
          actor,
          {
            action: 'key_request.approval_undone',
            targetType: 'key_request',
            targetId: id,
            reason: failure,
            details: { key: keyId, result },
          },
          context.now,
        );
        return result;
      });
    } catch (undoError) {
      throw new KeyRequestProblem(
        `${failure} Taking the approval back failed too (${problemOf(undoError)}): revoke key ${keyId} (\`keys revoke ${keyId}\`), or the unsent key stays valid; ${id} stays approved.`,
      );
    }
    throw new KeyRequestProblem(`${failure} ${afterUndo(undone, id, keyId)}`);
  }
}

/** The reason an operator gave, trimmed, or a problem saying what is wrong with it. */
export function decisionReason(reason: unknown, what: string): string {
  const text = typeof reason === 'string' ? reason.trim() : '';
  if (!text) throw new KeyRequestProblem(`${what} needs a reason (it is stored and sent).`);
  if (text.length > MAX_DECISION_REASON_LENGTH)
    throw new KeyRequestProblem(`The reason must be at most ${MAX_DECISION_REASON_LENGTH} characters.`);
  return text;
}

/**
 * Rejects with a reason, audited in the same transaction; the notice is sent after the rejection is
 * stored: an address that refuses mail (spam requests often give one) must not keep a request
 * pending forever. The delivery, or the error of sending, for the operator.
 */
export async function rejectKeyRequest(
  context: KeyDecisionContext,
  id: string,
  reason: string,
  actor: Actor,
): Promise<{ request: KeyRequestRow; delivery: Delivery | { failed: string } }> {
  const text = decisionReason(reason, 'Rejecting a key request');
  await pendingRequest(context.db, id);
  const rejected = await inWriteTransaction({ db: context.db, now: context.now, claim: null }, async (trx) => {
    const row = await rejectRequest(trx, id, text, context.now);
    if (row) {
      await audit(
        trx,
        actor,
        { action: 'key_request.rejected', targetType: 'key_request', targetId: id, reason: text },
        context.now,
      );
    }
    return row;
  });
  if (!rejected) throw changedMeanwhile(id);
  const notice = rejectionEmail({
    to: rejected.email,
    requestId: id,
    reason: text,
    anonymousPerMinute: context.anonymousPerMinute,
    baseUrl: context.baseUrl,
  });
  try {
    return { request: rejected, delivery: await context.mailer.send(notice) };
  } catch (error) {
    return { request: rejected, delivery: { failed: problemOf(error) } };
  }
}

/** The pending key requests, oldest first. */
export { listPendingRequests as pendingKeyRequests };
