/**
 * Issue 17's whole story through HTTP on the run's engine: post a job, apply, ask a question before
 * acceptance with a phone number that arrives masked, accept, the same number now readable,
 * complete, both review, both reviews appear at once, the helper's completed_jobs, rating_avg and
 * reliability_score move in the next read, and verification by the platform makes the helper
 * available. A third account sees none of the private parts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MASK } from '../../src/domain/contact-shield.js';
import { decideVerification } from '../../src/services/verifications.js';
import { buildTestApp, clientFor, createKey, NOW } from '../helpers/app.js';
import { helperBody, JOB_BODY } from '../helpers/bodies.js';

test('the story: question, acceptance, completion, two reviews, reliability, verification', async (t) => {
  let now = NOW.getTime();
  const { app, db } = await buildTestApp(t, () => new Date(now));
  // Accounts two days old: what they review and complete counts (NEW_ACCOUNT_HOURS).
  const seasoned = new Date(NOW.getTime() - 2 * 86_400_000);
  const ownerKey = await createKey(db, { email: 'poster.private@example.org' }, seasoned);
  const helperKey = await createKey(db, { email: 'helper.private@example.org' }, seasoned);
  const owner = clientFor(app, ownerKey.key);
  const helper = clientFor(app, helperKey.key);
  const stranger = clientFor(app, (await createKey(db, { email: 'stranger@example.org' })).key);
  const anonymous = clientFor(app, null);

  const job = await owner.post('/v1/jobs', JOB_BODY);
  assert.equal(job.status, 201, job.raw);
  const profile = await helper.post('/v1/helpers', helperBody('Jonas W.'));
  assert.equal(profile.status, 201, profile.raw);
  const helperId = profile.body.id as string;
  const before = (await anonymous.get(`/v1/helpers/${helperId}`)).body.reliability;
  assert.deepEqual([before.completed_jobs, before.rating_count, before.verified], [0, 0, false]);
  const application = await helper.post(`/v1/jobs/${job.body.id}/applications`, { helper_id: helperId });
  assert.equal(application.status, 201, application.raw);

  // A question before acceptance: the number arrives masked.
  const question = 'Darf ich vorher anrufen? 0171 2345678';
  const conversation = await helper.post('/v1/conversations', {
    about: { type: 'application', id: application.body.id },
    text: question,
  });
  assert.equal(conversation.status, 201, conversation.raw);
  const messages = `/v1/conversations/${conversation.body.id}/messages`;
  assert.equal((await owner.get(messages)).body.data[0].text, `Darf ich vorher anrufen? ${MASK}`);
  assert.equal((await stranger.get(messages)).status, 404);

  // Accepted: the same number is readable.
  now += 60_000;
  const accepted = await owner.post(`/v1/jobs/${job.body.id}/applications/${application.body.id}/accept`);
  assert.equal(accepted.status, 200, accepted.raw);
  assert.equal((await owner.get(messages)).body.data[0].text, question);

  // Completed and confirmed by the helper; the helper's completed_jobs moves in the very next read.
  now += 3 * 3_600_000;
  assert.equal((await owner.post(`/v1/jobs/${job.body.id}/complete`)).status, 200);
  const confirm = `/v1/jobs/${job.body.id}/applications/${application.body.id}/confirm-completion`;
  assert.equal((await helper.post(confirm)).status, 200);
  const completed = (await anonymous.get(`/v1/helpers/${helperId}`)).body.reliability;
  assert.equal(completed.completed_jobs, 1);

  // Both review; the first stays hidden until the second, then both appear at once.
  const reviews = `/v1/jobs/${job.body.id}/applications/${application.body.id}/reviews`;
  const byOwner = await owner.post(reviews, { rating: 5, text: 'Sehr gründlich.' });
  assert.equal(byOwner.status, 201, byOwner.raw);
  assert.equal(byOwner.body.published, false);
  assert.equal((await anonymous.get(`/v1/helpers/${helperId}/reviews`)).body.total, 0);
  assert.equal((await anonymous.get(`/v1/helpers/${helperId}`)).body.reliability.rating_count, 0);
  assert.equal((await stranger.get(`/v1/reviews/${byOwner.body.id}`)).status, 404);
  now += 60_000;
  const byHelper = await helper.post(reviews, { rating: 4 });
  assert.equal(byHelper.status, 201, byHelper.raw);
  assert.equal(byHelper.body.published, true);
  assert.equal((await owner.get(`/v1/reviews/${byOwner.body.id}`)).body.published, true);
  const published = await anonymous.get(`/v1/helpers/${helperId}/reviews`);
  assert.equal(published.body.total, 1);
  assert.equal(published.body.data[0].text, 'Sehr gründlich.');
  assert.equal(published.body.data[0].published_at, byHelper.body.published_at);
  assert.doesNotMatch(published.raw, /private@|acc_/);
  const rated = (await anonymous.get(`/v1/helpers/${helperId}`)).body.reliability;
  assert.deepEqual([rated.completed_jobs, rated.rating_avg, rated.rating_count], [1, 5, 1]);
  assert.ok(
    rated.reliability_score > before.reliability_score,
    `${rated.reliability_score} > ${before.reliability_score}`,
  );

  // Verification by the platform makes the helper available.
  const available = async () =>
    (await anonymous.get('/v1/helpers/availability?category=GARDENING')).body.available_helpers as number;
  assert.equal(await available(), 0);
  const requested = await helper.post(`/v1/helpers/${helperId}/verification-requests`, { method: 'phone' });
  assert.equal(requested.status, 202, requested.raw);
  await decideVerification({ db: db.kysely, now: new Date(now), claim: null }, requested.body.id, 'approved', null);
  assert.equal(await available(), 1);
  const verified = (await anonymous.get(`/v1/helpers/${helperId}`)).body.reliability;
  assert.equal(verified.verified, true);
  assert.equal(verified.reliability_score, rated.reliability_score + 10);

  // The private events went to their parties only.
  const events = await db.kysely.selectFrom('events').select(['type', 'audience']).execute();
  const audiences = (type: string) =>
    events.filter((e) => e.type === type).map((e) => (JSON.parse(e.audience ?? '[]') as string[]).sort());
  assert.deepEqual(audiences('message.created'), [[ownerKey.accountId]]);
  assert.deepEqual(audiences('verification.decided'), [[helperKey.accountId]]);
  for (const audience of audiences('review.published')) {
    assert.deepEqual(audience, [ownerKey.accountId, helperKey.accountId].sort());
  }
  assert.ok(audiences('review.published').length >= 1);
});
