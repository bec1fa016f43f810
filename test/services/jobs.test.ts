import assert from 'node:assert/strict';
import { describe, type TestContext, test } from 'node:test';
import fc from 'fast-check';
import { pricingConfidence, pricingConfidenceOfStanding, sampleInEuros } from '../../src/domain/pricing.js';
import type { Api } from '../../src/http/route-deps.js';
import { completedRateSample, completedRateStanding } from '../../src/repositories/aggregates.js';
import { buildTestApp, createKey, NOW } from '../helpers/app.js';
import { PROVIDER_BODY } from '../helpers/bodies.js';
import { AT, helperFixture, insert, jobFixture } from '../helpers/fixtures.js';
import { shownLocation } from '../helpers/places.js';

const DAY_MS = 86_400_000;
const inDays = (days: number) => new Date(NOW.getTime() + days * DAY_MS).toISOString();

/** Requests as one caller: with its key, or anonymous (null). */
function clientFor(app: Api, key: string | null) {
  const send = async (method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown, headers = {}) => {
    const response = await app.inject({
      method,
      url,
      headers: {
        ...(key ? { 'x-api-key': key } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
    return { status: response.statusCode, headers: response.headers, body: response.json() as any };
  };
  return {
    get: (url: string) => send('GET', url),
    post: (url: string, body?: unknown, headers?: Record<string, string>) => send('POST', url, body, headers),
    patch: (url: string, body: unknown) => send('PATCH', url, body),
  };
}
type Client = ReturnType<typeof clientFor>;

async function setup(t: TestContext, accountType: 'private' | 'commercial' = 'private') {
  let now = NOW.getTime();
  const { app, db } = await buildTestApp(t, () => new Date(now));
  const owner = await createKey(db, { email: 'owner@example.org', account_type: accountType });
  const other = await createKey(db, { email: 'other@example.org' });
  if (accountType === 'commercial') {
    const given = await app.inject({
      method: 'PUT',
      url: '/v1/me/provider',
      headers: { 'x-api-key': owner.key },
      payload: PROVIDER_BODY,
    });
    assert.equal(given.statusCode, 200, given.body);
  }
  return {
    app,
    db,
    ownerAccountId: owner.accountId,
    /** Moves the app's clock on. */
    advance: (ms: number) => {
      now += ms;
      return new Date(now);
    },
    owner: clientFor(app, owner.key),
    other: clientFor(app, other.key),
    anonymous: clientFor(app, null),
  };
}

const JOB = {
  title: 'Hecke schneiden in Durlach',
  description: 'Thujahecke, 20 m lang. Werkzeug ist vorhanden.',
  category: 'GARDENING',
  price_eur: 60,
  location: { plz: '76227' },
};

const DURLACH = { city: 'Karlsruhe', plz: '76227', district: 'Durlach', lat: 48.9921, lng: 8.4684 };

async function createJob(client: Client, body: object = JOB): Promise<any> {
  const created = await client.post('/v1/jobs', body);
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return created.body;
}

/** A job taken to assigned through the API: another account's helper applies, the owner accepts. */
async function assignedJob(owner: Client, other: Client, body: object = JOB): Promise<any> {
  const job = await createJob(owner, body);
  const helper = await other.post('/v1/helpers', {
    display_name: 'Jonas W.',
    categories: ['GARDENING'],
    location: { plz: '76131' },
    hourly_rate_eur: 18,
  });
  const application = await other.post(`/v1/jobs/${job.id}/applications`, { helper_id: helper.body.id });
  const accepted = await owner.post(`/v1/jobs/${job.id}/applications/${application.body.id}/accept`);
  assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
  return { ...job, status: 'assigned', applications_count: 1 };
}

const badRequest = (error: string, param: string | null, message: string, suggestion: string, alternatives = []) => ({
  error,
  message,
  param,
  suggestion,
  alternatives,
  alternatives_count: alternatives.length,
});

describe('POST /v1/jobs', () => {
  test('creates an open job of the account: 201 with the whole Job, as GET shows it', async (t) => {
    const { owner, db } = await setup(t);
    // One verified gardener in the Innenstadt (30 min response), five completed jobs at 15..19 EUR/hour.
    await insert(db.kysely, {
      helpers: [
        helperFixture(['GARDENING'], { avg_response_minutes: 30 }),
        helperFixture(['GARDENING'], { verified: 0 }),
      ],
      jobs: [15, 16, 17, 18, 19].map((rate) =>
        jobFixture({ status: 'completed', price_cents: rate * 200, duration_hours: 2, helpers_needed: 1 }),
      ),
    });
    const { status, body } = await owner.post('/v1/jobs', {
      ...JOB,
      category: 'gardening',
      price_eur: 51,
      duration_hours: 3,
      desired_at: '2026-11-25T09:00:00Z',
      deadline: '2026-11-27T18:00:00+01:00',
      time_preference: 'Vormittags',
      urgent: true,
      photos: ['https://cdn.example.org/hecke/1.jpg'],
    });

    assert.equal(status, 201);
    assert.match(body.id, /^job_[0-9a-f]{16}$/);
    assert.deepEqual(body, {
      id: body.id,
      title: 'Hecke schneiden in Durlach',
      description: 'Thujahecke, 20 m lang. Werkzeug ist vorhanden.',
      category: 'GARDENING',
      type: 'marketplace',
      status: 'open',
      price_eur: 51,
      price_range: { low: 40.8, high: 61.2 },
      location: shownLocation(DURLACH, body.location),
      desired_at: '2026-11-25T09:00:00.000Z',
      deadline: '2026-11-27T17:00:00.000Z',
      time_preference: 'vormittags',
      urgent: true,
      created_at: NOW.toISOString(),
      helpers_needed: 1,
      applications_count: 0,
      max_applicants: 3,
      // 30 min response + 4.95 km at 20 km/h; the unverified helper does not count.
      smart_eta_minutes: 45,
      photos: ['https://cdn.example.org/hecke/1.jpg'],
      requires_license: false,
      express: false,
      remote_task: false,
      // 51 EUR / 3 hours = 17 EUR per helper-hour: inside the 10th-90th percentile of 5 jobs.
      pricing_confidence: 'medium',
      cancellation_policy: 'flexible',
      provider: null,
      series_id: null,
    });
    assert.deepEqual((await owner.get(`/v1/jobs/${body.id}`)).body, body);
    const row = await db.kysely.selectFrom('jobs').selectAll().where('id', '=', body.id).executeTakeFirstOrThrow();
    assert.equal(row.desired_date, '2026-11-25');
    assert.equal(row.duration_hours, 3);
    assert.equal(row.updated_at, NOW.toISOString());
    assert.ok(row.owner_account_id?.startsWith('acc_'));
  });

  test('defaults, coordinates kept with the nearest place, nothing derived without data', async (t) => {
    const { owner, db } = await setup(t);
    const body = await createJob(owner, { ...JOB, location: { lat: 49.015, lng: 8.412 }, category: 'TECH_REPAIR' });
    assert.deepEqual(
      {
        location: body.location,
        desired_at: body.desired_at,
        deadline: body.deadline,
        time_preference: body.time_preference,
        urgent: body.urgent,
        express: body.express,
        remote_task: body.remote_task,
        requires_license: body.requires_license,
        helpers_needed: body.helpers_needed,
        photos: body.photos,
        smart_eta_minutes: body.smart_eta_minutes,
        pricing_confidence: body.pricing_confidence,
      },
      {
        location: shownLocation(
          { city: 'Karlsruhe', plz: '76131', district: 'Innenstadt-Ost', lat: 49.015, lng: 8.412 },
          body.location,
        ),
        desired_at: null,
        deadline: null,
        time_preference: null,
        urgent: false,
        express: false,
        remote_task: false,
        requires_license: false,
        helpers_needed: 1,
        photos: [],
        smart_eta_minutes: null,
        pricing_confidence: null,
      },
    );
    const row = await db.kysely
      .selectFrom('jobs')
      .select('duration_hours')
      .where('id', '=', body.id)
      .executeTakeFirst();
    assert.equal(row?.duration_hours, 2);
  });

  test('locations outside the service area and unknown postal codes are 400 invalid_location', async (t) => {
    const { owner } = await setup(t);
    const berlin = await owner.post('/v1/jobs', { ...JOB, location: { lat: 52.52, lng: 13.405 } });
    assert.equal(berlin.status, 400);
    assert.deepEqual(
      berlin.body,
      badRequest(
        'invalid_location',
        'location',
        'location is 525.4 km from Karlsruhe; the service area is 50 km around it.',
        'Send a location within 50 km of Karlsruhe (49.0069, 8.4037).',
      ),
    );
    const unknown = await owner.post('/v1/jobs', { ...JOB, location: { plz: '76230' } });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.error, 'invalid_location');
    assert.equal(unknown.body.param, 'location.plz');
    assert.ok(unknown.body.alternatives.includes('76227'));
    const shapeless = await owner.post('/v1/jobs', { ...JOB, location: { lat: 49 } });
    assert.equal(shapeless.status, 400);
    assert.equal(shapeless.body.param, 'location');
  });

  test('unknown fields get a did-you-mean; fields the server computes are refused', async (t) => {
    const { owner } = await setup(t);
    const typo = await owner.post('/v1/jobs', { ...JOB, helper_needed: 2 });
    assert.equal(typo.status, 400);
    assert.deepEqual(
      typo.body,
      badRequest(
        'unknown_parameter',
        'helper_needed',
        "Unknown field 'helper_needed'.",
        "Did you mean 'helpers_needed'?",
        ['helpers_needed'] as never,
      ),
    );
    for (const computed of ['id', 'status', 'type', 'price_range', 'max_applicants', 'applications_count']) {
      const { status, body } = await owner.post('/v1/jobs', { ...JOB, [computed]: 'x' });
      assert.equal(status, 400, computed);
      assert.equal(body.error, 'unknown_parameter', computed);
      assert.equal(body.param, computed);
    }
  });

  test('values are taken as typed (no coercion); enums match in any case', async (t) => {
    const { owner } = await setup(t);
    const quoted = await owner.post('/v1/jobs', { ...JOB, price_eur: '60' });
    assert.deepEqual(
      quoted.body,
      badRequest(
        'invalid_parameter',
        'price_eur',
        'price_eur must be a number; got "60".',
        'Send price_eur as a number, without quotes.',
      ),
    );
    const nulled = await owner.post('/v1/jobs', { ...JOB, urgent: null });
    assert.deepEqual(
      nulled.body,
      badRequest(
        'invalid_parameter',
        'urgent',
        'urgent must be true or false; got null.',
        'Send urgent as true or false.',
      ),
    );
    const near = await owner.post('/v1/jobs', { ...JOB, category: 'gardenin' });
    assert.equal(near.status, 400);
    assert.equal(near.body.error, 'invalid_enum_value');
    assert.equal(near.body.suggestion, "Did you mean 'GARDENING'?");
    assert.equal(near.body.alternatives_count, 10);
    const cased = await createJob(owner, { ...JOB, category: 'Tech_Repair', time_preference: 'ABENDS' });
    assert.deepEqual([cased.category, cased.time_preference], ['TECH_REPAIR', 'abends']);
  });

  test('lengths, ranges, photos and cents are checked', async (t) => {
    const { owner } = await setup(t);
    const cases: [object, string, string][] = [
      [{ title: 'ab' }, 'title', 'parameter_out_of_range'],
      [{ title: '     ' }, 'title', 'invalid_parameter'],
      [{ description: 'x'.repeat(5001) }, 'description', 'parameter_out_of_range'],
      [{ price_eur: 100_000.01 }, 'price_eur', 'parameter_out_of_range'],
      [{ price_eur: -1 }, 'price_eur', 'parameter_out_of_range'],
      [{ price_eur: 19.999 }, 'price_eur', 'invalid_parameter'],
      [{ helpers_needed: 5 }, 'helpers_needed', 'parameter_out_of_range'],
      [{ helpers_needed: 1.5 }, 'helpers_needed', 'invalid_parameter'],
      [{ duration_hours: 0.1 }, 'duration_hours', 'parameter_out_of_range'],
      [{ photos: ['http://example.org/a.jpg'] }, 'photos.0', 'invalid_parameter'],
      [{ photos: Array(9).fill('https://example.org/a.jpg') }, 'photos', 'invalid_parameter'],
      [{ photos: [`https://example.org/${'a'.repeat(490)}`] }, 'photos.0', 'parameter_out_of_range'],
    ];
    for (const [fields, param, error] of cases) {
      const { status, body } = await owner.post('/v1/jobs', { ...JOB, ...fields });
      assert.equal(status, 400, JSON.stringify(fields));
      assert.deepEqual([body.param, body.error], [param, error], JSON.stringify(body));
    }
    const cents = await createJob(owner, { ...JOB, price_eur: 19.99 });
    assert.equal(cents.price_eur, 19.99);
  });

  test('dates in the past, a deadline before desired_at and impossible moments are 400', async (t) => {
    const { owner } = await setup(t);
    const past = await owner.post('/v1/jobs', { ...JOB, desired_at: '2026-11-20T11:59:59Z' });
    assert.deepEqual(
      past.body,
      badRequest(
        'parameter_out_of_range',
        'desired_at',
        'desired_at must be in the future; it is 2026-11-20T12:00:00.000Z now.',
        'Send a desired_at after 2026-11-20T12:00:00.000Z.',
      ),
    );
    const now = await owner.post('/v1/jobs', { ...JOB, deadline: NOW.toISOString() });
    assert.equal(now.status, 400);
    assert.equal(now.body.param, 'deadline');
    const order = await owner.post('/v1/jobs', { ...JOB, desired_at: inDays(3), deadline: inDays(2) });
    assert.deepEqual(
      order.body,
      badRequest(
        'conflicting_parameters',
        'deadline',
        'deadline comes before desired_at.',
        'Set deadline at or after desired_at, or move desired_at earlier.',
        ['desired_at', 'deadline'] as never,
      ),
    );
    const leap = await owner.post('/v1/jobs', { ...JOB, deadline: '2026-12-31T23:59:60Z' });
    assert.equal(leap.status, 400);
    assert.equal(leap.body.param, 'deadline');
    const malformed = await owner.post('/v1/jobs', { ...JOB, desired_at: '2026-11-25' });
    assert.equal(malformed.status, 400);
    assert.equal(malformed.body.param, 'desired_at');
  });

  test('commercial accounts: desired_at and deadline at most 30 days after creation (spec 2.1)', async (t) => {
    const { owner } = await setup(t, 'commercial');
    const limit = await createJob(owner, { ...JOB, deadline: inDays(30) });
    assert.equal(limit.deadline, '2026-12-20T12:00:00.000Z');
    const over = await owner.post('/v1/jobs', {
      ...JOB,
      deadline: new Date(NOW.getTime() + 30 * DAY_MS + 1000).toISOString(),
    });
    assert.equal(over.status, 400);
    assert.deepEqual(
      over.body,
      badRequest(
        'parameter_out_of_range',
        'deadline',
        'deadline may be at most 30 days after the job was created for a commercial account, so at the latest 2026-12-20T12:00:00.000Z.',
        'Send a deadline no later than 2026-12-20T12:00:00.000Z.',
      ),
    );
    const desired = await owner.post('/v1/jobs', { ...JOB, desired_at: inDays(31) });
    assert.equal(desired.status, 400);
    assert.equal(desired.body.param, 'desired_at');
  });

  test('private accounts: at most 90 days', async (t) => {
    const { owner } = await setup(t, 'private');
    await createJob(owner, { ...JOB, deadline: inDays(31) });
    await createJob(owner, { ...JOB, desired_at: inDays(89), deadline: inDays(90) });
    const over = await owner.post('/v1/jobs', { ...JOB, deadline: inDays(90.001) });
    assert.equal(over.status, 400);
    assert.equal(
      over.body.message,
      'deadline may be at most 90 days after the job was created for a private account, so at the latest 2027-02-18T12:00:00.000Z.',
    );
  });

  test('anonymous callers get 401 authentication_required before anything else is checked', async (t) => {
    const { anonymous, app } = await setup(t);
    const expected = badRequest(
      'authentication_required',
      'X-API-Key',
      'Writing needs a developer key in the X-API-Key header.',
      'Request a free developer key at /developers (or POST /v1/developer/key-requests); reading works without one.',
    );
    for (const [method, url] of [
      ['POST', '/v1/jobs'],
      ['PATCH', '/v1/jobs/job_0000000000000001'],
      ['POST', '/v1/jobs/job_0000000000000001/cancel'],
      ['POST', '/v1/jobs/job_0000000000000001/complete'],
    ] as const) {
      const response = method === 'POST' ? await anonymous.post(url, { x: 1 }) : await anonymous.patch(url, { x: 1 });
      assert.equal(response.status, 401, url);
      assert.deepEqual(response.body, expected, url);
    }
    const badKey = await clientFor(app, `kmp_${'a'.repeat(49)}`).post('/v1/jobs', JOB);
    assert.equal(badKey.status, 401);
    assert.equal(badKey.body.error, 'invalid_api_key');
  });

  test('Idempotency-Key: a retry replays the first 201 and creates one job; another body is 422', async (t) => {
    const { owner, db } = await setup(t);
    const count = async () =>
      Number(
        (
          await db.kysely
            .selectFrom('jobs')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirst()
        )?.n,
      );
    const key = { 'Idempotency-Key': 'create-hecke-1' };
    const first = await owner.post('/v1/jobs', JOB, key);
    const retry = await owner.post('/v1/jobs', JOB, key);
    assert.equal(first.status, 201);
    assert.equal(retry.status, 201);
    assert.deepEqual(retry.body, first.body);
    assert.equal(retry.headers['idempotent-replayed'], 'true');
    assert.equal(first.headers['idempotent-replayed'], undefined);
    assert.equal(await count(), 1);

    const other = await owner.post('/v1/jobs', { ...JOB, price_eur: 70 }, key);
    assert.equal(other.status, 422);
    assert.equal(other.body.error, 'idempotency_key_reused');
    assert.equal(await count(), 1);

    await createJob(owner);
    await createJob(owner);
    assert.equal(await count(), 3, 'without a key, each POST creates a job');
  });
});

describe('pricing_confidence of a written job (issue 34)', () => {
  test('counted in the database, it is what the percentiles of the completed jobs give, ties and bounds included', async (t) => {
    const { db } = await setup(t);
    // 45 completed gardening jobs: rates with ties, and with thirds that are not exact in binary.
    const shapes = Array.from({ length: 45 }, (_, i) => ({
      price_cents: 1000 + ((i * 7) % 13) * 350,
      duration_hours: [1, 2, 3, 3, 4.5][i % 5] as number,
      helpers_needed: [1, 1, 2, 3][i % 4] as number,
    }));
    await insert(db.kysely, { jobs: shapes.map((shape) => jobFixture({ status: 'completed', ...shape })) });
    const sample = await completedRateSample(db.kysely, 'GARDENING');
    assert.ok(sample && sample.count === 45);
    const rates = shapes.map((j) => j.price_cents / 100 / (j.duration_hours * j.helpers_needed));
    for (const rate of [...rates, ...rates.map((r) => r + 0.005), ...rates.map((r) => r - 0.005), 0, 1000]) {
      const standing = await completedRateStanding(db.kysely, 'GARDENING', rate);
      assert.equal(
        pricingConfidenceOfStanding(standing),
        pricingConfidence(rate, sampleInEuros(sample)),
        `rate ${rate}: ${JSON.stringify(standing)}`,
      );
    }
    // Too few to say (CHILDCARE has none): null both ways.
    assert.equal(pricingConfidenceOfStanding(await completedRateStanding(db.kysely, 'CHILDCARE', 15)), null);
  });
});

describe('PATCH /v1/jobs/{id}', () => {
  test('the owner changes fields; derived fields follow, null clears', async (t) => {
    const { owner, db } = await setup(t);
    await insert(db.kysely, {
      jobs: [15, 16, 17, 18, 19].map((rate) =>
        jobFixture({
          status: 'completed',
          category: 'MOVING',
          price_cents: rate * 100,
          duration_hours: 1,
          helpers_needed: 1,
        }),
      ),
    });
    const job = await createJob(owner, { ...JOB, deadline: inDays(5), time_preference: 'abends' });
    const { status, body } = await owner.patch(`/v1/jobs/${job.id}`, {
      title: 'Umzugskartons tragen',
      category: 'moving',
      price_eur: 34,
      duration_hours: 1,
      helpers_needed: 2,
      location: { plz: '76131' },
      deadline: null,
      time_preference: null,
      remote_task: true,
    });
    assert.equal(status, 200);
    assert.deepEqual(body, {
      ...job,
      title: 'Umzugskartons tragen',
      category: 'MOVING',
      price_eur: 34,
      price_range: { low: 27.2, high: 40.8 },
      location: shownLocation(
        { city: 'Karlsruhe', plz: '76131', district: 'Innenstadt-Ost', lat: 49.0142, lng: 8.4108 },
        body.location,
      ),
      deadline: null,
      time_preference: null,
      helpers_needed: 2,
      max_applicants: 6,
      remote_task: true,
      // 34 EUR / (1 hour x 2 helpers) = 17 EUR per helper-hour, inside 15..19.
      pricing_confidence: 'medium',
    });
    assert.deepEqual((await owner.get(`/v1/jobs/${job.id}`)).body, body);
  });

  test('desired_at and deadline are checked as they will be, the horizon counting from creation', async (t) => {
    const { owner, db, ownerAccountId } = await setup(t);
    const job = await createJob(owner, { ...JOB, desired_at: inDays(3) });
    const before = await owner.patch(`/v1/jobs/${job.id}`, { deadline: inDays(2) });
    assert.equal(before.status, 400);
    assert.equal(before.body.error, 'conflicting_parameters');
    const past = await owner.patch(`/v1/jobs/${job.id}`, { desired_at: inDays(-1) });
    assert.equal(past.body.error, 'parameter_out_of_range');

    // Created 80 days ago by a private account: 90 days after creation is 10 days from now.
    const old = jobFixture({
      owner_account_id: ownerAccountId,
      created_at: inDays(-80),
      desired_at: null,
      deadline: null,
    });
    await insert(db.kysely, { jobs: [old] });
    assert.equal((await owner.patch(`/v1/jobs/${old.id}`, { deadline: inDays(10) })).status, 200);
    const over = await owner.patch(`/v1/jobs/${old.id}`, { deadline: inDays(11) });
    assert.equal(over.status, 400);
    assert.equal(over.body.param, 'deadline');
    assert.match(over.body.message, /at the latest 2026-11-30T12:00:00.000Z/);
  });

  test("another account's job and unknown ids answer the same 404", async (t) => {
    const { owner, other } = await setup(t);
    const job = await createJob(owner);
    const foreign = await other.patch(`/v1/jobs/${job.id}`, { title: 'Meins jetzt' });
    assert.equal(foreign.status, 404);
    assert.deepEqual(
      foreign.body,
      badRequest(
        'not_found',
        'id',
        `No job with the id '${job.id}' is yours to change.`,
        'Check the id; you can change only what your account created or what concerns it. GET /v1/jobs lists what exists.',
      ),
    );
    const unknown = await owner.patch('/v1/jobs/job_ffffffffffffffff', { title: 'Neu, neu' });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.message, "No job with the id 'job_ffffffffffffffff' is yours to change.");
    assert.equal((await owner.get(`/v1/jobs/${job.id}`)).body.title, JOB.title);
  });

  test('only while open: 409 naming the state, with the actions allowed from it', async (t) => {
    const { owner, other, db, ownerAccountId } = await setup(t);
    const assigned = await assignedJob(owner, other);
    const response = await owner.patch(`/v1/jobs/${assigned.id}`, { title: 'Zu spät' });
    assert.equal(response.status, 409);
    assert.deepEqual(
      response.body,
      badRequest(
        'invalid_state_transition',
        null,
        "The job is assigned; 'update' is not possible from there.",
        'From assigned you can: complete, cancel.',
        ['complete', 'cancel'] as never,
      ),
    );
    const expired = jobFixture({ owner_account_id: ownerAccountId, deadline: inDays(-0.5) });
    await insert(db.kysely, { jobs: [expired] });
    const late = await owner.patch(`/v1/jobs/${expired.id}`, { title: 'Zu spät' });
    assert.equal(late.status, 409);
    assert.equal(late.body.message, "The job is expired; 'update' is not possible from there.");
    assert.equal(late.body.suggestion, 'This job is expired and cannot change any more.');
  });

  test('helpers_needed cannot drop below the places its applications take', async (t) => {
    const { owner, db, ownerAccountId } = await setup(t);
    const job = jobFixture({ owner_account_id: ownerAccountId, helpers_needed: 2, applications_count: 4 });
    await insert(db.kysely, { jobs: [job] });
    const response = await owner.patch(`/v1/jobs/${job.id}`, { helpers_needed: 1 });
    assert.equal(response.status, 400);
    assert.deepEqual(
      response.body,
      badRequest(
        'parameter_out_of_range',
        'helpers_needed',
        'helpers_needed must be at least 2 now: the job has 4 applications (3 places per helper), 0 of them accepted.',
        'Send helpers_needed from 2 to 4, or reject applications first.',
      ),
    );
    assert.equal((await owner.patch(`/v1/jobs/${job.id}`, { helpers_needed: 3 })).body.max_applicants, 9);
  });
});

describe('POST /v1/jobs/{id}/cancel and /complete', () => {
  test('open -> cancelled; cancelled is final (409 with no alternatives)', async (t) => {
    const { owner } = await setup(t);
    const job = await createJob(owner);
    const cancelled = await owner.post(`/v1/jobs/${job.id}/cancel`);
    assert.equal(cancelled.status, 200);
    assert.deepEqual(cancelled.body, { ...job, status: 'cancelled' });
    for (const action of ['cancel', 'complete']) {
      const again = await owner.post(`/v1/jobs/${job.id}/${action}`);
      assert.equal(again.status, 409);
      assert.deepEqual(
        again.body,
        badRequest(
          'invalid_state_transition',
          null,
          `The job is cancelled; '${action}' is not possible from there.`,
          'This job is cancelled and cannot change any more.',
        ),
      );
    }
  });

  test('an open job cannot be completed: 409 offering cancel', async (t) => {
    const { owner } = await setup(t);
    const job = await createJob(owner);
    const response = await owner.post(`/v1/jobs/${job.id}/complete`);
    assert.equal(response.status, 409);
    assert.deepEqual(
      response.body,
      badRequest(
        'invalid_state_transition',
        null,
        "The job is open; 'complete' is not possible from there.",
        'From open you can: cancel.',
        ['cancel'] as never,
      ),
    );
  });

  test('assigned -> completed sets completed_at, and the estimate learns from it at once', async (t) => {
    const { owner, other, anonymous, db, advance } = await setup(t);
    const estimate = async () => (await anonymous.get('/v1/estimate?category=GARDENING')).body.based_on_jobs;
    assert.equal(await estimate(), 0);
    const job = await assignedJob(owner, other);
    // Its helper was accepted just now and it takes duration_hours: completing it at once is too early.
    const early = await owner.post(`/v1/jobs/${job.id}/complete`);
    assert.deepEqual([early.status, early.body.error], [409, 'completion_too_early'], JSON.stringify(early.body));
    const row0 = await db.kysely.selectFrom('jobs').selectAll().where('id', '=', job.id).executeTakeFirstOrThrow();
    assert.match(early.body.message, new RegExp(`takes ${row0.duration_hours} h`));
    advance(row0.duration_hours * 3_600_000 - 1_000);
    assert.equal((await owner.post(`/v1/jobs/${job.id}/complete`)).body.error, 'completion_too_early');
    const done = advance(1_000);
    const completed = await owner.post(`/v1/jobs/${job.id}/complete`);
    assert.equal(completed.status, 200);
    assert.deepEqual(completed.body, { ...job, status: 'completed' });
    const row = await db.kysely.selectFrom('jobs').selectAll().where('id', '=', job.id).executeTakeFirstOrThrow();
    assert.equal(row.completed_at, done.toISOString());
    assert.equal(await estimate(), 1);
    const cancel = await owner.post(`/v1/jobs/${job.id}/cancel`);
    assert.equal(cancel.status, 409);
    assert.equal(cancel.body.message, "The job is completed; 'cancel' is not possible from there.");
  });

  test('a job with a desired_at is completed from then on, not before (issue 30, 3)', async (t) => {
    const { owner, other, advance } = await setup(t);
    const desired = new Date(NOW.getTime() + 3 * 86_400_000).toISOString();
    const job = await assignedJob(owner, other, { ...JOB, desired_at: desired });
    advance(86_400_000);
    const early = await owner.post(`/v1/jobs/${job.id}/complete`);
    assert.deepEqual([early.status, early.body.error, early.body.param], [409, 'completion_too_early', null]);
    assert.equal(early.body.message, `The job is planned for ${desired}; it cannot be completed before.`);
    assert.match(early.body.suggestion, /stays assigned/);
    assert.equal((await owner.get(`/v1/jobs/${job.id}`)).body.status, 'assigned');
    advance(2 * 86_400_000);
    assert.equal((await owner.post(`/v1/jobs/${job.id}/complete`)).status, 200);
  });

  test('assigned -> cancelled', async (t) => {
    const { owner, other } = await setup(t);
    const job = await assignedJob(owner, other);
    const cancelled = await owner.post(`/v1/jobs/${job.id}/cancel`);
    assert.equal(cancelled.status, 200);
    assert.equal(cancelled.body.status, 'cancelled');
  });

  test('an expired job cannot be cancelled; others and unknown ids get 404', async (t) => {
    const { owner, other, db, ownerAccountId } = await setup(t);
    const expired = jobFixture({ owner_account_id: ownerAccountId, deadline: inDays(-1) });
    await insert(db.kysely, { jobs: [expired] });
    const response = await owner.post(`/v1/jobs/${expired.id}/cancel`);
    assert.equal(response.status, 409);
    assert.deepEqual(
      response.body,
      badRequest(
        'invalid_state_transition',
        null,
        "The job is expired; 'cancel' is not possible from there.",
        'This job is expired and cannot change any more.',
      ),
    );
    const job = await createJob(owner);
    for (const action of ['cancel', 'complete']) {
      const foreign = await other.post(`/v1/jobs/${job.id}/${action}`);
      assert.equal(foreign.status, 404, action);
      assert.equal(foreign.body.message, `No job with the id '${job.id}' is yours to change.`);
    }
    const seeded = jobFixture();
    await insert(db.kysely, { jobs: [seeded] });
    assert.equal((await owner.post(`/v1/jobs/${seeded.id}/cancel`)).status, 404);
    assert.equal((await owner.get(`/v1/jobs/${job.id}`)).body.status, 'open');
  });
});

describe('a written job is visible at once', () => {
  test('in search, get, stats and categories; cancelled, it leaves the open search', async (t) => {
    const { owner, anonymous, db } = await setup(t);
    await insert(db.kysely, { jobs: [jobFixture({ category: 'GARDENING' })] });
    const figures = async () => {
      const search = (await anonymous.get('/v1/jobs?category=GARDENING&limit=100')).body;
      const stats = (await anonymous.get('/v1/stats')).body;
      const categories = (await anonymous.get('/v1/categories?type=service')).body;
      return {
        total: search.total,
        ids: search.data.map((j: { id: string }) => j.id),
        open: stats.totals.open_jobs,
        gardening: categories.data.find((c: { id: string }) => c.id === 'GARDENING').service.open_jobs,
      };
    };
    const before = await figures();
    const job = await createJob(owner);
    const after = await figures();
    assert.deepEqual(
      { ...after, ids: after.ids.includes(job.id) },
      { total: before.total + 1, ids: true, open: before.open + 1, gardening: before.gardening + 1 },
    );
    assert.equal((await anonymous.get(`/v1/jobs/${job.id}`)).status, 200);
    const moved = await owner.patch(`/v1/jobs/${job.id}`, { category: 'MOVING' });
    assert.equal(moved.status, 200);
    assert.equal((await figures()).gardening, before.gardening);
    assert.equal((await anonymous.get('/v1/jobs?category=MOVING')).body.data[0].id, job.id);

    await owner.post(`/v1/jobs/${job.id}/cancel`);
    const cancelled = await figures();
    assert.deepEqual({ ...cancelled, ids: cancelled.ids.includes(job.id) }, { ...before, ids: false });
    assert.equal((await anonymous.get('/v1/jobs?category=MOVING')).body.total, 0);
    assert.equal((await anonymous.get(`/v1/jobs/${job.id}`)).body.status, 'cancelled');
  });
});

describe('random bodies', () => {
  test('no body breaks the contract of a write route: below 500, every error an ApiError', async (t) => {
    const { owner, other, db } = await setup(t);
    const job = await createJob(owner);
    const helper = await other.post('/v1/helpers', {
      display_name: 'Jonas W.',
      categories: ['GARDENING'],
      location: AT.durlach,
    });
    assert.equal(helper.status, 400, 'a location with city and plz is no accepted shape');
    const registered = await other.post('/v1/helpers', {
      display_name: 'Jonas W.',
      categories: ['GARDENING'],
      location: { plz: '76227' },
      hourly_rate_eur: 20,
    });
    const fields = [
      ...Object.keys(JOB),
      'desired_at',
      'deadline',
      'time_preference',
      'urgent',
      'helpers_needed',
      'photos',
      'duration_hours',
      'display_name',
      'categories',
      'hourly_rate_eur',
      'availability',
      'available',
      'bio',
      'helper_id',
      'message',
      '__proto__',
      'constructor',
    ];
    const plausible = fc.oneof(
      fc.constantFrom(...Object.values(JOB), 'gardening', 'moving', 0, 1, 4, 5, 0.25, 1e300, -1, null, true, ''),
      fc.constantFrom(inDays(1), inDays(40), inDays(-1), '2026-12-31T23:59:60Z', 'abends', registered.body.id),
      fc.record({ lat: fc.double(), lng: fc.double() }),
      fc.record({ plz: fc.string({ maxLength: 6 }) }),
      fc.record({ weekdays: fc.array(fc.constantFrom('mon', 'SUN', 'xyz')), from: fc.string(), to: fc.string() }),
    );
    const bodies = fc.oneof(
      fc.dictionary(fc.constantFrom(...fields), fc.oneof(plausible, fc.jsonValue()), { maxKeys: 8 }),
      fc.jsonValue(),
    );
    const urls = [
      ['POST', '/v1/jobs'],
      ['PATCH', `/v1/jobs/${job.id}`],
      ['POST', '/v1/helpers'],
      ['PATCH', `/v1/helpers/${registered.body.id}`],
      ['POST', `/v1/jobs/${job.id}/applications`],
    ] as const;
    const keys = ['error', 'message', 'param', 'suggestion', 'alternatives', 'alternatives_count'];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...urls), bodies, fc.boolean(), async ([method, url], body, asOwner) => {
        const client = asOwner ? owner : other;
        const response = method === 'POST' ? await client.post(url, body) : await client.patch(url, body);
        assert.ok(response.status < 500, `${method} ${url} ${JSON.stringify(body)} -> ${response.status}`);
        // `errors` lists the problems when a body has several (docs/api.md, Errors).
        const shown = Object.keys(response.body).filter((key) => key !== 'errors');
        if (response.status >= 400) assert.deepEqual(shown, keys, JSON.stringify(response.body));
      }),
      { numRuns: 1500, seed: 20261120 },
    );
    // Whatever was written went through the schemas: nothing outside the service area, no blank title.
    const rows = await db.kysely.selectFrom('jobs').select(['title', 'lat', 'deadline']).execute();
    for (const row of rows) assert.ok(row.title.trim().length > 0 && row.lat > 48 && row.lat < 50);
  });
});
