import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { JobSchema } from '../../src/schemas/jobs.js';
import { ListingSchema } from '../../src/schemas/listings.js';
import { buildTestApp, getJson } from '../helpers/app.js';
import { helperFixture, insert, jobFixture, listingFixture, ownerFixture } from '../helpers/fixtures.js';

/** Every read endpoint, as its real path and query; the sandbox serves each under /v1/demo. */
const READS = [
  '/jobs?limit=5',
  '/listings?limit=5',
  '/categories?lang=de',
  '/estimate?category=GARDENING&duration_hours=3&helpers=2&lat=48.9921&lng=8.4684',
  '/helpers/availability?category=Garten',
  '/stats',
];

/**
 * Whether two bodies have the same shape: the same keys at every level and the same JSON types.
 * A null matches anything (nullable fields), arrays compare their first items when both have one.
 */
function shapeDifferences(real: unknown, demo: unknown, path = '$'): string[] {
  if (real === null || demo === null) return [];
  if (Array.isArray(real) || Array.isArray(demo)) {
    if (!Array.isArray(real) || !Array.isArray(demo)) return [`${path}: array in one body only`];
    return real.length > 0 && demo.length > 0 ? shapeDifferences(real[0], demo[0], `${path}[0]`) : [];
  }
  if (typeof real !== typeof demo) return [`${path}: ${typeof real} vs ${typeof demo}`];
  if (typeof real !== 'object') return [];
  const a = real as Record<string, unknown>;
  const b = demo as Record<string, unknown>;
  if (Object.keys(a).join() !== Object.keys(b).join()) {
    return [`${path}: keys ${Object.keys(a).join()} vs ${Object.keys(b).join()}`];
  }
  return Object.keys(a).flatMap((key) => shapeDifferences(a[key], b[key], `${path}.${key}`));
}

/** Real rows in every table, so each real endpoint answers with items to compare. */
async function withRealData(t: Parameters<typeof buildTestApp>[0]) {
  const built = await buildTestApp(t);
  const owner = ownerFixture({ id: 'own_00000000000000a1' });
  await insert(built.db.kysely, {
    jobs: [
      jobFixture({ id: 'job_00000000000000a1' }),
      jobFixture({ id: 'job_00000000000000a2', status: 'completed', completed_at: '2026-11-10T12:00:00.000Z' }),
    ],
    owners: [owner],
    listings: [listingFixture(owner.id, { id: 'lst_00000000000000a1' })],
    helpers: [helperFixture(['GARDENING'], { id: 'hlp_00000000000000a1' })],
  });
  return built;
}

describe('GET /v1/demo/*: the sandbox mirrors every read endpoint', () => {
  test('each answers 200 with the shape of its real twin', async (t) => {
    const { app } = await withRealData(t);
    for (const read of READS) {
      const real = await getJson(app, `/v1${read}`);
      const demo = await getJson(app, `/v1/demo${read}`);
      assert.equal(real.status, 200, read);
      assert.equal(demo.status, 200, read);
      assert.deepEqual(shapeDifferences(real.body, demo.body), [], read);
    }
  });

  test('jobs and listings are the API objects, each by id too', async (t) => {
    const { app } = await buildTestApp(t);
    const jobs = await getJson(app, '/v1/demo/jobs?limit=3');
    const listings = await getJson(app, '/v1/demo/listings?limit=3');
    assert.equal(jobs.body.data.length, 3);
    assert.equal(listings.body.data.length, 3);
    for (const job of jobs.body.data) {
      // Every field but `cancellation`, which only a cancellation's answer carries.
      assert.deepEqual(
        Object.keys(job),
        Object.keys(JobSchema.properties).filter((key) => key !== 'cancellation'),
      );
      const byId = await getJson(app, `/v1/demo/jobs/${job.id}`);
      assert.deepEqual({ status: byId.status, body: byId.body }, { status: 200, body: job });
    }
    for (const listing of listings.body.data) {
      assert.deepEqual(Object.keys(listing), Object.keys(ListingSchema.properties));
      const byId = await getJson(app, `/v1/demo/listings/${listing.id}`);
      assert.deepEqual({ status: byId.status, body: byId.body }, { status: 200, body: listing });
    }
  });

  test('the data is recognisably fake: demo_ ids, "[Demo] " titles, "Demo " names', async (t) => {
    const { app } = await buildTestApp(t);
    const jobs = (await getJson(app, '/v1/demo/jobs?limit=100')).body;
    const listings = (await getJson(app, '/v1/demo/listings?limit=100')).body;
    const helpers = (await getJson(app, '/v1/demo/helpers/availability')).body;
    assert.equal(jobs.data.length, 100);
    assert.equal(listings.data.length, 100);
    assert.ok(helpers.top_helpers.length > 0);
    const unmarked = [
      ...jobs.data.filter((j: any) => !/^demo_job_[0-9a-f]{16}$/.test(j.id) || !j.title.startsWith('[Demo] ')),
      ...listings.data.filter((l: any) => !/^demo_lst_[0-9a-f]{16}$/.test(l.id) || !l.title.startsWith('[Demo] ')),
      ...helpers.top_helpers.filter((h: any) => !/^demo_hlp_/.test(h.id) || !h.display_name.startsWith('Demo ')),
    ];
    assert.deepEqual(unmarked, []);
  });

  test('a small fixed dataset: the same on every start on the same day', async (t) => {
    const first = await buildTestApp(t);
    const second = await buildTestApp(t);
    const page = async (app: typeof first.app) => (await getJson(app, '/v1/demo/jobs?limit=100&sort=price_asc')).body;
    assert.deepEqual(await page(second.app), await page(first.app));
    const { totals } = (await getJson(first.app, '/v1/demo/stats')).body;
    assert.equal(totals.open_jobs, 300);
    assert.equal(totals.helpers, 80);
    assert.equal(totals.completed_jobs, 300);
  });

  test('responses are counted in the sandbox tier, with its own budget', async (t) => {
    const { app } = await buildTestApp(t, undefined, { RATE_LIMIT_SANDBOX_PER_MIN: '7' });
    for (const read of READS) {
      const { headers } = await getJson(app, `/v1/demo${read}`);
      assert.match(String(headers['ratelimit-policy']), /^"sandbox";q=7;w=60$/, read);
    }
    const real = await getJson(app, '/v1/jobs');
    assert.match(String(real.headers['ratelimit-policy']), /^"anonymous";/);
  });
});

describe('the sandbox and the real API never share data', () => {
  test('a demo id is not found in the real API', async (t) => {
    const { app } = await withRealData(t);
    const job = (await getJson(app, '/v1/demo/jobs?limit=1')).body.data[0];
    const listing = (await getJson(app, '/v1/demo/listings?limit=1')).body.data[0];
    const realJob = await getJson(app, `/v1/jobs/${job.id}`);
    assert.equal(realJob.status, 404);
    assert.equal(realJob.body.error, 'not_found');
    assert.deepEqual(realJob.body.alternatives, [
      { id: 'job_00000000000000a1', title: 'Hecke schneiden in Durlach', url: '/v1/jobs/job_00000000000000a1' },
    ]);
    const realListing = await getJson(app, `/v1/listings/${listing.id}`);
    assert.equal(realListing.status, 404);
    assert.equal(realListing.body.error, 'not_found');
  });

  test('a real id is not found in the sandbox, whose advice points at sandbox paths', async (t) => {
    const { app } = await withRealData(t);
    assert.equal((await getJson(app, '/v1/jobs/job_00000000000000a1')).status, 200);
    const job = await getJson(app, '/v1/demo/jobs/job_00000000000000a1');
    assert.equal(job.status, 404);
    assert.deepEqual(
      { ...job.body, alternatives: undefined },
      {
        error: 'not_found',
        message: "No job has the id 'job_00000000000000a1'.",
        param: 'id',
        suggestion:
          'Check the id (job ids start with demo_job_), or find jobs with GET /v1/demo/jobs. Open jobs with similar ids are listed in alternatives.',
        alternatives: undefined,
        alternatives_count: 3,
      },
    );
    for (const alternative of job.body.alternatives) {
      assert.match(alternative.id, /^demo_job_/);
      assert.equal(alternative.url, `/v1/demo/jobs/${alternative.id}`);
    }

    const listing = await getJson(app, '/v1/demo/listings/lst_00000000000000a1');
    assert.equal(listing.status, 404);
    assert.equal(
      listing.body.suggestion,
      'Check the id (listing ids start with demo_lst_), or find listings with GET /v1/demo/listings. Available listings with similar ids are listed in alternatives.',
    );
    assert.equal(listing.body.alternatives.length, 3);
    for (const alternative of listing.body.alternatives) {
      assert.equal(alternative.url, `/v1/demo/listings/${alternative.id}`);
    }
  });

  test('inserting real data changes the real figures and leaves the demo ones alone', async (t) => {
    const { app, db } = await buildTestApp(t);
    const figures = async (base: string) => ({
      jobs: (await getJson(app, `${base}/jobs`)).body.total,
      stats: (await getJson(app, `${base}/stats`)).body.totals,
      estimate: (await getJson(app, `${base}/estimate?category=GARDENING`)).body,
    });
    const demoBefore = await figures('/v1/demo');
    const realBefore = await figures('/v1');
    assert.equal(realBefore.jobs, 0);
    assert.ok(demoBefore.jobs > 0);

    await insert(db.kysely, { jobs: [jobFixture({ id: 'job_00000000000000b1' })] });

    assert.deepEqual(await figures('/v1/demo'), demoBefore);
    const realAfter = await figures('/v1');
    assert.equal(realAfter.jobs, 1);
    assert.equal(realAfter.stats.open_jobs, realBefore.stats.open_jobs + 1);
    assert.equal((await getJson(app, '/v1/demo/jobs/job_00000000000000b1')).status, 404);
  });
});

describe('the sandbox validates like the real API', () => {
  const cases = [
    '/jobs?limit=0',
    '/jobs?sort=cheapest',
    '/jobs?catgory=GARDENING',
    '/jobs?budget_min=50&budget_max=10',
    '/jobs?limit=5&limit=6',
    `/jobs/${'x'.repeat(65)}`,
    '/jobs/job_1?lang=de',
    '/listings?condition=broken',
    '/listings?radius=51',
    '/categories?lang=fr',
    '/estimate',
    '/estimate?category=GARDENING&hours=2&duration_hours=3',
    '/estimate?category=GARDENING&lat=49',
    '/helpers/availability?radius=0',
    '/stats?verbose=1',
  ];
  for (const query of cases) {
    test(`${query}: the same 400 ApiError`, async (t) => {
      const { app } = await buildTestApp(t);
      const real = await getJson(app, `/v1${query}`);
      const demo = await getJson(app, `/v1/demo${query}`);
      assert.equal(real.status, 400);
      assert.deepEqual({ status: demo.status, body: demo.body }, { status: 400, body: real.body });
    });
  }

  test('an unknown sandbox path is a 404 listing only the real endpoints', async (t) => {
    const { app } = await buildTestApp(t);
    const { status, body } = await getJson(app, '/v1/demo/nothing');
    assert.equal(status, 404);
    assert.equal(body.error, 'route_not_found');
    assert.ok(body.alternatives.includes('GET /v1/jobs'));
    assert.deepEqual(
      body.alternatives.filter((a: string) => a.includes('/v1/demo')),
      [],
    );
  });
});
