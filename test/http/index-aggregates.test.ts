/**
 * /v1/stats and /v1/categories read the open jobs and available listings from the search index,
 * which follows writes (src/search/index-aggregates.ts): the answers are byte for byte those of the
 * full recomputation in SQL, on a seeded dataset with rows at the edges and after rounds of random
 * writes, with deadlines passing between two moments.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildApp } from '../../src/app.js';
import { testConfig } from '../../src/config.js';
import { SearchIndexes } from '../../src/search/search-indexes.js';
import { seedDatabase } from '../../src/seed/seed-database.js';
import { buildTestApp, NOW } from '../helpers/app.js';
import { insert, jobFixture, listingFixture, ownerFixture } from '../helpers/fixtures.js';
import { seeded } from '../helpers/random.js';
import { randomWrites } from '../helpers/random-writes.js';

const PLAIN = { RATE_LIMIT_ANONYMOUS_PER_MIN: '1000000', RESPONSE_CACHE_MS: '0' };
const URLS = [
  '/v1/stats',
  '/v1/categories',
  '/v1/categories?lang=de',
  '/v1/categories?type=service',
  '/v1/categories?type=borrowing&lang=de',
];

test('stats and categories from the index equal the full recomputation, before and after random writes', async (t) => {
  const { db } = await buildTestApp(t, NOW, { ...PLAIN, SEARCH_INDEX: 'false' });
  await seedDatabase(db.kysely, { seed: 9, jobs: 700, listings: 400, helpers: 40, completedJobs: 120, anchor: NOW });
  const owner = ownerFixture();
  await insert(db.kysely, {
    jobs: [
      // Deadlines at the edges of "open", prices tying, an hourly rate from a fraction of an hour.
      jobFixture({ deadline: NOW.toISOString() }),
      jobFixture({ deadline: new Date(NOW.getTime() + 1).toISOString() }),
      jobFixture({ deadline: new Date(NOW.getTime() + 60_000).toISOString(), duration_hours: 1.3, helpers_needed: 3 }),
      jobFixture({ deadline: null, price_cents: 1, urgent: 1 }),
      jobFixture({ status: 'completed', duration_hours: 0.25, helpers_needed: 4, price_cents: 777 }),
    ],
    owners: [owner],
    listings: [
      listingFixture(owner.id, { price_per_week_cents: null }),
      listingFixture(owner.id, { instant_booking: 1, deposit_cents: 0 }),
    ],
  });
  const indexes = new SearchIndexes(db, { minGapMs: 3_600_000 });
  t.after(() => indexes.close());
  await indexes.refresh();
  // Two moments: now, and a minute later (the job whose deadline is a minute ahead is then expired).
  const later = new Date(NOW.getTime() + 60_000);
  const apps = await Promise.all(
    [NOW, later].flatMap((at) => [
      buildApp(testConfig({ ...PLAIN, SEARCH_INDEX: 'false' }), { db, now: () => at }),
      buildApp(testConfig(PLAIN), { db, now: () => at, searchIndexes: indexes }),
    ]),
  );
  t.after(() => Promise.all(apps.map((app) => app.close())));

  const compare = async (round: number) => {
    for (let i = 0; i < apps.length; i += 2) {
      const [plain, indexed] = [apps[i], apps[i + 1]];
      for (const url of URLS) {
        const hits = indexes.counts.hits;
        const [a, b] = [await plain?.inject({ url }), await indexed?.inject({ url })];
        assert.equal(a?.statusCode, 200, url);
        assert.equal(indexes.counts.hits, hits + 1, `${url}: read from the index`);
        assert.equal(b?.body, a?.body, `round ${round}, ${i === 0 ? 'now' : 'a minute later'}, ${url}`);
      }
    }
  };
  await compare(0);
  const stats = (await apps[1]?.inject({ url: '/v1/stats' }))?.json() as { totals: { open_jobs: number } };
  assert.ok(stats.totals.open_jobs > 600, 'the figures count what was seeded');
  const g = seeded(21);
  for (let round = 1; round <= 3; round++) {
    await randomWrites(db.kysely, g, round);
    await compare(round);
  }
  assert.equal(indexes.counts.builds, 1, 'the index followed the writes');

  // Figures found inconsistent (a removal of a value they never held, as a bug would make): the
  // answer comes from SQL, unchanged, and the indexes are let go (the next read misses them).
  const snapshot = await indexes.follow();
  snapshot?.jobs.figuresAt(NOW).openPrice.remove(0, 123_456_789);
  const [plain, indexed] = [await apps[0]?.inject({ url: '/v1/stats' }), await apps[1]?.inject({ url: '/v1/stats' })];
  assert.equal(indexed?.statusCode, 200);
  assert.equal(indexed?.body, plain?.body, 'answered from SQL');
  const misses = indexes.counts.misses;
  await apps[1]?.inject({ url: '/v1/categories' });
  assert.equal(indexes.counts.misses, misses + 1, 'the inconsistent indexes were let go');
});
