/**
 * Payments with Stripe Connect (issue 32, PAYMENTS_PROVIDER=stripe), over the provider port
 * (services/payment-provider.ts). The same payments as the manual provider, moved by Stripe:
 *
 * - a payee onboards as a connected account (Express): POST /v1/me/payouts/onboarding answers
 *   Stripe's onboarding link, GET /v1/me/payouts what Stripe says of it;
 * - the payer pays at Stripe, in their own browser (SCA): POST /v1/payments/{id}/checkout answers
 *   a Checkout Session's page. A job's share and a deposit are authorised there (manual capture)
 *   with the card saved for a charge without the payer; rent and fees are charged at once;
 * - Stripe's events (POST /webhooks/stripe), verified by the SDK and recorded by their id, move
 *   the payment: authorised -> paid, captured -> received (the ledger books it then), cancelled.
 *   Each event is answered by reading the PaymentIntent as it is now, so events that come twice,
 *   late or out of order change nothing twice and nothing backwards;
 * - what a write decides (capture on completion, capture or cancel a deposit at its release, a
 *   refund on a cancellation) is a provider task in that write's transaction, made after the
 *   commit by runProviderTasks with the idempotency key `<task id>:<attempt>`: a timeout retried
 *   with the same key cannot capture twice. An authorisation that lapsed (7 days at Stripe) is
 *   charged off-session on the saved card; when the bank wants the payer, they are asked to pay.
 */
import type { AccountRow, PaymentRow, ProviderTaskRow } from '../db/schema.js';
import { feeCollectedPostings, settlementPostings } from '../domain/payments.js';
import { findPaymentOfParty, insertPayment } from '../repositories/payments.js';
import {
  dueProviderTasks,
  endProviderTask,
  failedProviderTasks,
  findPayoutAccount,
  hasTaskFor,
  insertProviderTask,
  jobStatusOf,
  leaseProviderTask,
  moveProviderPayment,
  paymentById,
  paymentByProviderRef,
  payoutAccountByProviderId,
  providerEventSeen,
  providerPayments,
  putPayoutAccount,
  recordProviderEvent,
  setProviderRefs,
  stripeFeeRevenueBetween,
} from '../repositories/provider.js';
import { inWriteTransaction, type WriteContext, type WriteTransaction } from '../repositories/write-transaction.js';
import type { Checkout, Payouts } from '../schemas/payments.js';
import { ApiError } from './errors.js';
import {
  type ConnectedAccount,
  type PaymentProvider,
  type ProviderPayment,
  ProviderRefusal,
} from './payment-provider.js';
import { book, paymentView, recordPaymentEvents } from './payments.js';
import { illegalTransition } from './write-rules.js';

/** Thrown when a task ended in its own transaction (the payer was asked instead). */
class TaskSettled extends Error {}

/** Tries a task makes before it is failed for good; a refusal moves to the next attempt (a new key). */
export const PROVIDER_TASK_ATTEMPTS = 5;
/** Longer than the slowest task (three calls, each up to three tries of 20 s). */
const TASK_LEASE_MS = 600_000;
const taskBackoffMs = (attempt: number) => Math.min(3_600_000, 30_000 * 2 ** (attempt - 1));

const payoutsUnavailable = () =>
  new ApiError(
    409,
    'payouts_unavailable',
    'Payouts through Stripe are not offered here: PAYMENTS_PROVIDER is manual.',
    {
      param: null,
      suggestion:
        'The parties settle outside the platform and confirm it here; give a bank account with PUT /v1/me/bank-account.',
    },
  );

export function requireProvider(provider: PaymentProvider | null): PaymentProvider {
  if (!provider) throw payoutsUnavailable();
  return provider;
}

const stripeUnreachable = () =>
  new ApiError(503, 'service_unavailable', 'Stripe did not answer; nothing was changed here.', {
    param: null,
    suggestion: 'Try again in a minute with the same Idempotency-Key.',
  });

/**
 * A call to Stripe on behalf of a request: a refusal is a 409 that says Stripe's reason (e.g. the
 * payee's account cannot take transfers), Stripe out of reach a 503 to try again; never a 500.
 */
async function askStripe<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof ProviderRefusal) {
      // Our words, by Stripe's code: Stripe's own message may name the other party's accounts.
      const transfer = error.code === 'insufficient_capabilities_for_transfer' || error.code === 'resource_missing';
      throw new ApiError(
        409,
        'provider_refused',
        transfer
          ? `Stripe refused (${error.code}): the payee's Stripe account cannot receive this payment.`
          : `Stripe refused (${error.code}).`,
        {
          param: null,
          suggestion: transfer
            ? "The payee's Stripe account cannot receive money yet: they finish their onboarding (POST /v1/me/payouts/onboarding); then try again."
            : 'Try again later; if it persists, tell the operators (the code above says what Stripe refused).',
        },
      );
    }
    throw stripeUnreachable();
  }
}

function payoutsView(row: Awaited<ReturnType<typeof findPayoutAccount>>): Payouts {
  if (!row) {
    return {
      provider: 'stripe',
      status: 'not_started',
      charges_enabled: false,
      payouts_enabled: false,
      currently_due: [],
      next_action: { type: 'onboard', url: '/v1/me/payouts/onboarding' },
      updated_at: null,
    };
  }
  const ready = row.charges_enabled === 1 && row.payouts_enabled === 1;
  return {
    provider: 'stripe',
    status: ready ? 'enabled' : row.details_submitted === 1 ? 'pending' : 'onboarding',
    charges_enabled: row.charges_enabled === 1,
    payouts_enabled: row.payouts_enabled === 1,
    currently_due: JSON.parse(row.currently_due) as string[],
    next_action: ready ? null : { type: 'onboard', url: '/v1/me/payouts/onboarding' },
    updated_at: row.updated_at,
  };
}

const stateOf = (account: ConnectedAccount) => ({
  provider_account_id: account.id,
  charges_enabled: account.chargesEnabled,
  payouts_enabled: account.payoutsEnabled,
  details_submitted: account.detailsSubmitted,
  currently_due: account.currentlyDue,
});

/** GET /v1/me/payouts: the caller's connected account as Stripe describes it now (stored as well). */
export async function payoutStatus(
  context: WriteContext,
  provider: PaymentProvider | null,
  account: AccountRow,
): Promise<Payouts> {
  const stripe = requireProvider(provider);
  const row = await findPayoutAccount(context.db, account.id);
  if (!row) return payoutsView(undefined);
  const state = await askStripe(() => stripe.connectedAccount(row.provider_account_id));
  return payoutsView(
    await inWriteTransaction(context, (trx) => putPayoutAccount(trx, account.id, stateOf(state), context.now)),
  );
}

/**
 * POST /v1/me/payouts/onboarding: the caller's connected account (made once: the idempotency key
 * is the account's id) and a fresh onboarding link at Stripe, where they give what Stripe needs.
 */
export async function startOnboarding(
  context: WriteContext,
  provider: PaymentProvider | null,
  account: AccountRow,
  returnUrl: string,
): Promise<{ url: string; expires_at: string; payouts: Payouts }> {
  const stripe = requireProvider(provider);
  const known = await findPayoutAccount(context.db, account.id);
  const state = await askStripe(() =>
    known
      ? stripe.connectedAccount(known.provider_account_id)
      : stripe.createConnectedAccount({
          accountId: account.id,
          email: account.email,
          idempotencyKey: `${account.id}:connect`,
        }),
  );
  const link = await askStripe(() =>
    stripe.onboardingLink({ connectedAccountId: state.id, returnUrl, refreshUrl: returnUrl }),
  );
  const row = await inWriteTransaction(context, (trx) =>
    putPayoutAccount(trx, account.id, stateOf(state), context.now),
  );
  return { url: link.url, expires_at: link.expiresAt.toISOString(), payouts: payoutsView(row) };
}

/**
 * POST /v1/payments/{id}/checkout, by the payer of a Stripe payment awaiting payment: a Checkout
 * Session at Stripe whose page the payer opens in their own browser. A job's share and a deposit
 * are authorised there and captured later (the card saved for a charge without the payer); the
 * rest is charged at once. The payee must have onboarded (409 payee_not_ready). Each call is a new
 * attempt with its own idempotency key (`<payment id>:checkout:<attempt>`).
 */
export async function startCheckout(
  context: WriteContext,
  provider: PaymentProvider | null,
  account: AccountRow,
  id: string,
  baseUrl: string,
): Promise<Checkout> {
  const row = await findPaymentOfParty(context.db, id, account.id);
  if (!row) {
    throw new ApiError(404, 'not_found', `No payment with the id '${id}' is yours.`, {
      param: 'id',
      suggestion: 'Check the id (payment ids start with pay_); GET /v1/payments lists yours.',
    });
  }
  if (row.provider !== 'stripe') {
    throw new ApiError(409, 'invalid_state_transition', 'This payment is settled outside the platform (manual).', {
      param: 'id',
      suggestion: 'Pay the payee directly, then mark it paid with POST /v1/payments/{id}/paid.',
    });
  }
  const stripe = requireProvider(provider);
  if (row.payer_account_id !== account.id) {
    throw new ApiError(403, 'forbidden', 'Only the payer of a payment pays it; you are its payee.', {
      param: 'id',
      suggestion: 'The payer pays at Stripe; the payment.status_changed event tells you when it is paid.',
    });
  }
  if (row.status !== 'awaiting_payment' || row.kind === 'refund') {
    throw illegalTransition('payment', row.status, 'checkout', { awaiting_payment: { checkout: 'paid' } });
  }
  const payee = await findPayoutAccount(context.db, row.payee_account_id);
  if (payee?.charges_enabled !== 1) {
    throw new ApiError(
      409,
      'payee_not_ready',
      'The payee cannot take card payments yet: their payout account is not set up.',
      {
        param: 'id',
        suggestion:
          'The payee completes their onboarding (POST /v1/me/payouts/onboarding); try again once GET /v1/me/payouts shows charges_enabled for them.',
      },
    );
  }
  const attempt = row.provider_attempt + 1;
  // Authorised now and captured later: a deposit, and the share of a job not completed yet.
  const jobStatus = row.kind === 'job' && row.job_id !== null ? await jobStatusOf(context.db, row.job_id) : null;
  const later = row.kind === 'deposit' || jobStatus === 'open' || jobStatus === 'assigned';
  const session = await askStripe(() =>
    stripe.createCheckout({
      paymentId: row.id,
      idempotencyKey: `${row.id}:checkout:${attempt}`,
      amountCents: row.amount_cents,
      feeCents: row.fee_cents,
      destination: payee.provider_account_id,
      description: `${row.kind} ${row.id}`,
      capture: later ? 'manual' : 'automatic',
      saveCard: later,
      successUrl: `${baseUrl}/v1/payments/${row.id}`,
      cancelUrl: `${baseUrl}/v1/payments/${row.id}`,
    }),
  );
  const updated = await inWriteTransaction(context, (trx) =>
    setProviderRefs(trx, row.id, { checkout_ref: session.id, provider_attempt: attempt }, context.now),
  );
  return { url: session.url, expires_at: session.expiresAt.toISOString(), payment: paymentView(updated, account.id) };
}

/**
 * POST /webhooks/stripe: verifies the event with the SDK, reads what it is about as Stripe has it
 * now, and applies that in one transaction with the event's record; an event seen before changes
 * nothing. Signature failures are 400 (Stripe retries, an attacker learns nothing).
 */
export async function receiveProviderEvent(
  context: WriteContext,
  provider: PaymentProvider | null,
  rawBody: string,
  signature: string | undefined,
): Promise<{ received: true; duplicate: boolean }> {
  const stripe = requireProvider(provider);
  let event: Awaited<ReturnType<PaymentProvider['verifyEvent']>>;
  try {
    event = await stripe.verifyEvent(rawBody, signature ?? '');
  } catch {
    throw new ApiError(400, 'invalid_signature', 'The Stripe-Signature header does not verify this body.', {
      param: 'Stripe-Signature',
      suggestion: "Send Stripe's events unchanged, signed with this endpoint's signing secret (STRIPE_WEBHOOK_SECRET).",
    });
  }
  // A delivery seen before changes nothing: no need to ask Stripe about it again.
  if (await providerEventSeen(context.db, event.id)) return { received: true, duplicate: true };
  const object = event.object;
  let intent: ProviderPayment | null = null;
  let account: ConnectedAccount | null = null;
  try {
    if (event.type.startsWith('payment_intent.')) {
      intent = await stripe.payment(event.objectId);
    } else if (event.type.startsWith('checkout.session.') || event.type.startsWith('charge.')) {
      const ref = object.payment_intent;
      const intentId = typeof ref === 'string' ? ref : ((ref as { id?: string } | null)?.id ?? null);
      if (intentId) intent = await stripe.payment(intentId);
    } else if (event.type === 'account.updated') {
      account = await stripe.connectedAccount(event.objectId);
    }
  } catch (error) {
    // Not ours to read (another platform's object): recorded and let be. Stripe out of reach: 503,
    // and Stripe delivers the event again later.
    if (!(error instanceof ProviderRefusal)) throw stripeUnreachable();
  }
  return inWriteTransaction(context, async (trx) => {
    if (!(await recordProviderEvent(trx, event, context.now))) return { received: true, duplicate: true };
    if (intent) await applyIntent(trx, intent, context.now);
    if (account) {
      const known = await payoutAccountByProviderId(trx, account.id);
      if (known) await putPayoutAccount(trx, known.account_id, stateOf(account), context.now);
    }
    return { received: true, duplicate: false };
  });
}

/**
 * Brings our payment to where its PaymentIntent is: authorised -> paid; captured -> received (a
 * deposit: released, keeping what was captured), booked in the ledger; cancelled by us -> cancelled
 * (a deposit: released in full); lapsed -> still paid, with last_error authorization_expired (a
 * capture charges the saved card); refused -> last_error. Changes only forward: a late event of an
 * earlier state finds nothing to change.
 */
export async function applyIntent(trx: WriteTransaction, intent: ProviderPayment, now: Date): Promise<void> {
  const row = await paymentByProviderRef(trx, { paymentId: intent.paymentId, intentId: intent.id });
  if (!row) return;
  const own = row.provider_ref === null || row.provider_ref === intent.id;
  if (row.status === 'cancelled' || (row.status !== 'awaiting_payment' && !own)) {
    // Paid on a page after the payment was cancelled or settled otherwise: the hold is let go, the
    // charge given back in full; the books never held it.
    await returnStray(trx, row.id, intent, now);
    return;
  }
  const refs = {
    provider_ref: intent.id,
    ...(intent.customerId && { customer_ref: intent.customerId }),
    ...(intent.paymentMethodId && { payment_method_ref: intent.paymentMethodId }),
  };
  switch (intent.status) {
    case 'requires_capture': {
      await setProviderRefs(trx, row.id, { ...refs, provider_error: null }, now);
      const paid = await moveProviderPayment(trx, row.id, ['awaiting_payment'], { status: 'paid' }, now);
      await moved(trx, paid, now);
      // Authorised after the job was completed (a page opened before): captured at once.
      if (paid?.kind === 'job' && paid.job_id !== null && (await jobStatusOf(trx, paid.job_id)) === 'completed') {
        await insertProviderTask(trx, { payment_id: paid.id, action: 'capture', amount_cents: paid.amount_cents }, now);
      }
      return;
    }
    case 'succeeded': {
      await setProviderRefs(trx, row.id, { ...refs, provider_error: null }, now);
      if (row.kind === 'deposit') {
        const released = await moveProviderPayment(
          trx,
          row.id,
          ['awaiting_payment', 'paid'],
          { status: 'released', kept_cents: intent.amountReceivedCents },
          now,
        );
        if (released) {
          const kept = { ...released, amount_cents: released.kept_cents, fee_cents: 0 };
          await book(trx, released.id, settlementPostings(kept), now);
        }
        await moved(trx, released, now);
        return;
      }
      const received = await moveProviderPayment(
        trx,
        row.id,
        ['awaiting_payment', 'paid'],
        { status: 'received', amount_cents: intent.amountReceivedCents },
        now,
      );
      if (received) {
        await book(trx, received.id, settlementPostings(received), now);
        await book(trx, received.id, feeCollectedPostings(received.payee_account_id, received.fee_cents), now);
      }
      await moved(trx, received, now);
      return;
    }
    case 'canceled': {
      if (intent.cancellationReason === 'automatic') {
        // The authorisation lapsed: still owed; a capture charges the saved card off-session.
        await setProviderRefs(trx, row.id, { ...refs, provider_error: 'authorization_expired' }, now);
        return;
      }
      if (intent.cancellationReason !== 'requested_by_customer') {
        // Cancelled by Stripe (fraud, an abandoned or expired page): still owed; the payer pays again.
        await setProviderRefs(trx, row.id, { provider_error: intent.cancellationReason ?? 'canceled' }, now);
        await moved(trx, await moveProviderPayment(trx, row.id, ['paid'], { status: 'awaiting_payment' }, now), now);
        return;
      }
      if (row.kind === 'deposit') {
        const released = await moveProviderPayment(trx, row.id, ['paid'], { status: 'released', kept_cents: 0 }, now);
        await moved(trx, released, now);
        return;
      }
      await moved(
        trx,
        await moveProviderPayment(trx, row.id, ['awaiting_payment', 'paid'], { status: 'cancelled' }, now),
        now,
      );
      return;
    }
    default:
      if (intent.lastErrorCode)
        await setProviderRefs(trx, row.id, { ...refs, provider_error: intent.lastErrorCode }, now);
  }
}

/** A hold or charge of a payment that no longer wants it: let go or given back (once per PaymentIntent). */
async function returnStray(trx: WriteTransaction, paymentId: string, intent: ProviderPayment, now: Date) {
  const action =
    intent.status === 'requires_capture'
      ? 'cancel'
      : intent.status === 'succeeded' && intent.amountReceivedCents > 0
        ? 'return'
        : null;
  if (!action || (await hasTaskFor(trx, intent.id, action))) return;
  await insertProviderTask(
    trx,
    { payment_id: paymentId, action, amount_cents: intent.amountReceivedCents, intent_ref: intent.id },
    now,
  );
}

async function moved(trx: WriteTransaction, row: PaymentRow | undefined, now: Date): Promise<void> {
  if (row) await recordPaymentEvents(trx, 'payment.status_changed', row, now);
}

/**
 * Makes the provider tasks that are due (the provider sweep, and tests): each leased so one
 * instance makes it, called with `<task id>:<attempt>` as idempotency key, its answer applied in a
 * transaction. A refusal (a declined card, a wrong state) moves to the next attempt, and fails the
 * task for good after PROVIDER_TASK_ATTEMPTS; a network failure or a 5xx keeps the attempt (the
 * same key: Stripe answers a retried request with the first answer). The tasks made.
 */
export async function runProviderTasks(context: WriteContext, provider: PaymentProvider, limit = 20): Promise<number> {
  let made = 0;
  for (const task of await dueProviderTasks(context.db, context.now, limit)) {
    const leased = await inWriteTransaction(context, (trx) => leaseProviderTask(trx, task, context.now, TASK_LEASE_MS));
    if (!leased) continue;
    made += 1;
    try {
      await makeTask(context, provider, task);
    } catch (error) {
      await inWriteTransaction(context, async (trx) => {
        if (error instanceof TaskSettled) return;
        if (error instanceof ProviderRefusal) {
          const last = task.attempt >= PROVIDER_TASK_ATTEMPTS;
          await endProviderTask(
            trx,
            task.id,
            last
              ? { status: 'failed', error: error.code }
              : {
                  status: 'pending',
                  error: error.code,
                  attempt: task.attempt + 1,
                  dueAt: new Date(context.now.getTime() + taskBackoffMs(task.attempt)),
                },
            context.now,
          );
        } else {
          await endProviderTask(
            trx,
            task.id,
            {
              status: 'pending',
              error: String((error as Error).message ?? error).slice(0, 200),
              dueAt: new Date(context.now.getTime() + taskBackoffMs(1)),
            },
            context.now,
          );
        }
      });
    }
  }
  return made;
}

async function makeTask(context: WriteContext, stripe: PaymentProvider, task: ProviderTaskRow): Promise<void> {
  const row = await paymentById(context.db, task.payment_id);
  const key = `${task.id}:${task.attempt}`;
  if (task.intent_ref !== null) {
    // A stray hold or charge: let go or given back; our payment does not change.
    if (task.action === 'return') {
      await stripe.refund(task.intent_ref, { amountCents: task.amount_cents, idempotencyKey: key });
    } else {
      const stray = await stripe.payment(task.intent_ref);
      if (stray.status === 'requires_capture') await stripe.cancel(stray.id, key);
    }
    await inWriteTransaction(context, (trx) =>
      endProviderTask(trx, task.id, { status: 'done', error: null }, context.now),
    );
    return;
  }
  if (!row?.provider_ref) {
    await inWriteTransaction(context, (trx) =>
      endProviderTask(trx, task.id, { status: 'failed', error: 'no_payment_intent' }, context.now),
    );
    return;
  }
  if (task.action === 'refund') {
    await stripe.refund(row.provider_ref, { amountCents: task.amount_cents, idempotencyKey: key });
    await inWriteTransaction(context, async (trx) => {
      const received = await moveProviderPayment(
        trx,
        row.id,
        ['awaiting_payment'],
        { status: 'received' },
        context.now,
      );
      if (received) await book(trx, received.id, settlementPostings(received), context.now);
      await moved(trx, received, context.now);
      await endProviderTask(trx, task.id, { status: 'done', error: null }, context.now);
    });
    return;
  }
  let intent = await stripe.payment(row.provider_ref);
  if (task.action === 'cancel') {
    if (intent.status !== 'canceled' && intent.status !== 'succeeded') intent = await stripe.cancel(intent.id, key);
  } else if (intent.status === 'requires_capture') {
    const fee = row.kind === 'deposit' ? 0 : row.fee_cents;
    intent = await stripe.capture(intent.id, { amountCents: task.amount_cents, feeCents: fee, idempotencyKey: key });
  } else if (intent.status === 'canceled' && intent.cancellationReason === 'automatic') {
    intent = await chargeLapsed(context, stripe, task, row, key);
  }
  if (task.action === 'capture' && intent.status !== 'succeeded') {
    throw new ProviderRefusal(
      'unexpected_state',
      `The PaymentIntent ${intent.id} is ${intent.status}; nothing to capture.`,
    );
  }
  if (task.action === 'cancel' && intent.status === 'canceled' && intent.cancellationReason === 'automatic') {
    // A lapsed hold let go: nothing was captured, the payment ends as a cancel would end it.
    intent = { ...intent, cancellationReason: 'requested_by_customer' };
  }
  await inWriteTransaction(context, async (trx) => {
    await applyIntent(trx, intent, context.now);
    await endProviderTask(trx, task.id, { status: 'done', error: null }, context.now);
  });
}

/**
 * A capture after the authorisation lapsed: the saved card charged off-session for the amount. When
 * the bank declines or wants the payer (authentication_required), the payer is asked: the lapsed
 * payment ends (a deposit: released, nothing kept) and a new payment of the amount waits for them
 * at Stripe (next_action pay_at_stripe, last_error saying why).
 */
async function chargeLapsed(
  context: WriteContext,
  stripe: PaymentProvider,
  task: ProviderTaskRow,
  row: PaymentRow,
  key: string,
): Promise<ProviderPayment> {
  const payee = await findPayoutAccount(context.db, row.payee_account_id);
  try {
    if (!row.customer_ref || !row.payment_method_ref || !payee) {
      throw new ProviderRefusal('no_saved_card', 'No card was saved for a charge without the payer.');
    }
    const charged = await stripe.chargeOffSession({
      paymentId: row.id,
      idempotencyKey: `${key}:off_session`,
      amountCents: task.amount_cents,
      feeCents: row.kind === 'deposit' ? 0 : row.fee_cents,
      destination: payee.provider_account_id,
      customerId: row.customer_ref,
      paymentMethodId: row.payment_method_ref,
    });
    await inWriteTransaction(context, (trx) => setProviderRefs(trx, row.id, { provider_ref: charged.id }, context.now));
    return charged;
  } catch (error) {
    if (!(error instanceof ProviderRefusal)) throw error;
    await inWriteTransaction(context, async (trx) => {
      if (row.kind === 'deposit') {
        // The claim's amount is asked of the renter as a fee, charged at once at Stripe.
        const released = await moveProviderPayment(
          trx,
          row.id,
          ['paid'],
          { status: 'released', kept_cents: 0 },
          context.now,
        );
        await moved(trx, released, context.now);
        // Another runner whose lease ran out got here first: ask once.
        if (!released) return;
        const asked = await insertPayment(
          trx,
          {
            kind: 'fee',
            provider: 'stripe',
            payer_account_id: row.payer_account_id,
            payee_account_id: row.payee_account_id,
            job_id: null,
            application_id: null,
            ...(row.booking_id !== null && { booking_id: row.booking_id }),
            amount_cents: task.amount_cents,
            fee_cents: 0,
          },
          context.now,
        );
        const withError = await setProviderRefs(trx, asked.id, { provider_error: error.code }, context.now);
        await recordPaymentEvents(trx, 'payment.created', withError, context.now);
      } else {
        // The payer pays again at Stripe (the job is done: charged at once).
        await setProviderRefs(trx, row.id, { provider_error: error.code }, context.now);
        const again = await moveProviderPayment(
          trx,
          row.id,
          ['paid'],
          { status: 'awaiting_payment', amount_cents: task.amount_cents },
          context.now,
        );
        await moved(trx, again, context.now);
      }
      await endProviderTask(trx, task.id, { status: 'done', error: error.code }, context.now);
    });
    throw new TaskSettled();
  }
}

/**
 * `ledger reconcile`: the books against Stripe. Each Stripe payment's captured amount as its
 * PaymentIntent says (a received payment: its amount; a released deposit: what it kept; else
 * nothing), the platform's fees in [from, to) as Stripe's balance says (application fees less their
 * refunds) against the fee income booked, and the provider tasks that failed for good. The
 * problems found; none when the two agree.
 */
export async function reconcileWithProvider(
  db: WriteContext['db'],
  provider: PaymentProvider,
  from: Date,
  to: Date,
): Promise<{ problems: string[]; payments: number; feeCents: number }> {
  const problems: string[] = [];
  const rows = (await providerPayments(db)).filter((row) => row.kind !== 'refund');
  for (const row of rows) {
    const intent = await provider.payment(row.provider_ref as string);
    const captured = intent.status === 'succeeded' ? intent.amountReceivedCents : 0;
    const booked = row.status === 'received' ? row.amount_cents : row.status === 'released' ? row.kept_cents : 0;
    if (captured !== booked) {
      problems.push(
        `payment ${row.id} (${row.status}): Stripe captured ${captured} cents (${intent.id}, ${intent.status}), the books say ${booked}`,
      );
    }
  }
  const lines = await provider.balanceLines(from, to);
  const stripeFees = lines
    .filter((line) => line.type === 'application_fee' || line.type === 'application_fee_refund')
    .reduce((sum, line) => sum + line.amountCents, 0);
  const bookedFees = await stripeFeeRevenueBetween(db, from.toISOString(), to.toISOString());
  if (stripeFees !== bookedFees) {
    problems.push(`fees: Stripe's balance holds ${stripeFees} cents of application fees, the books ${bookedFees}`);
  }
  for (const task of await failedProviderTasks(db)) {
    problems.push(`task ${task.id} (${task.action} of ${task.payment_id}) failed at Stripe: ${task.error}`);
  }
  return { problems, payments: rows.length, feeCents: bookedFees };
}
