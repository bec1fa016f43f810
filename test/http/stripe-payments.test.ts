/**
 * Issue 32 with PAYMENTS_PROVIDER=stripe: the service drives the stateful Stripe stand-in
 * (test/helpers/stripe-stand-in.ts) over real HTTP through the official `stripe` SDK, and the
 * stand-in sends its events, signed, to the listening service. Onboarding, a job paid and paid
 * out, a booking's rent, deposit and release after an accepted claim, a disputed claim decided on
 * a lapsed hold (charged off-session), the payer asked when the bank wants them, cancellations
 * under each policy (a capture of what is kept, a refund), a helper's no-show, and the failures:
 * a declined card, events twice, late and out of order, a timeout retried with the same key, 5xx
 * answers, a bad signature. `ledger check` passes after each story.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type TestContext, test } from 'node:test';
import type Stripe from 'stripe';
import { stripeProvider } from '../../src/adapters/stripe.js';
import { decideClaimCommand } from '../../src/cli/admin-claims.js';
import { checkLedgerCommand, reconcileLedgerCommand } from '../../src/cli/admin-ledger.js';
import { scopeNeed } from '../../src/domain/oauth-scopes.js';
import { createMailer } from '../../src/mail/mailer.js';
import { runProviderTasks } from '../../src/services/stripe-payments.js';
import { adminContext } from '../helpers/admin-cli.js';
import { buildTestApp, clientFor, createKey, NOW } from '../helpers/app.js';
import { helperBody, JOB_BODY, LISTING_BODY, PROVIDER_BODY } from '../helpers/bodies.js';
import { startStripeStandIn, TEST_CARDS } from '../helpers/stripe-stand-in.js';

const HOUR = 3_600_000;
const BALANCES = /^The ledger balances/;

async function setup(t: TestContext) {
  let now = NOW;
  const SECRET = 'whsec_test_standin';
  const stripe = await startStripeStandIn({ now: () => now, webhookSecret: SECRET });
  t.after(() => stripe.close());
  const provider = stripeProvider({
    secretKey: 'sk_test_standin',
    webhookSecret: SECRET,
    apiUrl: stripe.url,
    timeoutMs: 1_000,
  });
  const { app, db } = await buildTestApp(
    t,
    () => now,
    {
      PAYMENTS_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: 'sk_test_standin',
      STRIPE_WEBHOOK_SECRET: SECRET,
      // The provider sweep waits; the tests make the tasks themselves, one step at a time.
      EVENTS_POLL_MS: '60000',
    },
    { payments: provider },
  );
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  stripe.setWebhook(`${address}/webhooks/stripe`, SECRET);
  const client = async (email: string, account_type: 'private' | 'commercial' = 'private') => {
    const created = await createKey(db, { email, account_type });
    return { ...clientFor(app, created.key), accountId: created.accountId };
  };
  const lines: string[] = [];
  const outbox = mkdtempSync(join(tmpdir(), 'stripe-mail-'));
  const mailer = createMailer({ OUTBOX_DIR: outbox, MAIL_FROM: 'api@example.org', SMTP_URL: undefined });
  t.after(() => {
    mailer.close();
    rmSync(outbox, { recursive: true, force: true });
  });
  const admin = () => ({ ...adminContext(db.kysely, lines), mailer, now, payments: provider });
  const ledger = async (command: typeof checkLedgerCommand) => {
    lines.length = 0;
    await command(admin());
    return lines.join('\n');
  };
  const s = {
    app,
    db,
    stripe,
    provider,
    client,
    admin,
    lines,
    ledgerCheck: () => ledger(checkLedgerCommand),
    /** Makes the due provider tasks, then waits for Stripe's events to arrive. */
    tasks: async () => {
      const made = await runProviderTasks({ db: db.kysely, now, claim: null }, provider);
      await stripe.settle();
      return made;
    },
    advance: (hours: number) => {
      now = new Date(now.getTime() + hours * HOUR);
    },
    /** An account with its payout account onboarded at Stripe (events delivered). */
    payee: async (email: string, account_type: 'private' | 'commercial' = 'private') => {
      const who = await client(email, account_type);
      if (account_type === 'commercial') assert.equal((await who.put('/v1/me/provider', PROVIDER_BODY)).status, 200);
      const link = await who.post('/v1/me/payouts/onboarding', { return_url: 'https://app.example.org/payouts' });
      assert.equal(link.status, 200, link.raw);
      assert.match(link.body.url, /^http:\/\/127\.0\.0\.1:\d+\/connect\/onboarding\/acct_/);
      assert.deepEqual([link.body.payouts.status, link.body.payouts.charges_enabled], ['onboarding', false]);
      const row = await db.kysely
        .selectFrom('payout_accounts')
        .select('provider_account_id')
        .where('account_id', '=', who.accountId)
        .executeTakeFirstOrThrow();
      stripe.completeOnboarding(row.provider_account_id);
      await stripe.settle();
      return who;
    },
    /** The payer checks out at Stripe with `card`; the payment afterwards. */
    pay: async (
      payer: { post: (url: string) => Promise<{ status: number; body: any; raw: string }> },
      id: string,
      card: string = TEST_CARDS.success,
    ) => {
      const checkout = await payer.post(`/v1/payments/${id}/checkout`);
      assert.equal(checkout.status, 200, checkout.raw);
      const sessionId = new URL(checkout.body.url).pathname.split('/').pop() as string;
      const paid = await stripe.pay(sessionId, card);
      await stripe.settle();
      return { sessionId, paid };
    },
  };
  return s;
}
type Setup = Awaited<ReturnType<typeof setup>>;

/** A job of the poster for the helper at `price` with `policy`, `hoursAhead`; accepted; its payment id. */
async function acceptedJob(
  poster: Awaited<ReturnType<Setup['client']>>,
  helper: Awaited<ReturnType<Setup['client']>>,
  price: number,
  options: { policy?: string; hoursAhead?: number } = {},
) {
  const desired_at = new Date(NOW.getTime() + (options.hoursAhead ?? 2) * HOUR).toISOString();
  const job = await poster.post('/v1/jobs', {
    ...JOB_BODY,
    price_eur: price,
    desired_at,
    cancellation_policy: options.policy ?? 'flexible',
  });
  assert.equal(job.status, 201, job.raw);
  const profile = await helper.post('/v1/helpers', helperBody('Gartenbau Firm'));
  const applied = await helper.post(`/v1/jobs/${job.body.id}/applications`, { helper_id: profile.body.id });
  assert.equal(applied.status, 201, applied.raw);
  const accepted = await poster.post(`/v1/jobs/${job.body.id}/applications/${applied.body.id}/accept`);
  assert.equal(accepted.status, 200, accepted.raw);
  return {
    jobId: job.body.id as string,
    applicationId: applied.body.id as string,
    paymentId: accepted.body.payments[0].id as string,
  };
}

const intentOf = async (s: Setup, paymentId: string) => {
  const row = await s.db.kysely
    .selectFrom('payments')
    .selectAll()
    .where('id', '=', paymentId)
    .executeTakeFirstOrThrow();
  return s.stripe.paymentIntents.get(row.provider_ref as string) as Stripe.PaymentIntent;
};

test('a job paid at Stripe and paid out: onboarding, a declined card, authorised, captured on completion; events twice and out of order change nothing', async (t) => {
  const s = await setup(t);
  const poster = await s.client('poster@example.org');
  const firm = await s.payee('firm@example.org', 'commercial');
  const payouts = await firm.get('/v1/me/payouts');
  assert.deepEqual(
    [payouts.body.status, payouts.body.charges_enabled, payouts.body.payouts_enabled, payouts.body.currently_due],
    ['enabled', true, true, []],
  );
  const job = await acceptedJob(poster, firm, 50);
  const payment = (await poster.get(`/v1/payments/${job.paymentId}`)).body;
  assert.deepEqual(
    [payment.provider, payment.status, payment.fee_eur, payment.next_action],
    ['stripe', 'awaiting_payment', 5, { type: 'pay_at_stripe', url: `/v1/payments/${job.paymentId}/checkout` }],
  );
  // Not by hand, and not by the payee.
  const byHand = await poster.post(`/v1/payments/${job.paymentId}/paid`);
  assert.deepEqual([byHand.status, byHand.body.error], [409, 'invalid_state_transition'], byHand.raw);
  assert.equal((await firm.post(`/v1/payments/${job.paymentId}/checkout`)).status, 403);

  // A declined card: still awaiting payment, with the reason.
  const declined = await s.pay(poster, job.paymentId, TEST_CARDS.declined);
  assert.equal(declined.paid.ok, false);
  const after = (await poster.get(`/v1/payments/${job.paymentId}`)).body;
  assert.deepEqual([after.status, after.last_error], ['awaiting_payment', 'card_declined']);
  assert.equal(
    (await firm.get(`/v1/payments/${job.paymentId}`)).body.last_error,
    undefined,
    "not the payee's business",
  );

  // The same session with a good card, its events held back and delivered in reverse order.
  s.stripe.holdWebhooks();
  const paid = await s.stripe.pay(declined.sessionId, TEST_CARDS.success);
  assert.equal(paid.ok, true);
  assert.equal(paid.paymentIntent?.status, 'requires_capture');
  await s.stripe.releaseWebhooks({ order: 'reverse' });
  await s.stripe.settle();
  const authorised = (await poster.get(`/v1/payments/${job.paymentId}`)).body;
  assert.deepEqual([authorised.status, authorised.last_error], ['paid', undefined]);

  // An event delivered again is recorded once and changes nothing.
  const events = await s.db.kysely.selectFrom('events').select('id').where('subject_id', '=', job.paymentId).execute();
  const again = await s.stripe.redeliver(s.stripe.events.at(-1)?.id as string);
  assert.equal(again.status, 200);
  const eventsAfter = await s.db.kysely
    .selectFrom('events')
    .select('id')
    .where('subject_id', '=', job.paymentId)
    .execute();
  assert.equal(eventsAfter.length, events.length);

  // Completed: the share is captured (the capture's answer lost once: the SDK retries with the same key).
  s.advance(3);
  s.stripe.failNext({ method: 'POST', path: /\/capture$/ }, 'timeout');
  assert.equal((await poster.post(`/v1/jobs/${job.jobId}/complete`)).status, 200);
  assert.equal(await s.tasks(), 1);
  const captures = s.stripe.requests.filter((r) => r.path.endsWith('/capture'));
  assert.ok(captures.length >= 2, 'the timed-out capture was sent again');
  assert.equal(new Set(captures.map((r) => r.idempotencyKey)).size, 1, 'with the same idempotency key');
  const intent = await intentOf(s, job.paymentId);
  assert.deepEqual([intent.status, intent.amount_received, intent.application_fee_amount], ['succeeded', 5_000, 500]);
  const received = (await firm.get(`/v1/payments/${job.paymentId}`)).body;
  assert.deepEqual(
    [received.status, received.amount_eur, received.fee_eur, received.payout_eur],
    ['received', 50, 5, 45],
  );
  assert.match(await s.ledgerCheck(), BALANCES);
  // What Stripe's balance says agrees with the books.
  s.lines.length = 0;
  await reconcileLedgerCommand(s.admin(), '', { year: '2026' });
  assert.match(s.lines.join('\n'), /agree/, s.lines.join('\n'));
});

test('a booking at Stripe: rent charged at once, the deposit held and captured for an accepted claim; a lapsed hold charged off-session for a decided claim', async (t) => {
  const s = await setup(t);
  const owner = await s.payee('owner@example.org');
  const renter = await s.client('renter@example.org');
  const listing = await owner.post('/v1/listings', { ...LISTING_BODY, instant_booking: true });
  assert.equal(listing.status, 201, listing.raw);
  const book = async (start: string, end: string) => {
    const booked = await renter.post(`/v1/listings/${listing.body.id}/bookings`, { start_date: start, end_date: end });
    assert.equal(booked.status, 201, booked.raw);
    const of = (kind: string) => booked.body.payments.find((p: { kind: string }) => p.kind === kind).id as string;
    return { bookingId: booked.body.id as string, rentId: of('rent'), depositId: of('deposit') };
  };
  const first = await book('2026-11-20', '2026-11-22');
  await s.pay(renter, first.rentId);
  await s.pay(renter, first.depositId);
  const rent = (await owner.get(`/v1/payments/${first.rentId}`)).body;
  const deposit = (await owner.get(`/v1/payments/${first.depositId}`)).body;
  assert.deepEqual([rent.status, rent.amount_eur], ['received', 24], 'rent is charged at once');
  assert.deepEqual([deposit.status, deposit.next_action?.type], ['paid', 'release_deposit'], 'the deposit is held');
  assert.equal((await intentOf(s, first.depositId)).status, 'requires_capture');

  assert.equal((await owner.post(`/v1/bookings/${first.bookingId}/pick-up`)).status, 200);
  s.advance(48);
  assert.equal((await owner.post(`/v1/bookings/${first.bookingId}/return`)).status, 200);
  const claim = await owner.post(`/v1/bookings/${first.bookingId}/claims`, {
    amount_eur: 12.5,
    text: 'Eine Bank hat einen Riss im Sitzbrett.',
    photos: ['https://example.org/riss.jpg'],
  });
  assert.equal(claim.status, 201, claim.raw);
  assert.equal((await renter.post(`/v1/claims/${claim.body.id}/accept`)).status, 200);
  const releasing = await owner.post(`/v1/payments/${first.depositId}/release`);
  assert.equal(releasing.status, 200, releasing.raw);
  assert.equal(releasing.body.status, 'paid', 'the release follows Stripe');
  const twice = await owner.post(`/v1/payments/${first.depositId}/release`);
  assert.equal(twice.status, 409, twice.raw);
  assert.equal(await s.tasks(), 1);
  const released = (await owner.get(`/v1/payments/${first.depositId}`)).body;
  assert.deepEqual([released.status, released.kept_eur], ['released', 12.5]);
  const captured = await intentOf(s, first.depositId);
  assert.deepEqual(
    [captured.status, captured.amount_received],
    ['succeeded', 1_250],
    'partial capture, the rest let go',
  );
  assert.match(await s.ledgerCheck(), BALANCES);

  // The second booking's hold lapses (7 days); a disputed claim decided by an operator is charged off-session.
  const second = await book('2026-11-24', '2026-11-25');
  await s.pay(renter, second.rentId);
  await s.pay(renter, second.depositId);
  s.stripe.lapse((await intentOf(s, second.depositId)).id);
  await s.stripe.settle();
  const lapsed = (await renter.get(`/v1/payments/${second.depositId}`)).body;
  assert.deepEqual([lapsed.status, lapsed.last_error], ['paid', 'authorization_expired']);
  s.advance(48);
  assert.equal((await owner.post(`/v1/bookings/${second.bookingId}/pick-up`)).status, 200);
  s.advance(24);
  assert.equal((await owner.post(`/v1/bookings/${second.bookingId}/return`)).status, 200);
  const disputed = await owner.post(`/v1/bookings/${second.bookingId}/claims`, {
    amount_eur: 10,
    text: 'Die Tischplatte ist verkratzt.',
  });
  assert.equal(disputed.status, 201, disputed.raw);
  assert.equal(
    (await renter.post(`/v1/claims/${disputed.body.id}/dispute`, { text: 'Die Kratzer waren schon da.' })).status,
    200,
  );
  await decideClaimCommand(s.admin(), disputed.body.id, { 'amount-eur': '5', explanation: 'Halb und halb.' });
  assert.equal((await owner.post(`/v1/payments/${second.depositId}/release`)).status, 200);
  assert.equal(await s.tasks(), 1);
  const charged = (await owner.get(`/v1/payments/${second.depositId}`)).body;
  assert.deepEqual([charged.status, charged.kept_eur], ['released', 5]);
  const offSession = await intentOf(s, second.depositId);
  assert.deepEqual([offSession.status, offSession.amount_received], ['succeeded', 500]);
  const offSessionCall = s.stripe.requests.find((r) => r.method === 'POST' && r.path === '/v1/payment_intents');
  assert.deepEqual([offSessionCall?.params.off_session, offSessionCall?.params.amount], ['true', '500']);
  assert.match(await s.ledgerCheck(), BALANCES);
});

test('when the bank wants the payer for an off-session charge, the payer is asked to pay at Stripe', async (t) => {
  const s = await setup(t);
  const owner = await s.payee('owner@example.org');
  const renter = await s.client('renter@example.org');
  const listing = await owner.post('/v1/listings', { ...LISTING_BODY, instant_booking: true });
  const booked = await renter.post(`/v1/listings/${listing.body.id}/bookings`, {
    start_date: '2026-11-20',
    end_date: '2026-11-21',
  });
  assert.equal(booked.status, 201, booked.raw);
  const depositId = booked.body.payments.find((p: { kind: string }) => p.kind === 'deposit').id as string;
  await s.pay(renter, depositId, TEST_CARDS.authenticationRequired);
  s.stripe.lapse((await intentOf(s, depositId)).id);
  await s.stripe.settle();
  assert.equal((await owner.post(`/v1/bookings/${booked.body.id}/pick-up`)).status, 200);
  s.advance(48);
  assert.equal((await owner.post(`/v1/bookings/${booked.body.id}/return`)).status, 200);
  const claim = await owner.post(`/v1/bookings/${booked.body.id}/claims`, {
    amount_eur: 8,
    text: 'Ein Bein ist verbogen.',
  });
  assert.equal((await renter.post(`/v1/claims/${claim.body.id}/accept`)).status, 200);
  assert.equal((await owner.post(`/v1/payments/${depositId}/release`)).status, 200);
  assert.equal(await s.tasks(), 1);
  const mine = (await renter.get('/v1/payments?role=payer')).body.data as {
    id: string;
    kind: string;
    status: string;
    amount_eur: number;
    last_error?: string;
    next_action: { type: string } | null;
  }[];
  assert.deepEqual(
    mine.map((p) => [p.kind, p.status, p.amount_eur, p.last_error ?? null, p.next_action?.type ?? null]).sort(),
    [
      ['deposit', 'released', 20, 'authorization_expired', null],
      ['fee', 'awaiting_payment', 8, 'authentication_required', 'pay_at_stripe'],
      ['rent', 'awaiting_payment', 16, null, 'pay_at_stripe'],
    ],
  );
  const asked = mine.find((p) => p.kind === 'fee')?.id as string;
  await s.pay(renter, asked);
  assert.equal((await owner.get(`/v1/payments/${asked}`)).body.status, 'received');
  assert.match(await s.ledgerCheck(), BALANCES);
});

test("cancellations at Stripe follow the policy (a capture of what is kept, a refund of what was charged); a helper's no-show lets the hold go", async (t) => {
  const s = await setup(t);
  const poster = await s.client('poster@example.org');
  const helper = await s.payee('helper@example.org');
  const cases = [
    ['flexible', 0],
    ['moderate', 2_000],
    ['strict', 4_000],
  ] as const;
  for (const [policy, kept] of cases) {
    const job = await acceptedJob(poster, helper, 40, { policy, hoursAhead: 30 });
    await s.pay(poster, job.paymentId);
    const cancelled = await poster.post(`/v1/jobs/${job.jobId}/cancel`);
    assert.equal(cancelled.status, 200, cancelled.raw);
    assert.equal(cancelled.body.cancellation.fee_eur * 100, kept, policy);
    assert.equal(await s.tasks(), 1);
    const intent = await intentOf(s, job.paymentId);
    const row = (await poster.get(`/v1/payments/${job.paymentId}`)).body;
    if (kept === 0) {
      assert.deepEqual([intent.status, row.status], ['canceled', 'cancelled'], policy);
    } else {
      assert.deepEqual(
        [intent.status, intent.amount_received, row.status, row.amount_eur * 100],
        ['succeeded', kept, 'received', kept],
        policy,
      );
    }
  }

  // Rent charged at once, then cancelled by the renter under strict within 48 h: nothing back; under moderate half.
  const listing = await helper.post('/v1/listings', {
    ...LISTING_BODY,
    instant_booking: true,
    cancellation_policy: 'moderate',
  });
  const booked = await poster.post(`/v1/listings/${listing.body.id}/bookings`, {
    start_date: '2026-11-22',
    end_date: '2026-11-23',
  });
  const rentId = booked.body.payments.find((p: { kind: string }) => p.kind === 'rent').id as string;
  await s.pay(poster, rentId);
  const cancelled = await poster.post(`/v1/bookings/${booked.body.id}/cancel`);
  assert.equal(cancelled.status, 200, cancelled.raw);
  assert.equal(cancelled.body.cancellation.refund_percent, 50);
  assert.equal(await s.tasks(), 1);
  const refund = (await poster.get('/v1/payments?role=payee')).body.data.find(
    (p: { kind: string }) => p.kind === 'refund',
  );
  assert.deepEqual([refund.status, refund.amount_eur], ['received', 8]);
  const refunded = await intentOf(s, rentId);
  const charge = s.stripe.charges.get(refunded.latest_charge as string) as Stripe.Charge;
  assert.equal(charge.amount_refunded, 800);

  // A page paid after its payment was cancelled: the hold is let go, the books never hold it.
  const stale = await acceptedJob(poster, helper, 25, { hoursAhead: 40 });
  const page = await poster.post(`/v1/payments/${stale.paymentId}/checkout`);
  assert.equal(page.status, 200, page.raw);
  assert.equal((await poster.post(`/v1/jobs/${stale.jobId}/cancel`)).status, 200);
  assert.equal((await poster.get(`/v1/payments/${stale.paymentId}`)).body.status, 'cancelled');
  const late = await s.stripe.pay(new URL(page.body.url).pathname.split('/').pop() as string);
  assert.equal(late.paymentIntent?.status, 'requires_capture');
  await s.stripe.settle();
  assert.equal(await s.tasks(), 1);
  assert.equal(s.stripe.paymentIntents.get(late.paymentIntent?.id as string)?.status, 'canceled');
  assert.equal((await poster.get(`/v1/payments/${stale.paymentId}`)).body.status, 'cancelled');

  // A helper's no-show: the whole hold is let go.
  const absent = await acceptedJob(poster, helper, 30, { hoursAhead: 1 });
  await s.pay(poster, absent.paymentId);
  s.advance(2);
  const reported = await poster.post(`/v1/jobs/${absent.jobId}/applications/${absent.applicationId}/no-show`);
  assert.equal(reported.status, 200, reported.raw);
  assert.equal(await s.tasks(), 1);
  assert.equal((await intentOf(s, absent.paymentId)).status, 'canceled');
  assert.equal((await poster.get(`/v1/payments/${absent.paymentId}`)).body.status, 'cancelled');
  assert.match(await s.ledgerCheck(), BALANCES);
});

test('Stripe down or refusing: 5xx answers keep the task and its key; a refused transfer and an unreachable Stripe are clear errors; a bad signature is refused', async (t) => {
  const s = await setup(t);
  const poster = await s.client('poster@example.org');
  const helper = await s.payee('helper@example.org');
  const job = await acceptedJob(poster, helper, 20);
  await s.pay(poster, job.paymentId);
  s.advance(3);
  assert.equal((await poster.post(`/v1/jobs/${job.jobId}/complete`)).status, 200);
  // More 500s than the SDK retries: the task stays pending with its attempt (and key).
  s.stripe.failNext({ method: 'POST', path: /\/capture$/ }, 'server_error', 3);
  assert.equal(await s.tasks(), 1);
  const pending = await s.db.kysely.selectFrom('provider_tasks').selectAll().executeTakeFirstOrThrow();
  assert.deepEqual([pending.status, pending.attempt], ['pending', 1]);
  assert.equal((await poster.get(`/v1/payments/${job.paymentId}`)).body.status, 'paid');
  s.advance(1);
  assert.equal(await s.tasks(), 1);
  assert.equal((await poster.get(`/v1/payments/${job.paymentId}`)).body.status, 'received');
  const keys = s.stripe.requests.filter((r) => r.path.endsWith('/capture')).map((r) => r.idempotencyKey);
  assert.equal(new Set(keys).size, 1, 'every try with the same key');
  assert.equal((await intentOf(s, job.paymentId)).amount_received, 2_000);

  // Stripe refuses the transfer to a payee whose account cannot take it (our record was stale): a 409 that says so.
  const newcomer = await s.client('newcomer@example.org');
  assert.equal((await newcomer.post('/v1/me/payouts/onboarding', {})).status, 200);
  await s.db.kysely
    .updateTable('payout_accounts')
    .set({ charges_enabled: 1 })
    .where('account_id', '=', newcomer.accountId)
    .execute();
  const stale = await acceptedJob(poster, newcomer, 15, { hoursAhead: 10 });
  const refused = await poster.post(`/v1/payments/${stale.paymentId}/checkout`);
  assert.deepEqual([refused.status, refused.body.error], [409, 'provider_refused'], refused.raw);
  assert.match(refused.body.message, /insufficient_capabilities_for_transfer/);
  assert.match(refused.body.suggestion, /onboarding/);
  // Stripe out of reach (more 5xx than the SDK retries): 503, nothing changed; the next try works.
  const ready = await acceptedJob(poster, helper, 12, { hoursAhead: 10 });
  s.stripe.failNext({ method: 'POST', path: '/v1/checkout/sessions' }, 'server_error', 3);
  const down = await poster.post(`/v1/payments/${ready.paymentId}/checkout`);
  assert.deepEqual([down.status, down.body.error], [503, 'service_unavailable'], down.raw);
  assert.equal((await poster.get(`/v1/payments/${ready.paymentId}`)).body.status, 'awaiting_payment');
  assert.equal((await poster.post(`/v1/payments/${ready.paymentId}/checkout`)).status, 200);

  const forged = await s.app.inject({
    method: 'POST',
    url: '/webhooks/stripe',
    headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
    payload: JSON.stringify({ id: 'evt_forged', type: 'payment_intent.succeeded', data: { object: { id: 'pi_x' } } }),
  });
  assert.deepEqual([forged.statusCode, forged.json().error], [400, 'invalid_signature']);
  assert.match(await s.ledgerCheck(), BALANCES);
});

test('with the manual provider, payouts and checkout say so', async (t) => {
  const { app, db } = await buildTestApp(t);
  const who = await createKey(db, { email: 'someone@example.org' });
  const c = clientFor(app, who.key);
  const payouts = await c.get('/v1/me/payouts');
  assert.deepEqual([payouts.status, payouts.body.error], [409, 'payouts_unavailable']);
  assert.match(payouts.body.suggestion, /bank-account/);
  const onboarding = await c.post('/v1/me/payouts/onboarding', {});
  assert.equal(onboarding.status, 409);
});

test('with a real Stripe test account (STRIPE_TEST_SECRET_KEY), the adapter talks to Stripe itself', {
  skip: !process.env.STRIPE_TEST_SECRET_KEY && 'set STRIPE_TEST_SECRET_KEY=sk_test_... to run against Stripe test mode',
}, async () => {
  const provider = stripeProvider({
    secretKey: process.env.STRIPE_TEST_SECRET_KEY as string,
    webhookSecret: 'whsec_unused',
  });
  const account = await provider.createConnectedAccount({
    accountId: `acc_realtest_${Date.now()}`,
    email: 'realtest@example.org',
    idempotencyKey: `realtest-${Date.now()}`,
  });
  assert.match(account.id, /^acct_/);
  const link = await provider.onboardingLink({
    connectedAccountId: account.id,
    returnUrl: 'https://example.org/return',
    refreshUrl: 'https://example.org/refresh',
  });
  assert.match(link.url, /^https:\/\/connect\.stripe\.com\//);
});

test('apps acting for a person may fetch the Stripe page and read payouts; setting up payouts stays the person’s', () => {
  assert.deepEqual(scopeNeed('POST', '/v1/payments/:id/checkout'), { kind: 'scope', scope: 'payments' });
  assert.deepEqual(scopeNeed('GET', '/v1/me/payouts'), { kind: 'scope', scope: 'payments' });
  assert.equal(scopeNeed('POST', '/v1/me/payouts/onboarding').kind, 'never');
});
