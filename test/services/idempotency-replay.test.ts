/**
 * What an Idempotency-Key keeps and gives back (issue 14): an answer that says "try later" is not
 * kept, so the retry it asks for does the work; a refusal before the write (or one that rolled the
 * write back) is not kept either (issue 29), only what a write that committed answered; a replay
 * carries the headers that describe the stored answer; the key is bound to the body as parsed, not
 * to its key order.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildApp } from '../../src/app.js';
import { testConfig } from '../../src/config.js';
import { writeContext } from '../../src/http/write-kit.js';
import { inWriteTransaction } from '../../src/repositories/write-transaction.js';
import { ApiError } from '../../src/services/errors.js';
import { buildTestApp, clientFor, createKey, NOW } from '../helpers/app.js';
import { helperBody, JOB_BODY, LISTING_BODY, PROVIDER_BODY } from '../helpers/bodies.js';
import { helperFixture, insert, jobFixture } from '../helpers/fixtures.js';

const HOUR_MS = 3_600_000;

const headersOf = (key: string, idempotencyKey: string) => ({
  'content-type': 'application/json',
  'x-api-key': key,
  'idempotency-key': idempotencyKey,
});

describe('an answer that says "try later" is not kept', () => {
  test('a 429 account_limit_reached: the retry after Retry-After with the same key does the work', async (t) => {
    const quota = { APPLICATIONS_PER_ACCOUNT_PER_HOUR: '1' };
    const { app, db } = await buildTestApp(t, NOW, quota);
    const owner = await createKey(db, { email: 'owner@example.org' });
    const me = await createKey(db, { email: 'me@example.org' });
    const open = { owner_account_id: owner.accountId, helpers_needed: 2, applications_count: 0, deadline: null };
    const [first, second] = [jobFixture(open), jobFixture(open)];
    const helper = helperFixture(['GARDENING'], { account_id: me.accountId, verified: 0 });
    await insert(db.kysely, { jobs: [first, second], helpers: [helper] });
    const apply = (api: typeof app, jobId: string, idempotencyKey: string) =>
      api.inject({
        method: 'POST',
        url: `/v1/jobs/${jobId}/applications`,
        headers: headersOf(me.key, idempotencyKey),
        payload: { helper_id: helper.id },
      });

    assert.equal((await apply(app, first.id, 'a-1')).statusCode, 201);
    const refused = await apply(app, second.id, 'a-2');
    assert.equal(refused.statusCode, 429);
    assert.equal(refused.headers['retry-after'], '3600');
    assert.equal(refused.json().error, 'account_limit_reached');
    const soon = await apply(app, second.id, 'a-2');
    assert.equal(soon.statusCode, 429, 'still over the limit: asked again, not replayed');
    assert.equal(soon.headers['idempotent-replayed'], undefined);
    assert.equal(soon.headers['retry-after'], '3600');

    // Retry-After later (the window has moved on), the same key and body.
    const later = await buildApp(testConfig({ ...quota, WEBHOOK_DELIVERY: 'false' }), {
      db,
      now: () => new Date(NOW.getTime() + HOUR_MS + 1_000),
    });
    t.after(() => later.close());
    const retried = await apply(later, second.id, 'a-2');
    assert.equal(retried.statusCode, 201, retried.body);
    assert.equal(retried.headers['idempotent-replayed'], undefined);
    assert.deepEqual(
      { job_id: retried.json().job_id, helper_id: retried.json().helper_id, status: retried.json().status },
      { job_id: second.id, helper_id: helper.id, status: 'pending' },
    );
    const replayed = await apply(later, second.id, 'a-2');
    assert.equal(replayed.statusCode, 201);
    assert.equal(replayed.headers['idempotent-replayed'], 'true');
    assert.deepEqual(replayed.json(), retried.json());
    const rows = await db.kysely
      .selectFrom('applications')
      .select('id')
      .where('account_id', '=', me.accountId)
      .execute();
    assert.equal(rows.length, 2, 'each application made once');
  });
});

describe('a refusal before the write is not kept: only what a write that ran answered', () => {
  test('409 provider_details_required, then PUT /v1/me/provider: the same POST with the same key is a 201, then replays', async (t) => {
    const { app, db } = await buildTestApp(t);
    const business = await createKey(db, { email: 'b@example.org', account_type: 'commercial' });
    const client = clientFor(app, business.key);
    const key = { 'idempotency-key': '0b7e1c2a-hecke' };

    const refused = await client.post('/v1/jobs', JOB_BODY, key);
    assert.equal(refused.status, 409, refused.raw);
    assert.equal(refused.body.error, 'provider_details_required');
    const stillRefused = await client.post('/v1/jobs', JOB_BODY, key);
    assert.equal(stillRefused.status, 409, 'asked again, not replayed');
    assert.equal(stillRefused.headers['idempotent-replayed'], undefined);
    const stored = await db.kysely.selectFrom('idempotency_keys').select('key').execute();
    assert.deepEqual(stored, [], 'the refusals left no key behind');

    assert.equal((await client.put('/v1/me/provider', PROVIDER_BODY)).status, 200);
    const created = await client.post('/v1/jobs', JOB_BODY, key);
    assert.equal(created.status, 201, created.raw);
    assert.equal(created.headers['idempotent-replayed'], undefined);
    assert.equal(created.body.status, 'open');
    const replayed = await client.post('/v1/jobs', JOB_BODY, key);
    assert.equal(replayed.status, 201);
    assert.equal(replayed.headers['idempotent-replayed'], 'true');
    assert.deepEqual(replayed.body, created.body);
    assert.equal(replayed.headers.location, created.headers.location);
    const other = await client.post('/v1/jobs', { ...JOB_BODY, price_eur: 61 }, key);
    assert.equal(other.status, 422, 'the 201 binds the key to its body');
    assert.equal(other.body.error, 'idempotency_key_reused');
    const jobs = await db.kysely
      .selectFrom('jobs')
      .select('id')
      .where('owner_account_id', '=', business.accountId)
      .execute();
    assert.deepEqual(jobs, [{ id: created.body.id }], 'one job');
  });

  test('a 404 before the write frees the key: another body with it is no 422', async (t) => {
    const { app, db } = await buildTestApp(t);
    const me = clientFor(app, (await createKey(db)).key);
    const key = { 'idempotency-key': 'apply-1' };
    const missing = await me.post(
      '/v1/jobs/job_0000000000000000/applications',
      { helper_id: 'hlp_0000000000000000' },
      key,
    );
    assert.equal(missing.status, 404, missing.raw);
    const job = await me.post('/v1/jobs', JOB_BODY, key);
    assert.equal(job.status, 201, job.raw);
  });

  test('refused before the write or inside it (rolled back): asked again; refused after a commit: replayed', async (t) => {
    const { app, db } = await buildTestApp(t);
    const { key } = await createKey(db);
    const runs = { before: 0, inside: 0, after: 0 };
    const conflict = () =>
      new ApiError(409, 'invalid_state_transition', 'Not now.', { suggestion: 'Try another action.' });
    const deps = { db: db.kysely, now: () => NOW };
    app.post('/test/before', async () => {
      runs.before++;
      throw conflict();
    });
    app.post('/test/inside', async (request) => {
      runs.inside++;
      await inWriteTransaction(writeContext(request, deps), async () => {
        throw conflict();
      });
    });
    // A refusal after a write transaction that committed: the plugin cannot tell it wrote nothing,
    // so the answer is kept. That is why the services throw what they refuse inside the write
    // (the describe block below).
    app.post('/test/after', async (request) => {
      runs.after++;
      await inWriteTransaction(writeContext(request, deps), async () => undefined);
      throw conflict();
    });
    for (const path of ['before', 'inside', 'after'] as const) {
      const post = () =>
        app.inject({ method: 'POST', url: `/test/${path}`, headers: headersOf(key, `r-${path}`), payload: {} });
      const first = await post();
      const second = await post();
      assert.equal(first.statusCode, 409, first.body);
      assert.equal(second.statusCode, 409);
      assert.deepEqual(second.json(), first.json());
      assert.equal(second.headers['idempotent-replayed'], path === 'after' ? 'true' : undefined, path);
    }
    assert.deepEqual(runs, { before: 2, inside: 2, after: 1 });
  });
});

describe('a replay carries the stored answer’s own headers', () => {
  test('Location and Content-Type come back with the status and body', async (t) => {
    const { app, db } = await buildTestApp(t);
    const { key } = await createKey(db);
    let runs = 0;
    app.post('/test/located', async (_request, reply) => {
      runs++;
      return reply.code(201).header('location', `/test/things/${runs}`).send({ id: runs });
    });
    app.post('/test/text', async (_request, reply) => reply.code(200).type('text/plain; charset=utf-8').send('made'));
    const post = (url: string, idempotencyKey: string) =>
      app.inject({ method: 'POST', url, headers: headersOf(key, idempotencyKey), payload: {} });

    const created = await post('/test/located', 'h-1');
    const replayed = await post('/test/located', 'h-1');
    const answer = (response: typeof created) => ({
      status: response.statusCode,
      location: response.headers.location,
      type: response.headers['content-type'],
      body: response.json(),
    });
    assert.deepEqual(answer(created), {
      status: 201,
      location: '/test/things/1',
      type: 'application/json; charset=utf-8',
      body: { id: 1 },
    });
    assert.deepEqual(answer(replayed), answer(created));
    assert.equal(replayed.headers['idempotent-replayed'], 'true');
    assert.equal(runs, 1);

    const text = await post('/test/text', 'h-2');
    const textAgain = await post('/test/text', 'h-2');
    assert.equal(textAgain.headers['idempotent-replayed'], 'true');
    assert.deepEqual(
      { status: textAgain.statusCode, type: textAgain.headers['content-type'], body: textAgain.body },
      { status: 200, type: 'text/plain; charset=utf-8', body: 'made' },
    );
    assert.equal(text.body, 'made');
  });
});

describe('the key is bound to the body as parsed', () => {
  test('the same body with its keys in another order replays; another value is a 422', async (t) => {
    const { app, db } = await buildTestApp(t);
    const { key, accountId } = await createKey(db);
    const reordered = Object.fromEntries(Object.entries({ ...JOB_BODY, location: { lng: 8.45, lat: 49.0 } }).reverse());
    const inOrder = { ...JOB_BODY, location: { lat: 49.0, lng: 8.45 } };
    const post = (payload: string) =>
      app.inject({ method: 'POST', url: '/v1/jobs', headers: headersOf(key, 'o-1'), payload });

    const created = await post(JSON.stringify(inOrder));
    assert.equal(created.statusCode, 201, created.body);
    const replayed = await post(JSON.stringify(reordered, null, 2));
    assert.equal(replayed.statusCode, 201, replayed.body);
    assert.equal(replayed.headers['idempotent-replayed'], 'true');
    assert.deepEqual(replayed.json(), created.json());
    const other = await post(JSON.stringify({ ...reordered, price_eur: 61 }));
    assert.equal(other.statusCode, 422);
    assert.equal(other.json().error, 'idempotency_key_reused');
    const jobs = await db.kysely.selectFrom('jobs').select('id').where('owner_account_id', '=', accountId).execute();
    assert.equal(jobs.length, 1);
  });
});

/**
 * Issue 29's leftover: refusals decided inside a write transaction (a full job, a state a
 * conditional update did not find, days taken, a limit counted in the transaction) are thrown
 * inside it, so the transaction rolls back with the key's mark and the key is free: the same key,
 * once the precondition holds, does the work (and then replays it). One test per kind of refusal.
 */
describe('a refusal decided inside the write keeps no key: the same key does the work once it can', () => {
  async function world(t: Parameters<typeof buildTestApp>[0], config: Record<string, string> = {}) {
    let now = NOW.getTime();
    const { app, db } = await buildTestApp(t, () => new Date(now), config);
    const owner = clientFor(app, (await createKey(db, { email: 'owner@example.org' })).key);
    const me = clientFor(app, (await createKey(db, { email: 'me@example.org' })).key);
    return { owner, me, advance: (ms: number) => (now += ms) };
  }
  const key = (value: string) => ({ 'idempotency-key': value });
  /** The same POST twice after the precondition holds: done, then replayed. */
  async function doneThenReplayed(send: () => Promise<{ status: number; headers: any; raw: string }>, status: number) {
    const done = await send();
    assert.equal(done.status, status, done.raw);
    assert.equal(done.headers['idempotent-replayed'], undefined);
    const again = await send();
    assert.deepEqual([again.status, again.headers['idempotent-replayed'], again.raw], [status, 'true', done.raw]);
  }

  test('applying to a full job (limit_reached): once the job needs more helpers, the same key applies', async (t) => {
    const { owner, me } = await world(t);
    const job = await owner.post('/v1/jobs', { ...JOB_BODY, helpers_needed: 1 });
    const helpers: string[] = [];
    for (const name of ['Anna', 'Ben', 'Cem', 'Dora'])
      helpers.push((await me.post('/v1/helpers', helperBody(name))).body.id);
    for (const id of helpers.slice(0, 3)) {
      assert.equal((await me.post(`/v1/jobs/${job.body.id}/applications`, { helper_id: id })).status, 201);
    }
    const apply = () => me.post(`/v1/jobs/${job.body.id}/applications`, { helper_id: helpers[3] }, key('apply-4'));
    const full = await apply();
    assert.deepEqual([full.status, full.body.error], [409, 'limit_reached']);
    assert.equal((await owner.patch(`/v1/jobs/${job.body.id}`, { helpers_needed: 2 })).status, 200);
    await doneThenReplayed(apply, 201);
  });

  test("a job's state (complete while open): once it is assigned and its time has come, the same key completes it", async (t) => {
    const { owner, me, advance } = await world(t);
    const job = await owner.post('/v1/jobs', JOB_BODY);
    const complete = () => owner.post(`/v1/jobs/${job.body.id}/complete`, undefined, key('complete-1'));
    const open = await complete();
    assert.deepEqual([open.status, open.body.error], [409, 'invalid_state_transition']);
    const helper = await me.post('/v1/helpers', helperBody('Anna'));
    const applied = await me.post(`/v1/jobs/${job.body.id}/applications`, { helper_id: helper.body.id });
    assert.equal((await owner.post(`/v1/jobs/${job.body.id}/applications/${applied.body.id}/accept`)).status, 200);
    assert.equal((await complete()).body.error, 'completion_too_early');
    advance(3 * HOUR_MS);
    await doneThenReplayed(complete, 200);
  });

  test('days taken (booking_conflict): once the other booking is cancelled, the same key books them', async (t) => {
    const { owner, me } = await world(t);
    const listing = await owner.post('/v1/listings', LISTING_BODY);
    const days = { start_date: '2026-11-25', end_date: '2026-11-26' };
    const other = await me.post(`/v1/listings/${listing.body.id}/bookings`, days);
    assert.equal(other.status, 201, other.raw);
    const book = () => me.post(`/v1/listings/${listing.body.id}/bookings`, days, key('book-1'));
    const taken = await book();
    assert.deepEqual([taken.status, taken.body.error], [409, 'booking_conflict']);
    assert.equal((await me.post(`/v1/bookings/${other.body.id}/cancel`)).status, 200);
    await doneThenReplayed(book, 201);
  });

  test("a booking's state (pick-up while requested): once confirmed, the same key records the pick-up", async (t) => {
    const { owner, me } = await world(t);
    const listing = await owner.post('/v1/listings', LISTING_BODY);
    const booked = await me.post(`/v1/listings/${listing.body.id}/bookings`, {
      start_date: '2026-11-21',
      end_date: '2026-11-21',
    });
    assert.equal(booked.status, 201, booked.raw);
    const pickUp = () => owner.post(`/v1/bookings/${booked.body.id}/pick-up`, undefined, key('pick-up-1'));
    const requested = await pickUp();
    assert.deepEqual([requested.status, requested.body.error], [409, 'invalid_state_transition']);
    assert.equal((await owner.post(`/v1/bookings/${booked.body.id}/confirm`)).status, 200);
    await doneThenReplayed(pickUp, 200);
  });

  test("a listing's state (resume while available): once paused, the same key resumes it", async (t) => {
    const { owner } = await world(t);
    const listing = await owner.post('/v1/listings', LISTING_BODY);
    const resume = () => owner.post(`/v1/listings/${listing.body.id}/resume`, undefined, key('resume-1'));
    const available = await resume();
    assert.deepEqual([available.status, available.body.error], [409, 'invalid_state_transition']);
    assert.equal((await owner.post(`/v1/listings/${listing.body.id}/pause`)).status, 200);
    await doneThenReplayed(resume, 200);
  });

  test('a limit counted in the transaction (saved searches, webhooks): once one is deleted, the same key creates', async (t) => {
    const { me } = await world(t, { SAVED_SEARCHES_PER_ACCOUNT: '1', WEBHOOKS_PER_ACCOUNT: '1' });
    const search = { name: 'Garten', resource: 'jobs', query: { category: 'GARDENING' } };
    const hook = { url: 'https://93.184.215.14/hooks', events: ['job.created'] };
    for (const [path, body] of [
      ['/v1/saved-searches', search],
      ['/v1/webhooks', hook],
    ] as const) {
      const kept = await me.post(path, body);
      assert.equal(kept.status, 201, kept.raw);
      const create = () => me.post(path, body, key(`${path}-2`));
      const full = await create();
      assert.deepEqual([full.status, full.body.error], [409, 'limit_reached'], path);
      assert.equal((await me.delete(`${path}/${kept.body.id}`)).status, 204);
      await doneThenReplayed(create, 201);
    }
  });

  test('a decision the application no longer allows: refused without keeping the key', async (t) => {
    const { owner, me } = await world(t);
    const job = await owner.post('/v1/jobs', { ...JOB_BODY, helpers_needed: 1 });
    const [anna, ben] = [
      (await me.post('/v1/helpers', helperBody('Anna'))).body.id,
      (await me.post('/v1/helpers', helperBody('Ben'))).body.id,
    ];
    const applied = [];
    for (const id of [anna, ben])
      applied.push((await me.post(`/v1/jobs/${job.body.id}/applications`, { helper_id: id })).body.id);
    assert.equal((await owner.post(`/v1/jobs/${job.body.id}/applications/${applied[0]}/accept`)).status, 200);
    // The other was rejected as the job was staffed: accepting it is refused, and the key stays free.
    const late = await owner.post(`/v1/jobs/${job.body.id}/applications/${applied[1]}/accept`, undefined, key('k-1'));
    assert.deepEqual([late.status, late.body.error], [409, 'invalid_state_transition']);
    const reused = await owner.post('/v1/jobs', JOB_BODY, key('k-1'));
    assert.equal(reused.status, 201, 'no 422: the refused decision kept nothing');
  });
});
