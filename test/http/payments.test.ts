/**
 * Issue 32, first part: payments with the manual provider. Accepting an application creates a
 * payment of the helper's share (the price split in whole cents, the leftover cents to the first
 * acceptances); the payer marks it paid, the payee confirms receipt, which books the settlement and
 * a commercial provider's fee in the ledger; cancelling the job cancels what is unpaid. Only the two
 * parties see a payment. `ledger check` passes after each story, and fails on books that do not
 * balance. Through HTTP, on the run's engine.
 */
import assert from 'node:assert/strict';
import { type TestContext, test } from 'node:test';
import { checkLedgerCommand, ledgerReport, listFeesOwed } from '../../src/cli/admin-ledger.js';
import { scopeNeed } from '../../src/domain/oauth-scopes.js';
import { feeCents, shareCents } from '../../src/domain/payments.js';
import { adminContext } from '../helpers/admin-cli.js';
import { buildTestApp, clientFor, createKey, NOW } from '../helpers/app.js';
import { helperBody, JOB_BODY, PROVIDER_BODY } from '../helpers/bodies.js';

async function setup(t: TestContext) {
  const { app, db } = await buildTestApp(t);
  const client = async (email: string, account_type: 'private' | 'commercial' = 'private') => {
    const created = await createKey(db, { email, account_type });
    return { ...clientFor(app, created.key), accountId: created.accountId };
  };
  const owner = await client('owner@example.org');
  const stranger = await client('stranger@example.org');
  const jana = await client('jana@example.org');
  const firm = await client('firm@example.org', 'commercial');
  assert.equal((await firm.put('/v1/me/provider', PROVIDER_BODY)).status, 200);
  const helpers = [];
  for (const [who, name] of [
    [jana, 'Jana W.'],
    [firm, 'Gartenbau Firm'],
  ] as const) {
    const profile = await who.post('/v1/helpers', helperBody(name));
    assert.equal(profile.status, 201, profile.raw);
    helpers.push({ client: who, helperId: profile.body.id as string });
  }
  const lines: string[] = [];
  const admin = adminContext(db.kysely, lines);
  const ledgerCheck = async () => {
    lines.length = 0;
    await checkLedgerCommand(admin);
    return lines.join('\n');
  };
  return { app, db, owner, stranger, helpers, admin, lines, ledgerCheck };
}

/** A job for both helpers at `price`, both applying and accepted; the payments, in acceptance order. */
async function acceptedJob(s: Awaited<ReturnType<typeof setup>>, price: number) {
  const job = await s.owner.post('/v1/jobs', { ...JOB_BODY, price_eur: price, helpers_needed: 2 });
  assert.equal(job.status, 201, job.raw);
  const applications: string[] = [];
  for (const helper of s.helpers) {
    const applied = await helper.client.post(`/v1/jobs/${job.body.id}/applications`, { helper_id: helper.helperId });
    assert.equal(applied.status, 201, applied.raw);
    const accepted = await s.owner.post(`/v1/jobs/${job.body.id}/applications/${applied.body.id}/accept`);
    assert.equal(accepted.status, 200, accepted.raw);
    assert.deepEqual(
      accepted.body.payments.map((p: { kind: string; status: string }) => [p.kind, p.status]),
      [['job', 'awaiting_payment']],
      'the accepted application summarises its payment',
    );
    applications.push(applied.body.id);
  }
  const page = await s.owner.get(`/v1/payments?role=payer`);
  assert.equal(page.status, 200, page.raw);
  const payments = (page.body.data as { id: string; application_id: string }[])
    .filter((p) => applications.includes(p.application_id))
    .sort((a, b) => applications.indexOf(a.application_id) - applications.indexOf(b.application_id));
  return { jobId: job.body.id as string, applications, payments };
}

test('shares split a price in whole cents; the fee is a percentage, half up, with a minimum, never more than the amount', () => {
  assert.deepEqual(
    [0, 1, 2].map((i) => shareCents(10_001, 3, i)),
    [3_334, 3_334, 3_333],
  );
  assert.equal(
    [0, 1, 2].reduce((sum, i) => sum + shareCents(10_001, 3, i), 0),
    10_001,
  );
  assert.equal(shareCents(6_000, 1, 0), 6_000);
  const rule = { percent: 10, minCents: 100 };
  assert.equal(feeCents(5_005, rule, true), 501, '500.5 cents rounds half up');
  assert.equal(feeCents(5_004, rule, true), 500);
  assert.equal(feeCents(500, rule, true), 100, 'at least the minimum');
  assert.equal(feeCents(50, rule, true), 50, 'never more than the amount');
  assert.equal(feeCents(5_000, rule, false), 0, 'a private payee owes none');
  assert.equal(feeCents(0, rule, true), 0);
});

test('a job paid: shares, fee of the commercial helper, paid and received, the ledger balances', async (t) => {
  const s = await setup(t);
  const { jobId, applications, payments } = await acceptedJob(s, 100.01);
  assert.equal(payments.length, 2);
  const [toJana, toFirm] = payments as { id: string }[];

  const janaView = await s.helpers[0]?.client.get(`/v1/payments/${toJana?.id}`);
  assert.equal(janaView?.status, 200, janaView?.raw);
  assert.deepEqual(
    { ...janaView?.body, created_at: undefined },
    {
      id: toJana?.id,
      kind: 'job',
      provider: 'manual',
      role: 'payee',
      status: 'awaiting_payment',
      job_id: jobId,
      application_id: applications[0],
      booking_id: null,
      amount_eur: 50.01,
      fee_eur: 0,
      payout_eur: 50.01,
      kept_eur: 0,
      currency: 'EUR',
      next_action: { type: 'confirm_received', url: `/v1/payments/${toJana?.id}/received` },
      payee_bank_account: null,
      created_at: undefined,
      paid_at: null,
      received_at: null,
      cancelled_at: null,
      released_at: null,
    },
  );
  const firmView = (await s.helpers[1]?.client.get(`/v1/payments/${toFirm?.id}`))?.body;
  assert.deepEqual([firmView.amount_eur, firmView.fee_eur, firmView.payout_eur], [50, 5, 45]);
  const ownerView = (await s.owner.get(`/v1/payments/${toFirm?.id}`)).body;
  assert.equal(ownerView.role, 'payer');
  const application = await s.helpers[0]?.client.get(`/v1/jobs/${jobId}/applications/${applications[0]}`);
  assert.deepEqual(application?.body.payments, [
    { id: toJana?.id, kind: 'job', status: 'awaiting_payment', amount_eur: 50.01 },
  ]);
  const listed = (await s.owner.get(`/v1/jobs/${jobId}/applications`)).body.data as { payments: unknown[] }[];
  assert.deepEqual(
    listed.map((a) => a.payments.length),
    [1, 1],
  );
  assert.deepEqual(ownerView.next_action, { type: 'mark_paid', url: `/v1/payments/${toFirm?.id}/paid` });

  // Only the parties see it; each acts only on their side.
  assert.equal((await s.stranger.get(`/v1/payments/${toJana?.id}`)).status, 404);
  assert.equal((await s.stranger.post(`/v1/payments/${toJana?.id}/paid`)).status, 404);
  assert.equal((await s.helpers[1]?.client.get(`/v1/payments/${toJana?.id}`))?.status, 404);
  const wrongSide = await s.helpers[0]?.client.post(`/v1/payments/${toJana?.id}/paid`);
  assert.equal(wrongSide?.status, 403);
  assert.equal(wrongSide?.body.error, 'forbidden');
  assert.equal((await s.owner.post(`/v1/payments/${toJana?.id}/received`)).status, 403);
  assert.equal((await s.stranger.get('/v1/payments')).body.total, 0);

  // The owner pays both; each helper confirms.
  for (const payment of payments) {
    const paid = await s.owner.post(`/v1/payments/${payment.id}/paid`);
    assert.equal(paid.status, 200, paid.raw);
    assert.equal(paid.body.status, 'paid');
    assert.equal(paid.body.next_action, null);
  }
  const twice = await s.owner.post(`/v1/payments/${toJana?.id}/paid`);
  assert.equal(twice.status, 409);
  assert.equal(twice.body.error, 'invalid_state_transition');
  assert.equal(
    await s.ledgerCheck(),
    'The ledger balances: every transaction sums to zero and every payment is booked as its state says.',
  );
  const entriesBefore = await s.db.kysely.selectFrom('ledger_entries').selectAll().execute();
  assert.equal(entriesBefore.length, 0, 'nothing is booked before receipt');

  for (const [i, payment] of payments.entries()) {
    const received = await s.helpers[i]?.client.post(`/v1/payments/${payment.id}/received`);
    assert.equal(received?.status, 200, received?.raw);
    assert.equal(received?.body.status, 'received');
  }
  const entries = await s.db.kysely.selectFrom('ledger_entries').selectAll().orderBy('id').execute();
  const balance = (account: string) =>
    entries.filter((e) => e.ledger_account === account).reduce((sum, e) => sum + Number(e.amount_cents), 0);
  assert.equal(balance(`party:${s.owner.accountId}`), -10_001);
  assert.equal(balance(`party:${s.helpers[0]?.client.accountId}`), 5_001);
  assert.equal(balance(`party:${s.helpers[1]?.client.accountId}`), 5_000);
  assert.equal(balance(`fees_receivable:${s.helpers[1]?.client.accountId}`), 500);
  assert.equal(balance('platform:fee_revenue'), -500);
  assert.equal(
    entries.reduce((sum, e) => sum + Number(e.amount_cents), 0),
    0,
  );
  assert.match(await s.ledgerCheck(), /^The ledger balances/);
  s.lines.length = 0;
  await listFeesOwed(s.admin);
  assert.deepEqual(s.lines, [`${s.helpers[1]?.client.accountId}  5.00 EUR`]);

  // The year's report per seller (DAC7): received in Q4 2026 (the test's clock), nothing in 2025.
  s.lines.length = 0;
  await ledgerReport(s.admin, '', { year: '2026' });
  assert.deepEqual(
    s.lines,
    [
      `${s.helpers[0]?.client.accountId}  "Test Developer"  private  payments 1  consideration 50.01 EUR (Q1 0.00 EUR, Q2 0.00 EUR, Q3 0.00 EUR, Q4 50.01 EUR)  fees 0.00 EUR`,
      `${s.helpers[1]?.client.accountId}  "Test Developer"  commercial  payments 1  consideration 50.00 EUR (Q1 0.00 EUR, Q2 0.00 EUR, Q3 0.00 EUR, Q4 50.00 EUR)  fees 5.00 EUR`,
    ].sort(),
  );
  s.lines.length = 0;
  await ledgerReport(s.admin, '', { year: '2025' });
  assert.deepEqual(s.lines, ['No payments were received in 2025.']);
  await assert.rejects(ledgerReport(s.admin, '', { year: '26' }), /--year needs a calendar year/);

  // Each party got its own events, with the payment as they read it; nobody else did.
  const events = await s.db.kysely
    .selectFrom('events')
    .select(['type', 'audience', 'payload'])
    .where('subject_id', '=', toFirm?.id ?? '')
    .orderBy('id')
    .execute();
  assert.deepEqual(
    events.map((e) => {
      const data = JSON.parse(e.payload) as { role: string; status: string };
      return [e.type, JSON.parse(e.audience ?? 'null'), data.role, data.status];
    }),
    [
      ['payment.created', [s.owner.accountId], 'payer', 'awaiting_payment'],
      ['payment.created', [s.helpers[1]?.client.accountId], 'payee', 'awaiting_payment'],
      ['payment.status_changed', [s.owner.accountId], 'payer', 'paid'],
      ['payment.status_changed', [s.helpers[1]?.client.accountId], 'payee', 'paid'],
      ['payment.status_changed', [s.owner.accountId], 'payer', 'received'],
      ['payment.status_changed', [s.helpers[1]?.client.accountId], 'payee', 'received'],
    ],
  );

  // The lists: both sides, filtered, paged.
  const asPayee = await s.helpers[1]?.client.get('/v1/payments?role=payee&status=received');
  assert.deepEqual(
    asPayee?.body.data.map((p: { id: string }) => p.id),
    [toFirm?.id],
  );
  assert.equal((await s.owner.get('/v1/payments?role=payee')).body.total, 0);
  const paged = await s.owner.get('/v1/payments?limit=1');
  assert.deepEqual([paged.body.total, paged.body.data.length, paged.body.has_more], [2, 1, true]);
  const bad = await s.owner.get('/v1/payments?status=lost');
  assert.equal(bad.status, 400);
  assert.equal(bad.body.param, 'status');

  // The export holds them, for both parties.
  const exported = await s.helpers[1]?.client.get('/v1/me/export');
  assert.deepEqual(
    exported?.body.payments.map((p: { id: string; amount_cents: number; fee_cents: number }) => [
      p.id,
      p.amount_cents,
      p.fee_cents,
    ]),
    [[toFirm?.id, 5_000, 500]],
  );
});

test('received straight away (cash); a cancelled job cancels what is unpaid; the check finds books that do not balance', async (t) => {
  const s = await setup(t);
  const { jobId, payments } = await acceptedJob(s, 60);
  const [toJana, toFirm] = payments as { id: string }[];
  const cash = await s.helpers[0]?.client.post(`/v1/payments/${toJana?.id}/received`);
  assert.equal(cash?.status, 200, cash?.raw);
  assert.equal(cash?.body.paid_at, null);
  const cancelled = await s.owner.post(`/v1/jobs/${jobId}/cancel`);
  assert.equal(cancelled.status, 200, cancelled.raw);
  const after = (await s.owner.get(`/v1/payments/${toFirm?.id}`)).body;
  assert.equal(after.status, 'cancelled');
  assert.ok(after.cancelled_at);
  assert.equal((await s.owner.get(`/v1/payments/${toJana?.id}`)).body.status, 'received', 'what was received stays');
  const cancelEvents = await s.db.kysely
    .selectFrom('events')
    .select(['type', 'payload'])
    .where('subject_id', '=', toFirm?.id ?? '')
    .where('type', '=', 'payment.status_changed')
    .execute();
  assert.deepEqual(
    cancelEvents.map((e) => (JSON.parse(e.payload) as { status: string }).status),
    ['cancelled', 'cancelled'],
  );
  const late = await s.owner.post(`/v1/payments/${toFirm?.id}/paid`);
  assert.equal(late.status, 409);
  assert.match(await s.ledgerCheck(), /^The ledger balances/);

  // A line written beside the service: the check names it and fails.
  await s.db.kysely
    .insertInto('ledger_entries')
    .values({
      id: 'led_broken',
      transaction_id: 'ltx_broken',
      payment_id: toFirm?.id ?? null,
      ledger_account: `party:${s.owner.accountId}`,
      amount_cents: -1,
      kind: 'settlement',
      created_at: new Date().toISOString(),
    })
    .execute();
  await assert.rejects(s.ledgerCheck(), /The ledger does not balance: 1 problem/);
  assert.deepEqual(s.lines, ['transaction ltx_broken sums to -1 cents, not 0']);
});

test("a payee's bank account: checked by ibantools, shown only to the payer of an open payment, never in events, gone with erasure", async (t) => {
  const s = await setup(t);
  const jana = s.helpers[0]?.client;
  assert.ok(jana);
  assert.equal((await jana.get('/v1/me/bank-account')).status, 404);
  const wrong = await jana.put('/v1/me/bank-account', {
    iban: 'DE89 3704 0044 0532 0130 01',
    account_holder: 'Jana W.',
  });
  assert.equal(wrong.status, 400);
  assert.equal(wrong.body.param, 'iban');
  const stored = await jana.put('/v1/me/bank-account', {
    iban: 'de89370400440532013000',
    account_holder: ' Jana Weber ',
  });
  assert.equal(stored.status, 200, stored.raw);
  assert.deepEqual([stored.body.iban, stored.body.account_holder], ['DE89 3704 0044 0532 0130 00', 'Jana Weber']);
  assert.equal((await jana.get('/v1/me/bank-account')).body.iban, 'DE89 3704 0044 0532 0130 00');

  // Before an acceptance nobody sees it; then the payer of the open payment does, and only they.
  const { payments } = await acceptedJob(s, 80);
  const [toJana, toFirm] = payments as { id: string }[];
  const ownerView = (await s.owner.get(`/v1/payments/${toJana?.id}`)).body;
  assert.deepEqual(ownerView.payee_bank_account, { iban: 'DE89 3704 0044 0532 0130 00', account_holder: 'Jana Weber' });
  const listed = (await s.owner.get('/v1/payments')).body.data as { id: string; payee_bank_account: unknown }[];
  assert.deepEqual(
    listed.map((p) => [p.id, p.payee_bank_account !== null]).sort(),
    [
      [toJana?.id, true],
      [toFirm?.id, false],
    ].sort(),
    'the firm gave none',
  );
  assert.equal((await jana.get(`/v1/payments/${toJana?.id}`)).body.payee_bank_account, null, 'not to the payee');
  const events = await s.db.kysely
    .selectFrom('events')
    .select('payload')
    .where('type', 'in', ['payment.created', 'payment.status_changed'])
    .execute();
  assert.ok(events.length > 0);
  assert.ok(
    events.every((e) => !e.payload.includes('DE89')),
    'no event holds the IBAN',
  );
  const paid = await s.owner.post(`/v1/payments/${toJana?.id}/paid`);
  assert.ok(paid.body.payee_bank_account, 'still open while paid');
  const received = await jana.post(`/v1/payments/${toJana?.id}/received`);
  assert.equal(received.status, 200);
  assert.equal((await s.owner.get(`/v1/payments/${toJana?.id}`)).body.payee_bank_account, null, 'settled: no more');

  // The export holds it; erasure deletes it, while the payment stays.
  assert.deepEqual(
    (await jana.get('/v1/me/export')).body.bank_account.map((b: { iban: string }) => b.iban),
    ['DE89370400440532013000'],
  );
  const erased = await jana.delete('/v1/me', { confirm: 'jana@example.org' });
  assert.equal(erased.status, 202, erased.raw);
  assert.ok(
    erased.body.kept.some((k: { record: string }) => k.record === 'payments'),
    'the answer says payments stay',
  );
  assert.equal(await s.db.kysely.selectFrom('bank_accounts').selectAll().executeTakeFirst(), undefined);
  assert.equal((await s.owner.get(`/v1/payments/${toJana?.id}`)).body.status, 'received');
  assert.match(await s.ledgerCheck(), /^The ledger balances/);

  // Removing it: 204, then 404.
  const firm = s.helpers[1]?.client;
  assert.equal(
    (await firm?.put('/v1/me/bank-account', { iban: 'DE89370400440532013000', account_holder: 'Firm' }))?.status,
    200,
  );
  assert.equal((await firm?.delete('/v1/me/bank-account'))?.status, 204);
  assert.equal((await firm?.delete('/v1/me/bank-account'))?.status, 404);
  assert.equal((await s.owner.get(`/v1/payments/${toFirm?.id}`)).body.payee_bank_account, null);
});

test("apps acting for a person read payments with the scope payments; saying money moved, and bank details, stay the person's", () => {
  const payments = { kind: 'scope', scope: 'payments' };
  assert.deepEqual(scopeNeed('GET', '/v1/payments'), payments);
  assert.deepEqual(scopeNeed('GET', '/v1/payments/:id'), payments);
  assert.deepEqual(scopeNeed('GET', '/v1/me/bank-account'), payments);
  for (const [method, route] of [
    ['POST', '/v1/payments/:id/paid'],
    ['POST', '/v1/payments/:id/received'],
    ['PUT', '/v1/me/bank-account'],
    ['DELETE', '/v1/me/bank-account'],
  ] as const) {
    assert.equal(scopeNeed(method, route).kind, 'never', `${method} ${route}`);
  }
});

/** Rows as [kind, …, party] in a fixed order: by kind, then by the party's name (account ids are random). */
const byKindAndParty = (a: unknown[], b: unknown[]) =>
  String(a[0]).localeCompare(String(b[0])) || String(a.at(-1)).localeCompare(String(b.at(-1)));

test("a job's cancellation follows its policy: moderate, 30 hours ahead, half of each share is owed as a fee", async (t) => {
  const s = await setup(t);
  const desired = new Date(NOW.getTime() + 30 * 3_600_000).toISOString();
  const job = await s.owner.post('/v1/jobs', {
    ...JOB_BODY,
    price_eur: 60,
    helpers_needed: 2,
    desired_at: desired,
    cancellation_policy: 'moderate',
  });
  assert.equal(job.status, 201, job.raw);
  assert.equal(job.body.cancellation_policy, 'moderate');
  const shares: string[] = [];
  for (const helper of s.helpers) {
    const applied = await helper.client.post(`/v1/jobs/${job.body.id}/applications`, { helper_id: helper.helperId });
    const accepted = await s.owner.post(`/v1/jobs/${job.body.id}/applications/${applied.body.id}/accept`);
    assert.equal(accepted.status, 200, accepted.raw);
    shares.push(accepted.body.payments[0].id);
  }
  // Jana was paid in cash already: her refund is what the policy gives back.
  assert.equal((await s.helpers[0]?.client.post(`/v1/payments/${shares[0]}/received`))?.status, 200);
  const cancelled = await s.owner.post(`/v1/jobs/${job.body.id}/cancel`);
  assert.equal(cancelled.status, 200, cancelled.raw);
  const { hours_before_start, ...rest } = cancelled.body.cancellation;
  assert.equal(hours_before_start, 30);
  assert.deepEqual(rest, { policy: 'moderate', refund_percent: 50, refund_eur: 30, fee_eur: 30 });
  const rows = await s.db.kysely
    .selectFrom('payments')
    .select(['kind', 'status', 'amount_cents', 'fee_cents', 'payee_account_id'])
    .where('job_id', '=', job.body.id)
    .orderBy('kind')
    .orderBy('payee_account_id')
    .execute();
  const firm = s.helpers[1]?.client.accountId;
  const jana = s.helpers[0]?.client.accountId;
  assert.deepEqual(
    rows
      .map((r) => [
        r.kind,
        r.status,
        r.amount_cents,
        r.fee_cents,
        r.payee_account_id === s.owner.accountId
          ? 'owner'
          : r.payee_account_id === jana
            ? 'jana'
            : r.payee_account_id === firm
              ? 'firm'
              : '?',
      ])
      .sort(byKindAndParty),
    [
      ['fee', 'awaiting_payment', 1_500, 150, 'firm'],
      ['job', 'cancelled', 3_000, 300, 'firm'],
      ['job', 'received', 3_000, 0, 'jana'],
      ['refund', 'awaiting_payment', 1_500, 0, 'owner'],
    ],
  );
  assert.match(await s.ledgerCheck(), /^The ledger balances/);
});
