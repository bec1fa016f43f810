/**
 * Issue 32, bookings (manual provider): a confirmed booking owes its rent and its deposit; the
 * renter pays the rent and hands the deposit over, the owner confirms both; after the return the
 * owner releases the deposit, less what an accepted or decided claim keeps. Claims: filed by the
 * owner within CLAIM_WINDOW_HOURS, accepted or disputed by the renter, a disputed one decided by
 * `claims decide` (events and e-mails to both sides). `ledger check` passes after each story.
 * Through HTTP, on the run's engine.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type TestContext, test } from 'node:test';
import { decideClaimCommand, listClaims } from '../../src/cli/admin-claims.js';
import { checkLedgerCommand, ledgerReport } from '../../src/cli/admin-ledger.js';
import { scopeNeed } from '../../src/domain/oauth-scopes.js';
import { createMailer } from '../../src/mail/mailer.js';
import { adminContext } from '../helpers/admin-cli.js';
import { buildTestApp, clientFor, createKey, NOW } from '../helpers/app.js';
import { LISTING_BODY, PROVIDER_BODY } from '../helpers/bodies.js';
import { parseMail } from '../helpers/smtp.js';

const HOUR = 3_600_000;

async function setup(t: TestContext, ownerType: 'private' | 'commercial' = 'private') {
  let now = NOW;
  const { app, db } = await buildTestApp(t, () => now);
  const client = async (email: string, account_type: 'private' | 'commercial' = 'private') => {
    const created = await createKey(db, { email, account_type });
    return { ...clientFor(app, created.key), accountId: created.accountId };
  };
  const owner = await client('owner@example.org', ownerType);
  if (ownerType === 'commercial') assert.equal((await owner.put('/v1/me/provider', PROVIDER_BODY)).status, 200);
  const renter = await client('renter@example.org');
  const stranger = await client('stranger@example.org');
  const listing = await owner.post('/v1/listings', { ...LISTING_BODY, instant_booking: true });
  assert.equal(listing.status, 201, listing.raw);
  const lines: string[] = [];
  const outbox = mkdtempSync(join(tmpdir(), 'claims-mail-'));
  const mailer = createMailer({ OUTBOX_DIR: outbox, MAIL_FROM: 'api@example.org', SMTP_URL: undefined });
  t.after(() => {
    mailer.close();
    rmSync(outbox, { recursive: true, force: true });
  });
  const admin = () => ({ ...adminContext(db.kysely, lines), mailer, now });
  const ledgerCheck = async () => {
    lines.length = 0;
    await checkLedgerCommand(admin());
    return lines.join('\n');
  };
  return {
    db,
    owner,
    renter,
    stranger,
    listingId: listing.body.id as string,
    lines,
    outbox,
    admin,
    ledgerCheck,
    /** Moves the app's clock by `hours`. */
    advance: (hours: number) => {
      now = new Date(now.getTime() + hours * HOUR);
    },
  };
}
type Setup = Awaited<ReturnType<typeof setup>>;

/** Books three days from today (instant: confirmed), and finds its rent and deposit. */
async function confirmedBooking(s: Setup) {
  const booked = await s.renter.post(`/v1/listings/${s.listingId}/bookings`, {
    start_date: '2026-11-20',
    end_date: '2026-11-22',
  });
  assert.equal(booked.status, 201, booked.raw);
  assert.equal(booked.body.status, 'confirmed');
  const mine = (await s.renter.get('/v1/payments?role=payer')).body.data as {
    id: string;
    kind: string;
    booking_id: string;
  }[];
  const of = (kind: string) => mine.find((p) => p.booking_id === booked.body.id && p.kind === kind)?.id as string;
  return { bookingId: booked.body.id as string, rentId: of('rent'), depositId: of('deposit') };
}

/** Rent paid and received, deposit handed over and confirmed, picked up and returned. */
async function returnedBooking(s: Setup) {
  const booking = await confirmedBooking(s);
  for (const id of [booking.rentId, booking.depositId]) {
    assert.equal((await s.renter.post(`/v1/payments/${id}/paid`)).status, 200);
    const received = await s.owner.post(`/v1/payments/${id}/received`);
    assert.equal(received.status, 200, received.raw);
  }
  assert.equal((await s.owner.post(`/v1/bookings/${booking.bookingId}/pick-up`)).status, 200);
  s.advance(48);
  assert.equal((await s.owner.post(`/v1/bookings/${booking.bookingId}/return`)).status, 200);
  return booking;
}

const CLAIM = {
  amount_eur: 12.5,
  text: 'Eine Bank hat einen Riss im Sitzbrett.',
  photos: ['https://example.org/riss.jpg'],
};
const BALANCES = 'The ledger balances: every transaction sums to zero and every payment is booked as its state says.';

async function balances(s: Setup) {
  const entries = await s.db.kysely.selectFrom('ledger_entries').selectAll().execute();
  const of = (account: string) =>
    entries.filter((e) => e.ledger_account === account).reduce((sum, e) => sum + Number(e.amount_cents), 0);
  return { owner: of(`party:${s.owner.accountId}`), renter: of(`party:${s.renter.accountId}`) };
}

test('a booking with rent and deposit: paid, held, returned and released in full; the ledger balances', async (t) => {
  const s = await setup(t, 'commercial');
  const { bookingId, rentId, depositId } = await confirmedBooking(s);
  const rent = (await s.owner.get(`/v1/payments/${rentId}`)).body;
  assert.deepEqual(
    [rent.kind, rent.role, rent.status, rent.booking_id, rent.amount_eur, rent.fee_eur, rent.payout_eur],
    ['rent', 'payee', 'awaiting_payment', bookingId, 24, 2.4, 21.6],
    'three days at 8 EUR; a commercial owner owes the fee',
  );
  const deposit = (await s.renter.get(`/v1/payments/${depositId}`)).body;
  assert.deepEqual(
    [deposit.kind, deposit.role, deposit.amount_eur, deposit.fee_eur, deposit.next_action?.type],
    ['deposit', 'payer', 20, 0, 'mark_paid'],
    'no fee on a deposit',
  );
  assert.equal((await s.stranger.get(`/v1/payments/${depositId}`)).status, 404);
  // The booking summarises its payments for both parties.
  for (const party of [s.owner, s.renter]) {
    const summary = (await party.get(`/v1/bookings/${bookingId}`)).body.payments;
    assert.deepEqual(
      summary
        .map((p: { id: string; kind: string; status: string; amount_eur: number }) => [
          p.id,
          p.kind,
          p.status,
          p.amount_eur,
        ])
        .sort(),
      [
        [depositId, 'deposit', 'awaiting_payment', 20],
        [rentId, 'rent', 'awaiting_payment', 24],
      ].sort(),
    );
  }

  // Released too early: the item is not back.
  for (const id of [rentId, depositId]) {
    assert.equal((await s.renter.post(`/v1/payments/${id}/paid`)).status, 200);
    assert.equal((await s.owner.post(`/v1/payments/${id}/received`)).status, 200);
  }
  const held = (await s.owner.get(`/v1/payments/${depositId}`)).body;
  assert.deepEqual(held.next_action, { type: 'release_deposit', url: `/v1/payments/${depositId}/release` });
  const early = await s.owner.post(`/v1/payments/${depositId}/release`);
  assert.equal(early.status, 409, early.raw);
  assert.match(early.body.message, /once the item is back/);
  const rentRelease = await s.owner.post(`/v1/payments/${rentId}/release`);
  assert.equal(rentRelease.status, 409);
  assert.match(rentRelease.body.message, /only a deposit is released/);
  assert.equal((await s.renter.post(`/v1/payments/${depositId}/release`)).status, 403);
  assert.equal(await s.ledgerCheck(), BALANCES);
  assert.deepEqual(await balances(s), { owner: 2_400 + 2_000, renter: -4_400 }, 'the owner holds rent and deposit');

  assert.equal((await s.owner.post(`/v1/bookings/${bookingId}/pick-up`)).status, 200);
  s.advance(48);
  assert.equal((await s.owner.post(`/v1/bookings/${bookingId}/return`)).status, 200);
  const released = await s.owner.post(`/v1/payments/${depositId}/release`);
  assert.equal(released.status, 200, released.raw);
  assert.deepEqual(
    [released.body.status, released.body.kept_eur, released.body.next_action, Boolean(released.body.released_at)],
    ['released', 0, null, true],
  );
  assert.equal((await s.owner.post(`/v1/payments/${depositId}/release`)).status, 409, 'once');
  assert.deepEqual(await balances(s), { owner: 2_400, renter: -2_400 }, 'the deposit went home');
  assert.equal(await s.ledgerCheck(), BALANCES);

  // Too late to claim on a released deposit.
  const late = await s.owner.post(`/v1/bookings/${bookingId}/claims`, CLAIM);
  assert.equal(late.status, 409);
  assert.match(late.body.message, /released, not held/);

  // The rent is consideration in the DAC7 report, the deposit is not.
  s.lines.length = 0;
  await ledgerReport(s.admin(), '', { year: '2026' });
  assert.equal(s.lines.length, 1);
  assert.match(s.lines[0] ?? '', /payments 1 {2}consideration 24\.00 EUR .* fees 2\.40 EUR$/);

  // Events: each side its own, with the deposit as it reads it.
  const events = await s.db.kysely
    .selectFrom('events')
    .select(['type', 'audience', 'payload'])
    .where('subject_id', '=', depositId)
    .orderBy('id')
    .execute();
  assert.deepEqual(
    events.map((e) => [
      e.type,
      JSON.parse(e.audience ?? 'null')[0],
      (JSON.parse(e.payload) as { status: string }).status,
    ]),
    [
      ['payment.created', s.renter.accountId, 'awaiting_payment'],
      ['payment.created', s.owner.accountId, 'awaiting_payment'],
      ['payment.status_changed', s.renter.accountId, 'paid'],
      ['payment.status_changed', s.owner.accountId, 'paid'],
      ['payment.status_changed', s.renter.accountId, 'received'],
      ['payment.status_changed', s.owner.accountId, 'received'],
      ['payment.status_changed', s.renter.accountId, 'released'],
      ['payment.status_changed', s.owner.accountId, 'released'],
    ],
  );
});

test('a claim accepted: the owner keeps it when releasing; the checks of filing a claim', async (t) => {
  const s = await setup(t);
  const { bookingId, depositId } = await returnedBooking(s);

  const tooMuch = await s.owner.post(`/v1/bookings/${bookingId}/claims`, { ...CLAIM, amount_eur: 20.01 });
  assert.equal(tooMuch.status, 400);
  assert.deepEqual([tooMuch.body.error, tooMuch.body.param], ['parameter_out_of_range', 'amount_eur']);
  const cents = await s.owner.post(`/v1/bookings/${bookingId}/claims`, { ...CLAIM, amount_eur: 1.005 });
  assert.deepEqual([cents.status, cents.body.param], [400, 'amount_eur']);
  const http = await s.owner.post(`/v1/bookings/${bookingId}/claims`, {
    ...CLAIM,
    photos: ['http://example.org/a.jpg'],
  });
  assert.deepEqual([http.status, http.body.param], [400, 'photos.0']);
  assert.equal((await s.renter.post(`/v1/bookings/${bookingId}/claims`, CLAIM)).status, 403);
  assert.equal((await s.stranger.post(`/v1/bookings/${bookingId}/claims`, CLAIM)).status, 404);

  const filed = await s.owner.post(`/v1/bookings/${bookingId}/claims`, CLAIM);
  assert.equal(filed.status, 201, filed.raw);
  assert.equal(filed.headers.location, `/v1/claims/${filed.body.id}`);
  assert.deepEqual(
    [filed.body.role, filed.body.status, filed.body.amount_eur, filed.body.payment_id, filed.body.next_actions],
    ['owner', 'open', 12.5, depositId, []],
  );
  const again = await s.owner.post(`/v1/bookings/${bookingId}/claims`, CLAIM);
  assert.deepEqual([again.status, again.body.error], [409, 'already_claimed']);
  const claimId = filed.body.id as string;
  const renterView = (await s.renter.get(`/v1/claims/${claimId}`)).body;
  assert.deepEqual(
    [renterView.role, renterView.next_actions, renterView.photos],
    ['renter', ['accept', 'dispute'], CLAIM.photos],
  );
  assert.equal((await s.stranger.get(`/v1/claims/${claimId}`)).status, 404);

  // While it is open, the deposit waits.
  const waiting = await s.owner.post(`/v1/payments/${depositId}/release`);
  assert.deepEqual([waiting.status, waiting.body.error], [409, 'claim_pending']);
  assert.equal((await s.owner.post(`/v1/claims/${claimId}/accept`)).status, 403);
  const accepted = await s.renter.post(`/v1/claims/${claimId}/accept`);
  assert.equal(accepted.status, 200, accepted.raw);
  assert.deepEqual([accepted.body.status, accepted.body.kept_eur], ['accepted', 12.5]);
  assert.equal(
    (await s.renter.post(`/v1/claims/${claimId}/dispute`, { text: 'Doch nicht, das war schon so.' })).status,
    409,
  );

  const released = await s.owner.post(`/v1/payments/${depositId}/release`);
  assert.equal(released.status, 200, released.raw);
  assert.equal(released.body.kept_eur, 12.5);
  assert.deepEqual(await balances(s), { owner: 2_400 + 1_250, renter: -3_650 });
  assert.equal(await s.ledgerCheck(), BALANCES);

  const events = await s.db.kysely
    .selectFrom('events')
    .select(['type', 'audience', 'payload'])
    .where('subject_id', '=', claimId)
    .orderBy('id')
    .execute();
  assert.deepEqual(
    events.map((e) => [e.type, JSON.parse(e.audience ?? 'null')[0], (JSON.parse(e.payload) as { role: string }).role]),
    [
      ['claim.created', s.owner.accountId, 'owner'],
      ['claim.created', s.renter.accountId, 'renter'],
      ['claim.status_changed', s.owner.accountId, 'owner'],
      ['claim.status_changed', s.renter.accountId, 'renter'],
    ],
  );
  const exported = (await s.renter.get('/v1/me/export')).body;
  assert.deepEqual(
    exported.claims.map((c: { id: string; status: string }) => [c.id, c.status]),
    [[claimId, 'accepted']],
  );
});

test('a claim disputed and decided by `claims decide`: both sides told by e-mail; erasure keeps the amounts, not the texts', async (t) => {
  const s = await setup(t);
  const { bookingId, depositId } = await returnedBooking(s);
  const filed = await s.owner.post(`/v1/bookings/${bookingId}/claims`, CLAIM);
  const claimId = filed.body.id as string;
  assert.equal((await s.renter.post(`/v1/claims/${claimId}/dispute`, { text: 'x' })).status, 400, 'a reason');
  const disputed = await s.renter.post(`/v1/claims/${claimId}/dispute`, {
    text: 'Der Riss war schon bei der Abholung da.',
  });
  assert.equal(disputed.status, 200, disputed.raw);
  assert.deepEqual([disputed.body.status, disputed.body.next_actions], ['disputed', []]);

  s.lines.length = 0;
  await listClaims(s.admin());
  assert.ok(
    s.lines.includes(`  renter ${s.renter.accountId}: Der Riss war schon bei der Abholung da.`),
    s.lines.join('\n'),
  );
  assert.match(s.lines.join('\n'), new RegExp(`${claimId} {2}disputed .* claims 12\\.50 EUR`));

  await assert.rejects(decideClaimCommand(s.admin(), claimId, { explanation: 'Halb.' }), /needs --amount-eur/);
  await assert.rejects(
    decideClaimCommand(s.admin(), claimId, { 'amount-eur': '13', explanation: 'Mehr.' }),
    /more than the 12\.5 EUR claimed/,
  );
  await assert.rejects(decideClaimCommand(s.admin(), claimId, { 'amount-eur': '5' }), /needs --explanation/);
  s.lines.length = 0;
  await decideClaimCommand(s.admin(), claimId, {
    'amount-eur': '6.25',
    explanation: 'Fotos der Abholung zeigen einen kleineren Riss.',
  });
  assert.equal(s.lines[0], `Decided ${claimId}: the owner keeps 6.25 EUR of the 12.50 EUR claimed.`);
  // The decision is in the audit log, with who (the admin command), why and the amounts.
  const audited = await s.db.kysely.selectFrom('audit_log').selectAll().where('target_id', '=', claimId).execute();
  assert.deepEqual(
    audited.map((a) => [a.actor, a.action, a.reason, JSON.parse(a.details ?? '{}').decided_cents]),
    [['cli', 'claim.decided', 'Fotos der Abholung zeigen einen kleineren Riss.', 625]],
  );
  const mails = readdirSync(s.outbox).map((f) => parseMail(readFileSync(join(s.outbox, f), 'utf8')));
  assert.equal(mails.length, 2);
  for (const to of ['owner@example.org', 'renter@example.org']) {
    const mail = mails.find((m) => m.headers.to === to);
    assert.ok(mail, to);
    assert.match(mail.text, /6\.25 EUR werden von der Kaution einbehalten/);
    assert.match(mail.text, /Fotos der Abholung zeigen einen kleineren Riss\./);
  }
  await assert.rejects(
    decideClaimCommand(s.admin(), claimId, { 'amount-eur': '1', explanation: 'Nochmal.' }),
    /is decided; only a disputed claim/,
  );
  const decided = (await s.renter.get(`/v1/claims/${claimId}`)).body;
  assert.deepEqual([decided.status, decided.decided_amount_eur, decided.kept_eur], ['decided', 6.25, 6.25]);

  const released = await s.owner.post(`/v1/payments/${depositId}/release`);
  assert.equal(released.status, 200, released.raw);
  assert.equal(released.body.kept_eur, 6.25);
  assert.deepEqual(await balances(s), { owner: 2_400 + 625, renter: -3_025 });
  assert.equal(await s.ledgerCheck(), BALANCES);

  // Erasing the owner: the claim stays with the payment it settled, without what they wrote.
  assert.equal((await s.owner.delete('/v1/me', { confirm: 'owner@example.org' })).status, 202);
  const kept = await s.db.kysely.selectFrom('claims').selectAll().executeTakeFirstOrThrow();
  assert.deepEqual(
    [kept.amount_cents, kept.decided_cents, kept.photos, kept.text === CLAIM.text, kept.response_text],
    [1_250, 625, '[]', false, 'Der Riss war schon bei der Abholung da.'],
  );
  assert.equal(await s.ledgerCheck(), BALANCES);
});

test('the claim window closes CLAIM_WINDOW_HOURS after the return; a cancelled booking cancels what is unpaid', async (t) => {
  const s = await setup(t);
  const { bookingId } = await returnedBooking(s);
  s.advance(48.5);
  const closed = await s.owner.post(`/v1/bookings/${bookingId}/claims`, CLAIM);
  assert.deepEqual([closed.status, closed.body.error], [409, 'claim_window_closed']);

  const second = await s.renter.post(`/v1/listings/${s.listingId}/bookings`, {
    start_date: '2026-11-28',
    end_date: '2026-11-28',
  });
  assert.equal(second.status, 201, second.raw);
  const early = await s.owner.post(`/v1/bookings/${second.body.id}/claims`, CLAIM);
  assert.equal(early.status, 409);
  assert.match(early.body.message, /a claim follows the return/);
  assert.equal((await s.renter.post(`/v1/bookings/${second.body.id}/cancel`)).status, 200);
  const payments = await s.db.kysely
    .selectFrom('payments')
    .select(['kind', 'status'])
    .where('booking_id', '=', second.body.id)
    .orderBy('kind')
    .execute();
  assert.deepEqual(payments, [
    { kind: 'deposit', status: 'cancelled' },
    { kind: 'rent', status: 'cancelled' },
  ]);
  assert.equal(await s.ledgerCheck(), BALANCES);
});

test('apps acting for a person: claims are read with payments, disputed with bookings:write; accepting one and releasing a deposit stay the person’s', () => {
  assert.deepEqual(scopeNeed('GET', '/v1/claims/:id'), { kind: 'scope', scope: 'payments' });
  assert.deepEqual(scopeNeed('POST', '/v1/claims/:id/dispute'), { kind: 'scope', scope: 'bookings:write' });
  assert.deepEqual(scopeNeed('POST', '/v1/bookings/:id/claims'), { kind: 'scope', scope: 'bookings:write' });
  assert.equal(scopeNeed('POST', '/v1/claims/:id/accept').kind, 'never');
  assert.equal(scopeNeed('POST', '/v1/payments/:id/release').kind, 'never');
});

/** A listing of `s.owner` under `policy`, booked by the renter from `start` (instant: confirmed). */
async function bookedUnder(s: Setup, policy: string, start: string) {
  const listing = await s.owner.post('/v1/listings', {
    ...LISTING_BODY,
    instant_booking: true,
    cancellation_policy: policy,
  });
  assert.equal(listing.status, 201, listing.raw);
  assert.equal(listing.body.cancellation_policy, policy);
  const booked = await s.renter.post(`/v1/listings/${listing.body.id}/bookings`, {
    start_date: start,
    end_date: start,
  });
  assert.equal(booked.status, 201, booked.raw);
  assert.equal(booked.body.cancellation_policy, policy, 'the booking keeps the policy of its time');
  const payments = booked.body.payments as { id: string; kind: string }[];
  return {
    bookingId: booked.body.id as string,
    rentId: payments.find((p) => p.kind === 'rent')?.id as string,
    depositId: payments.find((p) => p.kind === 'deposit')?.id as string,
  };
}

async function paymentsOfBooking(s: Setup, bookingId: string) {
  return s.db.kysely
    .selectFrom('payments')
    .select(['kind', 'status', 'amount_cents', 'fee_cents', 'payer_account_id'])
    .where('booking_id', '=', bookingId)
    .orderBy('kind')
    .execute();
}

test('cancellation policies: the renter cancels under strict, moderate and flexible; the owner always refunds in full', async (t) => {
  const s = await setup(t, 'commercial');
  // The test's clock: 2026-11-20 12:00 UTC. 2026-11-23 starts 59 hours later (midnight in Karlsruhe).
  const strict = await bookedUnder(s, 'strict', '2026-11-23');
  const cancelled = await s.renter.post(`/v1/bookings/${strict.bookingId}/cancel`);
  assert.equal(cancelled.status, 200, cancelled.raw);
  assert.deepEqual(cancelled.body.cancellation, {
    policy: 'strict',
    hours_before_start: 59,
    refund_percent: 50,
    refund_eur: 4,
    fee_eur: 4,
  });
  assert.deepEqual(await paymentsOfBooking(s, strict.bookingId), [
    { kind: 'deposit', status: 'cancelled', amount_cents: 2_000, fee_cents: 0, payer_account_id: s.renter.accountId },
    {
      kind: 'fee',
      status: 'awaiting_payment',
      amount_cents: 400,
      fee_cents: 100,
      payer_account_id: s.renter.accountId,
    },
    { kind: 'rent', status: 'cancelled', amount_cents: 800, fee_cents: 100, payer_account_id: s.renter.accountId },
  ]);

  // Moderate, 11 hours before the start: nothing comes back; the rent was paid, so nothing moves.
  const moderate = await bookedUnder(s, 'moderate', '2026-11-21');
  assert.equal((await s.renter.post(`/v1/payments/${moderate.rentId}/paid`)).status, 200);
  assert.equal((await s.owner.post(`/v1/payments/${moderate.rentId}/received`)).status, 200);
  const late = await s.renter.post(`/v1/bookings/${moderate.bookingId}/cancel`);
  assert.deepEqual(
    [late.body.cancellation.refund_percent, late.body.cancellation.refund_eur, late.body.cancellation.fee_eur],
    [0, 0, 8],
  );
  assert.deepEqual(
    (await paymentsOfBooking(s, moderate.bookingId)).map((p) => [p.kind, p.status]),
    [
      ['deposit', 'cancelled'],
      ['rent', 'received'],
    ],
  );

  // Flexible, paid and received: all of it comes back as a refund, and the owner's fee with it.
  const flexible = await bookedUnder(s, 'flexible', '2026-11-24');
  assert.equal((await s.renter.post(`/v1/payments/${flexible.rentId}/paid`)).status, 200);
  assert.equal((await s.owner.post(`/v1/payments/${flexible.rentId}/received`)).status, 200);
  const before = await balances(s);
  const early = await s.renter.post(`/v1/bookings/${flexible.bookingId}/cancel`);
  assert.deepEqual([early.body.cancellation.refund_percent, early.body.cancellation.refund_eur], [100, 8]);
  const refund = (early.body.payments as { id: string; kind: string }[]).find((p) => p.kind === 'refund');
  assert.ok(refund, 'the booking shows the refund');
  const owed = (await s.owner.get(`/v1/payments/${refund.id}`)).body;
  assert.deepEqual(
    [owed.role, owed.amount_eur, owed.next_action?.type],
    ['payer', 8, 'mark_paid'],
    'the owner pays it back',
  );
  assert.equal((await s.renter.post(`/v1/payments/${refund.id}/received`)).status, 200);
  assert.deepEqual(await balances(s), { owner: before.owner - 800, renter: before.renter + 800 });
  const rent = (await s.owner.get(`/v1/payments/${flexible.rentId}`)).body;
  assert.equal(rent.fee_eur, 0, 'no fee on what was given back');
  assert.equal(await s.ledgerCheck(), BALANCES);

  // The owner cancels under strict, 59 hours ahead: a full refund all the same.
  const owners = await bookedUnder(s, 'strict', '2026-11-23');
  const byOwner = await s.owner.post(`/v1/bookings/${owners.bookingId}/cancel`);
  assert.deepEqual([byOwner.body.cancellation.refund_percent, byOwner.body.cancellation.fee_eur], [100, 0]);
  assert.deepEqual(
    (await paymentsOfBooking(s, owners.bookingId)).map((p) => [p.kind, p.status]),
    [
      ['deposit', 'cancelled'],
      ['rent', 'cancelled'],
    ],
  );
  const wrong = await s.owner.post('/v1/listings', { ...LISTING_BODY, cancellation_policy: 'lenient' });
  assert.deepEqual([wrong.status, wrong.body.param], [400, 'cancellation_policy']);
  assert.equal(await s.ledgerCheck(), BALANCES);
});

test("a late return costs the listing's late fee per day, owed to the owner; on time costs nothing", async (t) => {
  const s = await setup(t, 'commercial');
  const listing = await s.owner.post('/v1/listings', {
    ...LISTING_BODY,
    instant_booking: true,
    late_fee_per_day_eur: 5,
  });
  assert.equal(listing.status, 201, listing.raw);
  assert.equal(listing.body.late_fee_per_day_eur, 5);
  const tooPrecise = await s.owner.patch(`/v1/listings/${listing.body.id}`, { late_fee_per_day_eur: 1.234 });
  assert.deepEqual([tooPrecise.status, tooPrecise.body.param], [400, 'late_fee_per_day_eur']);
  const book = async (start: string, end: string) => {
    const booked = await s.renter.post(`/v1/listings/${listing.body.id}/bookings`, {
      start_date: start,
      end_date: end,
    });
    assert.equal(booked.status, 201, booked.raw);
    assert.equal(booked.body.late_fee_per_day_eur, 5);
    return booked.body.id as string;
  };
  // Booked for today and tomorrow, brought back two days after the last day.
  const late = await book('2026-11-20', '2026-11-21');
  // The listing's fee changes later: the booking keeps the one it was made with.
  assert.equal((await s.owner.patch(`/v1/listings/${listing.body.id}`, { late_fee_per_day_eur: null })).status, 200);
  assert.equal((await s.owner.post(`/v1/bookings/${late}/pick-up`)).status, 200);
  s.advance(72); // 2026-11-23 12:00 UTC
  const returned = await s.owner.post(`/v1/bookings/${late}/return`);
  assert.equal(returned.status, 200, returned.raw);
  const fee = (returned.body.payments as { kind: string; amount_eur: number; id: string }[]).find(
    (p) => p.kind === 'fee',
  );
  assert.deepEqual([fee?.amount_eur], [10], 'two days at 5 EUR');
  const owed = (await s.renter.get(`/v1/payments/${fee?.id}`)).body;
  assert.deepEqual([owed.role, owed.fee_eur, owed.next_action?.type], ['payer', 1, 'mark_paid']);
  assert.equal((await s.owner.post(`/v1/payments/${fee?.id}/received`)).status, 200);
  assert.equal(await s.ledgerCheck(), BALANCES);

  // On time (returned on the last day): no fee, whatever the listing asks.
  assert.equal((await s.owner.patch(`/v1/listings/${listing.body.id}`, { late_fee_per_day_eur: 5 })).status, 200);
  const onTime = await book('2026-11-23', '2026-11-24');
  assert.equal((await s.owner.post(`/v1/bookings/${onTime}/pick-up`)).status, 200);
  s.advance(24);
  const back = await s.owner.post(`/v1/bookings/${onTime}/return`);
  assert.deepEqual((back.body.payments as { kind: string }[]).map((p) => p.kind).sort(), ['deposit', 'rent']);
});

test('a claim and a release of the same deposit at once: exactly one of them happens', async (t) => {
  const s = await setup(t);
  const { bookingId, depositId } = await returnedBooking(s);
  const [claim, release] = await Promise.all([
    s.owner.post(`/v1/bookings/${bookingId}/claims`, CLAIM),
    s.owner.post(`/v1/payments/${depositId}/release`),
  ]);
  if (claim.status === 201) {
    assert.deepEqual([release.status, release.body.error], [409, 'claim_pending'], release.raw);
  } else {
    assert.equal(release.status, 200, release.raw);
    assert.equal(claim.status, 409, claim.raw);
    assert.match(claim.body.message, /released, not held/);
  }
  assert.equal(await s.ledgerCheck(), BALANCES);
});
