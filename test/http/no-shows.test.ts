/**
 * Issue 32: no-shows. One side of an accepted application reports that the other did not come,
 * from the job's time until NO_SHOW_WINDOW_HOURS after it. A helper's no-show gives the poster the
 * share back in full and counts in the helper's record; a poster's no-show pays the helper the
 * policy's share. `ledger check` passes after each story. Through HTTP, on the run's engine.
 */
import assert from 'node:assert/strict';
import { type TestContext, test } from 'node:test';
import { checkLedgerCommand } from '../../src/cli/admin-ledger.js';
import { scopeNeed } from '../../src/domain/oauth-scopes.js';
import { helperHistory } from '../../src/repositories/reliability-records.js';
import { adminContext } from '../helpers/admin-cli.js';
import { buildTestApp, clientFor, createKey, NOW } from '../helpers/app.js';
import { helperBody, JOB_BODY, PROVIDER_BODY } from '../helpers/bodies.js';

const HOUR = 3_600_000;

async function setup(t: TestContext) {
  let now = NOW;
  const { app, db } = await buildTestApp(t, () => now);
  const client = async (email: string, account_type: 'private' | 'commercial' = 'private') => {
    const created = await createKey(db, { email, account_type });
    return { ...clientFor(app, created.key), accountId: created.accountId };
  };
  const owner = await client('owner@example.org');
  const stranger = await client('stranger@example.org');
  const jana = await client('jana@example.org');
  const firm = await client('firm@example.org', 'commercial');
  assert.equal((await firm.put('/v1/me/provider', PROVIDER_BODY)).status, 200);
  const profileOf = async (who: typeof jana, name: string) => {
    const profile = await who.post('/v1/helpers', helperBody(name));
    assert.equal(profile.status, 201, profile.raw);
    return profile.body.id as string;
  };
  const helpers = { jana: { client: jana, id: await profileOf(jana, 'Jana W.') } };
  const firmHelper = { client: firm, id: await profileOf(firm, 'Gartenbau Firm') };
  const lines: string[] = [];
  const ledgerCheck = async () => {
    lines.length = 0;
    await checkLedgerCommand(adminContext(db.kysely, lines));
    return lines.join('\n');
  };
  /** A job at `price` with its time `hoursAhead` from the start, the helper accepted; the ids. */
  const accepted = async (helper: typeof firmHelper, price: number, policy: string, hoursAhead: number) => {
    const desired_at = new Date(NOW.getTime() + hoursAhead * HOUR).toISOString();
    const job = await owner.post('/v1/jobs', {
      ...JOB_BODY,
      price_eur: price,
      desired_at,
      cancellation_policy: policy,
    });
    assert.equal(job.status, 201, job.raw);
    const applied = await helper.client.post(`/v1/jobs/${job.body.id}/applications`, { helper_id: helper.id });
    assert.equal(applied.status, 201, applied.raw);
    const decided = await owner.post(`/v1/jobs/${job.body.id}/applications/${applied.body.id}/accept`);
    assert.equal(decided.status, 200, decided.raw);
    const url = `/v1/jobs/${job.body.id}/applications/${applied.body.id}/no-show`;
    return {
      jobId: job.body.id as string,
      applicationId: applied.body.id as string,
      share: decided.body.payments[0].id,
      url,
    };
  };
  return {
    db,
    owner,
    stranger,
    jana: helpers.jana,
    firm: firmHelper,
    accepted,
    ledgerCheck,
    setNow: (at: Date) => {
      now = at;
    },
  };
}

test("a helper's no-show: the poster gets the share back in full, it counts in the helper's record, the job opens again", async (t) => {
  const s = await setup(t);
  const job = await s.accepted(s.jana, 50, 'strict', 2);
  // Paid ahead, in cash: the refund is a payment back from the helper.
  assert.equal((await s.jana.client.post(`/v1/payments/${job.share}/received`)).status, 200);
  const before = await helperHistory(s.db.kysely, s.jana.id);

  const early = await s.owner.post(job.url);
  assert.deepEqual([early.status, early.body.error], [409, 'no_show_too_early'], early.raw);
  assert.match(early.body.suggestion, /cancel/);

  s.setNow(new Date(NOW.getTime() + 3 * HOUR));
  assert.equal((await s.stranger.post(job.url)).status, 404);
  const reported = await s.owner.post(job.url);
  assert.equal(reported.status, 200, reported.raw);
  assert.equal(reported.body.no_show.party, 'helper');
  assert.equal(reported.body.no_show.reported_at, new Date(NOW.getTime() + 3 * HOUR).toISOString());
  assert.deepEqual(reported.body.cancellation, {
    policy: 'strict',
    hours_before_start: null,
    refund_percent: 100,
    refund_eur: 50,
    fee_eur: 0,
  });
  assert.deepEqual(
    reported.body.payments.map((p: { kind: string; status: string; amount_eur: number }) => [
      p.kind,
      p.status,
      p.amount_eur,
    ]),
    [
      ['job', 'received', 50],
      ['refund', 'awaiting_payment', 50],
    ],
  );
  const refund = await s.owner.get('/v1/payments?role=payee');
  assert.equal(refund.status, 200, refund.raw);
  assert.deepEqual(
    refund.body.data.map((p: { kind: string; amount_eur: number }) => [p.kind, p.amount_eur]),
    [['refund', 50]],
  );

  // Once only, by either side.
  const again = await s.jana.client.post(job.url);
  assert.deepEqual([again.status, again.body.error], [409, 'invalid_state_transition'], again.raw);
  assert.match(again.body.message, /no-show of the helper was reported already/);

  // The job is open again for another helper; the no-show is a cancellation in the helper's record.
  assert.equal((await s.owner.get(`/v1/jobs/${job.jobId}`)).body.status, 'open');
  const after = await helperHistory(s.db.kysely, s.jana.id);
  assert.deepEqual([after.commitments, after.cancellations], [before.commitments, before.cancellations + 1]);

  // Both sides get the application.no_show event.
  const events = await s.db.kysely
    .selectFrom('events')
    .select(['type', 'audience'])
    .where('subject_id', '=', job.applicationId)
    .where('type', '=', 'application.no_show')
    .execute();
  assert.deepEqual(
    events.map((e) => (JSON.parse(e.audience ?? '[]') as string[]).sort()),
    [[s.owner.accountId, s.jana.client.accountId].sort()],
  );
  // Cancelling the reopened job applies no policy to the absent helper's share again.
  const paymentsBefore = await s.db.kysely
    .selectFrom('payments')
    .select('id')
    .where('job_id', '=', job.jobId)
    .execute();
  const cancelled = await s.owner.post(`/v1/jobs/${job.jobId}/cancel`);
  assert.equal(cancelled.status, 200, cancelled.raw);
  assert.equal(cancelled.body.cancellation, undefined, 'no payment left to apply the policy to');
  const paymentsAfter = await s.db.kysely.selectFrom('payments').select('id').where('job_id', '=', job.jobId).execute();
  assert.equal(paymentsAfter.length, paymentsBefore.length);
  // The helper pays the refund back, the owner confirms: the books balance.
  const refundId = reported.body.payments[1].id;
  assert.equal((await s.owner.post(`/v1/payments/${refundId}/received`)).status, 200);
  assert.match(await s.ledgerCheck(), /^The ledger balances/);
});

test("a poster's no-show pays the helper the policy's share; the job nobody stands for is cancelled; the window closes", async (t) => {
  const s = await setup(t);
  const strict = await s.accepted(s.firm, 40, 'strict', 2);
  const flexible = await s.accepted(s.jana, 30, 'flexible', 2);
  const late = await s.accepted(s.jana, 20, 'moderate', 1);
  const before = await helperHistory(s.db.kysely, s.firm.id);
  s.setNow(new Date(NOW.getTime() + 4 * HOUR));

  // The helper reports the poster; the poster cannot answer for the helper's side (only one report).
  const reported = await s.firm.client.post(strict.url);
  assert.equal(reported.status, 200, reported.raw);
  assert.equal(reported.body.no_show.party, 'poster');
  assert.deepEqual(reported.body.cancellation, {
    policy: 'strict',
    hours_before_start: -2,
    refund_percent: 0,
    refund_eur: 0,
    fee_eur: 40,
  });
  const rows = await s.db.kysely
    .selectFrom('payments')
    .select(['kind', 'status', 'amount_cents', 'fee_cents', 'payee_account_id'])
    .where('job_id', '=', strict.jobId)
    .orderBy('kind')
    .execute();
  assert.deepEqual(
    rows.map((r) => [r.kind, r.status, r.amount_cents, r.fee_cents, r.payee_account_id === s.firm.client.accountId]),
    [
      ['fee', 'awaiting_payment', 4_000, 400, true],
      ['job', 'cancelled', 4_000, 400, true],
    ],
  );
  assert.equal((await s.owner.get(`/v1/jobs/${strict.jobId}`)).body.status, 'cancelled');
  const after = await helperHistory(s.db.kysely, s.firm.id);
  assert.equal(after.cancellations, before.cancellations, "the poster's no-show is not the helper's cancellation");

  // Flexible keeps half for the helper.
  const half = await s.jana.client.post(flexible.url);
  assert.equal(half.status, 200, half.raw);
  assert.deepEqual([half.body.cancellation.refund_percent, half.body.cancellation.fee_eur], [50, 15]);

  // 48 h after the job's time the window has closed.
  s.setNow(new Date(NOW.getTime() + 50 * HOUR));
  const closed = await s.jana.client.post(late.url);
  assert.deepEqual([closed.status, closed.body.error], [409, 'no_show_window_closed'], closed.raw);
  assert.match(closed.body.message, /48 h/);
  assert.match(await s.ledgerCheck(), /^The ledger balances/);
});

test('a no-show moves money: apps acting for a person cannot report one', () => {
  const need = scopeNeed('POST', '/v1/jobs/:id/applications/:application_id/no-show');
  assert.equal(need.kind, 'never');
});
