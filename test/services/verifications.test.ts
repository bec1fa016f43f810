import assert from 'node:assert/strict';
import { describe, type TestContext, test } from 'node:test';
import { FRESH_HISTORY, reliabilityScore } from '../../src/domain/reliability.js';
import { decideVerification, unverifyHelper } from '../../src/services/verifications.js';
import { buildTestApp, createKey, NOW, sendJson } from '../helpers/app.js';

async function setup(t: TestContext) {
  const { app, db } = await buildTestApp(t);
  const helper = await createKey(db, { email: 'helper@example.org' });
  const stranger = await createKey(db, { email: 'stranger@example.org' });
  const registered = await sendJson(app, 'POST', '/v1/helpers', helper.key, {
    display_name: 'Jonas W.',
    categories: ['MOVING'],
    location: { plz: '76227' },
    hourly_rate_eur: 18,
  });
  assert.equal(registered.status, 201);
  const helperId = registered.body.id as string;
  const context = { db: db.kysely, now: NOW, claim: null };
  return { app, db, helper, stranger, helperId, context };
}

const availableMovers = async (app: Awaited<ReturnType<typeof setup>>['app']) =>
  (await sendJson(app, 'GET', '/v1/helpers/availability?category=MOVING')).body.available_helpers as number;

describe('verification of a helper', () => {
  test('request (202), approval by the platform: verified, +10 points, counted in availability, told privately', async (t) => {
    const { app, db, helper, stranger, helperId, context } = await setup(t);
    const url = `/v1/helpers/${helperId}/verification-requests`;
    assert.equal((await sendJson(app, 'POST', url, stranger.key, { method: 'phone' })).status, 404);
    assert.equal((await sendJson(app, 'POST', url, helper.key, { method: 'fax' })).status, 400);
    assert.equal((await sendJson(app, 'POST', url)).status, 401);

    const requested = await sendJson(app, 'POST', url, helper.key, { method: 'id_document' });
    assert.equal(requested.status, 202);
    assert.match(requested.body.id, /^ver_[0-9a-f]{16}$/);
    assert.deepEqual(requested.body, {
      id: requested.body.id,
      helper_id: helperId,
      method: 'id_document',
      status: 'pending',
      created_at: NOW.toISOString(),
      decided_at: null,
      reason: null,
    });
    // Asking again while it waits answers the same request.
    const again = await sendJson(app, 'POST', url, helper.key, { method: 'phone' });
    assert.deepEqual([again.status, again.body.id], [202, requested.body.id]);
    assert.equal(await availableMovers(app), 0);

    await decideVerification(context, requested.body.id, 'approved', null);
    const profile = (await sendJson(app, 'GET', `/v1/helpers/${helperId}`)).body.reliability;
    assert.equal(profile.verified, true);
    assert.equal(profile.reliability_score, reliabilityScore({ ...FRESH_HISTORY, verified: true }));
    assert.equal(await availableMovers(app), 1);
    const events = await db.kysely
      .selectFrom('events')
      .selectAll()
      .where('type', '=', 'verification.decided')
      .execute();
    assert.equal(events.length, 1);
    assert.deepEqual(JSON.parse(events[0]?.audience ?? 'null'), [helper.accountId]);
    assert.equal(JSON.parse(events[0]?.payload ?? '{}').status, 'approved');
    await assert.rejects(decideVerification(context, requested.body.id, 'rejected', 'zu spät'), /is not pending/);

    await unverifyHelper(context, helperId, 'Dokument gefälscht');
    assert.equal((await sendJson(app, 'GET', `/v1/helpers/${helperId}`)).body.reliability.verified, false);
    assert.equal(await availableMovers(app), 0);
    await assert.rejects(unverifyHelper(context, helperId, 'noch mal'), /no approved verification/);
  });

  test('a rejection leaves the helper unverified; a new request may follow', async (t) => {
    const { app, helper, helperId, context } = await setup(t);
    const url = `/v1/helpers/${helperId}/verification-requests`;
    const requested = await sendJson(app, 'POST', url, helper.key, { method: 'address_letter' });
    const rejected = await decideVerification(context, requested.body.id, 'rejected', 'Adresse unleserlich');
    assert.deepEqual([rejected.status, rejected.reason], ['rejected', 'Adresse unleserlich']);
    assert.equal((await sendJson(app, 'GET', `/v1/helpers/${helperId}`)).body.reliability.verified, false);
    const next = await sendJson(app, 'POST', url, helper.key, { method: 'phone' });
    assert.equal(next.status, 202);
    assert.notEqual(next.body.id, requested.body.id);
  });
});
