/**
 * Issue 30, 3: a job's completion is its owner's word, which each accepted helper confirms or
 * objects to within COMPLETION_OBJECTION_HOURS (72); without an objection it is final then. Only a
 * final completion opens the reviews of the application and counts in the helper's record; an
 * objection keeps it from standing for that helper, and once it stands for nobody the job is
 * assigned again. Only the two parties see any of it. Through HTTP, on the run's engine.
 */
import assert from 'node:assert/strict';
import { describe, type TestContext, test } from 'node:test';
import { createDb } from '../../src/db/create-db.js';
import { migrateTo, migrateToLatest } from '../../src/db/migrate.js';
import { finalizeCompletions } from '../../src/services/completions.js';
import { buildTestApp, type Client, clientFor, createKey, NOW } from '../helpers/app.js';
import { helperBody, JOB_BODY } from '../helpers/bodies.js';
import { freshDatabaseUrl } from '../helpers/database.js';
import { helperFixture, jobFixture } from '../helpers/fixtures.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const WINDOW_MS = 72 * HOUR_MS;

/** An app on a clock the test moves; a job owner, two helper accounts with a profile each, and a stranger. */
async function setup(t: TestContext) {
  let now = NOW;
  // The background sweeps tick once a minute: the test runs finalizeCompletions itself.
  const { app, db } = await buildTestApp(t, () => now, { EVENTS_POLL_MS: '60000' });
  // Accounts two days old: what they complete and review counts (NEW_ACCOUNT_HOURS).
  const client = async (email: string) =>
    clientFor(app, (await createKey(db, { email }, new Date(NOW.getTime() - 2 * DAY_MS))).key);
  const owner = await client('owner@example.org');
  const stranger = await client('stranger@example.org');
  const helpers: { client: Client; helperId: string }[] = [];
  for (const name of ['Jana', 'Jonas']) {
    const helper = await client(`${name.toLowerCase()}@example.org`);
    const profile = await helper.post('/v1/helpers', helperBody(`${name} W.`));
    assert.equal(profile.status, 201, profile.raw);
    helpers.push({ client: helper, helperId: profile.body.id });
  }
  return {
    app,
    db,
    owner,
    stranger,
    helpers,
    anonymous: clientFor(app, null),
    advance: (ms: number) => {
      now = new Date(now.getTime() + ms);
      return now;
    },
    now: () => now,
  };
}
type Setup = Awaited<ReturnType<typeof setup>>;

/** A job for `count` helpers, each applying and accepted; completed by its owner a day later. */
async function completedJob(s: Setup, count = 1) {
  const job = await s.owner.post('/v1/jobs', { ...JOB_BODY, helpers_needed: count });
  assert.equal(job.status, 201, job.raw);
  const applications: string[] = [];
  for (const helper of s.helpers.slice(0, count)) {
    const applied = await helper.client.post(`/v1/jobs/${job.body.id}/applications`, { helper_id: helper.helperId });
    assert.equal(applied.status, 201, applied.raw);
    const accepted = await s.owner.post(`/v1/jobs/${job.body.id}/applications/${applied.body.id}/accept`);
    assert.equal(accepted.status, 200, accepted.raw);
    applications.push(applied.body.id);
  }
  s.advance(DAY_MS); // The job's time has come (completion_too_early before).
  const completed = await s.owner.post(`/v1/jobs/${job.body.id}/complete`);
  assert.equal(completed.status, 200, completed.raw);
  const jobId = job.body.id as string;
  const of = (i: number) => `/v1/jobs/${jobId}/applications/${applications[i]}`;
  return { jobId, applications, of };
}

const figuresOf = async (s: Setup, i = 0) =>
  (await s.anonymous.get(`/v1/helpers/${s.helpers[i]?.helperId}`)).body.reliability;

async function eventsOf(s: Setup, type: string) {
  return s.db.kysely
    .selectFrom('events')
    .select(['type', 'subject_id', 'audience', 'payload'])
    .where('type', '=', type as never)
    .orderBy('id')
    .execute();
}

describe("a job's completion: the owner's word, the helper's confirmation or objection (issue 30, 3)", () => {
  test('the word awaits the helper, seen by the two parties only; reviews wait for the confirmation, which counts at once', async (t) => {
    const s = await setup(t);
    const [jana] = s.helpers;
    assert.ok(jana);
    const { jobId, applications, of } = await completedJob(s);
    const completedAt = s.now().toISOString();
    const awaiting = {
      state: 'awaiting_confirmation',
      completed_at: completedAt,
      objections_close_at: new Date(s.now().getTime() + WINDOW_MS).toISOString(),
      confirmed_at: null,
      objected_at: null,
      objection: null,
      final_at: null,
    };
    // Both parties read it; nobody else learns of it.
    const listed = await s.owner.get(`/v1/jobs/${jobId}/applications`);
    assert.deepEqual(listed.body.data[0].completion, awaiting);
    const own = await jana.client.get(of(0));
    assert.equal(own.status, 200, own.raw);
    assert.deepEqual([own.body.id, own.body.status, own.body.completion], [applications[0], 'accepted', awaiting]);
    assert.deepEqual((await s.owner.get(of(0))).body.completion, awaiting);
    assert.deepEqual([(await s.stranger.get(of(0))).status, (await s.anonymous.get(of(0))).status], [404, 401]);
    const shown = await s.anonymous.get(`/v1/jobs/${jobId}`);
    assert.equal(shown.body.status, 'completed');
    assert.ok(!shown.raw.includes('completion'), 'the public job says nothing of the completion');

    // Not final: no reviews (saying when they open), nothing in the record.
    const early = await s.owner.post(`${of(0)}/reviews`, { rating: 1 });
    assert.deepEqual([early.status, early.body.error], [409, 'completion_not_final']);
    assert.match(early.body.message, new RegExp(`becomes final at ${awaiting.objections_close_at}`));
    const helperEarly = await jana.client.post(`${of(0)}/reviews`, { rating: 5 });
    assert.equal(helperEarly.body.error, 'completion_not_final');
    assert.match(helperEarly.body.suggestion, /confirm-completion/);
    assert.equal((await figuresOf(s)).completed_jobs, 0);

    // Only the helper answers: the owner 403, a stranger 404; nothing written.
    const byOwner = await s.owner.post(`${of(0)}/confirm-completion`);
    assert.deepEqual([byOwner.status, byOwner.body.error], [403, 'forbidden']);
    assert.equal((await s.stranger.post(`${of(0)}/confirm-completion`)).status, 404);
    assert.equal(
      (await s.stranger.post(`${of(0)}/object-to-completion`, { reason: 'Ich war nicht dabei.' })).status,
      404,
    );

    s.advance(HOUR_MS);
    const confirmed = await jana.client.post(`${of(0)}/confirm-completion`);
    assert.equal(confirmed.status, 200, confirmed.raw);
    const at = s.now().toISOString();
    assert.deepEqual(confirmed.body.completion, { ...awaiting, state: 'confirmed', confirmed_at: at, final_at: at });
    assert.equal((await figuresOf(s)).completed_jobs, 1, 'counted in the next read');
    // Twice, or an objection after it: 409, naming the state.
    const again = await jana.client.post(`${of(0)}/confirm-completion`);
    assert.deepEqual([again.status, again.body.error], [409, 'invalid_state_transition']);
    assert.match(again.body.message, /^The completion is confirmed/);
    const late = await jana.client.post(`${of(0)}/object-to-completion`, { reason: 'Doch nicht fertig.' });
    assert.deepEqual([late.status, late.body.error], [409, 'invalid_state_transition']);

    // The reviews are open now; their window runs from the final completion.
    const review = await s.owner.post(`${of(0)}/reviews`, { rating: 5 });
    assert.equal(review.status, 201, review.raw);
    assert.equal(review.body.window_closes_at, new Date(s.now().getTime() + 14 * DAY_MS).toISOString());

    // The events: private to the two parties.
    const parties = (audience: string | null) => JSON.parse(audience ?? 'null')?.length;
    for (const type of ['completion.requested', 'completion.confirmed']) {
      const events = await eventsOf(s, type);
      assert.equal(events.length, 1, type);
      assert.equal(events[0]?.subject_id, applications[0]);
      assert.equal(parties(events[0]?.audience ?? null), 2, `${type} goes to the owner and the helper only`);
    }
  });

  test('silence: final when the window closes, at read time; the sweep writes it and the record counts it once', async (t) => {
    const s = await setup(t);
    const { of } = await completedJob(s);
    const closes = new Date(s.now().getTime() + WINDOW_MS).toISOString();
    s.advance(WINDOW_MS - 1000);
    const owner = s.owner;
    assert.equal((await owner.post(`${of(0)}/reviews`, { rating: 4 })).body.error, 'completion_not_final');
    assert.equal(await finalizeCompletions({ db: s.db.kysely, now: s.now(), claim: null }), 0);
    s.advance(1000);
    // No request and no sweep yet: the read judges the window itself.
    const final = (await owner.get(of(0))).body.completion;
    assert.deepEqual([final.state, final.final_at], ['final', closes]);
    const review = await owner.post(`${of(0)}/reviews`, { rating: 4 });
    assert.equal(review.status, 201, review.raw);
    assert.equal(review.body.window_closes_at, new Date(Date.parse(closes) + 14 * DAY_MS).toISOString());
    const objected = await s.helpers[0]?.client.post(`${of(0)}/object-to-completion`, { reason: 'Zu spät bemerkt.' });
    assert.deepEqual([objected?.status, objected?.body.error], [409, 'invalid_state_transition']);
    assert.match(objected?.body.message, new RegExp(`became final at ${closes}`));

    // The sweep writes it final and the helper's record counts it, once.
    assert.equal((await figuresOf(s)).completed_jobs, 0);
    assert.equal(await finalizeCompletions({ db: s.db.kysely, now: s.now(), claim: null }), 1);
    assert.equal(await finalizeCompletions({ db: s.db.kysely, now: s.now(), claim: null }), 0);
    assert.equal((await figuresOf(s)).completed_jobs, 1);
  });

  test('an objection: a reason for the owner, without contact data; the job is assigned again and completed anew', async (t) => {
    const s = await setup(t);
    const [jana] = s.helpers;
    assert.ok(jana);
    const { jobId, of } = await completedJob(s);
    const object = (client: Client, reason: unknown) => client.post(`${of(0)}/object-to-completion`, { reason });
    const contact = await object(jana.client, 'Nicht fertig, ruf mich an: 0171 2345678');
    assert.deepEqual([contact.status, contact.body.error, contact.body.param], [400, 'invalid_parameter', 'reason']);
    assert.match(contact.body.suggestion, /conversation/);
    assert.deepEqual([(await object(jana.client, 'Nein.')).status, (await object(jana.client, '')).status], [400, 400]);
    const byOwner = await object(s.owner, 'Ich widerspreche mir selbst.');
    assert.deepEqual([byOwner.status, byOwner.body.error], [403, 'forbidden']);

    s.advance(HOUR_MS);
    const reason = 'Die Hecke ist erst zur Hälfte geschnitten.';
    const objected = await object(jana.client, reason);
    assert.equal(objected.status, 200, objected.raw);
    assert.deepEqual(
      [objected.body.completion.state, objected.body.completion.objection, objected.body.completion.final_at],
      ['objected', reason, null],
    );
    // The job is assigned again; nobody but the two parties learns why (or of the objection itself).
    const shown = await s.anonymous.get(`/v1/jobs/${jobId}`);
    assert.equal(shown.body.status, 'assigned');
    assert.ok(!shown.raw.includes('Hälfte'));
    assert.equal((await s.owner.get(`/v1/jobs/${jobId}/applications`)).body.data[0].completion.objection, reason);
    const publicEvents = await s.db.kysely
      .selectFrom('events')
      .select('payload')
      .where('audience', 'is', null)
      .execute();
    assert.ok(!JSON.stringify(publicEvents).includes('Hälfte'), 'no public event carries the reason');
    const [event] = await eventsOf(s, 'completion.objected');
    assert.equal(JSON.parse(event?.audience ?? '[]').length, 2);
    assert.equal(JSON.parse(event?.payload ?? '{}').completion.objection, reason);

    // Nothing to review, nothing to confirm until the owner completes again.
    assert.equal((await s.owner.post(`${of(0)}/reviews`, { rating: 1 })).body.error, 'not_reviewable');
    const confirm = await jana.client.post(`${of(0)}/confirm-completion`);
    assert.deepEqual([confirm.status, confirm.body.error], [409, 'invalid_state_transition']);
    assert.match(confirm.body.message, /^The job is assigned again/);
    assert.equal((await figuresOf(s)).completed_jobs, 0);

    // Done after all: completed again, a new window; the helper confirms.
    s.advance(DAY_MS);
    assert.equal((await s.owner.post(`/v1/jobs/${jobId}/complete`)).status, 200);
    const anew = (await jana.client.get(of(0))).body.completion;
    assert.deepEqual(
      [anew.state, anew.completed_at, anew.objection],
      ['awaiting_confirmation', s.now().toISOString(), null],
    );
    assert.equal((await jana.client.post(`${of(0)}/confirm-completion`)).status, 200);
    assert.equal((await s.owner.post(`${of(0)}/reviews`, { rating: 5 })).status, 201);
    assert.equal((await figuresOf(s)).completed_jobs, 1);
  });

  test('two helpers: the job is assigned again only once it stands for neither; an objection is withdrawn by confirming', async (t) => {
    const s = await setup(t);
    const [jana, jonas] = s.helpers;
    assert.ok(jana && jonas);
    const { jobId, of } = await completedJob(s, 2);
    const status = async () => (await s.anonymous.get(`/v1/jobs/${jobId}`)).body.status;
    const reason = { reason: 'Ich war an dem Tag gar nicht dort.' };
    assert.equal((await jana.client.post(`${of(0)}/object-to-completion`, reason)).status, 200);
    assert.equal(await status(), 'completed', 'it still stands for the other helper');
    // Jana's application cannot be answered for by Jonas.
    assert.equal((await jonas.client.post(`${of(0)}/confirm-completion`)).status, 404);
    assert.equal((await jonas.client.post(`${of(1)}/object-to-completion`, reason)).status, 200);
    assert.equal(await status(), 'assigned', 'it stands for nobody');

    s.advance(HOUR_MS);
    assert.equal((await s.owner.post(`/v1/jobs/${jobId}/complete`)).status, 200);
    assert.equal((await jonas.client.post(`${of(1)}/confirm-completion`)).status, 200);
    assert.equal((await jana.client.post(`${of(0)}/object-to-completion`, reason)).status, 200);
    assert.equal(await status(), 'completed', 'final for Jonas: the job stays completed');
    const disputed = await s.owner.post(`${of(0)}/reviews`, { rating: 1 });
    assert.deepEqual([disputed.status, disputed.body.error], [409, 'completion_not_final']);
    assert.match(disputed.body.message, /objected/);
    assert.equal((await s.owner.post(`${of(1)}/reviews`, { rating: 5 })).status, 201);
    assert.deepEqual([(await figuresOf(s, 0)).completed_jobs, (await figuresOf(s, 1)).completed_jobs], [0, 1]);

    // Settled in the conversation: Jana confirms after all, also after the window.
    s.advance(WINDOW_MS + HOUR_MS);
    const settled = await jana.client.post(`${of(0)}/confirm-completion`);
    assert.equal(settled.status, 200, settled.raw);
    assert.deepEqual([settled.body.completion.state, settled.body.completion.objection], ['confirmed', reason.reason]);
    assert.equal((await s.owner.post(`${of(0)}/reviews`, { rating: 4 })).status, 201);
    assert.equal((await figuresOf(s, 0)).completed_jobs, 1);
  });

  test('two objections at once: the job is assigned again once, with one event', async (t) => {
    const s = await setup(t);
    const { jobId, of } = await completedJob(s, 2);
    const answers = await Promise.all(
      s.helpers.map((helper, i) =>
        helper.client.post(`${of(i)}/object-to-completion`, { reason: 'Die Arbeit wurde nicht gemacht.' }),
      ),
    );
    assert.deepEqual(
      answers.map((a) => a.status),
      [200, 200],
    );
    assert.equal((await s.anonymous.get(`/v1/jobs/${jobId}`)).body.status, 'assigned');
    const changes = (await eventsOf(s, 'job.status_changed')).filter(
      (e) => e.subject_id === jobId && JSON.parse(e.payload).status === 'assigned',
    );
    // One when the last helper was accepted, one when the job was assigned again.
    assert.equal(changes.length, 2);
  });

  test('a refused answer keeps no Idempotency-Key: the same key confirms once the job is completed', async (t) => {
    const s = await setup(t);
    const [jana] = s.helpers;
    assert.ok(jana);
    const job = await s.owner.post('/v1/jobs', JOB_BODY);
    const applied = await jana.client.post(`/v1/jobs/${job.body.id}/applications`, { helper_id: jana.helperId });
    const url = `/v1/jobs/${job.body.id}/applications/${applied.body.id}`;
    assert.equal((await s.owner.post(`${url}/accept`)).status, 200);
    const key = { 'idempotency-key': 'confirm-once' };
    const early = await jana.client.post(`${url}/confirm-completion`, undefined, key);
    assert.deepEqual([early.status, early.body.error], [409, 'invalid_state_transition']);
    s.advance(DAY_MS);
    assert.equal((await s.owner.post(`/v1/jobs/${job.body.id}/complete`)).status, 200);
    const confirmed = await jana.client.post(`${url}/confirm-completion`, undefined, key);
    assert.equal(confirmed.status, 200, confirmed.raw);
    const replayed = await jana.client.post(`${url}/confirm-completion`, undefined, key);
    assert.deepEqual([replayed.status, replayed.body], [200, confirmed.body]);
  });
});

test('migration 0023: jobs completed before it stay completed for their accepted helpers (final at their completion)', async (t) => {
  const db = createDb(await freshDatabaseUrl(t, { file: false }));
  t.after(() => db.close());
  await migrateTo(db, '0022-place-releases');
  const k = db.kysely as any;
  const at = '2026-11-01T10:00:00.000Z';
  await k
    .insertInto('accounts')
    .values({
      id: 'acc_00000000000000a1',
      name: 'Petra K.',
      email: 'petra@example.org',
      organisation: null,
      account_type: 'private',
      created_at: '2026-10-01T00:00:00.000Z',
      place_salt: 'salt',
    })
    .execute();
  const owned = { owner_account_id: 'acc_00000000000000a1' };
  const done = jobFixture({ ...owned, status: 'completed', completed_at: at });
  const assigned = jobFixture({ ...owned, status: 'assigned' });
  await k.insertInto('jobs').values([done, assigned]).execute();
  const helpers = [helperFixture(['GARDENING']), helperFixture(['GARDENING'])].map(({ categories: _, ...h }) => h);
  await k.insertInto('helpers').values(helpers).execute();
  const application = (id: string, jobId: string, status: string, helper = helpers[0]) => ({
    id,
    job_id: jobId,
    helper_id: helper?.id,
    account_id: 'acc_00000000000000b2',
    message: null,
    status,
    created_at: '2026-10-30T10:00:00.000Z',
    decided_at: '2026-10-30T11:00:00.000Z',
  });
  await k
    .insertInto('applications')
    .values([
      application('app_00000000000000c1', done.id, 'accepted'),
      application('app_00000000000000c2', done.id, 'rejected', helpers[1]),
      application('app_00000000000000c3', assigned.id, 'accepted'),
    ])
    .execute();
  await migrateToLatest(db);
  const rows = await k
    .selectFrom('applications')
    .select(['id', 'completion_requested_at', 'completion_objectable_until', 'completion_final_at'])
    .orderBy('id')
    .execute();
  assert.deepEqual(rows, [
    {
      id: 'app_00000000000000c1',
      completion_requested_at: at,
      completion_objectable_until: at,
      completion_final_at: at,
    },
    {
      id: 'app_00000000000000c2',
      completion_requested_at: null,
      completion_objectable_until: null,
      completion_final_at: null,
    },
    {
      id: 'app_00000000000000c3',
      completion_requested_at: null,
      completion_objectable_until: null,
      completion_final_at: null,
    },
  ]);
});
