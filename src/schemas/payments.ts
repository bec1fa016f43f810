import { type Static, Type } from 'typebox';
import { POLICY_TEXT } from '../domain/cancellation.js';
import { PAYMENT_KINDS } from '../domain/payments.js';
import { HasMore, IdParams, Nullable, PageFields, PagingQuery, RefTo, StringEnum } from './common.js';

export const PAYMENT_STATUSES = ['awaiting_payment', 'paid', 'received', 'released', 'cancelled'] as const;

const Euros = (description: string) => Type.Number({ minimum: 0, description: `${description} Euros with cents.` });
const At = (description: string) => Nullable(Type.String({ format: 'date-time' }), { description });

/** A payment as one of its two parties reads it (issue 32). */
export const PaymentSchema = Type.Object(
  {
    id: Type.String({ description: 'pay_…' }),
    kind: StringEnum(PAYMENT_KINDS, {
      description:
        "job: an accepted helper's share of the job's price; rent: a confirmed booking's price; deposit: a confirmed booking's deposit, held by the owner until after the return; fee: a cancellation fee (what a late cancellation leaves the payee of an unpaid payment) or a late-return fee (the booking's late_fee_per_day_eur for each day after its last); refund: what a cancellation gives back of a payment already made (from its payee to its payer).",
    }),
    provider: StringEnum(['manual', 'stripe'] as const, {
      description:
        'manual: the parties settle in cash or by transfer and confirm it here; stripe: the payer pays by card at Stripe (next_action), and the payee is paid out to their connected account.',
    }),
    role: StringEnum(['payer', 'payee'] as const, { description: 'Your side of it.' }),
    status: StringEnum(PAYMENT_STATUSES),
    job_id: Nullable(Type.String()),
    application_id: Nullable(Type.String()),
    booking_id: Nullable(Type.String()),
    amount_eur: Euros('What the payer owes the payee.'),
    fee_eur: Euros("The platform's fee, owed by the payee (0 when none is due)."),
    payout_eur: Euros('What stays with the payee: amount_eur - fee_eur.'),
    kept_eur: Euros('Of a released deposit, what the owner kept for an accepted or decided claim (else 0).'),
    currency: StringEnum(['EUR'] as const),
    next_action: Nullable(
      Type.Object(
        {
          type: StringEnum(['mark_paid', 'confirm_received', 'release_deposit', 'pay_at_stripe'] as const),
          url: Type.String({
            description:
              'POST it to act (pay_at_stripe: it answers the Stripe Checkout page the payer opens in their own browser).',
          }),
        },
        { additionalProperties: false },
      ),
      { description: 'What you do next, if anything.' },
    ),
    payee_bank_account: Nullable(
      Type.Object({ iban: Type.String(), account_holder: Type.String() }, { additionalProperties: false }),
      {
        description:
          "For the payer, while the payment is open: the payee's bank account for a transfer, if they gave one (PUT /v1/me/bank-account). Else null.",
      },
    ),
    created_at: Type.String({ format: 'date-time' }),
    paid_at: At('When the payer said it is paid.'),
    received_at: At('When the payee confirmed receipt.'),
    cancelled_at: At('When it was cancelled (the job or booking was cancelled before payment).'),
    released_at: At('When the owner gave a deposit back.'),
    last_error: Type.Optional(
      Type.String({
        description:
          'Stripe: why the last attempt failed (card_declined, authentication_required, authorization_expired ...); present only then. Pay again with next_action.',
      }),
    ),
  },
  { $id: 'Payment', additionalProperties: false },
);
export type Payment = Static<typeof PaymentSchema>;

/** A payment as an application or a booking summarises it (GET /v1/payments/{id} has the rest). */
export const PaymentSummarySchema = Type.Object(
  {
    id: Type.String(),
    kind: StringEnum(PAYMENT_KINDS),
    status: StringEnum(PAYMENT_STATUSES),
    amount_eur: Type.Number({ minimum: 0 }),
  },
  { additionalProperties: false },
);

/** The payments field of an application or a booking, for its two parties. */
export const PaymentsSummary = (what: string) =>
  Type.Optional(
    Type.Array(PaymentSummarySchema, {
      description: `Its payments (${what}), each with its id for GET /v1/payments/{id}; in the answers of its own operations, not in lists of others or events.`,
    }),
  );

export const PaymentPage = Type.Object(
  { data: Type.Array(RefTo(PaymentSchema), { description: 'Newest first.' }), ...PageFields, has_more: HasMore },
  { additionalProperties: false },
);
export type PaymentPage = Static<typeof PaymentPage>;

export const PaymentQuery = Type.Object(
  {
    role: Type.Optional(
      StringEnum(['payer', 'payee'] as const, { description: 'Only your side (both when left out).' }),
    ),
    status: Type.Optional(StringEnum(PAYMENT_STATUSES)),
    limit: PagingQuery.limit,
    offset: PagingQuery.offset,
  },
  { additionalProperties: false },
);

export const PaymentIdParams = IdParams('Payment', 'pay_3c1a9e7f5b2d4680');

/** The rules, said on each payment operation. */
export const PAYMENT_RULES = `**Payments (manual provider).** When a job's owner accepts an application, a payment of the helper's share is created: the price divided by helpers_needed in whole cents, the cents left over one each to the first acceptances. The parties settle in cash or by transfer: the payer marks it paid (POST /v1/payments/{id}/paid), the payee confirms receipt (POST /v1/payments/{id}/received, also straight from awaiting_payment, e.g. for cash). When a booking is confirmed, its rent (kind rent) and its deposit (kind deposit, if the listing asks one) are created the same way; the renter hands the deposit over at pick-up and the owner confirms it received (held); after the return (or a cancellation) the owner releases it (POST /v1/payments/{id}/release), keeping what an accepted or decided claim allows. States: awaiting_payment -> paid -> received (-> released, deposits); awaiting_payment -> cancelled when the job or booking is cancelled or declined. Commercial providers owe the platform fee on jobs and rent (PLATFORM_FEE_PERCENT of the amount, half up, at least PLATFORM_FEE_MIN_EUR); private helpers owe none. Receipt books the payment and the fee in the ledger. Only the two parties see a payment (else 404). **Cancellation policies** (a job's or listing's cancellation_policy) say what a payer's cancellation refunds, by the hours before the start: ${POLICY_TEXT} An unpaid payment is then cancelled and a payment of kind fee owed for the kept part; of a payment made, the refunded part comes back as kind refund. A return after a booking's last day creates a payment of kind fee: its late_fee_per_day_eur for each day late.`;

/** The bank account a payee gives for transfers (manual provider). */
export const BankAccountSchema = Type.Object(
  {
    iban: Type.String({ description: 'In groups of four, as printed.' }),
    account_holder: Type.String(),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'BankAccount', additionalProperties: false },
);
export type BankAccount = Static<typeof BankAccountSchema>;

export const BankAccountBody = Type.Object(
  {
    iban: Type.String({
      minLength: 15,
      maxLength: 42,
      description: 'An IBAN, with or without spaces; checked (country, length, check digits).',
    }),
    account_holder: Type.String({ minLength: 2, maxLength: 70, pattern: '\\S', description: 'As the bank knows it.' }),
  },
  { additionalProperties: false },
);
export type BankAccountBody = Static<typeof BankAccountBody>;

/** With PAYMENTS_PROVIDER=stripe: how payments work then, said on the Stripe operations. */
export const STRIPE_RULES = `**With Stripe (PAYMENTS_PROVIDER=stripe).** Payees onboard as Stripe connected accounts (POST /v1/me/payouts/onboarding, GET /v1/me/payouts). The payer pays in their own browser at Stripe (next_action pay_at_stripe: POST /v1/payments/{id}/checkout answers the page; an app or agent may fetch it, only the person can pay). A job's share and a deposit are authorised (status paid) and captured later: the share when the job is completed, the deposit at its release, for what a claim kept; rent and fees are charged at once (status received). Charges are destination charges: the payee's connected account gets the amount less the platform's fee. A cancellation captures what the policy leaves the payee of an authorised payment, or refunds a captured one. The state follows Stripe's events; paid and received are not marked by hand (409).`;

/** GET /v1/me/payouts: the caller's Stripe connected account. */
export const PayoutsSchema = Type.Object(
  {
    provider: StringEnum(['stripe'] as const),
    status: StringEnum(['not_started', 'onboarding', 'pending', 'enabled'] as const, {
      description:
        'not_started: no connected account yet; onboarding: Stripe still needs details; pending: submitted, Stripe is checking; enabled: charges and payouts work.',
    }),
    charges_enabled: Type.Boolean({ description: 'Payers can pay you by card.' }),
    payouts_enabled: Type.Boolean({ description: 'Stripe pays out to your bank account.' }),
    currently_due: Type.Array(Type.String(), {
      description: "What Stripe still needs of you (Stripe's requirement names, e.g. external_account).",
    }),
    next_action: Nullable(
      Type.Object(
        { type: StringEnum(['onboard'] as const), url: Type.String({ description: 'POST it for a Stripe link.' }) },
        { additionalProperties: false },
      ),
    ),
    updated_at: At('When Stripe last told us.'),
  },
  { $id: 'Payouts', additionalProperties: false },
);
export type Payouts = Static<typeof PayoutsSchema>;

export const OnboardingBody = Type.Object(
  {
    return_url: Type.Optional(
      Type.String({
        format: 'uri',
        pattern: '^https://',
        maxLength: 500,
        description: "Where Stripe sends the person back (your app's page, https); default GET /v1/me/payouts.",
      }),
    ),
  },
  { additionalProperties: false },
);
export type OnboardingBody = Static<typeof OnboardingBody>;

export const OnboardingSchema = Type.Object(
  {
    url: Type.String({ description: "Stripe's onboarding page; open it in the person's browser." }),
    expires_at: Type.String({
      format: 'date-time',
      description: 'The link works until then; ask for a new one after.',
    }),
    payouts: RefTo(PayoutsSchema),
  },
  { additionalProperties: false },
);

/** POST /v1/payments/{id}/checkout: the Stripe page where the payer pays. */
export const CheckoutSchema = Type.Object(
  {
    url: Type.String({ description: "Stripe's Checkout page; the payer opens it in their own browser." }),
    expires_at: Type.String({ format: 'date-time' }),
    payment: RefTo(PaymentSchema),
  },
  { additionalProperties: false },
);
export type Checkout = Static<typeof CheckoutSchema>;
