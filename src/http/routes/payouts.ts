import { NoQuery, RefTo } from '../../schemas/common.js';
import {
  CheckoutSchema,
  OnboardingBody,
  OnboardingSchema,
  PaymentIdParams,
  PayoutsSchema,
  STRIPE_RULES,
} from '../../schemas/payments.js';
import { payoutStatus, startCheckout, startOnboarding } from '../../services/stripe-payments.js';
import { errorResponses } from '../error-catalogue.js';
import { ok } from '../responses.js';
import type { Api, RouteDeps } from '../route-deps.js';
import { WRITE_HOOKS, WRITE_SECURITY } from '../write-body.js';
import { requireAccount, writeContext } from '../write-kit.js';

/**
 * Payments with Stripe (issue 32): the payee's connected account and the payer's Checkout page.
 * With PAYMENTS_PROVIDER=manual they answer 409 payouts_unavailable. Stripe's own events come in
 * at POST /webhooks/stripe (http/routes/stripe-webhook.ts).
 */
export function payoutRoutes(app: Api, deps: RouteDeps): void {
  const provider = deps.payments ?? null;
  const baseUrl = deps.baseUrl ?? '';
  app.get(
    '/v1/me/payouts',
    {
      onRequest: WRITE_HOOKS.onRequest,
      schema: {
        operationId: 'getMyPayouts',
        summary: 'Your payout account at Stripe',
        description: `Whether payers can pay you by card and Stripe pays out to you, and what Stripe still needs (asked of Stripe now). With PAYMENTS_PROVIDER=manual: 409 payouts_unavailable.\n\n${STRIPE_RULES}`,
        tags: ['Payments'],
        security: WRITE_SECURITY,
        querystring: NoQuery,
        response: { 200: ok(RefTo(PayoutsSchema), 'Your payout account.'), ...errorResponses(400, 409) },
      },
    },
    async (request) => payoutStatus(writeContext(request, deps), provider, requireAccount(request)),
  );

  app.post(
    '/v1/me/payouts/onboarding',
    {
      ...WRITE_HOOKS,
      schema: {
        operationId: 'startPayoutOnboarding',
        summary: 'Get a link to set up payouts at Stripe',
        description: `Makes your Stripe connected account (Express) the first time, and answers a link to Stripe's onboarding, where you give Stripe what it needs (identity, bank account); it works for a few minutes, ask again for a new one. Stripe sends you back to return_url (default: this service's /account page). With PAYMENTS_PROVIDER=manual: 409 payouts_unavailable.\n\n${STRIPE_RULES}`,
        tags: ['Payments'],
        security: WRITE_SECURITY,
        querystring: NoQuery,
        body: OnboardingBody,
        response: {
          200: ok(OnboardingSchema, "Stripe's onboarding link."),
          ...errorResponses(400, 409, 413, 415, 422),
        },
      },
    },
    async (request) =>
      startOnboarding(
        writeContext(request, deps),
        provider,
        requireAccount(request),
        request.body?.return_url ?? `${baseUrl}/account`,
      ),
  );

  app.post(
    '/v1/payments/:id/checkout',
    {
      ...WRITE_HOOKS,
      schema: {
        operationId: 'checkoutPayment',
        summary: 'Get the Stripe page to pay a payment (payer)',
        description: `For a Stripe payment awaiting payment (next_action pay_at_stripe): a Stripe Checkout page the payer opens in their own browser, where they pay (and confirm with their bank, SCA); the payment follows Stripe's answer (payment.status_changed). An app may fetch the link; only the person pays. The payee must have onboarded (else 409 payee_not_ready); a manual payment, or one in another state, 409; the payee 403; anyone else 404.\n\n${STRIPE_RULES}`,
        tags: ['Payments'],
        security: WRITE_SECURITY,
        params: PaymentIdParams,
        querystring: NoQuery,
        response: {
          200: ok(CheckoutSchema, "Stripe's Checkout page."),
          ...errorResponses(400, 403, 404, 409, 413, 415, 422),
        },
      },
    },
    async (request) =>
      startCheckout(writeContext(request, deps), provider, requireAccount(request), request.params.id, baseUrl),
  );
}
