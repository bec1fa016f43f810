import type { KeyRequestRow } from '../db/schema.js';
import { maskedKey } from '../domain/api-keys.js';
import { KEY_REVIEW_HOURS } from '../domain/tiers.js';
import { keyEmail, publicBaseUrl, rejectionEmail } from '../mail/key-email.js';
import { describeDelivery } from '../mail/mailer.js';
import { approveRequest, findRequest, listPendingRequests, rejectRequest } from '../repositories/key-requests.js';
import type { AdminContext } from './admin.js';

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

/**
 * Creates the account and key and sends the key in one transaction: a key that cannot be sent is
 * never stored, because nobody could ever see it again (only its hash is kept). The request stays
 * pending and the command can simply be run again.
 */
export async function approve(ctx: AdminContext, id: string): Promise<void> {
  const request = await pendingRequest(ctx, id);
  ctx.note(`Approving ${id} and sending the key to ${request.email} ...`);
  const { issued, delivery } = await ctx.db.transaction().execute(async (trx) => {
    const approved = await approveRequest(trx, id, ctx.now);
    if (!approved) throw changedMeanwhile(id);
    const message = keyEmail({
      to: request.email,
      name: request.name,
      requestId: id,
      key: approved.issued.key,
      perMinute: ctx.config.RATE_LIMIT_DEVELOPER_PER_MIN,
      baseUrl: publicBaseUrl(ctx.config),
    });
    const delivery = await ctx.mailer.send(message).catch((error: unknown) => {
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(
        `Not approved: the key could not be sent to ${request.email} (${reason}). ${id} is still pending.`,
      );
    });
    return { issued: approved.issued, delivery };
  });
  ctx.out(
    `Approved ${id}: key ${issued.row.id} (${maskedKey(issued.row.last4)}) for account ${issued.row.account_id}.`,
  );
  ctx.out(`The key was ${describeDelivery(delivery)}. It is not shown here.`);
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
    name: rejected.name,
    requestId: id,
    reason: text,
    anonymousPerMinute: ctx.config.RATE_LIMIT_ANONYMOUS_PER_MIN,
    baseUrl: publicBaseUrl(ctx.config),
  });
  try {
    ctx.out(`The reason was ${describeDelivery(await ctx.mailer.send(notice))}.`);
  } catch (error) {
    const problem = error instanceof Error ? error.message : String(error);
    ctx.note(`Warning: the rejection stands, but the notice to ${rejected.email} could not be sent (${problem}).`);
  }
}
