import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildTestApp, getJson } from '../helpers/app.js';
import { AT, insert, jobFixture } from '../helpers/fixtures.js';

describe('GET /v1/jobs/{id}', () => {
  test('answers the whole Job with derived fields', async (t) => {
    const { app, db } = await buildTestApp(t);
    const job = jobFixture({ id: 'job_00000000000000aa', price_cents: 6000, helpers_needed: 2 });
    await insert(db.kysely, { jobs: [job] });

    const { status, body } = await getJson(app, '/v1/jobs/job_00000000000000aa');

    assert.equal(status, 200);
    assert.deepEqual(body, {
      id: 'job_00000000000000aa',
      title: 'Hecke schneiden in Durlach',
      description: 'Thujahecke, 20 m lang. Werkzeug ist vorhanden.',
      category: 'GARDENING',
      type: 'marketplace',
      status: 'open',
      price_eur: 60,
      price_range: { low: 48, high: 72 },
      location: { city: 'Karlsruhe', plz: '76227', district: 'Durlach', lat: 48.9921, lng: 8.4684, distance_km: 5 },
      desired_at: '2026-11-25T09:00:00.000Z',
      deadline: '2026-11-27T17:00:00.000Z',
      time_preference: 'vormittags',
      urgent: false,
      created_at: '2026-11-18T10:00:00.000Z',
      helpers_needed: 2,
      applications_count: 1,
      max_applicants: 6,
      smart_eta_minutes: 45, // 35 stored, shown rounded up to the quarter hour
      photos: ['https://cdn.karlsruhe-marketplace.example/photos/hecke/1.jpg'],
      requires_license: false,
      express: false,
      remote_task: false,
      pricing_confidence: 'medium',
      cancellation_policy: 'flexible',
      provider: null,
      series_id: null,
    });
  });

  test('shows an open job whose deadline passed as expired', async (t) => {
    const { app, db } = await buildTestApp(t);
    await insert(db.kysely, {
      jobs: [jobFixture({ id: 'job_0000000000000exp', deadline: '2026-11-20T11:59:00.000Z' })],
    });
    const { body } = await getJson(app, '/v1/jobs/job_0000000000000exp');
    assert.equal(body.status, 'expired');
  });

  test('an unknown id is a 404 ApiError offering open jobs with similar ids', async (t) => {
    const { app, db } = await buildTestApp(t);
    await insert(db.kysely, {
      jobs: [
        jobFixture({ id: 'job_aaaa000000000001', title: 'A' }),
        jobFixture({ id: 'job_aaaa000000000003', title: 'B' }),
        jobFixture({ id: 'job_ffff000000000000', title: 'C' }),
        jobFixture({ id: 'job_aaaa000000000002', title: 'closed', status: 'completed' }),
      ],
    });
    const { status, body } = await getJson(app, '/v1/jobs/job_aaaa000000000002x');
    assert.equal(status, 404);
    assert.deepEqual(body, {
      error: 'not_found',
      message: "No job has the id 'job_aaaa000000000002x'.",
      param: 'id',
      suggestion:
        'Check the id (job ids start with job_), or find jobs with GET /v1/jobs. Open jobs with similar ids are listed in alternatives.',
      alternatives: [
        { id: 'job_aaaa000000000001', title: 'A', url: '/v1/jobs/job_aaaa000000000001' },
        { id: 'job_aaaa000000000003', title: 'B', url: '/v1/jobs/job_aaaa000000000003' },
        { id: 'job_ffff000000000000', title: 'C', url: '/v1/jobs/job_ffff000000000000' },
      ],
      alternatives_count: 3,
    });
  });
});

describe('GET /v1/jobs', () => {
  test('defaults: open jobs within 50 km, newest first, page of 20, exact total', async (t) => {
    const { app, db } = await buildTestApp(t);
    await insert(db.kysely, {
      jobs: [
        jobFixture({ id: 'job_0000000000000001', created_at: '2026-11-19T08:00:00.000Z' }),
        jobFixture({ id: 'job_0000000000000002', created_at: '2026-11-20T08:00:00.000Z' }),
        jobFixture({ id: 'job_0000000000000003', status: 'completed' }),
        jobFixture({ id: 'job_0000000000000004', status: 'assigned' }),
        jobFixture({ id: 'job_0000000000000005', deadline: '2026-11-20T11:00:00.000Z' }),
        // Stuttgart, 62 km away: outside the service radius.
        jobFixture({ id: 'job_0000000000000006', lat: 48.7758, lng: 9.1829, city: 'Stuttgart', district: null }),
      ],
    });
    const { status, body } = await getJson(app, '/v1/jobs');
    assert.equal(status, 200);
    assert.deepEqual(
      body.data.map((j: { id: string }) => j.id),
      ['job_0000000000000002', 'job_0000000000000001'],
    );
    assert.deepEqual(
      { ...body, data: undefined },
      { data: undefined, total: 2, limit: 20, offset: 0, has_more: false },
    );
  });

  test('radius filters by great-circle distance and sort=distance orders by it', async (t) => {
    const { app, db } = await buildTestApp(t);
    await insert(db.kysely, {
      jobs: [
        jobFixture({ id: 'job_0000000000000001', ...AT.pforzheim }), // 25.12 km
        jobFixture({ id: 'job_0000000000000002', ...AT.durlach }), // 5.00 km
        jobFixture({ id: 'job_0000000000000003', ...AT.ettlingen }), // 7.22 km
        jobFixture({ id: 'job_0000000000000004', ...AT.innenstadtOst }), // 0.96 km
      ],
    });
    const near = await getJson(app, '/v1/jobs?radius=10&sort=distance');
    assert.deepEqual(
      near.body.data.map((j: any) => [j.id, j.location.distance_km]),
      [
        ['job_0000000000000004', 0.96],
        ['job_0000000000000002', 5],
        ['job_0000000000000003', 7.22],
      ],
    );
    assert.equal(near.body.total, 3);

    const fromPforzheim = await getJson(app, `/v1/jobs?lat=${AT.pforzheim.lat}&lng=${AT.pforzheim.lng}&radius=1`);
    assert.deepEqual(
      fromPforzheim.body.data.map((j: any) => [j.id, j.location.distance_km]),
      [['job_0000000000000001', 0]],
    );
  });

  test('filters: category (any case), budget, urgent, date in Europe/Berlin', async (t) => {
    const { app, db } = await buildTestApp(t);
    await insert(db.kysely, {
      jobs: [
        jobFixture({ id: 'job_0000000000000001', category: 'MOVING', price_cents: 12000, urgent: 1 }),
        jobFixture({ id: 'job_0000000000000002', category: 'MOVING', price_cents: 4000 }),
        jobFixture({ id: 'job_0000000000000003', category: 'TECH_REPAIR', price_cents: 9000 }),
        // 23:30 UTC on the 25th is 00:30 on the 26th in Karlsruhe.
        jobFixture({ id: 'job_0000000000000004', desired_at: '2026-11-25T23:30:00.000Z', desired_date: '2026-11-26' }),
      ],
    });
    const ids = async (query: string) =>
      (await getJson(app, `/v1/jobs?${query}`)).body.data.map((j: any) => j.id).sort();
    assert.deepEqual(await ids('category=moving'), ['job_0000000000000001', 'job_0000000000000002']);
    assert.deepEqual(await ids('category=Tech_Repair'), ['job_0000000000000003']);
    assert.deepEqual(await ids('budget_min=60&budget_max=120'), [
      'job_0000000000000001',
      'job_0000000000000003',
      'job_0000000000000004',
    ]);
    assert.deepEqual(await ids('budget_min=120'), ['job_0000000000000001']);
    assert.deepEqual(await ids('urgent=true'), ['job_0000000000000001']);
    assert.deepEqual(await ids('urgent=false'), [
      'job_0000000000000002',
      'job_0000000000000003',
      'job_0000000000000004',
    ]);
    assert.deepEqual(await ids('date=2026-11-26'), ['job_0000000000000004']);
    assert.deepEqual(await ids('date=2026-11-25'), [
      'job_0000000000000001',
      'job_0000000000000002',
      'job_0000000000000003',
    ]);
  });

  test('budget bounds are inclusive and never widened by rounding', async (t) => {
    const { app, db } = await buildTestApp(t);
    await insert(db.kysely, { jobs: [jobFixture({ id: 'job_0000000000000001', price_cents: 6000 })] });
    const total = async (query: string) => (await getJson(app, `/v1/jobs?${query}`)).body.total;
    assert.equal(await total('budget_min=60&budget_max=60'), 1);
    assert.equal(await total('budget_min=60.004'), 0);
    assert.equal(await total('budget_max=59.996'), 0);
    assert.equal(await total('budget_min=59.999&budget_max=60.001'), 1);
  });

  test('sorts by price both ways, ties broken by id', async (t) => {
    const { app, db } = await buildTestApp(t);
    await insert(db.kysely, {
      jobs: [
        jobFixture({ id: 'job_0000000000000003', price_cents: 5000 }),
        jobFixture({ id: 'job_0000000000000001', price_cents: 9000 }),
        jobFixture({ id: 'job_0000000000000002', price_cents: 5000 }),
      ],
    });
    const order = async (sort: string) => (await getJson(app, `/v1/jobs?sort=${sort}`)).body.data.map((j: any) => j.id);
    assert.deepEqual(await order('price_asc'), [
      'job_0000000000000002',
      'job_0000000000000003',
      'job_0000000000000001',
    ]);
    assert.deepEqual(await order('price_desc'), [
      'job_0000000000000001',
      'job_0000000000000002',
      'job_0000000000000003',
    ]);
  });

  test('pages never overlap, total and has_more are exact, past the end is an empty page', async (t) => {
    const { app, db } = await buildTestApp(t);
    const jobs = Array.from({ length: 45 }, (_, i) =>
      jobFixture({ id: `job_${String(i).padStart(16, '0')}`, created_at: '2026-11-19T08:00:00.000Z' }),
    );
    await insert(db.kysely, { jobs });
    const seen: string[] = [];
    for (const offset of [0, 20, 40]) {
      const { body } = await getJson(app, `/v1/jobs?limit=20&offset=${offset}`);
      assert.equal(body.total, 45);
      assert.equal(body.has_more, offset + 20 < 45);
      seen.push(...body.data.map((j: any) => j.id));
    }
    assert.equal(seen.length, 45);
    assert.equal(new Set(seen).size, 45);
    const past = await getJson(app, '/v1/jobs?offset=45');
    assert.deepEqual(past.body, { data: [], total: 45, limit: 20, offset: 45, has_more: false });
  });
});

describe('GET /v1/jobs rejects bad input with a 400 ApiError naming the parameter', () => {
  const cases: [string, string, string][] = [
    ['limit=0', 'limit', 'parameter_out_of_range'],
    ['limit=101', 'limit', 'parameter_out_of_range'],
    ['limit=2.5', 'limit', 'invalid_parameter'],
    ['offset=-1', 'offset', 'parameter_out_of_range'],
    ['offset=10001', 'offset', 'parameter_out_of_range'],
    ['radius=51', 'radius', 'parameter_out_of_range'],
    ['radius=0', 'radius', 'parameter_out_of_range'],
    ['lat=91', 'lat', 'parameter_out_of_range'],
    ['lat=-90.5', 'lat', 'parameter_out_of_range'],
    ['lng=181', 'lng', 'parameter_out_of_range'],
    ['lat=abc', 'lat', 'invalid_parameter'],
    ['lat=NaN', 'lat', 'invalid_parameter'],
    ['lat=Infinity', 'lat', 'invalid_parameter'],
    ['lat=-Infinity', 'lat', 'invalid_parameter'],
    ['limit=1e309', 'limit', 'invalid_parameter'],
    ['radius=0x10', 'radius', 'invalid_parameter'],
    ['budget_min=-5', 'budget_min', 'parameter_out_of_range'],
    ['budget_min=50&budget_max=10', 'budget_min', 'conflicting_parameters'],
    ['date=2026-13-01', 'date', 'invalid_parameter'],
    ['date=2026-02-29', 'date', 'invalid_parameter'],
    ['date=20.11.2026', 'date', 'invalid_parameter'],
    ['urgent=maybe', 'urgent', 'invalid_parameter'],
    ['sort=cheapest', 'sort', 'invalid_enum_value'],
    ['category=PLUMBING', 'category', 'invalid_enum_value'],
    ['catgory=GARDENING', 'catgory', 'unknown_parameter'],
    ['limit=5&limit=6', 'limit', 'duplicate_parameter'],
    ['limit=', 'limit', 'invalid_parameter'],
  ];
  for (const [query, param, code] of cases) {
    test(`${query} -> ${code}`, async (t) => {
      const { app } = await buildTestApp(t);
      const { status, body } = await getJson(app, `/v1/jobs?${query}`);
      assert.equal(status, 400);
      assert.equal(body.error, code);
      assert.equal(body.param, param);
      assert.equal(typeof body.message, 'string');
      assert.ok(body.suggestion.length > 10, body.suggestion);
      assert.equal(body.alternatives_count, body.alternatives.length);
      assert.deepEqual(Object.keys(body), [
        'error',
        'message',
        'param',
        'suggestion',
        'alternatives',
        'alternatives_count',
      ]);
    });
  }

  test('limit=101 says the allowed range and the default', async (t) => {
    const { app } = await buildTestApp(t);
    const { body } = await getJson(app, '/v1/jobs?limit=101');
    assert.deepEqual(body, {
      error: 'parameter_out_of_range',
      message: 'limit must be a whole number from 1 to 100; got 101.',
      param: 'limit',
      suggestion: 'Send limit as a whole number from 1 to 100 or omit it to use the default 20.',
      alternatives: [],
      alternatives_count: 0,
    });
  });

  test('a misspelt parameter gets a did-you-mean', async (t) => {
    const { app } = await buildTestApp(t);
    const { body } = await getJson(app, '/v1/jobs?catgory=GARDENING');
    assert.deepEqual(body, {
      error: 'unknown_parameter',
      message: "Unknown query parameter 'catgory'.",
      param: 'catgory',
      suggestion: "Did you mean 'category'?",
      alternatives: ['category'],
      alternatives_count: 1,
    });
  });

  test('a wrong category lists the valid values', async (t) => {
    const { app } = await buildTestApp(t);
    const { body } = await getJson(app, '/v1/jobs?category=GARDNING');
    assert.equal(body.suggestion, 'Did you mean category=GARDENING?');
    assert.deepEqual(body.alternatives, [
      'GARDENING',
      'CLEANING',
      'MOVING',
      'TECH_REPAIR',
      'CHILDCARE',
      'PETCARE',
      'SHOPPING',
      'EVENTS',
      'BORROWING',
      'OTHER',
    ]);
    assert.equal(body.alternatives_count, 10);
  });
});
