import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import { describe, test } from 'node:test';
import { urlForLog } from '../../src/http/plugins/observability.js';
import type { Api } from '../../src/http/route-deps.js';
import { buildTestApp, type Client, clientFor, createKey, NOW } from '../helpers/app.js';
import { helperBody, JOB_BODY, LISTING_BODY } from '../helpers/bodies.js';
import { signedInAs } from '../helpers/sessions.js';

const HOUR = 3_600_000;
const DESIRED = '2026-11-25T09:00:00Z';
const DEADLINE = '2026-11-26T17:00:00Z';
const JOB = { ...JOB_BODY, desired_at: DESIRED, deadline: DEADLINE };

async function setUp(t: TestContext, config: Record<string, string> = {}) {
  let at = NOW.getTime();
  const clock = {
    now: () => new Date(at),
    advance: (ms: number) => {
      at += ms;
    },
  };
  const { app, db } = await buildTestApp(t, clock.now, config);
  const keys = {
    agent: await createKey(db, { email: 'person@example.org' }),
    poster: await createKey(db, { email: 'poster@example.org' }),
    stranger: await createKey(db, { email: 'stranger@example.org' }),
  };
  // The person the agent's drafts are for, signed in: only they may see and decide a draft's page.
  owners.set(app, (await signedInAs(db.kysely, keys.agent.accountId, clock.now())).cookie);
  return {
    app,
    db,
    clock,
    keys,
    agent: clientFor(app, keys.agent.key),
    poster: clientFor(app, keys.poster.key),
    stranger: clientFor(app, keys.stranger.key),
    anonymous: clientFor(app, null),
  };
}

/** The session cookie of the person the agent's drafts are for, per app (setUp). */
const owners = new WeakMap<Api, string>();
const ownerOf = (app: Api): string => owners.get(app) ?? '';

/** The page path of a confirmation_url. */
const pagePath = (url: string) => new URL(url).pathname;

/** Presses a button of the page, as the signed-in person's browser on the same site does. */
function press(app: Api, path: string, decision: string, headers: Record<string, string> = {}) {
  return app.inject({
    method: 'POST',
    url: path,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'sec-fetch-site': 'same-origin',
      cookie: ownerOf(app),
      ...headers,
    },
    payload: `decision=${decision}`,
  });
}

async function count(app: Api, client: Client, path: string): Promise<number> {
  const answer = await client.get(path);
  assert.equal(answer.status, 200, answer.raw);
  void app;
  return answer.body.total as number;
}

describe('POST /v1/drafts', () => {
  test('a createJob draft: 201 with summary and confirmation_url; nothing is posted yet', async (t) => {
    const { app, agent } = await setUp(t);
    const created = await agent.post('/v1/drafts', { operation: 'createjob', body: JOB });
    assert.equal(created.status, 201, created.raw);
    const { id, confirmation_url } = created.body;
    assert.match(id, /^drf_[0-9a-f]{16}$/);
    assert.match(confirmation_url, /^http:\/\/127\.0\.0\.1:3000\/confirm\/dft_[0-9A-Za-z]{43}$/);
    assert.equal(created.headers.location, `/v1/drafts/${id}`);
    assert.equal(created.headers['cache-control'], undefined);
    assert.deepEqual(created.body, {
      id,
      operation: 'createJob',
      status: 'pending',
      // As the operation's validation leaves it: its defaults filled in.
      body: {
        ...JOB,
        urgent: false,
        express: false,
        remote_task: false,
        requires_license: false,
        cancellation_policy: 'flexible',
        helpers_needed: 1,
        photos: [],
        duration_hours: 2,
      },
      summary: {
        de: 'Auftrag veröffentlichen: „Hecke schneiden“ in Durlach (76227 Karlsruhe) für 60,00\u00a0€, gewünscht am 25.11.2026, 10:00, Frist 26.11.2026, 18:00.',
        en: 'Post a job: "Hecke schneiden" in Durlach (76227 Karlsruhe) for €60.00, wanted on 25 Nov 2026, 10:00, deadline 26 Nov 2026, 18:00.',
      },
      result: null,
      confirmation_url,
      created_at: NOW.toISOString(),
      expires_at: new Date(NOW.getTime() + 24 * HOUR).toISOString(),
      decided_at: null,
    });
    // The rehearsal rolled back: no job, no event.
    assert.equal(await count(app, agent, '/v1/jobs?q=hecke'), 0);
    // The token is shown once: GET answers the draft without it.
    assert.deepEqual((await agent.get(`/v1/drafts/${id}`)).body, { ...created.body, confirmation_url: null });
  });

  test('the token is nowhere but in the first answer: not in the idempotency store, a replay or the log', async (t) => {
    const { agent, db } = await setUp(t);
    const key = { 'idempotency-key': 'draft-token-check' };
    const created = await agent.post('/v1/drafts', { operation: 'createJob', body: JOB }, key);
    assert.equal(created.status, 201, created.raw);
    const token = pagePath(created.body.confirmation_url).slice('/confirm/'.length);
    const replay = await agent.post('/v1/drafts', { operation: 'createJob', body: JOB }, key);
    assert.equal(replay.status, 201);
    assert.equal(replay.headers['idempotent-replayed'], 'true');
    assert.deepEqual(replay.body, { ...created.body, confirmation_url: null });
    const stored = await db.kysely.selectFrom('idempotency_keys').select('response_body').execute();
    assert.ok(stored.length > 0);
    for (const row of stored) assert.ok(!String(row.response_body).includes(token.slice(4)), 'a token in the store');
    assert.equal(urlForLog(`/confirm/${token}`), '/confirm/dft_[redacted]');
    assert.equal(urlForLog(`/confirm/${token}?x=1`).includes(token.slice(4)), false);
  });

  test('object-level authorization: only the key that made it sees it; anonymous is 401', async (t) => {
    const { agent, stranger, anonymous } = await setUp(t);
    const { body } = await agent.post('/v1/drafts', { operation: 'createJob', body: JOB });
    const foreign = await stranger.get(`/v1/drafts/${body.id}`);
    assert.equal(foreign.status, 404);
    assert.deepEqual({ error: foreign.body.error, param: foreign.body.param }, { error: 'not_found', param: 'id' });
    assert.equal((await anonymous.get(`/v1/drafts/${body.id}`)).status, 401);
    const unkeyed = await anonymous.post('/v1/drafts', { operation: 'createJob', body: JOB });
    assert.equal(unkeyed.status, 401);
    assert.equal(unkeyed.body.error, 'authentication_required');
  });

  test('the body is checked as the operation checks it: the same error bodies, the same param names', async (t) => {
    const { agent, poster } = await setUp(t);
    const helper = await agent.post('/v1/helpers', helperBody('Pat P.'));
    assert.equal(helper.status, 201, helper.raw);
    const ownJob = await agent.post('/v1/jobs', JOB);
    const othersJob = await poster.post('/v1/jobs', JOB);
    const listing = await poster.post('/v1/listings', LISTING_BODY);
    const { title: _title, ...untitled } = JOB;
    const cases: { operation: string; path?: { id: string }; body: object; url: string }[] = [
      { operation: 'createJob', body: untitled, url: '/v1/jobs' },
      { operation: 'createJob', body: { ...JOB, category: 'gardenng' }, url: '/v1/jobs' },
      { operation: 'createJob', body: { ...JOB, colour: 'green' }, url: '/v1/jobs' },
      { operation: 'createJob', body: { ...JOB, price_eur: '60' }, url: '/v1/jobs' },
      { operation: 'createJob', body: { ...JOB, desired_at: '2026-11-01T09:00:00Z' }, url: '/v1/jobs' },
      { operation: 'createJob', body: { ...JOB, price_eur: -5 }, url: '/v1/jobs' },
      {
        operation: 'applyToJob',
        path: { id: othersJob.body.id },
        body: {},
        url: `/v1/jobs/${othersJob.body.id}/applications`,
      },
      {
        operation: 'applyToJob',
        path: { id: ownJob.body.id },
        body: { helper_id: helper.body.id },
        url: `/v1/jobs/${ownJob.body.id}/applications`,
      },
      {
        operation: 'applyToJob',
        path: { id: 'job_0000000000000000' },
        body: { helper_id: helper.body.id },
        url: '/v1/jobs/job_0000000000000000/applications',
      },
      {
        operation: 'createBooking',
        path: { id: listing.body.id },
        body: { start_date: '2026-11-28', end_date: '2026-11-27' },
        url: `/v1/listings/${listing.body.id}/bookings`,
      },
      {
        operation: 'createBooking',
        path: { id: listing.body.id },
        body: { start_date: '28.11.2026', end_date: '2026-11-29' },
        url: `/v1/listings/${listing.body.id}/bookings`,
      },
      {
        operation: 'createListing',
        body: { ...LISTING_BODY, photos: ['http://x.example/a.jpg'] },
        url: '/v1/listings',
      },
      { operation: 'createListing', body: { ...LISTING_BODY, price_per_week_eur: 80 }, url: '/v1/listings' },
      { operation: 'createListing', body: { ...LISTING_BODY, condition: 'brand new' }, url: '/v1/listings' },
    ];
    for (const { operation, path, body, url } of cases) {
      const direct = await agent.post(url, structuredClone(body));
      assert.ok(direct.status >= 400, `${operation} ${JSON.stringify(body)}: ${direct.raw}`);
      const drafted = await agent.post('/v1/drafts', { operation, ...(path && { path }), body: structuredClone(body) });
      assert.deepEqual(
        { status: drafted.status, body: drafted.body },
        { status: direct.status, body: direct.body },
        `${operation} ${JSON.stringify(body)}`,
      );
    }
    // Nothing of it was stored.
    const drafts = await agent.get('/v1/me/export');
    assert.equal(drafts.status, 200);
  });

  test('path: required where the operation has one, refused where it has none', async (t) => {
    const { agent } = await setUp(t);
    const missing = await agent.post('/v1/drafts', { operation: 'applyToJob', body: { helper_id: 'hlp_1' } });
    assert.equal(missing.status, 400, missing.raw);
    assert.equal(missing.body.param, 'id');
    const extra = await agent.post('/v1/drafts', { operation: 'createJob', path: { id: 'job_1' }, body: JOB });
    assert.equal(extra.status, 400);
    assert.deepEqual(
      { error: extra.body.error, param: extra.body.param },
      { error: 'invalid_parameter', param: 'path' },
    );
    const unknown = await agent.post('/v1/drafts', { operation: 'deleteJob', body: {} });
    assert.equal(unknown.status, 400);
    assert.deepEqual(
      { error: unknown.body.error, param: unknown.body.param },
      { error: 'invalid_enum_value', param: 'operation' },
    );
  });

  test('at most DRAFTS_PENDING_PER_ACCOUNT pending drafts; decided and expired ones do not count', async (t) => {
    const { app, agent, clock } = await setUp(t, { DRAFTS_PENDING_PER_ACCOUNT: '2' });
    const first = await agent.post('/v1/drafts', { operation: 'createJob', body: JOB });
    await agent.post('/v1/drafts', { operation: 'createJob', body: JOB });
    const third = await agent.post('/v1/drafts', { operation: 'createJob', body: JOB });
    assert.equal(third.status, 409);
    assert.equal(third.body.error, 'limit_reached');
    await press(app, pagePath(first.body.confirmation_url), 'decline');
    assert.equal((await agent.post('/v1/drafts', { operation: 'createJob', body: JOB })).status, 201);
    clock.advance(25 * HOUR);
    const later = await agent.post('/v1/drafts', {
      operation: 'createJob',
      body: { ...JOB, desired_at: '2026-11-29T09:00:00Z', deadline: '2026-11-30T09:00:00Z' },
    });
    assert.equal(later.status, 201, later.raw);
  });
});

describe('the confirmation page', () => {
  test('shows the summary with strict headers; Confirm creates the job once; a second Confirm creates nothing', async (t) => {
    const { app, agent, keys, db } = await setUp(t);
    const { body: draft } = await agent.post('/v1/drafts', { operation: 'createJob', body: JOB });
    const path = pagePath(draft.confirmation_url);
    const page = await app.inject({ method: 'GET', url: path, headers: { cookie: ownerOf(app) } });
    assert.equal(page.statusCode, 200);
    assert.match(String(page.headers['content-type']), /^text\/html/);
    assert.equal(page.headers['cache-control'], 'no-store');
    assert.equal(page.headers['referrer-policy'], 'same-origin');
    assert.match(String(page.headers['content-security-policy']), /script-src 'none'/);
    assert.match(String(page.headers['content-security-policy']), /form-action 'self'/);
    assert.match(page.body, /Hecke schneiden/);
    assert.match(page.body, /Durlach \(76227 Karlsruhe\)/);
    assert.match(page.body, /60,00\u00a0€/);
    assert.match(page.body, /value="confirm"/);
    assert.match(page.body, /value="decline"/);
    // Privacy: no e-mail address, no coordinates of anyone.
    assert.doesNotMatch(page.body, /[\w.+-]+@[\w-]+\.\w+/);
    assert.doesNotMatch(page.body, /\b4[89]\.\d{3,}|\b8\.\d{4,}/);

    const confirmed = await press(app, path, 'confirm');
    assert.equal(confirmed.statusCode, 200, confirmed.body);
    assert.match(confirmed.body, /Bestätigt/);
    const after = (await agent.get(`/v1/drafts/${draft.id}`)).body;
    assert.equal(after.status, 'confirmed');
    assert.match(after.result.id, /^job_/);
    assert.equal(after.result.location, `/v1/jobs/${after.result.id}`);
    assert.equal(after.decided_at, NOW.toISOString());
    const job = await agent.get(after.result.location);
    assert.equal(job.status, 200);
    assert.equal(job.body.title, 'Hecke schneiden');

    const again = await press(app, path, 'confirm');
    assert.equal(again.statusCode, 200);
    assert.match(again.body, /Bestätigt/);
    const reloaded = await app.inject({ method: 'GET', url: path, headers: { cookie: ownerOf(app) } });
    assert.match(reloaded.body, /Bestätigt/);
    assert.doesNotMatch(reloaded.body, /value="confirm"/);
    const jobs = await db.kysely
      .selectFrom('jobs')
      .select('id')
      .where('owner_account_id', '=', keys.agent.accountId)
      .execute();
    assert.deepEqual(
      jobs.map((j) => j.id),
      [after.result.id],
    );
    // Declining a confirmed draft changes nothing.
    await press(app, path, 'decline');
    assert.equal((await agent.get(`/v1/drafts/${draft.id}`)).body.status, 'confirmed');
  });

  test('two Confirms at once (two tabs) create one booking', async (t) => {
    const { app, agent, poster, db, keys } = await setUp(t);
    const listing = await poster.post('/v1/listings', LISTING_BODY);
    const { body: draft } = await agent.post('/v1/drafts', {
      operation: 'createBooking',
      path: { id: listing.body.id },
      body: { start_date: '2026-11-27', end_date: '2026-11-29' },
    });
    assert.match(draft.summary.en, /from 27 Nov 2026 to 29 Nov 2026: €24\.00 rent and a €20\.00 deposit\.$/);
    const path = pagePath(draft.confirmation_url);
    const answers = await Promise.all([1, 2, 3].map(() => press(app, path, 'confirm')));
    for (const answer of answers) assert.ok([200, 409].includes(answer.statusCode), answer.body);
    assert.ok(answers.some((a) => a.statusCode === 200 && /Bestätigt/.test(a.body)));
    const bookings = await db.kysely
      .selectFrom('bookings')
      .select('id')
      .where('renter_account_id', '=', keys.agent.accountId)
      .execute();
    assert.equal(bookings.length, 1);
    const after = (await agent.get(`/v1/drafts/${draft.id}`)).body;
    assert.deepEqual(after.result, { id: bookings[0]?.id, location: `/v1/bookings/${bookings[0]?.id}` });
  });

  test('two Confirms at once create one job, also when the first wins only at commit', async (t) => {
    const { app, agent, db, keys } = await setUp(t);
    const drafts = [];
    for (let i = 0; i < 3; i++)
      drafts.push((await agent.post('/v1/drafts', { operation: 'createJob', body: JOB })).body);
    await Promise.all(drafts.flatMap((d) => [1, 2].map(() => press(app, pagePath(d.confirmation_url), 'confirm'))));
    const jobs = await db.kysely
      .selectFrom('jobs')
      .select('id')
      .where('owner_account_id', '=', keys.agent.accountId)
      .execute();
    assert.equal(jobs.length, 3);
    for (const d of drafts) assert.equal((await agent.get(`/v1/drafts/${d.id}`)).body.status, 'confirmed');
  });

  test("the operation's refusal at confirm time is shown on the page, and the draft stays pending", async (t) => {
    const { app, agent, poster, stranger, db, keys } = await setUp(t);
    const listing = await poster.post('/v1/listings', { ...LISTING_BODY, instant_booking: true });
    const dates = { start_date: '2026-11-27', end_date: '2026-11-29' };
    const { body: draft } = await agent.post('/v1/drafts', {
      operation: 'createBooking',
      path: { id: listing.body.id },
      body: dates,
    });
    // Someone else books the days meanwhile.
    const taken = await stranger.post(`/v1/listings/${listing.body.id}/bookings`, dates);
    assert.equal(taken.status, 201);
    const refused = await press(app, pagePath(draft.confirmation_url), 'confirm');
    assert.equal(refused.statusCode, 409, refused.body);
    assert.match(refused.body, /nothing was done/);
    assert.match(refused.body, /role="alert"/);
    assert.match(refused.body, /value="confirm"/);
    assert.equal((await agent.get(`/v1/drafts/${draft.id}`)).body.status, 'pending');
    const mine = await db.kysely
      .selectFrom('bookings')
      .select('id')
      .where('renter_account_id', '=', keys.agent.accountId)
      .execute();
    assert.equal(mine.length, 0);
    // The days are free again: the next press confirms (the refusal left no key that holds it).
    assert.equal((await stranger.post(`/v1/bookings/${taken.body.id}/cancel`)).status, 200);
    const confirmed = await press(app, pagePath(draft.confirmation_url), 'confirm');
    assert.equal(confirmed.statusCode, 200, confirmed.body);
    assert.equal((await agent.get(`/v1/drafts/${draft.id}`)).body.status, 'confirmed');
    const booked = await db.kysely
      .selectFrom('bookings')
      .select('id')
      .where('renter_account_id', '=', keys.agent.accountId)
      .execute();
    assert.equal(booked.length, 1);
  });

  test('the owner changed the prices after the draft: Confirm books nothing and says so', async (t) => {
    const { app, agent, poster, db, keys } = await setUp(t);
    const listing = await poster.post('/v1/listings', { ...LISTING_BODY, instant_booking: true });
    const { body: draft } = await agent.post('/v1/drafts', {
      operation: 'createBooking',
      path: { id: listing.body.id },
      body: { start_date: '2026-11-27', end_date: '2026-11-29' },
    });
    const repriced = await poster.patch(`/v1/listings/${listing.body.id}`, {
      price_per_day_eur: LISTING_BODY.price_per_day_eur + 10,
    });
    assert.equal(repriced.status, 200, repriced.raw);
    const refused = await press(app, pagePath(draft.confirmation_url), 'confirm');
    assert.equal(refused.statusCode, 409, refused.body);
    assert.match(refused.body, /changed the prices/);
    assert.equal((await agent.get(`/v1/drafts/${draft.id}`)).body.status, 'pending');
    const mine = await db.kysely
      .selectFrom('bookings')
      .select('id')
      .where('renter_account_id', '=', keys.agent.accountId)
      .execute();
    assert.equal(mine.length, 0, 'the booking was undone');
  });

  test('a job whose deadline passed before the confirmation: the page says why, not a 500', async (t) => {
    const { app, agent, poster, clock } = await setUp(t);
    const helper = await agent.post('/v1/helpers', helperBody('Pat P.'));
    const soon = await poster.post('/v1/jobs', { ...JOB, desired_at: undefined, deadline: '2026-11-20T14:00:00Z' });
    assert.equal(soon.status, 201, soon.raw);
    const { body: draft } = await agent.post('/v1/drafts', {
      operation: 'applyToJob',
      path: { id: soon.body.id },
      body: { helper_id: helper.body.id, message: 'Ich kann das.' },
    });
    assert.equal(draft.status, 'pending');
    assert.match(draft.summary.de, /^Auf den Auftrag „Hecke schneiden“ in Durlach \(76227 Karlsruhe\) bewerben/);
    clock.advance(3 * HOUR);
    const refused = await press(app, pagePath(draft.confirmation_url), 'confirm');
    assert.equal(refused.statusCode, 409, refused.body);
    assert.match(refused.body, /expired|closed|not open/i);
    assert.equal((await agent.get(`/v1/drafts/${draft.id}`)).body.status, 'pending');
  });

  test('Decline: nothing is done, and Confirm afterwards does nothing', async (t) => {
    const { app, agent } = await setUp(t);
    const { body: draft } = await agent.post('/v1/drafts', { operation: 'createListing', body: LISTING_BODY });
    const path = pagePath(draft.confirmation_url);
    const declined = await press(app, path, 'decline');
    assert.equal(declined.statusCode, 200);
    assert.match(declined.body, /Abgelehnt/);
    const confirmed = await press(app, path, 'confirm');
    assert.match(confirmed.body, /Abgelehnt/);
    const after = (await agent.get(`/v1/drafts/${draft.id}`)).body;
    assert.equal(after.status, 'declined');
    assert.equal(after.result, null);
    assert.equal(await count(app, agent, '/v1/listings?q=bierzeltgarnitur'), 0);
  });

  test('expiry after DRAFT_TTL_HOURS: status expired, the page 410, Confirm does nothing', async (t) => {
    const { app, agent, clock } = await setUp(t, { DRAFT_TTL_HOURS: '2' });
    const { body: draft } = await agent.post('/v1/drafts', { operation: 'createJob', body: JOB });
    assert.equal(draft.expires_at, new Date(NOW.getTime() + 2 * HOUR).toISOString());
    clock.advance(2 * HOUR);
    assert.equal((await agent.get(`/v1/drafts/${draft.id}`)).body.status, 'expired');
    const path = pagePath(draft.confirmation_url);
    const page = await app.inject({ method: 'GET', url: path, headers: { cookie: ownerOf(app) } });
    assert.equal(page.statusCode, 410);
    assert.match(page.body, /Abgelaufen/);
    const confirmed = await press(app, path, 'confirm');
    assert.equal(confirmed.statusCode, 410);
    assert.equal(await count(app, agent, '/v1/jobs?q=hecke'), 0);
  });

  test("only the draft's account, signed in, sees and decides the page; the URL alone does nothing", async (t) => {
    const { app, agent, db, keys, clock } = await setUp(t);
    const { body: draft } = await agent.post('/v1/drafts', { operation: 'createJob', body: JOB });
    const path = pagePath(draft.confirmation_url);
    const stranger = (await signedInAs(db.kysely, keys.stranger.accountId, clock.now())).cookie;
    const expired = (await signedInAs(db.kysely, keys.agent.accountId, new Date(NOW.getTime() - 8 * 86_400_000)))
      .cookie;
    for (const [who, cookie] of <[string, string][]>[
      ['nobody signed in', ''],
      ['a session unused for 8 days', expired],
      ['a made-up session', 'kmp_session=0123456789012345678901234567890123456789abc'],
    ]) {
      const page = await app.inject({ method: 'GET', url: path, headers: { cookie } });
      assert.equal(page.statusCode, 303, who);
      assert.equal(page.headers.location, `/signin?next=${encodeURIComponent(path)}`, who);
      assert.equal(page.headers['cache-control'], 'no-store', who);
      const pressed = await press(app, path, 'confirm', { cookie });
      assert.equal(pressed.statusCode, 403, who);
      assert.match(pressed.body, /Bitte anmelden/, who);
      assert.match(pressed.body, /href="\/signin\?next=%2Fconfirm%2F/, who);
      assert.doesNotMatch(pressed.body, /Hecke|60,00/, `${who}: nothing of the draft`);
    }
    const other = await app.inject({ method: 'GET', url: path, headers: { cookie: stranger } });
    assert.equal(other.statusCode, 403);
    assert.match(other.body, /Anderes Konto/);
    assert.doesNotMatch(other.body, /Hecke|60,00/);
    for (const decision of ['confirm', 'decline']) {
      const pressed = await press(app, path, decision, { cookie: stranger });
      assert.equal(pressed.statusCode, 403);
      assert.doesNotMatch(pressed.body, /Hecke|60,00/);
    }
    // From another site, not signed in (a cross-site post carries no Lax cookie): refused, nothing shown.
    const forged = await press(app, path, 'confirm', { cookie: '', 'sec-fetch-site': 'cross-site' });
    assert.equal(forged.statusCode, 403);
    assert.match(forged.body, /another website/);
    assert.doesNotMatch(forged.body, /Hecke|60,00/);
    assert.equal((await agent.get(`/v1/drafts/${draft.id}`)).body.status, 'pending');
    // The person themself, signed in: the page, and their decision counts.
    assert.equal((await press(app, path, 'decline')).statusCode, 200);
    assert.equal((await agent.get(`/v1/drafts/${draft.id}`)).body.status, 'declined');
  });

  test('cross-site posts are refused before anything is done; unknown tokens are 404', async (t) => {
    const { app, agent } = await setUp(t);
    const { body: draft } = await agent.post('/v1/drafts', { operation: 'createJob', body: JOB });
    const path = pagePath(draft.confirmation_url);
    const forged = await press(app, path, 'confirm', { 'sec-fetch-site': 'cross-site' });
    assert.equal(forged.statusCode, 403);
    assert.match(forged.body, /another website/);
    const oldBrowser = await app.inject({
      method: 'POST',
      url: path,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: 'https://evil.example',
        cookie: ownerOf(app),
      },
      payload: 'decision=confirm',
    });
    assert.equal(oldBrowser.statusCode, 403);
    assert.equal((await agent.get(`/v1/drafts/${draft.id}`)).body.status, 'pending');
    const unknown = await app.inject({ method: 'GET', url: '/confirm/dft_nothing' });
    assert.equal(unknown.statusCode, 404);
    assert.equal(unknown.headers['cache-control'], 'no-store');
    const json = await app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin', cookie: ownerOf(app) },
      payload: '{"decision":"confirm"}',
    });
    assert.equal(json.statusCode, 415);
    assert.equal((await agent.get(`/v1/drafts/${draft.id}`)).body.status, 'pending');
    // A browser without Sec-Fetch-Site posting the page's own form: its own Origin (the page's
    // Referrer-Policy is same-origin, under which the form's Origin is not null), accepted.
    const ownOrigin = await app.inject({
      method: 'POST',
      url: path,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: ownerOf(app),
        host: '127.0.0.1:3000',
        origin: 'http://127.0.0.1:3000',
        referer: `http://127.0.0.1:3000${path}`,
      },
      payload: 'decision=confirm',
    });
    assert.equal(ownOrigin.statusCode, 200, ownOrigin.body);
    assert.equal((await agent.get(`/v1/drafts/${draft.id}`)).body.status, 'confirmed');
  });

  test('a post whose Referer or Origin names another origin is refused, even alone (docs/SECURITY.md)', async (t) => {
    const { app, agent } = await setUp(t);
    const { body: draft } = await agent.post('/v1/drafts', { operation: 'createJob', body: JOB });
    const path = pagePath(draft.confirmation_url);
    // app.inject addresses Host: localhost:80.
    const foreign: Record<string, string>[] = [
      { referer: 'http://evil.example' },
      { referer: `http://evil.example${path}` },
      { referer: `http://localhost:8080${path}` }, // another port is another origin
      { referer: 'not a url' },
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { origin: 'http://localhost', referer: 'http://evil.example/' },
      { 'sec-fetch-site': 'same-origin', referer: 'http://evil.example/' },
    ];
    for (const headers of foreign) {
      const refused = await app.inject({
        method: 'POST',
        url: path,
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: ownerOf(app), ...headers },
        payload: 'decision=confirm',
      });
      assert.equal(refused.statusCode, 403, JSON.stringify(headers));
      assert.match(refused.body, /another website/);
      assert.equal((await agent.get(`/v1/drafts/${draft.id}`)).body.status, 'pending', JSON.stringify(headers));
    }
    // The page's own form, as a browser without Sec-Fetch-Site posts it: its own Referer, accepted.
    const own = await app.inject({
      method: 'POST',
      url: path,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: ownerOf(app),
        referer: `http://LOCALHOST:80${path}`,
      },
      payload: 'decision=confirm',
    });
    assert.equal(own.statusCode, 200, own.body);
    assert.equal((await agent.get(`/v1/drafts/${draft.id}`)).body.status, 'confirmed');
  });
});

describe('events', () => {
  test('draft.confirmed and draft.declined reach only the draft account, via the outbox', async (t) => {
    const { app, agent, db, keys } = await setUp(t);
    const one = (await agent.post('/v1/drafts', { operation: 'createJob', body: JOB })).body;
    const two = (await agent.post('/v1/drafts', { operation: 'createJob', body: JOB })).body;
    await press(app, pagePath(one.confirmation_url), 'confirm');
    await press(app, pagePath(two.confirmation_url), 'decline');
    const events = await db.kysely
      .selectFrom('events')
      .select(['type', 'subject_id', 'audience', 'payload'])
      .where('type', 'in', ['draft.confirmed', 'draft.declined'])
      .orderBy('id')
      .execute();
    assert.deepEqual(
      events.map((e) => [e.type, e.subject_id, e.audience]),
      [
        ['draft.confirmed', one.id, JSON.stringify([keys.agent.accountId])],
        ['draft.declined', two.id, JSON.stringify([keys.agent.accountId])],
      ],
    );
    const confirmed = JSON.parse(events[0]?.payload ?? '{}');
    assert.equal(confirmed.status, 'confirmed');
    assert.match(confirmed.result.id, /^job_/);
    assert.equal(confirmed.confirmation_url, null);
  });
});
