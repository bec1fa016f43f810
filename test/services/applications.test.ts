import assert from 'node:assert/strict';
import { describe, type TestContext, test } from 'node:test';
import { MASK } from '../../src/domain/contact-shield.js';
import { buildTestApp, type Client, clientFor, createKey, NOW } from '../helpers/app.js';
import { insert, jobFixture } from '../helpers/fixtures.js';

const JOB = {
  title: 'Umzugskartons tragen',
  description: 'Zehn Kartons in den dritten Stock, ohne Aufzug.',
  category: 'MOVING',
  price_eur: 80,
  location: { plz: '76131' },
};

async function registerHelper(client: Client, name = 'Jonas W.'): Promise<string> {
  const response = await client.post('/v1/helpers', {
    display_name: name,
    categories: ['MOVING'],
    location: { plz: '76227' },
    hourly_rate_eur: 18,
  });
  assert.equal(response.status, 201, JSON.stringify(response.body));
  return response.body.id;
}

/** A job owner, three helper accounts with a helper each, and an open job of the owner. */
async function setup(t: TestContext, job: object = {}) {
  const { app, db } = await buildTestApp(t);
  const ownerKey = await createKey(db, { email: 'owner@example.org' });
  const owner = clientFor(app, ownerKey.key);
  const helpers: { client: Client; helperId: string }[] = [];
  for (const name of ['anna', 'ben', 'cem', 'dora']) {
    const client = clientFor(app, (await createKey(db, { email: `${name}@example.org` })).key);
    helpers.push({ client, helperId: await registerHelper(client, name) });
  }
  const created = await owner.post('/v1/jobs', { ...JOB, ...job });
  assert.equal(created.status, 201);
  const at = (i: number) => helpers[i] as { client: Client; helperId: string };
  return {
    app,
    db,
    owner,
    ownerAccountId: ownerKey.accountId,
    helpers: at,
    job: created.body,
    anonymous: clientFor(app, null),
  };
}

const apply = (helper: { client: Client; helperId: string }, jobId: string, message?: string) =>
  helper.client.post(`/v1/jobs/${jobId}/applications`, { helper_id: helper.helperId, ...(message ? { message } : {}) });

const apiError = (
  error: string,
  param: string | null,
  message: string,
  suggestion: string,
  alternatives: string[] = [],
) => ({
  error,
  message,
  param,
  suggestion,
  alternatives,
  alternatives_count: alternatives.length,
});

describe('POST /v1/jobs/{id}/applications', () => {
  test('a helper of the calling account applies: 201 pending, counted on the job at once', async (t) => {
    const { helpers, job, anonymous } = await setup(t);
    const { status, body } = await apply(helpers(0), job.id, 'Ich habe Zeit am Samstag.');
    assert.equal(status, 201);
    assert.match(body.id, /^app_[0-9a-f]{16}$/);
    assert.deepEqual(body, {
      id: body.id,
      job_id: job.id,
      helper_id: helpers(0).helperId,
      status: 'pending',
      message: 'Ich habe Zeit am Samstag.',
      contact_data_hidden: false,
      created_at: NOW.toISOString(),
      decided_at: null,
      completion: null,
      payments: [],
    });
    assert.equal((await anonymous.get(`/v1/jobs/${job.id}`)).body.applications_count, 1);
    assert.equal((await apply(helpers(1), job.id)).body.message, null);
  });

  test("another account's helper and unknown helpers are 404 on helper_id; unknown jobs 404", async (t) => {
    const { helpers, job } = await setup(t);
    const borrowed = await helpers(0).client.post(`/v1/jobs/${job.id}/applications`, {
      helper_id: helpers(1).helperId,
    });
    assert.equal(borrowed.status, 404);
    assert.deepEqual(
      borrowed.body,
      apiError(
        'not_found',
        'helper_id',
        `No helper with the id '${helpers(1).helperId}' is yours.`,
        'Apply as a helper your account registered with POST /v1/helpers.',
      ),
    );
    const unknownJob = await apply(helpers(0), 'job_ffffffffffffffff');
    assert.equal(unknownJob.status, 404);
    assert.deepEqual(
      unknownJob.body,
      apiError(
        'not_found',
        'id',
        "No job has the id 'job_ffffffffffffffff'.",
        'Check the id (job ids start with job_); GET /v1/jobs lists open jobs.',
      ),
    );
  });

  test('an account cannot apply to its own job (400)', async (t) => {
    const { owner, job } = await setup(t);
    const ownHelper = await registerHelper(owner);
    const response = await owner.post(`/v1/jobs/${job.id}/applications`, { helper_id: ownHelper });
    assert.equal(response.status, 400);
    assert.deepEqual(
      response.body,
      apiError(
        'invalid_parameter',
        'helper_id',
        'Your account posted this job; it cannot apply to it.',
        'Apply to jobs of other accounts; GET /v1/jobs/{id}/applications lists who applied to yours.',
      ),
    );
  });

  test('one helper applies to one job once: 409 already_applied', async (t) => {
    const { helpers, job, anonymous } = await setup(t);
    assert.equal((await apply(helpers(0), job.id)).status, 201);
    const again = await apply(helpers(0), job.id, 'Nochmal');
    assert.equal(again.status, 409);
    assert.deepEqual(
      again.body,
      apiError(
        'already_applied',
        'helper_id',
        `Helper '${helpers(0).helperId}' has already applied to this job.`,
        'A helper applies to a job once; wait for the owner to accept or reject the application.',
      ),
    );
    assert.equal((await anonymous.get(`/v1/jobs/${job.id}`)).body.applications_count, 1);
  });

  test('max_applicants is helpers_needed x 3: the application after the last allowed one is 409 limit_reached', async (t) => {
    const { helpers, job, anonymous } = await setup(t);
    for (const i of [0, 1, 2]) assert.equal((await apply(helpers(i), job.id)).status, 201);
    const fourth = await apply(helpers(3), job.id);
    assert.equal(fourth.status, 409);
    assert.deepEqual(
      fourth.body,
      apiError(
        'limit_reached',
        null,
        'The job takes no more applications: max_applicants is reached.',
        'Apply to another open job (GET /v1/jobs); max_applicants is helpers_needed × 3.',
      ),
    );
    const shown = (await anonymous.get(`/v1/jobs/${job.id}`)).body;
    assert.deepEqual([shown.applications_count, shown.max_applicants, shown.status], [3, 3, 'open']);
  });

  test('only open jobs take applications: 409 naming the state', async (t) => {
    const { helpers, job, owner, db, ownerAccountId } = await setup(t);
    await owner.post(`/v1/jobs/${job.id}/cancel`);
    const cancelled = await apply(helpers(0), job.id);
    assert.equal(cancelled.status, 409);
    assert.deepEqual(
      cancelled.body,
      apiError(
        'invalid_state_transition',
        null,
        'The job is cancelled; it takes applications only while open.',
        'Apply to an open job; GET /v1/jobs lists them.',
      ),
    );
    const expired = jobFixture({ owner_account_id: ownerAccountId, deadline: '2026-11-20T11:00:00.000Z' });
    const seeded = jobFixture({ applications_count: 0 });
    await insert(db.kysely, { jobs: [expired, seeded] });
    assert.equal(
      (await apply(helpers(0), expired.id)).body.message,
      'The job is expired; it takes applications only while open.',
    );
    assert.equal((await apply(helpers(0), seeded.id)).status, 201, 'seeded jobs take applications too');
  });

  test('anonymous callers get 401; unknown fields 400', async (t) => {
    const { anonymous, helpers, job } = await setup(t);
    const response = await anonymous.post(`/v1/jobs/${job.id}/applications`, { helper_id: helpers(0).helperId });
    assert.equal(response.status, 401);
    assert.equal(response.body.error, 'authentication_required');
    const typo = await helpers(0).client.post(`/v1/jobs/${job.id}/applications`, { helperid: helpers(0).helperId });
    assert.deepEqual(
      [typo.status, typo.body.error, typo.body.suggestion],
      [400, 'unknown_parameter', "Did you mean 'helper_id'?"],
    );
    const long = await apply(helpers(0), job.id, 'x'.repeat(1001));
    assert.deepEqual([long.status, long.body.param], [400, 'message']);
  });
});

describe('GET /v1/jobs/{id}/applications', () => {
  test("the job's owner sees its applications, oldest first; anyone else 404", async (t) => {
    const { owner, helpers, job, anonymous } = await setup(t);
    const first = (await apply(helpers(0), job.id, 'Erster')).body;
    const second = (await apply(helpers(1), job.id)).body;
    const { status, body } = await owner.get(`/v1/jobs/${job.id}/applications`);
    assert.equal(status, 200);
    const ordered = [first, second].sort((a, b) => a.id.localeCompare(b.id));
    assert.deepEqual(body, { data: ordered, total: 2 });
    const foreign = await helpers(0).client.get(`/v1/jobs/${job.id}/applications`);
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.message, `No job with the id '${job.id}' is yours to change.`);
    assert.equal((await anonymous.get(`/v1/jobs/${job.id}/applications`)).status, 401);
  });

  // Issue 30.2: the message of a pending application reached the job's owner unmasked.
  test("the contact-data shield: the owner reads a pending or rejected application's message masked, in full once accepted", async (t) => {
    const { db, owner, helpers, job } = await setup(t, { helpers_needed: 2 });
    const contact = 'Ruf mich an: 0171 2345678, gina@gmx.de';
    const masked = `Ruf mich an: ${MASK}, ${MASK}`;
    // The applicant reads what they wrote.
    const applied = await apply(helpers(0), job.id, contact);
    assert.equal(applied.status, 201, JSON.stringify(applied.body));
    assert.equal(applied.body.message, contact);
    assert.equal(applied.body.contact_data_hidden, false);
    const other = (await apply(helpers(1), job.id, 'Telegram: @gina_k')).body;
    const plain = (await apply(helpers(2), job.id, 'Ich habe am Samstag ab 9:30 Uhr Zeit.')).body;

    // The owner, while pending: masked, in the list and in the application.created event.
    const list = (await owner.get(`/v1/jobs/${job.id}/applications`)).body.data;
    const read = (id: string) => list.find((a: { id: string }) => a.id === id);
    assert.equal(read(applied.body.id).message, masked);
    assert.equal(read(applied.body.id).contact_data_hidden, true);
    assert.equal(read(other.id).message, `Telegram: ${MASK}`);
    assert.equal(read(plain.id).message, 'Ich habe am Samstag ab 9:30 Uhr Zeit.');
    assert.equal(read(plain.id).contact_data_hidden, false);
    assert.doesNotMatch(JSON.stringify(list), /2345678|gmx|gina_k/);
    const created = await db.kysely
      .selectFrom('events')
      .selectAll()
      .where('type', '=', 'application.created')
      .execute();
    assert.equal(created.length, 3);
    assert.doesNotMatch(JSON.stringify(created.map((event) => event.payload)), /2345678|gmx|gina_k/);

    // Rejected: no deal, still masked (also in the answer to the rejection).
    const rejected = await owner.post(`/v1/jobs/${job.id}/applications/${other.id}/reject`);
    assert.equal(rejected.body.message, `Telegram: ${MASK}`);
    // Accepted: the owner reads it in full.
    const accepted = await owner.post(`/v1/jobs/${job.id}/applications/${applied.body.id}/accept`);
    assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
    assert.equal(accepted.body.message, contact);
    assert.equal(accepted.body.contact_data_hidden, false);
    const after = (await owner.get(`/v1/jobs/${job.id}/applications`)).body.data;
    assert.equal(after.find((a: { id: string }) => a.id === applied.body.id).message, contact);
    assert.equal(after.find((a: { id: string }) => a.id === other.id).message, `Telegram: ${MASK}`);
  });
});

describe('accept and reject', () => {
  test('accepting the last helper needed assigns the job and rejects the pending rest', async (t) => {
    const { owner, helpers, job, anonymous } = await setup(t);
    const chosen = (await apply(helpers(0), job.id)).body;
    const others = [(await apply(helpers(1), job.id)).body, (await apply(helpers(2), job.id)).body];
    const accepted = await owner.post(`/v1/jobs/${job.id}/applications/${chosen.id}/accept`);
    assert.equal(accepted.status, 200);
    const { payments, ...decided } = accepted.body;
    const { payments: none, ...pending } = chosen;
    assert.deepEqual(none, []);
    assert.deepEqual(decided, { ...pending, status: 'accepted', decided_at: NOW.toISOString() });
    assert.deepEqual(
      payments.map((p: { kind: string; status: string }) => [p.kind, p.status]),
      [['job', 'awaiting_payment']],
      'the acceptance owes the helper their share (issue 32)',
    );
    assert.equal((await anonymous.get(`/v1/jobs/${job.id}`)).body.status, 'assigned');
    const list = (await owner.get(`/v1/jobs/${job.id}/applications`)).body.data;
    for (const other of others) {
      assert.deepEqual(
        list.find((a: { id: string }) => a.id === other.id),
        { ...other, status: 'rejected', decided_at: NOW.toISOString() },
      );
    }
    const again = await owner.post(`/v1/jobs/${job.id}/applications/${chosen.id}/accept`);
    assert.equal(again.status, 409);
    assert.deepEqual(
      again.body,
      apiError(
        'invalid_state_transition',
        null,
        "The application is accepted; 'accept' is not possible from there.",
        'This application is accepted and cannot change any more.',
      ),
    );
    const late = await owner.post(`/v1/jobs/${job.id}/applications/${others[0].id}/accept`);
    assert.equal(late.status, 409);
    assert.equal(late.body.message, "The application is rejected; 'accept' is not possible from there.");
    assert.equal(
      (await apply(helpers(3), job.id)).body.message,
      'The job is assigned; it takes applications only while open.',
    );
  });

  test('with two helpers needed, the job stays open after the first acceptance', async (t) => {
    const { owner, helpers, job, anonymous } = await setup(t, { helpers_needed: 2 });
    const applications = [];
    for (const i of [0, 1, 2]) applications.push((await apply(helpers(i), job.id)).body);
    await owner.post(`/v1/jobs/${job.id}/applications/${applications[0].id}/accept`);
    assert.equal((await anonymous.get(`/v1/jobs/${job.id}`)).body.status, 'open');
    await owner.post(`/v1/jobs/${job.id}/applications/${applications[1].id}/accept`);
    assert.equal((await anonymous.get(`/v1/jobs/${job.id}`)).body.status, 'assigned');
    const statuses = (await owner.get(`/v1/jobs/${job.id}/applications`)).body.data.map(
      (a: { id: string; status: string }) => [a.id, a.status],
    );
    assert.deepEqual(
      new Map(statuses),
      new Map([
        [applications[0].id, 'accepted'],
        [applications[1].id, 'accepted'],
        [applications[2].id, 'rejected'],
      ]),
    );
  });

  test('pending -> rejected; a rejected application is final', async (t) => {
    const { owner, helpers, job } = await setup(t);
    const application = (await apply(helpers(0), job.id)).body;
    const rejected = await owner.post(`/v1/jobs/${job.id}/applications/${application.id}/reject`);
    assert.equal(rejected.status, 200);
    assert.deepEqual(rejected.body, { ...application, status: 'rejected', decided_at: NOW.toISOString() });
    for (const action of ['accept', 'reject']) {
      const again = await owner.post(`/v1/jobs/${job.id}/applications/${application.id}/${action}`);
      assert.equal(again.status, 409);
      assert.deepEqual(
        again.body,
        apiError(
          'invalid_state_transition',
          null,
          `The application is rejected; '${action}' is not possible from there.`,
          'This application is rejected and cannot change any more.',
        ),
      );
    }
    // A rejected application keeps its place: the helper cannot apply again.
    assert.equal((await apply(helpers(0), job.id)).body.error, 'already_applied');
  });

  test('cancelling the job rejects its pending applications', async (t) => {
    const { owner, helpers, job } = await setup(t);
    const application = (await apply(helpers(0), job.id)).body;
    await owner.post(`/v1/jobs/${job.id}/cancel`);
    const list = (await owner.get(`/v1/jobs/${job.id}/applications`)).body;
    assert.deepEqual(list.data, [{ ...application, status: 'rejected', decided_at: NOW.toISOString() }]);
    const accept = await owner.post(`/v1/jobs/${job.id}/applications/${application.id}/accept`);
    assert.equal(accept.status, 409);
  });

  test('an expired job accepts nobody (409 naming it), rejecting still works', async (t) => {
    const { owner, helpers, job, db } = await setup(t);
    const first = (await apply(helpers(0), job.id)).body;
    const second = (await apply(helpers(1), job.id)).body;
    await db.kysely
      .updateTable('jobs')
      .set({ deadline: '2026-11-20T11:00:00.000Z' })
      .where('id', '=', job.id)
      .execute();
    const accept = await owner.post(`/v1/jobs/${job.id}/applications/${first.id}/accept`);
    assert.equal(accept.status, 409);
    assert.deepEqual(
      accept.body,
      apiError(
        'invalid_state_transition',
        null,
        "The job is expired; 'accept' is not possible from there.",
        'This job is expired and cannot change any more.',
      ),
    );
    assert.equal((await owner.post(`/v1/jobs/${job.id}/applications/${second.id}/reject`)).status, 200);
  });

  test('only the job owner decides: others 404; unknown applications 404 on application_id', async (t) => {
    const { owner, helpers, job, anonymous } = await setup(t);
    const application = (await apply(helpers(0), job.id)).body;
    for (const action of ['accept', 'reject']) {
      const url = `/v1/jobs/${job.id}/applications/${application.id}/${action}`;
      const byApplicant = await helpers(0).client.post(url);
      assert.equal(byApplicant.status, 404, action);
      assert.equal(byApplicant.body.message, `No job with the id '${job.id}' is yours to change.`);
      assert.equal((await anonymous.post(url)).status, 401);
    }
    const unknown = await owner.post(`/v1/jobs/${job.id}/applications/app_ffffffffffffffff/accept`);
    assert.equal(unknown.status, 404);
    assert.deepEqual(
      unknown.body,
      apiError(
        'not_found',
        'application_id',
        "The job has no application with the id 'app_ffffffffffffffff'.",
        `GET /v1/jobs/${job.id}/applications lists the job's applications.`,
      ),
    );
    const otherJob = (await owner.post('/v1/jobs', JOB)).body;
    const elsewhere = await owner.post(`/v1/jobs/${otherJob.id}/applications/${application.id}/accept`);
    assert.equal(elsewhere.status, 404, 'an application is decided under its own job only');
    assert.equal((await owner.get(`/v1/jobs/${job.id}/applications`)).body.data[0].status, 'pending');
  });

  test('concurrent acceptances for the last place: exactly one wins', async (t) => {
    const { owner, helpers, job, anonymous } = await setup(t);
    const applications = [];
    for (const i of [0, 1, 2]) applications.push((await apply(helpers(i), job.id)).body);
    const responses = await Promise.all(
      applications.map((a) => owner.post(`/v1/jobs/${job.id}/applications/${a.id}/accept`)),
    );
    assert.deepEqual(responses.map((r) => r.status).sort(), [200, 409, 409]);
    assert.equal((await anonymous.get(`/v1/jobs/${job.id}`)).body.status, 'assigned');
    const statuses = (await owner.get(`/v1/jobs/${job.id}/applications`)).body.data.map(
      (a: { status: string }) => a.status,
    );
    assert.deepEqual(statuses.sort(), ['accepted', 'rejected', 'rejected']);
  });
});
