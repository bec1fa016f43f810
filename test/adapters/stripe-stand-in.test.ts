/**
 * The Stripe stand-in (test/helpers/stripe-stand-in.ts), driven as the service drives Stripe: only
 * through the official SDK, the payer's and the payee's browser pages, and the stand-in's controls;
 * its webhooks are received and verified with the SDK's constructEvent on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type IncomingMessage } from 'node:http';
import { type TestContext, test } from 'node:test';
import Stripe from 'stripe';
import { type StripeStandInOptions, startStripeStandIn, TEST_CARDS } from '../helpers/stripe-stand-in.js';

const SECRET = 'whsec_test_standin_secret';
const NOW = new Date('2026-11-02T09:00:00Z');

interface Received {
  event: Stripe.Event;
  raw: string;
}

/** A webhook endpoint on 127.0.0.1 that verifies each delivery as the service will. */
async function startReceiver(t: TestContext, secret = SECRET) {
  const verifier = new Stripe('sk_test_verifier');
  const received: Received[] = [];
  const rejected: string[] = [];
  const failures = new Map<string, number>();
  const server = createServer(async (request: IncomingMessage, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const type = (JSON.parse(raw) as { type: string }).type;
    const failing = failures.get(type) ?? 0;
    if (failing > 0) {
      failures.set(type, failing - 1);
      response.writeHead(500).end('try again');
      return;
    }
    try {
      const event = verifier.webhooks.constructEvent(raw, String(request.headers['stripe-signature']), secret);
      received.push({ event, raw });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
    } catch (error) {
      rejected.push((error as Error).message);
      response.writeHead(400).end('bad signature');
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/webhooks/stripe`,
    received,
    rejected,
    types: () => received.map((r) => r.event.type),
    /** The next deliveries of events of this type are answered 500. */
    failNext(type: string, times: number) {
      failures.set(type, times);
    },
  };
}

async function setup(t: TestContext, options: StripeStandInOptions = {}) {
  const receiver = await startReceiver(t);
  let clock = NOW.getTime();
  const standIn = await startStripeStandIn({
    webhookUrl: receiver.url,
    webhookSecret: SECRET,
    webhookBackoffMs: 10,
    now: () => new Date(clock),
    ...options,
  });
  t.after(() => standIn.close());
  const stripe = new Stripe('sk_test_standin', {
    host: '127.0.0.1',
    port: standIn.port,
    protocol: 'http',
    maxNetworkRetries: 2,
    timeout: 1500,
  });
  const tick = (seconds: number) => {
    clock += seconds * 1000;
  };
  return { standIn, stripe, receiver, tick };
}

type Setup = Awaited<ReturnType<typeof setup>>;

/** An Express account onboarded through its account link, as the payee's browser does it. */
async function onboardedAccount({ stripe }: Setup, email = 'helper@example.org'): Promise<Stripe.Account> {
  const account = await stripe.accounts.create({
    type: 'express',
    country: 'DE',
    email,
    capabilities: { card_payments: { requested: true }, transfers: { requested: true } },
    metadata: { account_id: 'acc_1' },
  });
  const link = await stripe.accountLinks.create({
    account: account.id,
    refresh_url: 'http://127.0.0.1:1/refresh',
    return_url: 'http://127.0.0.1:1/return',
    type: 'account_onboarding',
  });
  const done = await fetch(link.url, { method: 'POST', redirect: 'manual' });
  assert.equal(done.status, 303);
  return stripe.accounts.retrieve(account.id);
}

function checkoutParams(destination: string, overrides: Partial<Stripe.Checkout.SessionCreateParams> = {}) {
  return {
    mode: 'payment',
    line_items: [
      {
        price_data: { currency: 'eur', unit_amount: 5000, product_data: { name: 'Moving help, 2 hours' } },
        quantity: 1,
      },
    ],
    payment_intent_data: {
      capture_method: 'manual',
      application_fee_amount: 500,
      transfer_data: { destination },
      metadata: { payment_id: 'pay_1' },
    },
    success_url: 'http://127.0.0.1:1/paid?session={CHECKOUT_SESSION_ID}',
    cancel_url: 'http://127.0.0.1:1/cancelled',
    metadata: { payment_id: 'pay_1' },
    client_reference_id: 'pay_1',
    ...overrides,
  } satisfies Stripe.Checkout.SessionCreateParams;
}

async function rejects(promise: Promise<unknown>): Promise<Stripe.errors.StripeError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof Stripe.errors.StripeError, String(error));
    return error;
  }
  assert.fail('expected Stripe to refuse');
}

test('an Express account is onboarded through an account link, and account.updated says so', async (t) => {
  const env = await setup(t);
  const { stripe, standIn, receiver, tick } = env;
  const account = await stripe.accounts.create({
    type: 'express',
    country: 'DE',
    email: 'helper@example.org',
    capabilities: { card_payments: { requested: true }, transfers: { requested: true } },
    metadata: { account_id: 'acc_1' },
  });
  assert.match(account.id, /^acct_\w{16}$/);
  assert.equal(account.type, 'express');
  assert.equal(account.charges_enabled, false);
  assert.equal(account.payouts_enabled, false);
  assert.equal(account.details_submitted, false);
  assert.deepEqual(account.requirements?.currently_due, [
    'business_type',
    'external_account',
    'tos_acceptance.date',
    'tos_acceptance.ip',
  ]);
  assert.equal(account.created, Math.floor(NOW.getTime() / 1000));
  assert.deepEqual(account.metadata, { account_id: 'acc_1' });

  const link = await stripe.accountLinks.create({
    account: account.id,
    refresh_url: 'http://127.0.0.1:1/refresh',
    return_url: 'http://127.0.0.1:1/return',
    type: 'account_onboarding',
  });
  assert.equal(link.object, 'account_link');
  assert.equal(link.url, `${standIn.url}/connect/onboarding/${account.id}`);
  assert.equal(link.expires_at, link.created + 300);

  // A link used too late leads to refresh_url; a fresh one onboards and returns.
  tick(301);
  const late = await fetch(link.url, { redirect: 'manual' });
  assert.equal(late.status, 303);
  assert.equal(late.headers.get('location'), 'http://127.0.0.1:1/refresh');
  const fresh = await stripe.accountLinks.create({
    account: account.id,
    refresh_url: 'http://127.0.0.1:1/refresh',
    return_url: 'http://127.0.0.1:1/return',
    type: 'account_onboarding',
  });
  const page = await fetch(fresh.url);
  assert.equal(page.status, 200);
  assert.match(await page.text(), /<form method="post">/);
  const submitted = await fetch(fresh.url, { method: 'POST', redirect: 'manual' });
  assert.equal(submitted.status, 303);
  assert.equal(submitted.headers.get('location'), 'http://127.0.0.1:1/return');

  const onboarded = await stripe.accounts.retrieve(account.id);
  assert.equal(onboarded.charges_enabled, true);
  assert.equal(onboarded.payouts_enabled, true);
  assert.equal(onboarded.details_submitted, true);
  assert.deepEqual(onboarded.requirements?.currently_due, []);
  assert.equal(onboarded.capabilities?.transfers, 'active');

  await standIn.settle();
  assert.deepEqual(receiver.types(), ['account.updated']);
  const [updated] = receiver.received;
  assert.ok(updated && updated.event.type === 'account.updated');
  assert.equal(updated.event.data.object.id, account.id);
  assert.equal(updated.event.data.object.charges_enabled, true);
  assert.equal(updated.event.data.previous_attributes?.charges_enabled, false);
  assert.equal(updated.event.api_version, Stripe.API_VERSION);

  const missing = await rejects(stripe.accounts.retrieve('acct_missing0000000'));
  assert.equal(missing.statusCode, 404);
  assert.equal(missing.code, 'resource_missing');
});

test('a manual-capture checkout is paid, partly captured (the rest released) and partly refunded', async (t) => {
  const env = await setup(t);
  const { stripe, standIn, receiver } = env;
  const helper = await onboardedAccount(env);
  await standIn.settle();
  receiver.received.length = 0;

  const session = await stripe.checkout.sessions.create(checkoutParams(helper.id), {
    idempotencyKey: 'pay_1:checkout:0',
  });
  assert.match(session.id, /^cs_test_/);
  assert.equal(session.status, 'open');
  assert.equal(session.payment_status, 'unpaid');
  assert.equal(session.amount_total, 5000);
  assert.equal(session.currency, 'eur');
  assert.equal(session.payment_intent, null);
  assert.equal(session.url, `${standIn.url}/checkout/${session.id}`);

  // The payer's browser: the hosted page, then the card.
  assert.ok(session.url);
  const page = await fetch(session.url);
  assert.equal(page.status, 200);
  assert.match(await page.text(), /Pay €50\.00/);
  const paid = await fetch(session.url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ card: TEST_CARDS.success, email: 'payer@example.org', name: 'Pat Payer' }),
  });
  assert.equal(paid.status, 303);
  assert.equal(paid.headers.get('location'), `http://127.0.0.1:1/paid?session=${session.id}`);

  const completed = await stripe.checkout.sessions.retrieve(session.id, { expand: ['payment_intent'] });
  assert.equal(completed.status, 'complete');
  assert.equal(completed.payment_status, 'paid');
  assert.equal(completed.url, null);
  assert.equal(completed.customer_details?.email, 'payer@example.org');
  const expanded = completed.payment_intent as Stripe.PaymentIntent;
  assert.equal(expanded.status, 'requires_capture');
  assert.equal(expanded.amount_capturable, 5000);
  assert.deepEqual(expanded.metadata, { payment_id: 'pay_1' });
  assert.equal(expanded.application_fee_amount, 500);

  const captured = await stripe.paymentIntents.capture(
    expanded.id,
    { amount_to_capture: 3000, application_fee_amount: 300 },
    { idempotencyKey: 'task_1:1' },
  );
  assert.equal(captured.status, 'succeeded');
  assert.equal(captured.amount_received, 3000);
  assert.equal(captured.amount_capturable, 0);
  assert.ok(typeof captured.latest_charge === 'string');
  const charge = await stripe.charges.retrieve(captured.latest_charge);
  assert.equal(charge.amount, 5000);
  assert.equal(charge.amount_captured, 3000);
  assert.equal(charge.captured, true);

  const again = await rejects(stripe.paymentIntents.capture(expanded.id, { amount_to_capture: 1000 }));
  assert.equal(again.statusCode, 400);
  assert.equal(again.code, 'payment_intent_unexpected_state');

  const refund = await stripe.refunds.create(
    {
      payment_intent: expanded.id,
      amount: 1000,
      reverse_transfer: true,
      refund_application_fee: true,
      metadata: { payment_id: 'pay_1' },
    },
    { idempotencyKey: 'task_2:1' },
  );
  assert.match(refund.id, /^re_/);
  assert.equal(refund.status, 'succeeded');
  assert.equal(refund.amount, 1000);
  assert.equal(refund.charge, charge.id);
  assert.equal((await stripe.charges.retrieve(charge.id)).amount_refunded, 1000);

  const tooMuch = await rejects(stripe.refunds.create({ payment_intent: expanded.id, amount: 2001 }));
  assert.equal(tooMuch.statusCode, 400);
  assert.equal(tooMuch.code, 'amount_too_large');
  assert.equal(tooMuch.param, 'amount');

  // The platform's books, newest first: what the charge, the transfer to the helper, the fee and the refund did.
  const books = await stripe.balanceTransactions.list({ limit: 100 });
  assert.deepEqual(
    books.data.map((txn) => [txn.type, txn.amount]),
    [
      ['application_fee_refund', -100],
      ['transfer_refund', 1000],
      ['refund', -1000],
      ['application_fee', 300],
      ['transfer', -3000],
      ['charge', 3000],
    ],
  );
  assert.equal(books.data.at(-1)?.source, charge.id);
  assert.equal(books.data[2]?.source, refund.id);
  const transfer = await stripe.transfers.retrieve(String(charge.transfer));
  assert.equal(transfer.destination, helper.id);
  assert.equal(transfer.amount_reversed, 1000);

  await standIn.settle();
  assert.deepEqual(receiver.types(), [
    'payment_intent.amount_capturable_updated',
    'checkout.session.completed',
    'transfer.created',
    'payment_intent.succeeded',
    'charge.refunded',
    'refund.created',
  ]);
  const completedEvent = receiver.received[1]?.event;
  assert.ok(completedEvent?.type === 'checkout.session.completed');
  assert.equal(completedEvent.data.object.payment_status, 'paid');
  assert.equal(completedEvent.data.object.payment_intent, expanded.id);
  assert.equal(completedEvent.request?.id, null);
  const refundEvent = receiver.received[5]?.event;
  assert.equal(refundEvent?.request?.idempotency_key, 'task_2:1');
});

test('a declined card leaves the session open, and the next card pays the same PaymentIntent', async (t) => {
  const env = await setup(t);
  const { stripe, standIn, receiver } = env;
  const helper = await onboardedAccount(env);
  const session = await stripe.checkout.sessions.create(
    checkoutParams(helper.id, {
      payment_intent_data: { transfer_data: { destination: helper.id }, application_fee_amount: 500 },
    }),
  );

  const declined = await standIn.pay(session.id, TEST_CARDS.declined);
  assert.equal(declined.ok, false);
  assert.equal(declined.status, 402);
  assert.deepEqual(declined.error, {
    code: 'card_declined',
    decline_code: 'generic_decline',
    message: 'Your card was declined.',
  });
  const open = await stripe.checkout.sessions.retrieve(session.id);
  assert.equal(open.status, 'open');
  assert.equal(open.payment_status, 'unpaid');
  assert.ok(typeof open.payment_intent === 'string');
  const failed = await stripe.paymentIntents.retrieve(open.payment_intent);
  assert.equal(failed.status, 'requires_payment_method');
  assert.equal(failed.last_payment_error?.decline_code, 'generic_decline');

  const poor = await standIn.pay(session.id, TEST_CARDS.insufficientFunds);
  assert.equal(poor.error?.decline_code, 'insufficient_funds');
  const invalid = await standIn.pay(session.id, '4242424242424241');
  assert.equal(invalid.status, 400);
  assert.equal(invalid.error?.code, 'incorrect_number');

  const paid = await standIn.pay(session.id);
  assert.equal(paid.ok, true);
  assert.equal(paid.paymentIntent?.id, failed.id);
  assert.equal(paid.paymentIntent?.status, 'succeeded');
  assert.equal(paid.paymentIntent?.amount_received, 5000);
  assert.equal(paid.session.payment_status, 'paid');
  const again = await standIn.pay(session.id);
  assert.equal(again.status, 410);

  await standIn.settle();
  assert.deepEqual(receiver.types().slice(1), [
    'payment_intent.payment_failed',
    'payment_intent.payment_failed',
    'transfer.created',
    'payment_intent.succeeded',
    'checkout.session.completed',
  ]);
});

test('a saved card is charged off-session; one that needs authentication fails with 402', async (t) => {
  const env = await setup(t);
  const { stripe, standIn, receiver } = env;
  const helper = await onboardedAccount(env);
  const save = (card: string) =>
    stripe.checkout.sessions
      .create(
        checkoutParams(helper.id, {
          payment_intent_data: {
            capture_method: 'manual',
            setup_future_usage: 'off_session',
            transfer_data: { destination: helper.id },
          },
        }),
      )
      .then((session) => standIn.pay(session.id, card));

  const good = await save(TEST_CARDS.success);
  assert.ok(good.ok);
  const customer = good.session.customer;
  const method = good.paymentIntent?.payment_method;
  assert.ok(typeof customer === 'string' && customer.startsWith('cus_'));
  assert.ok(typeof method === 'string' && method.startsWith('pm_'));
  assert.equal(standIn.paymentMethods.get(method)?.customer, customer);

  // The deposit held later, off-session.
  const held = await stripe.paymentIntents.create({
    amount: 20000,
    currency: 'eur',
    customer,
    payment_method: method,
    off_session: true,
    confirm: true,
    capture_method: 'manual',
    metadata: { payment_id: 'pay_deposit' },
  });
  assert.equal(held.status, 'requires_capture');
  assert.equal(held.amount_capturable, 20000);
  assert.ok(typeof held.latest_charge === 'string');

  const strong = await save(TEST_CARDS.authenticationRequired);
  assert.ok(strong.ok, 'the card pays on-session, with the payer there to authenticate');
  const refused = await rejects(
    stripe.paymentIntents.create({
      amount: 20000,
      currency: 'eur',
      customer: String(strong.session.customer),
      payment_method: String(strong.paymentIntent?.payment_method),
      off_session: true,
      confirm: true,
    }),
  );
  assert.ok(refused instanceof Stripe.errors.StripeCardError);
  assert.equal(refused.statusCode, 402);
  assert.equal(refused.code, 'authentication_required');
  assert.equal(refused.payment_intent?.status, 'requires_payment_method');
  assert.equal(refused.payment_intent?.last_payment_error?.code, 'authentication_required');
  assert.ok(refused.payment_intent && standIn.paymentIntents.get(refused.payment_intent.id));

  standIn.failNext({ method: 'POST', path: '/v1/payment_intents' }, 'card_declined');
  const declined = await rejects(
    stripe.paymentIntents.create({
      amount: 1000,
      currency: 'eur',
      customer,
      payment_method: method,
      off_session: true,
      confirm: true,
    }),
  );
  assert.equal(declined.code, 'card_declined');
  assert.equal(declined.decline_code, 'generic_decline');

  const other = await rejects(
    stripe.paymentIntents.create({
      amount: 1000,
      currency: 'eur',
      customer: String(strong.session.customer),
      payment_method: method,
      off_session: true,
      confirm: true,
    }),
  );
  assert.equal(other.statusCode, 400);
  assert.equal(other.param, 'payment_method');

  // Setup mode saves a card without paying.
  const setupSession = await stripe.checkout.sessions.create({
    mode: 'setup',
    currency: 'eur',
    setup_intent_data: { metadata: { booking_id: 'bk_1' } },
    success_url: 'http://127.0.0.1:1/saved',
  });
  assert.equal(setupSession.payment_status, 'no_payment_required');
  const saved = await standIn.pay(setupSession.id);
  assert.ok(saved.ok);
  assert.ok(saved.setupIntent);
  const setupIntent = await stripe.setupIntents.retrieve(saved.setupIntent.id);
  assert.equal(setupIntent.status, 'succeeded');
  assert.equal(setupIntent.customer, saved.session.customer);
  assert.deepEqual(setupIntent.metadata, { booking_id: 'bk_1' });

  await standIn.settle();
  const types = receiver.types();
  assert.ok(types.includes('setup_intent.succeeded'));
  assert.equal(types.filter((type) => type === 'payment_intent.payment_failed').length, 2);
});

test('an authorisation is cancelled, lapses, or expires after seven days', async (t) => {
  const env = await setup(t);
  const { stripe, standIn, receiver, tick } = env;
  const helper = await onboardedAccount(env);
  const hold = async () => {
    const session = await stripe.checkout.sessions.create(checkoutParams(helper.id));
    const paid = await standIn.pay(session.id);
    assert.equal(paid.paymentIntent?.status, 'requires_capture');
    return String(paid.paymentIntent?.id);
  };

  const first = await hold();
  const cancelled = await stripe.paymentIntents.cancel(first, { cancellation_reason: 'requested_by_customer' });
  assert.equal(cancelled.status, 'canceled');
  assert.equal(cancelled.cancellation_reason, 'requested_by_customer');
  assert.equal(cancelled.amount_capturable, 0);
  const late = await rejects(stripe.paymentIntents.capture(first));
  assert.equal(late.code, 'payment_intent_unexpected_state');
  const twice = await rejects(stripe.paymentIntents.cancel(first));
  assert.equal(twice.code, 'payment_intent_unexpected_state');

  const second = await hold();
  const lapsed = standIn.lapse(second);
  assert.equal(lapsed.status, 'canceled');
  assert.equal(lapsed.cancellation_reason, 'automatic');
  assert.equal((await stripe.paymentIntents.retrieve(second)).status, 'canceled');

  const third = await hold();
  tick(7 * 86_400);
  const expired = await stripe.paymentIntents.retrieve(third);
  assert.equal(expired.status, 'canceled');
  assert.equal(expired.cancellation_reason, 'automatic');

  // Sessions expire on request, or by themselves at expires_at.
  const session = await stripe.checkout.sessions.create(checkoutParams(helper.id));
  const ended = await stripe.checkout.sessions.expire(session.id);
  assert.equal(ended.status, 'expired');
  assert.equal(ended.url, null);
  const short = await stripe.checkout.sessions.create(
    checkoutParams(helper.id, { expires_at: Math.floor(NOW.getTime() / 1000) + 7 * 86_400 + 1800 }),
  );
  tick(1800);
  assert.equal((await stripe.checkout.sessions.retrieve(short.id)).status, 'expired');
  assert.equal((await standIn.pay(short.id)).status, 410);

  await standIn.settle();
  const types = receiver.types();
  assert.equal(types.filter((type) => type === 'payment_intent.canceled').length, 3);
  assert.equal(types.filter((type) => type === 'checkout.session.expired').length, 2);
  const canceledEvents = receiver.received.filter((r) => r.event.type === 'payment_intent.canceled');
  assert.deepEqual(
    canceledEvents.map((r) => (r.event.data.object as Stripe.PaymentIntent).cancellation_reason),
    ['requested_by_customer', 'automatic', 'automatic'],
  );
});

test('the same Idempotency-Key replays the answer; with other parameters it is refused', async (t) => {
  const env = await setup(t);
  const { stripe, standIn } = env;
  const helper = await onboardedAccount(env);
  const params = checkoutParams(helper.id);
  const first = await stripe.checkout.sessions.create(params, { idempotencyKey: 'pay_9:checkout:0' });
  const second = await stripe.checkout.sessions.create(params, { idempotencyKey: 'pay_9:checkout:0' });
  assert.equal(second.id, first.id);
  assert.equal(second.lastResponse.headers['idempotent-replayed'], 'true');
  assert.equal(first.lastResponse.headers['idempotent-replayed'], undefined);
  assert.equal(standIn.checkoutSessions.size, 1);

  const changed = await rejects(
    stripe.checkout.sessions.create(checkoutParams(helper.id, { client_reference_id: 'pay_10' }), {
      idempotencyKey: 'pay_9:checkout:0',
    }),
  );
  assert.ok(changed instanceof Stripe.errors.StripeIdempotencyError);
  assert.equal(changed.statusCode, 400);
  assert.equal(changed.rawType, 'idempotency_error');

  // Without a card to save (nor customer_creation 'always'), no customer is made.
  const paid = await standIn.pay(first.id);
  assert.equal(paid.session.customer, null);

  // A stored card error replays too: the same key does not charge again.
  const session = await stripe.checkout.sessions.create(
    checkoutParams(helper.id, {
      payment_intent_data: { setup_future_usage: 'off_session', transfer_data: { destination: helper.id } },
    }),
  );
  const saved = await standIn.pay(session.id, TEST_CARDS.declinesAfterAttaching);
  assert.equal(saved.ok, false, 'this card is declined whenever it is charged');
  const setupSession = await stripe.checkout.sessions.create({ mode: 'setup', currency: 'eur' });
  const attached = await standIn.pay(setupSession.id, TEST_CARDS.declinesAfterAttaching);
  const charge = {
    amount: 1500,
    currency: 'eur',
    customer: String(attached.session.customer),
    payment_method: String(attached.setupIntent?.payment_method),
    off_session: true,
    confirm: true,
  } satisfies Stripe.PaymentIntentCreateParams;
  const a = await rejects(stripe.paymentIntents.create(charge, { idempotencyKey: 'charge_1' }));
  const b = await rejects(stripe.paymentIntents.create(charge, { idempotencyKey: 'charge_1' }));
  assert.equal(a.code, 'card_declined');
  assert.equal(b.payment_intent?.id, a.payment_intent?.id);
  const made = [...standIn.paymentIntents.values()].filter((intent) => intent.amount === 1500);
  assert.equal(made.length, 1);
  assert.equal(standIn.requests.filter((r) => r.idempotencyKey === 'charge_1' && r.replayed).length, 1);
});

test('a timeout is retried by the SDK with the same key, and nothing happens twice', async (t) => {
  const env = await setup(t);
  const { stripe, standIn } = env;
  const helper = await onboardedAccount(env);
  // Funds available at once, so a transfer needs no source_transaction.
  const funding = await stripe.checkout.sessions.create(
    checkoutParams(helper.id, {
      payment_intent_data: { transfer_data: { destination: helper.id }, application_fee_amount: 4000 },
    }),
  );
  const funded = await standIn.pay(funding.id, TEST_CARDS.availableBalance);
  const fundedIntent = String(funded.paymentIntent?.id);
  await standIn.settle();
  const eventsBefore = standIn.events.length;

  standIn.failNext({ method: 'POST', path: '/v1/transfers' }, 'timeout');
  standIn.failNext({ method: 'POST', path: /^\/v1\/refunds$/ }, 'timeout');
  const [transfer, refund] = await Promise.all([
    stripe.transfers.create(
      { amount: 1200, currency: 'eur', destination: helper.id, metadata: { payment_id: 'pay_2' } },
      { idempotencyKey: 'transfer:pay_2:1' },
    ),
    stripe.refunds.create({ payment_intent: fundedIntent, amount: 700 }),
  ]);
  assert.match(transfer.id, /^tr_/);
  assert.equal(standIn.transfers.size, 2, 'the destination charge’s transfer and this one');
  assert.equal([...standIn.transfers.values()].filter((tr) => tr.metadata.payment_id === 'pay_2').length, 1);
  assert.equal(standIn.refunds.size, 1);
  assert.equal(refund.amount, 700);
  const attempts = standIn.requests.filter((r) => r.path === '/v1/transfers');
  assert.deepEqual(
    attempts.map((r) => [r.idempotencyKey, r.injected, r.replayed]),
    [
      ['transfer:pay_2:1', 'timeout', false],
      ['transfer:pay_2:1', null, true],
    ],
  );
  const refundAttempts = standIn.requests.filter((r) => r.path === '/v1/refunds');
  assert.equal(refundAttempts.length, 2);
  assert.equal(refundAttempts[0]?.idempotencyKey, refundAttempts[1]?.idempotencyKey, 'the SDK keyed the retry itself');
  await standIn.settle();
  assert.deepEqual(
    standIn.events.slice(eventsBefore).map((event) => event.type),
    ['transfer.created', 'charge.refunded', 'refund.created'],
  );

  // A 500 does nothing; the SDK's retry does it, once.
  standIn.failNext({ path: '/v1/payment_intents' }, 'server_error');
  const customerless = await stripe.paymentIntents.create({ amount: 900, currency: 'eur' });
  assert.equal(customerless.status, 'requires_payment_method');
  assert.equal([...standIn.paymentIntents.values()].filter((intent) => intent.amount === 900).length, 1);
  standIn.failNext({ path: '/v1/payment_intents' }, 'server_error', 3);
  const down = await rejects(stripe.paymentIntents.create({ amount: 901, currency: 'eur' }));
  assert.equal(down.statusCode, 500);
  assert.ok(down instanceof Stripe.errors.StripeAPIError);
  assert.equal([...standIn.paymentIntents.values()].filter((intent) => intent.amount === 901).length, 0);
});

test('a transfer fails when injected or when the funds are not there, and succeeds from its charge', async (t) => {
  const env = await setup(t);
  const { stripe, standIn } = env;
  const helper = await onboardedAccount(env);
  const other = await stripe.accounts.create({ type: 'express', country: 'DE', email: 'new@example.org' });
  const refusedDestination = await rejects(
    stripe.transfers.create({ amount: 100, currency: 'eur', destination: other.id }),
  );
  assert.equal(refusedDestination.code, 'insufficient_capabilities_for_transfer');
  const refusedSession = await rejects(stripe.checkout.sessions.create(checkoutParams(other.id)));
  assert.equal(refusedSession.code, 'insufficient_capabilities_for_transfer');
  assert.equal(refusedSession.param, 'payment_intent_data[transfer_data][destination]');

  // A charge kept on the platform (no destination), its funds pending for 7 days.
  const session = await stripe.checkout.sessions.create(checkoutParams(helper.id, { payment_intent_data: {} }));
  const paid = await standIn.pay(session.id);
  const chargeId = String(paid.paymentIntent?.latest_charge);

  const pending = await rejects(stripe.transfers.create({ amount: 3000, currency: 'eur', destination: helper.id }));
  assert.equal(pending.code, 'balance_insufficient');

  standIn.failNext({ method: 'POST', path: '/v1/transfers' }, 'transfer_failed');
  const injected = await rejects(
    stripe.transfers.create({ amount: 3000, currency: 'eur', destination: helper.id, source_transaction: chargeId }),
  );
  assert.equal(injected.statusCode, 400);
  assert.equal(injected.code, 'balance_insufficient');
  assert.equal(standIn.transfers.size, 0);

  const transfer = await stripe.transfers.create(
    { amount: 3000, currency: 'eur', destination: helper.id, source_transaction: chargeId, transfer_group: 'pay_3' },
    { idempotencyKey: 'transfer:pay_3:2' },
  );
  assert.equal(transfer.source_transaction, chargeId);
  assert.equal(transfer.destination, helper.id);
  const tooMuch = await rejects(
    stripe.transfers.create({ amount: 2001, currency: 'eur', destination: helper.id, source_transaction: chargeId }),
  );
  assert.equal(tooMuch.code, 'balance_insufficient');

  env.tick(7 * 86_400);
  const balance = await stripe.balance.retrieve();
  assert.deepEqual(
    balance.available.map((b) => [b.currency, b.amount]),
    [['eur', 2000]],
  );
  const fromBalance = await stripe.transfers.create({ amount: 2000, currency: 'eur', destination: helper.id });
  assert.equal(fromBalance.amount, 2000);
});

test('webhooks are signed, retried, redelivered, and can be held and sent in reverse', async (t) => {
  const env = await setup(t);
  const { stripe, standIn, receiver } = env;
  const helper = await onboardedAccount(env);
  await standIn.settle();

  // A receiver that fails twice gets the event a third time.
  receiver.failNext('payment_intent.amount_capturable_updated', 2);
  const session = await stripe.checkout.sessions.create(checkoutParams(helper.id));
  await standIn.pay(session.id);
  await standIn.settle();
  const completed = standIn.events.find((event) => event.type === 'checkout.session.completed');
  assert.ok(completed);
  const capturable = standIn.events.find((event) => event.type === 'payment_intent.amount_capturable_updated');
  assert.ok(capturable);
  assert.deepEqual(
    standIn.deliveries.filter((d) => d.eventId === capturable.id).map((d) => [d.attempt, d.status]),
    [
      [1, 500],
      [2, 500],
      [3, 200],
    ],
  );
  // The later event went on meanwhile: it arrived before the retried one.
  const order = receiver.received.map((r) => r.event.id);
  assert.ok(order.indexOf(completed.id) < order.indexOf(capturable.id));
  assert.equal((await stripe.events.retrieve(capturable.id)).pending_webhooks, 0);

  // A second delivery of the same event, byte for byte the same payload.
  const again = await standIn.redeliver(completed.id);
  assert.equal(again.status, 200);
  assert.equal(again.redelivery, true);
  const copies = receiver.received.filter((r) => r.event.id === completed.id);
  assert.equal(copies.length, 2);
  assert.equal(copies[0]?.raw, copies[1]?.raw);

  // Held, then sent in reverse order.
  standIn.holdWebhooks();
  const intent = String(standIn.checkoutSessions.get(session.id)?.payment_intent);
  await stripe.paymentIntents.capture(intent);
  await stripe.refunds.create({ payment_intent: intent, amount: 500 });
  const before = receiver.received.length;
  await standIn.settle();
  assert.equal(receiver.received.length, before, 'nothing is sent while held');
  await standIn.releaseWebhooks({ order: 'reverse' });
  await standIn.settle();
  assert.deepEqual(receiver.types().slice(before), [
    'refund.created',
    'charge.refunded',
    'payment_intent.succeeded',
    'transfer.created',
  ]);

  // A wrong secret is refused by the receiver, and recorded so.
  standIn.setWebhook(receiver.url, 'whsec_wrong');
  await stripe.paymentIntents.cancel(String((await stripe.paymentIntents.create({ amount: 700, currency: 'eur' })).id));
  await standIn.settle();
  const last = standIn.deliveries.at(-1);
  assert.equal(last?.type, 'payment_intent.canceled');
  assert.equal(last?.status, 400);
  assert.match(receiver.rejected.at(-1) ?? '', /No signatures found matching the expected signature/);
});

test('balance transactions list newest first, by page and by creation time', async (t) => {
  const env = await setup(t);
  const { stripe, standIn, tick } = env;
  const helper = await onboardedAccount(env);
  const pay = async (amount: number) => {
    const session = await stripe.checkout.sessions.create(
      checkoutParams(helper.id, {
        line_items: [
          { price_data: { currency: 'eur', unit_amount: amount, product_data: { name: 'Job' } }, quantity: 1 },
        ],
        payment_intent_data: {},
      }),
    );
    const paid = await standIn.pay(session.id);
    return String(paid.paymentIntent?.latest_charge);
  };
  const start = Math.floor(NOW.getTime() / 1000);
  const first = await pay(1000);
  tick(3600);
  const second = await pay(2000);
  tick(3600);
  const third = await pay(3000);

  const all = await stripe.balanceTransactions.list();
  assert.equal(all.object, 'list');
  assert.equal(all.url, '/v1/balance_transactions');
  assert.deepEqual(
    all.data.map((txn) => txn.source),
    [third, second, first],
  );
  assert.equal(all.data[0]?.type, 'charge');
  assert.equal(all.data[0]?.status, 'pending');
  assert.equal(all.data[0]?.net, 3000);

  const page = await stripe.balanceTransactions.list({ limit: 2 });
  assert.equal(page.has_more, true);
  const next = await stripe.balanceTransactions.list({ limit: 2, starting_after: page.data[1]?.id });
  assert.deepEqual(
    next.data.map((txn) => txn.source),
    [first],
  );
  assert.equal(next.has_more, false);

  const window = await stripe.balanceTransactions.list({ created: { gte: start + 3600, lt: start + 7200 } });
  assert.deepEqual(
    window.data.map((txn) => txn.source),
    [second],
  );
  const listed: string[] = [];
  for await (const txn of stripe.balanceTransactions.list({ limit: 1 })) listed.push(String(txn.source));
  assert.deepEqual(listed, [third, second, first]);
  const withSource = await stripe.balanceTransactions.list({ limit: 1, expand: ['data.source'] });
  const source = withSource.data[0]?.source as Stripe.Charge | undefined;
  assert.equal(source?.id, third);
});

test('requests are checked as Stripe checks them', async (t) => {
  const env = await setup(t);
  const { stripe, standIn } = env;
  const unknown = await rejects(
    stripe.paymentIntents.create({ amount: 1000, currency: 'eur', colour: 'red' } as Stripe.PaymentIntentCreateParams),
  );
  assert.equal(unknown.code, 'parameter_unknown');
  assert.equal(unknown.param, 'colour');
  const missing = await rejects(stripe.paymentIntents.create({ currency: 'eur' } as Stripe.PaymentIntentCreateParams));
  assert.equal(missing.code, 'parameter_missing');
  assert.equal(missing.param, 'amount');
  const nested = await rejects(
    stripe.checkout.sessions.create({
      mode: 'payment',
      line_items: [{ price_data: { currency: 'eur', unit_amount: 1000 } as never, quantity: 1 }],
    }),
  );
  assert.equal(nested.param, 'line_items[0][price_data][product_data]');
  const small = await rejects(stripe.paymentIntents.create({ amount: 10, currency: 'eur' }));
  assert.equal(small.code, 'amount_too_small');
  const fee = await rejects(
    stripe.paymentIntents.create({ amount: 1000, currency: 'eur', application_fee_amount: 10 }),
  );
  assert.equal(fee.param, 'application_fee_amount');

  const wrongKey = new Stripe('rk_live_nope', { host: '127.0.0.1', port: standIn.port, protocol: 'http' });
  const unauthorised = await rejects(wrongKey.balance.retrieve());
  assert.ok(unauthorised instanceof Stripe.errors.StripeAuthenticationError);
  assert.equal(unauthorised.statusCode, 401);
  const noKey = await fetch(`${standIn.url}/v1/balance`);
  assert.equal(noKey.status, 401);

  const ghost = await rejects(stripe.paymentIntents.retrieve('pi_ghost'));
  assert.equal(ghost.statusCode, 404);
  assert.equal(ghost.message, "No such payment_intent: 'pi_ghost'");
  assert.deepEqual(standIn.requests.at(-1), {
    method: 'GET',
    path: '/v1/payment_intents/pi_ghost',
    idempotencyKey: null,
    params: {},
    status: 404,
    replayed: false,
    injected: null,
  });
});
