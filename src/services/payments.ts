/**
 * Payments (issue 32, the manual provider). A job's payment is created in the transaction that
 * accepts an application, a booking's rent and deposit in the one that confirms it; the payer marks
 * a payment paid and the payee confirms receipt, which books the settlement and the fee in the
 * ledger in the same transaction. A held deposit is released by its owner after the return, less
 * what an accepted or decided claim keeps (services/claims.ts).
 */

import { electronicFormatIBAN, friendlyFormatIBAN, validateIBAN } from 'ibantools';
import type { Queryable } from '../db/queryable.js';
import type { AccountRow, BankAccountRow, PaymentRow } from '../db/schema.js';
import { berlinDate, berlinWallClock } from '../domain/berlin-time.js';
import { daysInclusive } from '../domain/booking-price.js';
import { type CancellationPolicy, refundPercent, splitRefund } from '../domain/cancellation.js';
import {
  depositHeld,
  eurosOf,
  expectedSettled,
  FEES_RECEIVABLE_PREFIX,
  type FeeRule,
  feeCents,
  feeReversalPostings,
  nextActionOf,
  PAYMENT_MACHINE,
  type Posting,
  proportionalFeeCents,
  releasePostings,
  settlementPostings,
  shareCents,
  stripeFeeReversalPostings,
} from '../domain/payments.js';
import { findAccount } from '../repositories/account-erasure.js';
import { jobPlaceAndOwner } from '../repositories/applications.js';
import { claimOfBooking } from '../repositories/claims.js';
import { recordEvent } from '../repositories/outbox.js';
import {
  bankAccountsOf,
  bookingMoneyOf,
  cancelPayment,
  cancelUnpaidPayments,
  deleteBankAccount,
  feesReceivable,
  findBankAccount,
  findPaymentOfParty,
  insertLedgerTransaction,
  insertPayment,
  jobPriceOf,
  livePaymentsOf,
  lockDeposit,
  movePayment,
  type PaymentFilter,
  type PaymentsOf,
  paymentsFor,
  paymentsOfJobCount,
  paymentsOfParty,
  paymentsWithLedger,
  putBankAccount,
  receivedBetween,
  refundsBetween,
  releaseDeposit,
  setPaymentFee,
  unbalancedTransactions,
} from '../repositories/payments.js';
import { hasPendingTask, insertProviderTask } from '../repositories/provider.js';
import { inWriteTransaction, type WriteContext, type WriteTransaction } from '../repositories/write-transaction.js';
import type { BankAccount, BankAccountBody, Payment, PaymentPage } from '../schemas/payments.js';
import { ApiError } from './errors.js';
import { illegalTransition } from './write-rules.js';

/** Whether the payee's bank account is shown: to the payer, while the payment is open (agreed, not settled). */
const showsBankAccount = (row: PaymentRow, accountId: string) =>
  row.payer_account_id === accountId && (row.status === 'awaiting_payment' || row.status === 'paid');

/**
 * The payment as one party reads it; `bank` is the payee's bank account where showsBankAccount
 * (events are recorded without it: a copy kept in an outbox is a copy too many).
 */
export function paymentView(row: PaymentRow, accountId: string, bank: BankAccountRow | null = null): Payment {
  const role = row.payer_account_id === accountId ? 'payer' : 'payee';
  const next = nextActionOf(row.status, role, row.kind, row.provider);
  const shown = bank && showsBankAccount(row, accountId) ? bank : null;
  return {
    id: row.id,
    kind: row.kind,
    provider: row.provider,
    role,
    status: row.status,
    job_id: row.job_id,
    application_id: row.application_id,
    booking_id: row.booking_id,
    amount_eur: eurosOf(row.amount_cents),
    fee_eur: eurosOf(row.fee_cents),
    payout_eur: eurosOf(row.amount_cents - row.fee_cents),
    kept_eur: eurosOf(row.kept_cents),
    currency: row.currency,
    next_action: next && { type: next.type, url: `/v1/payments/${row.id}/${next.endpoint}` },
    payee_bank_account: shown && {
      iban: friendlyFormatIBAN(shown.iban) ?? shown.iban,
      account_holder: shown.account_holder,
    },
    created_at: row.created_at,
    paid_at: row.paid_at,
    received_at: row.received_at,
    cancelled_at: row.cancelled_at,
    released_at: row.released_at,
    // Why the payer's card or bank refused is the payer's business only.
    ...(row.provider_error !== null && role === 'payer' && { last_error: row.provider_error }),
  };
}

/** A payment in an application's or a booking's summary: what it is for, how much, where it stands. */
export interface PaymentSummary {
  id: string;
  kind: PaymentRow['kind'];
  status: PaymentRow['status'];
  amount_eur: number;
}

/** Applications or bookings with their payment summaries (`payments`), in one query for all of them. */
export async function withPayments<T extends { id: string }>(
  db: Queryable,
  of: 'application_id' | 'booking_id',
  items: T[],
): Promise<(T & { payments: PaymentSummary[] })[]> {
  const byId = new Map<string, PaymentSummary[]>();
  for (const row of await paymentsFor(
    db,
    of,
    items.map((item) => item.id),
  )) {
    const key = row[of] as string;
    const list = byId.get(key) ?? [];
    list.push({ id: row.id, kind: row.kind, status: row.status, amount_eur: eurosOf(row.amount_cents) });
    byId.set(key, list);
  }
  return items.map((item) => ({ ...item, payments: byId.get(item.id) ?? [] }));
}

/** One application or booking with its payment summary. */
export async function withPaymentsOf<T extends { id: string }>(
  db: Queryable,
  of: 'application_id' | 'booking_id',
  item: T,
): Promise<T & { payments: PaymentSummary[] }> {
  return (await withPayments(db, of, [item]))[0] as T & { payments: PaymentSummary[] };
}

/**
 * In the acceptance's transaction: the accepted helper's share of the job as a payment from the
 * job's owner to the helper's account, with the fee a commercial provider owes.
 */
export async function createJobPayment(
  trx: WriteTransaction,
  input: { jobId: string; applicationId: string; payeeAccountId: string },
  fees: FeeRule,
  now: Date,
): Promise<PaymentRow | undefined> {
  const job = await jobPriceOf(trx, input.jobId);
  // Only a job an account posted has a payer (the seeded marketplace's jobs take no acceptances).
  if (job.owner_account_id === null) return undefined;
  const index = await paymentsOfJobCount(trx, input.jobId);
  const amount = shareCents(job.price_cents, job.helpers_needed, index);
  const fee = await feeOwedBy(trx, input.payeeAccountId, amount, fees);
  const payment = await insertPayment(
    trx,
    {
      kind: 'job',
      provider: fees.provider ?? 'manual',
      payer_account_id: job.owner_account_id,
      payee_account_id: input.payeeAccountId,
      job_id: input.jobId,
      application_id: input.applicationId,
      amount_cents: amount,
      fee_cents: fee,
    },
    now,
  );
  await recordPaymentEvents(trx, 'payment.created', payment, now, job);
  return payment;
}

/**
 * In the transaction that confirms a booking (at once, or by its owner): the rent from the renter
 * to the listing's owner, with the fee a commercial owner owes, and the deposit (when the listing
 * asks one), which the renter hands over at pick-up and the owner gives back after the return.
 */
export async function createBookingPayments(
  trx: WriteTransaction,
  bookingId: string,
  fees: FeeRule,
  now: Date,
): Promise<void> {
  const booking = await bookingMoneyOf(trx, bookingId);
  await renterOwes(trx, booking, 'rent', booking.price_cents, fees, now);
  // A deposit is the renter's money held, not a price: no fee on it.
  await renterOwes(trx, booking, 'deposit', booking.deposit_cents, { ...fees, percent: 0, minCents: 0 }, now);
}

/**
 * In the transaction that accepts an extension of a confirmed or active booking: the rent it adds,
 * owed by the renter to the owner as a further rent payment (with the fee a commercial owner owes
 * on it). Nothing when it adds nothing.
 */
export async function chargeExtension(
  trx: WriteTransaction,
  bookingId: string,
  addedCents: number,
  fees: FeeRule,
  now: Date,
): Promise<void> {
  const booking = await bookingMoneyOf(trx, bookingId);
  await renterOwes(trx, booking, 'rent', addedCents, fees, now);
}

/**
 * A payment the renter of a booking owes its owner (rent, deposit, a late fee), with its events. Nothing for a zero amount, or a seeded listing (it belongs to no account).
 */
async function renterOwes(
  trx: WriteTransaction,
  booking: Awaited<ReturnType<typeof bookingMoneyOf>>,
  kind: 'rent' | 'deposit' | 'fee',
  amountCents: number,
  fees: FeeRule,
  now: Date,
): Promise<void> {
  if (booking.owner_account_id === null || amountCents === 0) return;
  const payment = await insertPayment(
    trx,
    {
      kind,
      provider: fees.provider ?? 'manual',
      payer_account_id: booking.renter_account_id,
      payee_account_id: booking.owner_account_id,
      job_id: null,
      application_id: null,
      booking_id: booking.id,
      amount_cents: amountCents,
      fee_cents: await feeOwedBy(trx, booking.owner_account_id, amountCents, fees),
    },
    now,
  );
  await recordPaymentEvents(trx, 'payment.created', payment, now, booking);
}

/** The platform's fee a payee owes on an amount: only commercial providers owe one (domain/payments.ts). */
export async function feeOwedBy(trx: WriteTransaction, payeeAccountId: string, amountCents: number, fees: FeeRule) {
  const payee = await findAccount(trx, payeeAccountId);
  return feeCents(amountCents, fees, payee?.account_type === 'commercial');
}

/**
 * At the return: each day after the booking's last day (Europe/Berlin) costs the late fee the
 * listing asked when it was booked, owed by the renter to the owner as a payment of kind fee (with
 * the platform fee a commercial owner owes on it). Nothing when on time or without a late fee.
 */
export async function chargeLateReturn(
  trx: WriteTransaction,
  bookingId: string,
  fees: FeeRule,
  now: Date,
): Promise<void> {
  const booking = await bookingMoneyOf(trx, bookingId);
  if (booking.late_fee_per_day_cents === null) return;
  const lateDays = daysInclusive(booking.end_date, berlinDate(now)) - 1;
  if (lateDays <= 0) return;
  await renterOwes(trx, booking, 'fee', lateDays * booking.late_fee_per_day_cents, fees, now);
}

/**
 * A payment's event to each of its two parties, each with the payment as they read it (their role
 * and next action): payment.created, or payment.status_changed (paid, received, cancelled). On
 * their webhooks and private streams only; the job's place lets a webhook's filters match it.
 */
export async function recordPaymentEvents(
  trx: WriteTransaction,
  type: 'payment.created' | 'payment.status_changed',
  payment: PaymentRow,
  now: Date,
  /** The job's place when the caller has read it already. */
  known?: { category: string; lat: number; lng: number },
): Promise<void> {
  const place =
    known ??
    (payment.job_id
      ? await jobPlaceAndOwner(trx, payment.job_id)
      : payment.booking_id
        ? await bookingMoneyOf(trx, payment.booking_id)
        : null);
  for (const accountId of [payment.payer_account_id, payment.payee_account_id]) {
    const data = paymentView(payment, accountId);
    await recordEvent(trx, { type, subjectId: payment.id, place, audience: [accountId], data }, now);
  }
}

/**
 * In the transaction that completes a job: each helper's share authorised at Stripe is captured
 * (a provider task, made after the commit). Manual payments wait for their payee's receipt.
 */
export async function captureOnCompletion(trx: WriteTransaction, jobId: string, now: Date): Promise<void> {
  for (const payment of await livePaymentsOf(trx, { job_id: jobId }, ['job'])) {
    if (payment.provider !== 'stripe' || payment.status !== 'paid') continue;
    // One call at a time per payment: a cancellation's capture or release under way stands.
    if (await hasPendingTask(trx, payment.id)) continue;
    await insertProviderTask(
      trx,
      { payment_id: payment.id, action: 'capture', amount_cents: payment.amount_cents },
      now,
    );
  }
}

/** In a job's or a booking's cancellation: its payments (of these kinds) nothing was paid on are cancelled, each with its events. */
export async function cancelUnpaid(
  trx: WriteTransaction,
  of: PaymentsOf,
  now: Date,
  kinds: readonly PaymentRow['kind'][] = ['job', 'rent', 'deposit', 'fee'],
): Promise<void> {
  for (const payment of await cancelUnpaidPayments(trx, of, kinds, now)) {
    await recordPaymentEvents(trx, 'payment.status_changed', payment, now);
  }
}

/** What a cancellation did to the money, as the cancel endpoints answer it. */
export interface CancellationMoney {
  policy: CancellationPolicy;
  /** Hours that were left before the start (one decimal; negative after it), null without a start. */
  hours_before_start: number | null;
  refund_percent: number;
  /** What the payer gets back, or no longer owes. */
  refund_eur: number;
  /** What the payee keeps, or is still owed, as a cancellation fee. */
  fee_eur: number;
}

/**
 * In a cancellation: the policy applied to each live payment of a job's shares or a booking's
 * rent. A cancellation by the payee, or with no start, refunds in full. An unpaid payment is
 * cancelled and, where the policy leaves the payee something, a cancellation fee (kind fee) is
 * owed instead; of a payment already made, the refunded part comes back as a refund (kind refund,
 * from the payee to the payer), and the payee's platform fee falls to the fee on what they keep
 * (booked back at once when it was booked). Events for each payment. Null when there was no
 * payment to apply it to (a request, a job nobody was accepted for).
 */
export async function cancelWithPolicy(
  trx: WriteTransaction,
  of: PaymentsOf,
  cancellation: { policy: CancellationPolicy; startsAt: Date | null; byPayee: boolean },
  fees: FeeRule,
  now: Date,
): Promise<CancellationMoney | null> {
  const hoursLeft =
    cancellation.startsAt === null ? null : (cancellation.startsAt.getTime() - now.getTime()) / 3_600_000;
  const percent = cancellation.byPayee || hoursLeft === null ? 100 : refundPercent(cancellation.policy, hoursLeft);
  let refunded = 0;
  let kept = 0;
  const live = await livePaymentsOf(trx, of, ['job', 'rent']);
  if (live.length === 0) return null;
  for (const payment of live) {
    const { refundCents, keptCents } = splitRefund(payment.amount_cents, percent);
    refunded += refundCents;
    kept += keptCents;
    const feeOnKept = await feeOwedBy(trx, payment.payee_account_id, keptCents, fees);
    const links = {
      provider: payment.provider,
      job_id: payment.job_id,
      application_id: payment.application_id,
      ...(payment.booking_id !== null && { booking_id: payment.booking_id }),
    };
    if (payment.provider === 'stripe' && (await hasPendingTask(trx, payment.id))) {
      throw new ApiError(
        409,
        'invalid_state_transition',
        `The payment ${payment.id} is being settled at Stripe right now; nothing was changed.`,
        { param: null, suggestion: 'Try again in a minute, once Stripe has answered (payment.status_changed).' },
      );
    }
    if (payment.provider === 'stripe' && payment.status === 'paid') {
      // Authorised at Stripe, not captured: capture what the payee keeps, the rest is released.
      if (keptCents === 0) {
        await insertProviderTask(trx, { payment_id: payment.id, action: 'cancel', amount_cents: 0 }, now);
      } else {
        await setPaymentFee(trx, payment.id, feeOnKept, now);
        await insertProviderTask(trx, { payment_id: payment.id, action: 'capture', amount_cents: keptCents }, now);
      }
      continue;
    }
    if (payment.status === 'awaiting_payment') {
      const cancelled = await cancelPayment(trx, payment.id, now);
      if (cancelled) await recordPaymentEvents(trx, 'payment.status_changed', cancelled, now);
      if (keptCents === 0) continue;
      const fee = await insertPayment(
        trx,
        {
          ...links,
          kind: 'fee',
          payer_account_id: payment.payer_account_id,
          payee_account_id: payment.payee_account_id,
          amount_cents: keptCents,
          fee_cents: feeOnKept,
        },
        now,
      );
      await recordPaymentEvents(trx, 'payment.created', fee, now);
      continue;
    }
    if (refundCents === 0) continue;
    if (payment.provider === 'stripe') {
      // Stripe gives the fee back in proportion to the refund, from the platform's Stripe balance.
      const back = proportionalFeeCents(payment.fee_cents, refundCents, payment.amount_cents);
      if (back > 0) {
        await setPaymentFee(trx, payment.id, payment.fee_cents - back, now);
        await book(trx, payment.id, stripeFeeReversalPostings(back), now);
      }
    } else if (feeOnKept < payment.fee_cents) {
      await setPaymentFee(trx, payment.id, feeOnKept, now);
      if (payment.status === 'received') {
        await book(trx, payment.id, feeReversalPostings(payment.payee_account_id, payment.fee_cents - feeOnKept), now);
      }
    }
    const refund = await insertPayment(
      trx,
      {
        ...links,
        kind: 'refund',
        payer_account_id: payment.payee_account_id,
        payee_account_id: payment.payer_account_id,
        amount_cents: refundCents,
        fee_cents: 0,
        // Stripe: the platform refunds the captured PaymentIntent (and the transfer and fee with it).
        provider_ref: payment.provider_ref,
      },
      now,
    );
    if (refund.provider === 'stripe') {
      await insertProviderTask(trx, { payment_id: refund.id, action: 'refund', amount_cents: refundCents }, now);
    }
    await recordPaymentEvents(trx, 'payment.created', refund, now);
  }
  return {
    policy: cancellation.policy,
    hours_before_start: hoursLeft === null ? null : Math.round(hoursLeft * 10) / 10,
    refund_percent: percent,
    refund_eur: eurosOf(refunded),
    fee_eur: eurosOf(kept),
  };
}

const notYours = (id: string) =>
  new ApiError(404, 'not_found', `No payment with the id '${id}' is yours.`, {
    param: 'id',
    suggestion: 'Check the id (payment ids start with pay_); GET /v1/payments lists yours, as payer and as payee.',
  });

export async function getPayment(db: Queryable, account: AccountRow, id: string): Promise<Payment> {
  const row = await findPaymentOfParty(db, id, account.id);
  if (!row) throw notYours(id);
  return (await withBankAccounts(db, [row], account.id))[0] as Payment;
}

/** The views of payments, each open one the caller pays with its payee's bank account. */
async function withBankAccounts(db: Queryable, rows: PaymentRow[], accountId: string): Promise<Payment[]> {
  const payees = [
    ...new Set(rows.filter((row) => showsBankAccount(row, accountId)).map((row) => row.payee_account_id)),
  ];
  const banks = new Map((await bankAccountsOf(db, payees)).map((bank) => [bank.account_id, bank]));
  return rows.map((row) => paymentView(row, accountId, banks.get(row.payee_account_id) ?? null));
}

export async function listPayments(
  db: Queryable,
  account: AccountRow,
  query: Omit<PaymentFilter, 'accountId'>,
): Promise<PaymentPage> {
  const { rows, total } = await paymentsOfParty(db, { ...query, accountId: account.id });
  return {
    data: await withBankAccounts(db, rows, account.id),
    total,
    limit: query.limit,
    offset: query.offset,
    has_more: query.offset + query.limit < total,
  };
}

/**
 * The payer says the payment is paid, or the payee that it arrived. Receipt books the settlement and
 * the fee in the ledger, in the same transaction as the change of state.
 */
export async function settle(
  context: WriteContext,
  account: AccountRow,
  id: string,
  action: 'paid' | 'received',
): Promise<Payment> {
  return inWriteTransaction(context, async (trx) => {
    const row = await findPaymentOfParty(trx, id, account.id);
    if (!row) throw notYours(id);
    if (row.provider === 'stripe') {
      throw new ApiError(
        409,
        'invalid_state_transition',
        `Stripe confirms this payment; it is not marked ${action} by hand.`,
        {
          param: 'id',
          suggestion:
            'The payer pays at Stripe (POST /v1/payments/{id}/checkout answers the page); the payment follows when Stripe confirms it (payment.status_changed).',
        },
      );
    }
    const side = action === 'paid' ? 'payer' : 'payee';
    const role = row.payer_account_id === account.id ? 'payer' : 'payee';
    if (role !== side) {
      throw new ApiError(403, 'forbidden', `Only the ${side} of a payment says it is ${action}; you are its ${role}.`, {
        param: 'id',
        suggestion:
          action === 'paid'
            ? 'As the payee, confirm receipt with POST /v1/payments/{id}/received once the money is there.'
            : 'As the payer, mark it paid with POST /v1/payments/{id}/paid; the payee confirms receipt.',
      });
    }
    const from = Object.entries(PAYMENT_MACHINE)
      .filter(([, moves]) => action in moves)
      .map(([state]) => state as PaymentRow['status']);
    const moved = await movePayment(
      trx,
      {
        id,
        side: action === 'paid' ? 'payer_account_id' : 'payee_account_id',
        accountId: account.id,
        from,
        to: action,
        stamp: action === 'paid' ? 'paid_at' : 'received_at',
      },
      context.now,
    );
    if (!moved) throw illegalTransition('payment', row.status, action, machineOf(row.kind));
    if (action === 'received') {
      await book(trx, moved.id, settlementPostings(moved), context.now);
    }
    await recordPaymentEvents(trx, 'payment.status_changed', moved, context.now);
    return (await withBankAccounts(trx, [moved], account.id))[0] as Payment;
  });
}

/**
 * The owner of a held deposit gives it back after the return (or a cancellation), less what an
 * accepted or decided claim keeps; the ledger books what went back. 409 while the item is out or a
 * claim is open or disputed.
 */
export async function releaseDepositPayment(context: WriteContext, account: AccountRow, id: string): Promise<Payment> {
  return inWriteTransaction(context, async (trx) => {
    const row = await findPaymentOfParty(trx, id, account.id);
    if (!row) throw notYours(id);
    if (row.kind !== 'deposit' || row.booking_id === null) {
      throw new ApiError(
        409,
        'invalid_state_transition',
        `This payment is a ${row.kind} payment; only a deposit is released.`,
        {
          param: 'id',
          suggestion: 'Release the deposit payment of a returned booking (kind deposit).',
        },
      );
    }
    if (row.payee_account_id !== account.id) {
      throw new ApiError(403, 'forbidden', 'Only the owner holding a deposit releases it; you are its payer.', {
        param: 'id',
        suggestion: 'The owner releases the deposit after the return; until then it is theirs to hold.',
      });
    }
    if (!depositHeld(row)) throw illegalTransition('payment', row.status, 'release', machineOf(row.kind));
    const booking = await bookingMoneyOf(trx, row.booking_id);
    if (booking.status === 'confirmed' || booking.status === 'active' || booking.status === 'requested') {
      throw new ApiError(
        409,
        'invalid_state_transition',
        `The booking is ${booking.status}: a deposit is released once the item is back.`,
        {
          param: 'id',
          suggestion: `Record the return first (POST /v1/bookings/${booking.id}/return), then release the deposit.`,
        },
      );
    }
    // The deposit locked before the claim is read: a claim filed at the same time is seen, or waits.
    await lockDeposit(trx, booking.id);
    const claim = await claimOfBooking(trx, booking.id);
    if (claim && (claim.status === 'open' || claim.status === 'disputed')) {
      throw new ApiError(409, 'claim_pending', `The claim ${claim.id} on this deposit is ${claim.status}.`, {
        param: 'id',
        suggestion:
          claim.status === 'open'
            ? 'Wait for the renter to accept or dispute the claim (GET /v1/claims/{id}); then release the rest.'
            : 'An operator decides the disputed claim; then release the rest.',
      });
    }
    const kept = claim?.status === 'accepted' ? claim.amount_cents : (claim?.decided_cents ?? 0);
    if (row.provider === 'stripe') {
      // Stripe captures what the claim kept (or cancels the hold); the release follows its answer.
      if (await hasPendingTask(trx, row.id)) {
        throw new ApiError(409, 'invalid_state_transition', 'The release of this deposit is under way at Stripe.', {
          param: 'id',
          suggestion: 'Wait for the payment.status_changed event (status released); GET /v1/payments/{id} shows it.',
        });
      }
      const action = kept > 0 ? 'capture' : 'cancel';
      await insertProviderTask(trx, { payment_id: row.id, action, amount_cents: kept }, context.now);
      return paymentView(row, account.id);
    }
    const moved = await releaseDeposit(trx, { id, payeeAccountId: account.id, keptCents: kept }, context.now);
    if (!moved) throw illegalTransition('payment', row.status, 'release', machineOf(row.kind));
    await book(trx, moved.id, releasePostings(moved), context.now);
    await recordPaymentEvents(trx, 'payment.status_changed', moved, context.now, booking);
    return paymentView(moved, account.id);
  });
}

/** The machine a payment of this kind follows: only a deposit is released after receipt. */
const machineOf = (kind: PaymentRow['kind']) =>
  kind === 'deposit' ? PAYMENT_MACHINE : { ...PAYMENT_MACHINE, received: {} };

/**
 * Writes what one movement of money books: its ledger transactions (settlement, fee ...), each
 * balanced. An unbalanced one is a bug and nothing of the movement is written.
 */
export async function book(
  trx: WriteTransaction,
  paymentId: string,
  transactions: Posting[][],
  now: Date,
): Promise<void> {
  for (const postings of transactions) {
    const sum = postings.reduce((total, posting) => total + posting.amountCents, 0);
    if (sum !== 0 || postings.some((posting) => !Number.isInteger(posting.amountCents))) {
      throw new Error(`ledger transaction of ${paymentId} does not balance: ${sum} cents`);
    }
  }
  for (const postings of transactions) await insertLedgerTransaction(trx, paymentId, postings, now);
}

/** What `npm run admin -- ledger check` finds wrong: unbalanced transactions, payments the ledger disagrees with. */
export async function checkLedger(db: Queryable): Promise<string[]> {
  const problems: string[] = [];
  for (const row of await unbalancedTransactions(db)) {
    problems.push(`transaction ${row.transaction_id} sums to ${Number(row.total)} cents, not 0`);
  }
  for (const payment of await paymentsWithLedger(db)) {
    const settled = Number(payment.settled);
    const feeBooked = Number(payment.fee_booked);
    const wantSettled = expectedSettled(payment);
    const wantFee = payment.status === 'received' || payment.status === 'released' ? payment.fee_cents : 0;
    if (settled !== wantSettled) {
      problems.push(
        `payment ${payment.id} (${payment.status}): the ledger settled ${settled} cents, not ${wantSettled}`,
      );
    }
    if (feeBooked !== wantFee) {
      problems.push(
        `payment ${payment.id} (${payment.status}): the ledger booked a fee of ${feeBooked} cents, not ${wantFee}`,
      );
    }
  }
  return problems;
}

/** Fees commercial providers owe the platform, per provider account, in cents. */
export async function feesOwed(db: Queryable): Promise<{ accountId: string; cents: number }[]> {
  return (await feesReceivable(db)).map((row) => ({
    accountId: row.ledger_account.slice(FEES_RECEIVABLE_PREFIX.length),
    cents: Number(row.total),
  }));
}

/** One seller's year on the platform, as the DAC7 report (PStTG) asks for it: consideration per quarter and fees. */
export interface SellerYear {
  accountId: string;
  name: string;
  organisation: string | null;
  accountType: string;
  payments: number;
  /** Cents received in each quarter (Europe/Berlin), and the year's total. */
  quarters: [number, number, number, number];
  considerationCents: number;
  feeCents: number;
}

/**
 * Per payee, what they were paid through the platform in a calendar year (Europe/Berlin, by the
 * day receipt was confirmed): the number of payments, the consideration per quarter and in all, and
 * the fees; for the platform operator's DAC7 report (PStTG).
 */
export async function sellerYears(db: Queryable, year: number): Promise<SellerYear[]> {
  const from = berlinWallClock(`${year}-01-01`, 0).toISOString();
  const to = berlinWallClock(`${year + 1}-01-01`, 0).toISOString();
  const sellers = new Map<string, SellerYear>();
  for (const row of await receivedBetween(db, from, to)) {
    let seller = sellers.get(row.payee_account_id);
    if (!seller) {
      seller = {
        accountId: row.payee_account_id,
        name: row.name,
        organisation: row.organisation,
        accountType: row.account_type,
        payments: 0,
        quarters: [0, 0, 0, 0],
        considerationCents: 0,
        feeCents: 0,
      };
      sellers.set(row.payee_account_id, seller);
    }
    const month = Number(berlinDate(new Date(row.received_at as string)).slice(5, 7));
    const quarter = Math.floor((month - 1) / 3) as 0 | 1 | 2 | 3;
    seller.payments += 1;
    seller.quarters[quarter] += Number(row.amount_cents);
    seller.considerationCents += Number(row.amount_cents);
    seller.feeCents += Number(row.fee_cents);
  }
  // What a seller paid back after a cancellation lowers their consideration in its quarter.
  for (const row of await refundsBetween(db, from, to)) {
    const seller = sellers.get(row.seller_account_id);
    if (!seller) continue;
    const month = Number(berlinDate(new Date(row.received_at as string)).slice(5, 7));
    seller.quarters[Math.floor((month - 1) / 3) as 0 | 1 | 2 | 3] -= Number(row.amount_cents);
    seller.considerationCents -= Number(row.amount_cents);
  }
  return [...sellers.values()];
}

const bankAccountView = (row: BankAccountRow): BankAccount => ({
  iban: friendlyFormatIBAN(row.iban) ?? row.iban,
  account_holder: row.account_holder,
  updated_at: row.updated_at,
});

const noBankAccount = () =>
  new ApiError(404, 'not_found', 'Your account has no bank account yet.', {
    param: null,
    suggestion: 'Give one with PUT /v1/me/bank-account {"iban": "...", "account_holder": "..."}.',
  });

export async function getBankAccount(db: Queryable, account: AccountRow): Promise<BankAccount> {
  const row = await findBankAccount(db, account.id);
  if (!row) throw noBankAccount();
  return bankAccountView(row);
}

/** Sets the caller's bank account, the IBAN checked by ibantools (country, length, check digits, national rules). */
export async function setBankAccount(
  context: WriteContext,
  account: AccountRow,
  body: BankAccountBody,
): Promise<BankAccount> {
  const iban = electronicFormatIBAN(body.iban) ?? '';
  if (!validateIBAN(iban).valid) {
    throw new ApiError(400, 'invalid_parameter', `iban '${body.iban}' is not a valid IBAN.`, {
      param: 'iban',
      suggestion:
        'Send the IBAN as your bank prints it (e.g. DE89 3704 0044 0532 0130 00): two letters of the country, two check digits, then the account; spaces are fine.',
    });
  }
  const holder = body.account_holder.trim();
  return bankAccountView(
    await inWriteTransaction(context, (trx) =>
      putBankAccount(trx, account.id, { iban, account_holder: holder }, context.now),
    ),
  );
}

export async function removeBankAccount(context: WriteContext, account: AccountRow): Promise<void> {
  const removed = await inWriteTransaction(context, (trx) => deleteBankAccount(trx, account.id));
  if (!removed) throw noBankAccount();
}
