/**
 * The port of a payment provider that moves money itself (issue 32): Stripe Connect today
 * (src/adapters/stripe.ts). The manual provider needs none: the parties settle outside and confirm
 * it here. Every call that changes something carries an idempotency key the caller builds from its
 * own record's id and attempt, so that a retry after a timeout can never do it twice.
 */

/** A payee's connected account as the provider last described it. */
export interface ConnectedAccount {
  id: string;
  chargesEnabled: boolean;
  payoutsEnabled: boolean;
  detailsSubmitted: boolean;
  /** What the provider still needs of the payee (Stripe's requirements.currently_due). */
  currentlyDue: string[];
}

/** Where a payment stands at the provider (a Stripe PaymentIntent), as much as the platform needs. */
export interface ProviderPayment {
  id: string;
  /** Stripe's PaymentIntent status: requires_payment_method, requires_capture, succeeded, canceled ... */
  status: string;
  /** Our payment's id, from the metadata the checkout set. */
  paymentId: string | null;
  amountCents: number;
  amountCapturableCents: number;
  amountReceivedCents: number;
  customerId: string | null;
  paymentMethodId: string | null;
  /** automatic: the authorisation lapsed; requested_by_customer etc. */
  cancellationReason: string | null;
  /** The code of the last refusal (card_declined, authentication_required ...), null when none. */
  lastErrorCode: string | null;
  /** The charge the capture made (balance transactions name it). */
  latestChargeId: string | null;
}

/** A refusal by the provider that retrying the same call will not change (a declined card, a wrong state). */
export class ProviderRefusal extends Error {
  constructor(
    readonly code: string,
    message: string,
    /** The payment the refusal left behind (an off-session charge that needs the payer), when any. */
    readonly paymentIntentId: string | null = null,
  ) {
    super(message);
  }
}

/** An event the provider sent, verified. */
export interface ProviderEvent {
  id: string;
  type: string;
  /** The object it is about: its id and, for the types the platform reads, its fields. */
  objectId: string;
  object: Record<string, unknown>;
}

/** One line of the provider's balance: what moved on the platform's own account. */
export interface BalanceLine {
  id: string;
  type: string;
  amountCents: number;
  /** The charge, refund or transfer it came from. */
  source: string | null;
  created: Date;
}

export interface CheckoutInput {
  paymentId: string;
  idempotencyKey: string;
  amountCents: number;
  /** The platform's fee, kept from what the payee gets. */
  feeCents: number;
  /** The payee's connected account. */
  destination: string;
  description: string;
  /** manual: authorise now, capture later (a job's share, a deposit); automatic: charge now. */
  capture: 'manual' | 'automatic';
  /** Save the card for a charge without the payer (a lapsed authorisation). */
  saveCard: boolean;
  successUrl: string;
  cancelUrl: string;
}

export interface OffSessionInput {
  paymentId: string;
  idempotencyKey: string;
  amountCents: number;
  feeCents: number;
  destination: string;
  customerId: string;
  paymentMethodId: string;
}

export interface PaymentProvider {
  readonly name: 'stripe';
  createConnectedAccount(input: {
    accountId: string;
    email: string;
    idempotencyKey: string;
  }): Promise<ConnectedAccount>;
  connectedAccount(id: string): Promise<ConnectedAccount>;
  onboardingLink(input: {
    connectedAccountId: string;
    returnUrl: string;
    refreshUrl: string;
  }): Promise<{ url: string; expiresAt: Date }>;
  createCheckout(input: CheckoutInput): Promise<{ id: string; url: string; expiresAt: Date }>;
  /** The PaymentIntent a completed Checkout Session made; null while the payer has not paid. */
  checkoutPayment(sessionId: string): Promise<string | null>;
  payment(id: string): Promise<ProviderPayment>;
  capture(
    id: string,
    input: { amountCents: number; feeCents: number; idempotencyKey: string },
  ): Promise<ProviderPayment>;
  cancel(id: string, idempotencyKey: string): Promise<ProviderPayment>;
  refund(id: string, input: { amountCents: number; idempotencyKey: string }): Promise<{ id: string; status: string }>;
  /** Charges a saved card without the payer; ProviderRefusal when the bank declines or wants the payer. */
  chargeOffSession(input: OffSessionInput): Promise<ProviderPayment>;
  /** Verifies a webhook's signature and reads its event; throws on a bad signature. */
  verifyEvent(rawBody: string, signature: string): Promise<ProviderEvent>;
  /** The platform's balance lines created in [from, to). */
  balanceLines(from: Date, to: Date): Promise<BalanceLine[]>;
}
