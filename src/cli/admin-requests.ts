import { publicBaseUrl } from '../config.js';
import type { KeyRequestRow } from '../db/schema.js';
import { maskedKey } from '../domain/api-keys.js';
import { KEY_REVIEW_HOURS } from '../domain/tiers.js';
import { describeDelivery, outboxKeyWarning } from '../mail/mailer.js';
import { findRequest, listPendingRequests } from '../repositories/key-requests.js';
import {
  approveKeyRequest,
  MAX_DECISION_REASON_LENGTH as MAX_REASON_LENGTH,
  rejectKeyRequest,
} from '../services/key-requests.js';
import type { AdminContext } from './admin-context.js';

const HOUR_MS = 3_600_000;

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

const decision = (ctx: AdminContext) => ({
  db: ctx.db,
  now: ctx.now,
  mailer: ctx.mailer,
  baseUrl: publicBaseUrl(ctx.config),
  perMinute: ctx.config.RATE_LIMIT_DEVELOPER_PER_MIN,
  anonymousPerMinute: ctx.config.RATE_LIMIT_ANONYMOUS_PER_MIN,
});

/**
 * Approves (services/key-requests.ts: one short transaction with its audit entry, then the key is
 * e-mailed; an unsent key is taken back). The key itself is never printed.
 */
export async function approve(ctx: AdminContext, id: string): Promise<void> {
  const request = await findRequest(ctx.db, id);
  if (request?.status === 'pending') ctx.note(`Approving ${id} and sending the key to ${request.email} ...`);
  const { approval, delivery } = await approveKeyRequest(decision(ctx), id, 'cli');
  const { issued, account } = approval;
  if (request && !approval.accountCreated && account.account_type !== request.account_type) {
    ctx.note(
      `Warning: ${request.email} already has account ${account.id} of type ${account.account_type}; the existing account type was kept (the request asked for ${request.account_type}).`,
    );
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
  const { request, delivery } = await rejectKeyRequest(decision(ctx), id, text, 'cli');
  ctx.out(`Rejected ${id} (${request.email}): ${printable(text)}`);
  if ('failed' in delivery) {
    ctx.note(
      `Warning: the rejection stands, but the notice to ${request.email} could not be sent (${delivery.failed}).`,
    );
  } else {
    ctx.out(`The reason was ${describeDelivery(delivery)}.`);
  }
}
