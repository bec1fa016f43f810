import { publicBaseUrl } from '../config.js';
import type { KeyRequestRow } from '../db/schema.js';
import { maskedKey } from '../domain/api-keys.js';
import { KEY_REVIEW_HOURS } from '../domain/tiers.js';
import { keyEmail, rejectionEmail } from '../mail/key-email.js';
import { type Delivery, describeDelivery, outboxKeyWarning } from '../mail/mailer.js';
import {
  approveRequest,
  findRequest,
  listPendingRequests,
  rejectRequest,
  type UndoneApproval,
  undoApproval,
} from '../repositories/key-requests.js';
import type { AdminContext } from './admin-context.js';

const HOUR_MS = 3_600_000;
const MAX_REASON_LENGTH = 1000;

/**
 * Text from the public form, made safe for the operator's terminal: control characters (escape
 * sequences could rewrite the screen) become U+FFFD; line breaks survive only where asked.
 */
export function printable(text: string, keepLines = false): string {
  return text.replace(keepLines ? /[^\P{Cc}\n]/gu : /\p{Cc}/gu, '\uFFFD');
}

function waited(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  return minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** A request that exists and is still pending, or an error that says why not. */
async function pendingRequest(ctx: AdminContext, id: string): Promise<KeyRequestRow> {
  const request = await findRequest(ctx.db, id);
  if (!request) throw new Error(`There is no key request ${id}; \`requests list\` shows the pending ones.`);
  if (request.status !== 'pending')
    throw new Error(`Key request ${id} is not pending: it was ${request.status} at ${request.decided_at}.`);
  return request;
}

const changedMeanwhile = (id: string) => new Error(`Key request ${id} was decided by someone else a moment ago.`);

export async function listRequests(ctx: AdminContext): Promise<void> {
  const pending = await listPendingRequests(ctx.db);
  if (pending.length === 0) {
    ctx.out('No pending key requests.');
    return;
  }
  const waitMs = (request: KeyRequestRow) => ctx.now.getTime() - Date.parse(request.created_at);
  const overdue = pending.filter((request) => waitMs(request) > KEY_REVIEW_HOURS * HOUR_MS).length;
  ctx.out(
    `${pending.length} pending key request${pending.length === 1 ? '' : 's'}, oldest first; ${overdue} waiting longer than ${KEY_REVIEW_HOURS} hours (OVERDUE).`,
  );
  for (const request of pending) {
    const flag = waitMs(request) > KEY_REVIEW_HOURS * HOUR_MS ? `  OVERDUE (over ${KEY_REVIEW_HOURS} h)` : '';
    const organisation = request.organisation ? `, ${printable(request.organisation)}` : '';
    ctx.out('');
    ctx.out(`${request.id}  filed ${request.created_at}  waiting ${waited(waitMs(request))}${flag}`);
    ctx.out(`  ${printable(request.name)} <${printable(request.email)}>, ${request.account_type}${organisation}`);
    for (const line of printable(request.intended_use, true).split('\n')) ctx.out(`  | ${line}`);
  }
}

const problemOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** What is left after an approval was taken back, for the operator. */
function afterUndo(undone: UndoneApproval, id: string, keyId: string): string {
  if (undone === 'pending') return `Nothing was granted: key ${keyId} is revoked and ${id} is pending again.`;
  if (undone === 'superseded')
    return `Nothing was granted: key ${keyId} is revoked. A newer request from the same address was filed meanwhile, so ${id} was closed as rejected; \`requests list\` shows the newer one.`;
  return `Nothing was granted: key ${keyId} is revoked; ${id} was changed by someone else meanwhile (\`requests list\` shows the pending ones).`;
}

/**
 * Approves in one short transaction (account, key, status), commits, and only then sends the key:
 * the database must not stay locked for the seconds an SMTP server may take, since every other
 * writer, the server's key-request form included, would wait for it and fail. When the key cannot
 * be sent, the approval is taken back in a second short transaction: the key is revoked (nobody
 * could ever see it: only its hash is stored) and the request is pending again, so the command can
 * simply be run again. The key itself is never printed.
 */
export async function approve(ctx: AdminContext, id: string): Promise<void> {
  const request = await pendingRequest(ctx, id);
  ctx.note(`Approving ${id} and sending the key to ${request.email} ...`);
  const approved = await approveRequest(ctx.db, id, ctx.now);
  if (!approved) throw changedMeanwhile(id);
  const { issued, account } = approved;
  if (!approved.accountCreated && account.account_type !== request.account_type) {
    ctx.note(
      `Warning: ${request.email} already has account ${account.id} of type ${account.account_type}; the existing account type was kept (the request asked for ${request.account_type}).`,
    );
  }
  const message = keyEmail({
    to: request.email,
    requestId: id,
    key: issued.key,
    perMinute: ctx.config.RATE_LIMIT_DEVELOPER_PER_MIN,
    baseUrl: publicBaseUrl(ctx.config),
  });
  let delivery: Delivery;
  try {
    delivery = await ctx.mailer.send(message);
  } catch (error) {
    const failure = `Not approved: the key could not be sent to ${request.email} (${problemOf(error)}).`;
    let undone: UndoneApproval;
    try {
      undone = await undoApproval(ctx.db, id, issued.row.id, ctx.now);
    } catch (undoError) {
      throw new Error(
        `${failure} Taking the approval back failed too (${problemOf(undoError)}): run \`keys revoke ${issued.row.id}\`, or the unsent key stays valid; ${id} stays approved.`,
      );
    }
    throw new Error(`${failure} ${afterUndo(undone, id, issued.row.id)}`);
  }
  ctx.out(`Approved ${id}: key ${issued.row.id} (${maskedKey(issued.row.last4)}) for account ${account.id}.`);
  ctx.out(`The key was ${describeDelivery(delivery)}. It is not shown here.`);
  const warning = outboxKeyWarning(delivery);
  if (warning) ctx.note(`Warning: ${warning}`);
}

/**
 * The rejection is stored first and the notice sent after: an address that refuses mail (spam
 * requests often give one) must not keep a request pending forever.
 */
export async function reject(ctx: AdminContext, id: string, reason: string | undefined): Promise<void> {
  const text = reason?.trim() ?? '';
  if (!text) throw new Error('requests reject needs --reason "..." (it is stored and sent to the requester).');
  if (text.length > MAX_REASON_LENGTH) throw new Error(`--reason must be at most ${MAX_REASON_LENGTH} characters.`);
  await pendingRequest(ctx, id);
  const rejected = await rejectRequest(ctx.db, id, text, ctx.now);
  if (!rejected) throw changedMeanwhile(id);
  ctx.out(`Rejected ${id} (${rejected.email}): ${printable(text)}`);
  const notice = rejectionEmail({
    to: rejected.email,
    requestId: id,
    reason: text,
    anonymousPerMinute: ctx.config.RATE_LIMIT_ANONYMOUS_PER_MIN,
    baseUrl: publicBaseUrl(ctx.config),
  });
  try {
    ctx.out(`The reason was ${describeDelivery(await ctx.mailer.send(notice))}.`);
  } catch (error) {
    ctx.note(
      `Warning: the rejection stands, but the notice to ${rejected.email} could not be sent (${problemOf(error)}).`,
    );
  }
}
