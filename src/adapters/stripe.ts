/**
 * The Stripe Connect adapter of the payment provider port (issue 32), through Stripe's official
 * `stripe` package: it signs requests, retries network failures with the same idempotency key and
 * verifies webhook signatures, so none of that protocol is written here.
 *
 * Charges are destination charges: the PaymentIntent is made on the platform's account with
 * `on_behalf_of` and `transfer_data.destination` set to the payee's connected account and the
 * platform's fee as `application_fee_amount`. The payee is the merchant of record, the money goes
 * to their connected account when it is captured, and the platform keeps only its fee; it never
 * holds the parties' money (PSD2). A refund reverses the transfer and the fee in the same call.
 *
 * `STRIPE_API_URL` points the SDK at another host (the stand-in of the tests); unset, it talks to
 * api.stripe.com.
 */
import Stripe from 'stripe';
import {
  type BalanceLine,
  type CheckoutInput,
  type ConnectedAccount,
  type OffSessionInput,
  type PaymentProvider,
  type ProviderEvent,
  type ProviderPayment,
  ProviderRefusal,
} from '../services/payment-provider.js';

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  /** Another API host (the stand-in); undefined for Stripe itself. */
  apiUrl?: string | undefined;
  /** Milliseconds a call may take before the SDK retries it (with the same idempotency key). */
  timeoutMs?: number;
}

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value == null ? null : typeof value === 'string' ? value : value.id;

function accountOf(account: Stripe.Account): ConnectedAccount {
  return {
    id: account.id,
    chargesEnabled: account.charges_enabled ?? false,
    payoutsEnabled: account.payouts_enabled ?? false,
    detailsSubmitted: account.details_submitted ?? false,
    currentlyDue: account.requirements?.currently_due ?? [],
  };
}

function paymentOf(intent: Stripe.PaymentIntent): ProviderPayment {
  return {
    id: intent.id,
    status: intent.status,
    paymentId: intent.metadata?.payment_id ?? null,
    amountCents: intent.amount,
    amountCapturableCents: intent.amount_capturable,
    amountReceivedCents: intent.amount_received,
    customerId: idOf(intent.customer),
    paymentMethodId: idOf(intent.payment_method),
    cancellationReason: intent.cancellation_reason ?? null,
    lastErrorCode: intent.last_payment_error?.code ?? null,
    latestChargeId: idOf(intent.latest_charge),
  };
}

/** A card error or an invalid request becomes a ProviderRefusal; anything else (network, 5xx) is thrown as it is. */
function refusalOf(error: unknown): unknown {
  if (error instanceof Stripe.errors.StripeCardError || error instanceof Stripe.errors.StripeInvalidRequestError) {
    const intent = (error.raw as { payment_intent?: { id?: string } } | undefined)?.payment_intent;
    return new ProviderRefusal(error.code ?? error.type, error.message, intent?.id ?? null);
  }
  return error;
}

async function refusing<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw refusalOf(error);
  }
}

export function stripeProvider(settings: StripeSettings): PaymentProvider {
  const url = settings.apiUrl ? new URL(settings.apiUrl) : null;
  const stripe = new Stripe(settings.secretKey, {
    maxNetworkRetries: 2,
    timeout: settings.timeoutMs ?? 20_000,
    appInfo: { name: 'karlsruhe-marketplace-api' },
    ...(url && {
      host: url.hostname,
      port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
      protocol: url.protocol === 'https:' ? 'https' : 'http',
    }),
  });
  return {
    name: 'stripe',
    async createConnectedAccount({ accountId, email, idempotencyKey }) {
      const account = await refusing(() =>
        stripe.accounts.create(
          {
            type: 'express',
            country: 'DE',
            email,
            capabilities: { card_payments: { requested: true }, transfers: { requested: true } },
            metadata: { account_id: accountId },
          },
          { idempotencyKey },
        ),
      );
      return accountOf(account);
    },
    async connectedAccount(id) {
      return accountOf(await refusing(() => stripe.accounts.retrieve(id)));
    },
    async onboardingLink({ connectedAccountId, returnUrl, refreshUrl }) {
      const link = await refusing(() =>
        stripe.accountLinks.create({
          account: connectedAccountId,
          return_url: returnUrl,
          refresh_url: refreshUrl,
          type: 'account_onboarding',
        }),
      );
      return { url: link.url, expiresAt: new Date(link.expires_at * 1000) };
    },
    async createCheckout(input: CheckoutInput) {
      const session = await refusing(() =>
        stripe.checkout.sessions.create(
          {
            mode: 'payment',
            line_items: [
              {
                quantity: 1,
                price_data: {
                  currency: 'eur',
                  unit_amount: input.amountCents,
                  product_data: { name: input.description },
                },
              },
            ],
            ...(input.saveCard && { customer_creation: 'always' as const }),
            payment_intent_data: {
              capture_method: input.capture,
              application_fee_amount: input.feeCents,
              on_behalf_of: input.destination,
              transfer_data: { destination: input.destination },
              ...(input.saveCard && { setup_future_usage: 'off_session' as const }),
              metadata: { payment_id: input.paymentId },
            },
            metadata: { payment_id: input.paymentId },
            client_reference_id: input.paymentId,
            success_url: input.successUrl,
            cancel_url: input.cancelUrl,
          },
          { idempotencyKey: input.idempotencyKey },
        ),
      );
      if (!session.url) throw new Error(`Stripe answered Checkout Session ${session.id} without a url`);
      return { id: session.id, url: session.url, expiresAt: new Date(session.expires_at * 1000) };
    },
    async checkoutPayment(sessionId) {
      const session = await refusing(() => stripe.checkout.sessions.retrieve(sessionId));
      return session.status === 'complete' ? idOf(session.payment_intent) : null;
    },
    async payment(id) {
      return paymentOf(await refusing(() => stripe.paymentIntents.retrieve(id)));
    },
    async capture(id, { amountCents, feeCents, idempotencyKey }) {
      return paymentOf(
        await refusing(() =>
          stripe.paymentIntents.capture(
            id,
            { amount_to_capture: amountCents, application_fee_amount: feeCents },
            { idempotencyKey },
          ),
        ),
      );
    },
    async cancel(id, idempotencyKey) {
      // The platform's own cancels say requested_by_customer: any other reason is Stripe's (fraud, expiry).
      return paymentOf(
        await refusing(() =>
          stripe.paymentIntents.cancel(id, { cancellation_reason: 'requested_by_customer' }, { idempotencyKey }),
        ),
      );
    },
    async refund(id, { amountCents, idempotencyKey }) {
      const refund = await refusing(() =>
        stripe.refunds.create(
          { payment_intent: id, amount: amountCents, reverse_transfer: true, refund_application_fee: true },
          { idempotencyKey },
        ),
      );
      return { id: refund.id, status: refund.status ?? 'pending' };
    },
    async chargeOffSession(input: OffSessionInput) {
      return paymentOf(
        await refusing(() =>
          stripe.paymentIntents.create(
            {
              amount: input.amountCents,
              currency: 'eur',
              customer: input.customerId,
              payment_method: input.paymentMethodId,
              off_session: true,
              confirm: true,
              application_fee_amount: input.feeCents,
              on_behalf_of: input.destination,
              transfer_data: { destination: input.destination },
              metadata: { payment_id: input.paymentId },
            },
            { idempotencyKey: input.idempotencyKey },
          ),
        ),
      );
    },
    async verifyEvent(rawBody, signature): Promise<ProviderEvent> {
      const event = await stripe.webhooks.constructEventAsync(rawBody, signature, settings.webhookSecret);
      const object = event.data.object as unknown as { id?: string } & Record<string, unknown>;
      return { id: event.id, type: event.type, objectId: String(object.id ?? ''), object };
    },
    async balanceLines(from, to): Promise<BalanceLine[]> {
      const lines: BalanceLine[] = [];
      const created = { gte: Math.floor(from.getTime() / 1000), lt: Math.ceil(to.getTime() / 1000) };
      for await (const line of stripe.balanceTransactions.list({ created, limit: 100 })) {
        lines.push({
          id: line.id,
          type: line.type,
          amountCents: line.amount,
          source: idOf(line.source as string | { id: string } | null),
          created: new Date(line.created * 1000),
        });
      }
      return lines;
    },
  };
}
