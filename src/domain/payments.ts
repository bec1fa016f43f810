/**
 * Money (issue 32): the rules that need no database. Amounts are integer cents, EUR only.
 *
 * - A job's price is for the whole job; each accepted helper is owed a share: the price divided by
 *   helpers_needed in whole cents, the cents left over going one each to the first acceptances
 *   (100.01 EUR for three helpers: 33.34, 33.34, 33.33).
 * - The platform's fee is PLATFORM_FEE_PERCENT of the amount, rounded half up to the cent, at least
 *   PLATFORM_FEE_MIN_EUR, never more than the amount. With the manual provider the platform moves
 *   no money, so only commercial providers owe it (it accumulates as their fees receivable);
 *   private neighbours helping each other owe none.
 * - Every movement is a ledger transaction whose entries sum to zero.
 */

/**
 * What a payment is for: a helper's share of an accepted job, a booking's rent, a booking's
 * deposit; a cancellation fee (what a late cancellation leaves the payee of an unpaid payment); a
 * refund (what a cancellation gives back of a payment already made, from its payee to its payer).
 */
export const PAYMENT_KINDS = ['job', 'rent', 'deposit', 'fee', 'refund'] as const;
export type PaymentKind = (typeof PAYMENT_KINDS)[number];
/**
 * The manual provider's life of a payment: the payer says it is paid, the payee that it arrived; a
 * deposit the owner holds (received) is released after the return, less what a claim kept.
 */
export type PaymentStatus = 'awaiting_payment' | 'paid' | 'received' | 'released' | 'cancelled';

export interface FeeRule {
  /** Percent of the amount, e.g. 10 or 7.5. */
  percent: number;
  /** The least fee, in cents. */
  minCents: number;
  /** Who moves the money of new payments (PAYMENTS_PROVIDER); manual when not said. */
  provider?: 'manual' | 'stripe';
}

/** The share of the helper accepted as number `index` (0 for the first) of `helpersNeeded`, in cents. */
export function shareCents(priceCents: number, helpersNeeded: number, index: number): number {
  const helpers = Math.max(1, helpersNeeded);
  const base = Math.floor(priceCents / helpers);
  return base + (index < priceCents - base * helpers ? 1 : 0);
}

/** The platform's fee on an amount, in cents (0 for nothing owed, or a payee who owes no fee). */
export function feeCents(amountCents: number, rule: FeeRule, payeeOwesFee: boolean): number {
  if (!payeeOwesFee || amountCents <= 0) return 0;
  // Basis points, so that 7.5 % stays exact in integers; half up.
  const basisPoints = Math.round(rule.percent * 100);
  const fee = Math.floor((amountCents * basisPoints + 5_000) / 10_000);
  return Math.min(amountCents, Math.max(fee, rule.minCents));
}

/** A ledger line before it is written: whose money, how many cents (+ in, - out), what moved. */
export interface Posting {
  ledgerAccount: string;
  amountCents: number;
  kind: 'settlement' | 'fee';
}

/** The ledger's accounts: a person's money outside the platform, fees a provider owes, the platform's fee income. */
export const PARTY_PREFIX = 'party:';
export const FEES_RECEIVABLE_PREFIX = 'fees_receivable:';
export const FEE_REVENUE_ACCOUNT = 'platform:fee_revenue';
/** The platform's own balance at Stripe: the fees Stripe kept for it. */
export const STRIPE_BALANCE_ACCOUNT = 'platform:stripe_balance';
export const partyAccount = (accountId: string) => `${PARTY_PREFIX}${accountId}`;
export const feesReceivableAccount = (accountId: string) => `${FEES_RECEIVABLE_PREFIX}${accountId}`;

/**
 * What a settled manual payment writes: the payer's money to the payee (settlement), and the fee
 * the payee now owes the platform (fee), each a transaction of its own that sums to zero.
 */
export function settlementPostings(payment: {
  payer_account_id: string;
  payee_account_id: string;
  amount_cents: number;
  fee_cents: number;
}): Posting[][] {
  const settlement: Posting[] = [
    { ledgerAccount: partyAccount(payment.payer_account_id), amountCents: -payment.amount_cents, kind: 'settlement' },
    { ledgerAccount: partyAccount(payment.payee_account_id), amountCents: payment.amount_cents, kind: 'settlement' },
  ];
  if (payment.fee_cents === 0) return [settlement];
  const fee: Posting[] = [
    { ledgerAccount: feesReceivableAccount(payment.payee_account_id), amountCents: payment.fee_cents, kind: 'fee' },
    { ledgerAccount: FEE_REVENUE_ACCOUNT, amountCents: -payment.fee_cents, kind: 'fee' },
  ];
  return [settlement, fee];
}

/**
 * What a lowered fee writes once the fee was booked: the difference back from the platform's fee
 * income to the payee's fees owed.
 */
export function feeReversalPostings(payeeAccountId: string, cents: number): Posting[][] {
  if (cents === 0) return [];
  return [
    [
      { ledgerAccount: feesReceivableAccount(payeeAccountId), amountCents: -cents, kind: 'fee' },
      { ledgerAccount: FEE_REVENUE_ACCOUNT, amountCents: cents, kind: 'fee' },
    ],
  ];
}

/**
 * What a deposit's release writes: the owner gives back what no claim kept (the renter's money
 * home again). Nothing when the claim kept it all.
 */
export function releasePostings(payment: {
  payer_account_id: string;
  payee_account_id: string;
  amount_cents: number;
  kept_cents: number;
}): Posting[][] {
  const back = payment.amount_cents - payment.kept_cents;
  if (back === 0) return [];
  return [
    [
      { ledgerAccount: partyAccount(payment.payee_account_id), amountCents: -back, kind: 'settlement' },
      { ledgerAccount: partyAccount(payment.payer_account_id), amountCents: back, kind: 'settlement' },
    ],
  ];
}

/**
 * What the ledger must hold as settled to the payee for a payment in this state: nothing before
 * receipt; the amount once received; of a released deposit, what the claim kept.
 */
export function expectedSettled(payment: { status: PaymentStatus; amount_cents: number; kept_cents: number }): number {
  if (payment.status === 'received') return payment.amount_cents;
  if (payment.status === 'released') return payment.kept_cents;
  return 0;
}

/** What the caller does next with a payment, by their side of it; null when it is not theirs to act. */
export function nextActionOf(
  status: PaymentStatus,
  role: 'payer' | 'payee',
  kind: PaymentKind = 'job',
  provider: 'manual' | 'stripe' = 'manual',
): { type: 'mark_paid' | 'confirm_received' | 'release_deposit' | 'pay_at_stripe'; endpoint: string } | null {
  if (provider === 'stripe') {
    // Stripe confirms payments and receipts; a refund is the platform's to make. The payer pays
    // in their own browser at Stripe (SCA); the owner releases a held (authorised) deposit.
    if (role === 'payer' && status === 'awaiting_payment' && kind !== 'refund') {
      return { type: 'pay_at_stripe', endpoint: 'checkout' };
    }
    if (role === 'payee' && kind === 'deposit' && status === 'paid')
      return { type: 'release_deposit', endpoint: 'release' };
    return null;
  }
  if (role === 'payer' && status === 'awaiting_payment') return { type: 'mark_paid', endpoint: 'paid' };
  if (role === 'payee' && (status === 'awaiting_payment' || status === 'paid')) {
    return { type: 'confirm_received', endpoint: 'received' };
  }
  if (role === 'payee' && kind === 'deposit' && status === 'received') {
    return { type: 'release_deposit', endpoint: 'release' };
  }
  return null;
}

/**
 * What a Stripe payment books once Stripe captured it, beside settlementPostings: the fee Stripe
 * kept for the platform at once (application_fee_amount), so the payee owes nothing any more.
 */
export function feeCollectedPostings(payeeAccountId: string, feeCents: number): Posting[][] {
  if (feeCents === 0) return [];
  return [
    [
      { ledgerAccount: feesReceivableAccount(payeeAccountId), amountCents: -feeCents, kind: 'fee' },
      { ledgerAccount: STRIPE_BALANCE_ACCOUNT, amountCents: feeCents, kind: 'fee' },
    ],
  ];
}

/** Euros with cents as a JSON number, from integer cents (12345 -> 123.45). */
export const eurosOf = (cents: number): number => cents / 100;

/**
 * Payment (manual provider): the payer marks it paid, the payee confirms receipt (also straight
 * away); the owner releases a held deposit after the return.
 */
export const PAYMENT_MACHINE = {
  awaiting_payment: { paid: 'paid', received: 'received' },
  paid: { received: 'received' },
  received: { release: 'released' },
  released: {},
  cancelled: {},
} as const;

/**
 * What a Stripe refund writes of the fee: Stripe gives back the application fee in proportion to
 * the refund (refund_application_fee), from the platform's Stripe balance.
 */
export function stripeFeeReversalPostings(cents: number): Posting[][] {
  if (cents === 0) return [];
  return [
    [
      { ledgerAccount: FEE_REVENUE_ACCOUNT, amountCents: cents, kind: 'fee' },
      { ledgerAccount: STRIPE_BALANCE_ACCOUNT, amountCents: -cents, kind: 'fee' },
    ],
  ];
}

/** The part of a fee Stripe refunds with a refund of `refundCents` of `amountCents`: in proportion, half up. */
export const proportionalFeeCents = (feeCents: number, refundCents: number, amountCents: number): number =>
  amountCents === 0 ? 0 : Math.floor((2 * feeCents * refundCents + amountCents) / (2 * amountCents));

/** Whether a deposit is held: confirmed received by its owner (manual), or authorised at Stripe and not yet captured. */
export const depositHeld = (payment: { provider: 'manual' | 'stripe'; status: PaymentStatus }): boolean =>
  payment.status === (payment.provider === 'stripe' ? 'paid' : 'received');
