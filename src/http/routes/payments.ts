import { Type } from 'typebox';
import { NoQuery, RefTo } from '../../schemas/common.js';
import {
  BankAccountBody,
  BankAccountSchema,
  PAYMENT_RULES,
  PaymentIdParams,
  PaymentPage,
  PaymentQuery,
  PaymentSchema,
} from '../../schemas/payments.js';
import {
  getBankAccount,
  getPayment,
  listPayments,
  releaseDepositPayment,
  removeBankAccount,
  setBankAccount,
  settle,
} from '../../services/payments.js';
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

  app.post(
    '/v1/payments/:id/release',
    {
      ...WRITE_HOOKS,
      schema: {
        operationId: 'releaseDeposit',
        summary: 'Give a held deposit back (owner)',
        description: `received -> released, for a deposit only: after the return (or a cancellation) the owner says the deposit went back, less what an accepted or decided claim keeps (kept_eur); the ledger books what went back. While the item is out: 409; while a claim on it is open or disputed: 409 claim_pending. Releasing ends the chance to claim. The renter gets 403; anyone else 404.\n\n${PAYMENT_RULES}`,
        tags: ['Payments'],
        security: WRITE_SECURITY,
        params: PaymentIdParams,
        querystring: NoQuery,
        response: {
          200: ok(RefTo(PaymentSchema), 'The deposit, released.'),
          ...errorResponses(400, 403, 404, 409, 413, 415, 422),
        },
      },
    },
    async (request) => releaseDepositPayment(writeContext(request, deps), requireAccount(request), request.params.id),
  );

  const BANK_RULES =
    'The bank account a payee gives for transfers (manual provider): its IBAN is shown only to a payer of a payment to you while that payment is open (accepted, not yet received), as payee_bank_account; never in events. Erasing the account deletes it.';
  app.put(
    '/v1/me/bank-account',
    {
      ...WRITE_HOOKS,
      schema: {
        operationId: 'putMyBankAccount',
        summary: 'Give your bank account for transfers',
        description: `${BANK_RULES} The whole set each time; an IBAN that does not check out (country, length, check digits) answers 400 naming iban.`,
        tags: ['Payments'],
        security: WRITE_SECURITY,
        querystring: NoQuery,
        body: BankAccountBody,
        response: { 200: ok(RefTo(BankAccountSchema), 'Stored.'), ...errorResponses(400, 413, 415) },
      },
    },
    async (request) => setBankAccount(writeContext(request, deps), requireAccount(request), request.body),
  );

  app.get(
    '/v1/me/bank-account',
    {
      onRequest: WRITE_HOOKS.onRequest,
      schema: {
        operationId: 'getMyBankAccount',
        summary: 'Your bank account for transfers',
        description: `As stored by PUT /v1/me/bank-account; 404 before one is given. ${BANK_RULES}`,
        tags: ['Payments'],
        security: WRITE_SECURITY,
        querystring: NoQuery,
        response: { 200: ok(RefTo(BankAccountSchema), 'Your bank account.'), ...errorResponses(400, 404) },
      },
    },
    async (request) => getBankAccount(deps.db, requireAccount(request)),
  );

  app.delete(
    '/v1/me/bank-account',
    {
      onRequest: WRITE_HOOKS.onRequest,
      schema: {
        operationId: 'deleteMyBankAccount',
        summary: 'Remove your bank account',
        description: `Payers of your open payments no longer see it; 404 when there is none. ${BANK_RULES}`,
        tags: ['Payments'],
        security: WRITE_SECURITY,
        querystring: NoQuery,
        response: { 204: ok(Type.Null(), 'Removed; no body.'), ...errorResponses(400, 404, 413, 415) },
      },
    },
    async (request, reply) => {
      await removeBankAccount(writeContext(request, deps), requireAccount(request));
      return reply.code(204).send(null);
    },
  );
}
