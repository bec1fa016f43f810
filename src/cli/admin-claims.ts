import { publicBaseUrl } from '../config.js';
import type { ClaimRow } from '../db/schema.js';
import { eurosOf } from '../domain/payments.js';
import { claimDecisionEmail } from '../mail/claim-email.js';
import { describeDelivery } from '../mail/mailer.js';
import { accountEmail } from '../repositories/verifications.js';
import { claimsToReview, decideClaim } from '../services/claims.js';
import { centsOf } from '../services/write-rules.js';
import type { AdminContext, AdminOptions } from './admin-context.js';
import { printable } from './admin-requests.js';

const MAX_EXPLANATION_LENGTH = 2000;
const euros = (cents: number) => `${eurosOf(cents).toFixed(2)} EUR`;

/** Disputed claims (waiting for a decision) first, then open ones (waiting for the renter), oldest first. */
export async function listClaims(ctx: AdminContext): Promise<void> {
  const claims = await claimsToReview(ctx.db);
  if (claims.length === 0) {
    ctx.out('No open or disputed claims.');
    return;
  }
  for (const claim of claims) {
    ctx.out('');
    ctx.out(`${claim.id}  ${claim.status}  filed ${claim.created_at}  claims ${euros(claim.amount_cents)}`);
    ctx.out(`  booking ${claim.booking_id}, deposit ${claim.payment_id}`);
    ctx.out(`  owner ${claim.owner_account_id}: ${printable(claim.text)}`);
    const photos = JSON.parse(claim.photos) as string[];
    if (photos.length > 0) ctx.out(`  photos: ${photos.map((photo) => printable(photo)).join(' ')}`);
    if (claim.response_text) ctx.out(`  renter ${claim.renter_account_id}: ${printable(claim.response_text)}`);
  }
}

/** Decides a disputed claim: the amount the owner keeps and why; both sides are told (event and e-mail). */
export async function decideClaimCommand(ctx: AdminContext, id: string, options: AdminOptions): Promise<void> {
  const amountText = options['amount-eur']?.trim() ?? '';
  const amount = Number(amountText);
  if (!amountText || !Number.isFinite(amount) || amount < 0) {
    throw new Error('claims decide needs --amount-eur N: what the owner keeps, 0 up to the claimed amount.');
  }
  let cents: number;
  try {
    cents = centsOf(amount, '--amount-eur');
  } catch {
    throw new Error(`--amount-eur has more than two decimals: ${amountText}.`);
  }
  const explanation = options.explanation?.trim() ?? '';
  if (!explanation) throw new Error('claims decide needs --explanation "..." (it is sent to both sides).');
  if (explanation.length > MAX_EXPLANATION_LENGTH) {
    throw new Error(`--explanation must be at most ${MAX_EXPLANATION_LENGTH} characters.`);
  }
  const claim = await decideClaim({ db: ctx.db, now: ctx.now, claim: null }, id, { amountCents: cents, explanation });
  ctx.out(`Decided ${id}: the owner keeps ${euros(cents)} of the ${euros(claim.amount_cents)} claimed.`);
  await tell(ctx, claim);
}

/** The decision is stored first (events included) and the e-mails sent after: a refused address changes nothing. */
async function tell(ctx: AdminContext, claim: ClaimRow): Promise<void> {
  for (const [role, accountId] of [
    ['owner', claim.owner_account_id],
    ['renter', claim.renter_account_id],
  ] as const) {
    const to = await accountEmail(ctx.db, accountId);
    if (!to) continue;
    const message = claimDecisionEmail({
      to,
      claimId: claim.id,
      role,
      claimedEur: eurosOf(claim.amount_cents),
      decidedEur: eurosOf(claim.decided_cents ?? 0),
      explanation: claim.explanation ?? '',
      baseUrl: publicBaseUrl(ctx.config),
    });
    try {
      ctx.out(`The notice to the ${role} was ${describeDelivery(await ctx.mailer.send(message))}.`);
    } catch (error) {
      ctx.note(`Warning: the decision stands, but the notice to the ${role} could not be sent (${String(error)}).`);
    }
  }
}
