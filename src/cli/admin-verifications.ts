import { publicBaseUrl } from '../config.js';
import type { VerificationRow } from '../db/schema.js';
import { describeDelivery } from '../mail/mailer.js';
import { verificationEmail } from '../mail/verification-email.js';
import { accountEmail, listPendingVerifications } from '../repositories/verifications.js';
import { decideVerification, unverifyHelper } from '../services/verifications.js';
import type { AdminContext } from './admin-context.js';
import { printable } from './admin-requests.js';

const MAX_REASON_LENGTH = 1000;
const context = (ctx: AdminContext) => ({ db: ctx.db, now: ctx.now, claim: null });

function reasonOf(reason: string | undefined, command: string): string {
  const text = reason?.trim() ?? '';
  if (!text) throw new Error(`${command} needs --reason "..." (it is stored and sent to the helper's account).`);
  if (text.length > MAX_REASON_LENGTH) throw new Error(`--reason must be at most ${MAX_REASON_LENGTH} characters.`);
  return text;
}

export async function listVerifications(ctx: AdminContext): Promise<void> {
  const pending = await listPendingVerifications(ctx.db);
  if (pending.length === 0) {
    ctx.out('No pending verification requests.');
    return;
  }
  ctx.out(`${pending.length} pending verification request${pending.length === 1 ? '' : 's'}, oldest first.`);
  for (const request of pending) {
    ctx.out('');
    ctx.out(`${request.id}  filed ${request.created_at}  method ${request.method}`);
    ctx.out(
      `  helper ${request.helper_id} (${printable(request.display_name)}), account <${printable(request.email ?? '?')}>`,
    );
  }
}

/** The decision is stored first (event included) and the email sent after: a refused address changes nothing. */
async function tell(
  ctx: AdminContext,
  row: VerificationRow,
  decision: 'approved' | 'rejected' | 'revoked',
): Promise<void> {
  const to = await accountEmail(ctx.db, row.account_id);
  if (!to || !row.helper_id) return;
  const message = verificationEmail({
    to,
    helperId: row.helper_id,
    decision,
    reason: row.reason,
    baseUrl: publicBaseUrl(ctx.config),
  });
  try {
    ctx.out(`The notice was ${describeDelivery(await ctx.mailer.send(message))}.`);
  } catch (error) {
    ctx.note(`Warning: the decision stands, but the notice to ${to} could not be sent (${String(error)}).`);
  }
}

export async function approveVerification(ctx: AdminContext, id: string): Promise<void> {
  const row = await decideVerification(context(ctx), id, 'approved', null);
  ctx.out(`Approved ${id}: helper ${row.helper_id} is verified.`);
  await tell(ctx, row, 'approved');
}

export async function rejectVerification(ctx: AdminContext, id: string, reason: string | undefined): Promise<void> {
  const text = reasonOf(reason, 'verifications reject');
  const row = await decideVerification(context(ctx), id, 'rejected', text);
  ctx.out(`Rejected ${id} (helper ${row.helper_id}): ${printable(text)}`);
  await tell(ctx, row, 'rejected');
}

export async function unverify(ctx: AdminContext, helperId: string, reason: string | undefined): Promise<void> {
  const text = reasonOf(reason, 'helpers unverify');
  const rows = await unverifyHelper(context(ctx), helperId, text);
  ctx.out(`Helper ${helperId} is no longer verified (${rows.map((r) => r.id).join(', ')} revoked): ${printable(text)}`);
  const [first] = rows;
  if (first) await tell(ctx, first, 'revoked');
}
