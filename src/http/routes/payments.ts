import { NoQuery, RefTo } from '../../schemas/common.js';
import { PAYMENT_RULES, PaymentIdParams, PaymentPage, PaymentQuery, PaymentSchema } from '../../schemas/payments.js';
import { getPayment, listPayments, settle } from '../../services/payments.js';
import { errorResponses } from '../error-catalogue.js';
import { ok } from '../responses.js';
import type { Api, RouteDeps } from '../route-deps.js';
import { WRITE_HOOKS, WRITE_SECURITY } from '../write-body.js';
import { requireAccount, writeContext } from '../write-kit.js';

/** Payments (issue 32): the caller's, as payer or payee; the manual provider's two confirmations. */
export function paymentRoutes(app: Api, deps: RouteDeps): void {
  app.get(
    '/v1/payments',
    {
      onRequest: WRITE_HOOKS.onRequest,
      schema: {
        operationId: 'listPayments',
        summary: 'List your payments',
        description: `Your payments, as payer and as payee, newest first.\n\n${PAYMENT_RULES}`,
        tags: ['Payments'],
        security: WRITE_SECURITY,
        querystring: PaymentQuery,
        response: { 200: ok(PaymentPage, 'One page of your payments.'), ...errorResponses(400) },
      },
    },
    async (request) => {
      const { role, status, limit = 20, offset = 0 } = request.query;
      return listPayments(deps.db, requireAccount(request), { role, status, limit, offset });
    },
  );

  app.get(
    '/v1/payments/:id',
    {
      onRequest: WRITE_HOOKS.onRequest,
      schema: {
        operationId: 'getPayment',
        summary: 'Get a payment',
        description: `One of your payments, as payer or payee (anyone else's answers 404).\n\n${PAYMENT_RULES}`,
        tags: ['Payments'],
        security: WRITE_SECURITY,
        params: PaymentIdParams,
        querystring: NoQuery,
        response: { 200: ok(RefTo(PaymentSchema), 'The payment.'), ...errorResponses(400, 404) },
      },
    },
    async (request) => getPayment(deps.db, requireAccount(request), request.params.id),
  );

  const ACTIONS = {
    paid: {
      operationId: 'markPaymentPaid',
      summary: 'Say a payment is paid (payer)',
      description: 'awaiting_payment -> paid: the payer says the money is on its way or handed over.',
    },
    received: {
      operationId: 'confirmPaymentReceived',
      summary: 'Confirm a payment arrived (payee)',
      description:
        'awaiting_payment or paid -> received: the payee confirms the money is there; the ledger books it and the fee.',
    },
  } as const;
  for (const action of ['paid', 'received'] as const) {
    app.post(
      `/v1/payments/:id/${action}`,
      {
        ...WRITE_HOOKS,
        schema: {
          ...ACTIONS[action],
          description: `${ACTIONS[action].description} The other party gets 403; anyone else 404; from another state 409.\n\n${PAYMENT_RULES}`,
          tags: ['Payments'],
          security: WRITE_SECURITY,
          params: PaymentIdParams,
          querystring: NoQuery,
          response: {
            200: ok(RefTo(PaymentSchema), 'The payment in its new state.'),
            ...errorResponses(400, 403, 404, 409, 413, 415, 422),
          },
        },
      },
      async (request) => settle(writeContext(request, deps), requireAccount(request), request.params.id, action),
    );
  }
}
