/**
 * The in-memory search index (src/search/) changes nothing but the speed: the same random job and
 * listing searches get byte-identical answers from an app whose index answers and from one that
 * asks SQL, on one database; a write is in the very next search; data the index cannot mirror
 * leaves every search to SQL.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildApp } from '../../src/app.js';
import { testConfig } from '../../src/config.js';
import { pruneSearchChanges } from '../../src/repositories/search-changes.js';
import { SearchIndexes } from '../../src/search/search-indexes.js';
import { seedDatabase } from '../../src/seed/seed-database.js';
import { buildTestApp, NOW } from '../helpers/app.js';
import { TEST_ENGINE } from '../helpers/database.js';
import { AT, insert, jobFixture, listingFixture, ownerFixture } from '../helpers/fixtures.js';
import { seeded } from '../helpers/random.js';
import { randomWrites } from '../helpers/random-writes.js';

const PLAIN = {
  RATE_LIMIT_ANONYMOUS_PER_MIN: '1000000',
  RESPONSE_CACHE_MS: '0',
};

const CATEGORIES = ['gardening', 'cleaning', 'moving', 'tech_repair', 'childcare', 'petcare', 'events', 'borrowing'];

/** Search areas from the ordinary to the odd: tiny and whole radii, exact places, poles, the antimeridian, subnormals. */
function area(g: ReturnType<typeof seeded>): string {
  const r = g.next();
  const radius = g.pick(['0.01', '1', '3.7', '10', '25', '50', '50', String(1 + Math.floor(g.next() * 50))]);
  if (r < 0.08) return `lat=${AT.durlach.lat}&lng=${AT.durlach.lng}&radius=${radius}`;
  if (r < 0.1) return `lat=89.99&lng=${g.pick(['0', '8.4', '-179.9'])}&radius=50`;
  if (r < 0.12) return `lat=49&lng=${g.pick(['179.99', '-180'])}&radius=50`;
  if (r < 0.14) return `lat=-5e-324&lng=5e-324&radius=${radius}`;
  if (r < 0.2) return `radius=${radius}`;
  return `lat=${(48.75 + g.next() * 0.5).toFixed(g.pick([2, 4, 5]))}&lng=${(8.1 + g.next() * 0.7).toFixed(4)}&radius=${radius}`;
}

/** Words as people type them (issue 18): whole, inflected, folded, parts, typos, prefixes, places. */
const WORDS = [
  'bohrmaschine',
  'Rasen',
  'mähen',
  'maeher',
  'Fahrräder',
  'Umzug',
  'Bohrm',
  'Hund',
  'Zelt',
  'Reinigung',
  'Durlach',
  'hilfe',
  'Kinder',
  'Bohrmaschiene',
  'gardening',
  'in',
  'xyzzy',
];

/** A q of one to three words, or none; with q the sort may be relevance. */
function words(g: ReturnType<typeof seeded>): { q: string; sorts: string[] } {
  if (!g.maybe(0.35)) return { q: '', sorts: [] };
  const n = g.maybe(0.7) ? 1 : 2;
  const q = Array.from({ length: n }, () => g.pick(WORDS)).join(' ');
  return { q: `&q=${encodeURIComponent(q)}`, sorts: ['relevance', 'relevance', ''] };
}

function page(g: ReturnType<typeof seeded>, extraSorts: string[] = []): string {
  const limit = g.pick(['', '&limit=1', '&limit=20', '&limit=100', `&limit=${1 + Math.floor(g.next() * 100)}`]);
  const offset = g.pick([
    '',
    '',
    '',
    '&offset=0',
    '&offset=7',
    '&offset=40',
    '&offset=150',
    '&offset=900',
    '&offset=10000',
  ]);
  const sort = g.pick(['newest', 'price_asc', 'price_desc', 'distance', ...extraSorts]);
  return `${limit}${offset}${sort ? `&sort=${sort}` : ''}`;
}

function jobSearches(count: number, seed: number, dates: readonly string[]): string[] {
  const g = seeded(seed);
  return Array.from({ length: count }, () => {
    let q = `/v1/jobs?${area(g)}`;
    if (g.maybe(0.5)) q += `&category=${g.pick(CATEGORIES)}`;
    if (g.maybe(0.3)) q += `&budget_min=${g.pick(['0', '30', '60', String(Math.floor(g.next() * 300))])}`;
    if (g.maybe(0.3)) q += `&budget_max=${g.pick(['60', '150', '999', String(60 + Math.floor(g.next() * 400))])}`;
    if (g.maybe(0.2)) q += `&urgent=${g.pick(['true', 'false'])}`;
    if (g.maybe(0.2)) q += `&date=${g.pick(dates)}`;
    const text = words(g);
    return q + text.q + page(g, text.sorts);
  });
}

function listingSearches(count: number, seed: number): string[] {
  const g = seeded(seed);
  return Array.from({ length: count }, () => {
    let q = `/v1/listings?${area(g)}`;
    if (g.maybe(0.5)) q += `&category=${g.pick(CATEGORIES)}`;
    if (g.maybe(0.3)) q += `&price_max=${g.pick(['5', '12.5', '40', String(Math.floor(g.next() * 60))])}`;
    if (g.maybe(0.3)) q += `&condition=${g.pick(['new', 'like_new', 'good', 'fair'])}`;
    if (g.maybe(0.2)) q += `&instant_booking=${g.pick(['true', 'false'])}`;
    const text = words(g);
    return q + text.q + page(g, text.sorts);
  });
}

/** Rows at the edges of what the index decides: deadlines at now, equal keys, shared coordinates. */
async function edgeRows(db: Parameters<typeof insert>[0]): Promise<void> {
  const owner = ownerFixture();
  await insert(db, {
    jobs: [
      jobFixture({ deadline: NOW.toISOString() }),
      jobFixture({ deadline: new Date(NOW.getTime() + 1).toISOString() }),
      jobFixture({ deadline: new Date(NOW.getTime() - 1).toISOString() }),
      jobFixture({ deadline: null, desired_at: null, desired_date: null }),
      ...Array.from({ length: 30 }, (_, i) =>
        jobFixture({
          ...AT.durlach,
          price_cents: 6000,
          created_at: '2026-11-18T10:00:00.000Z',
          urgent: i % 2 === 0 ? 0 : 1,
        }),
      ),
      jobFixture({ ...AT.innenstadtOst, status: 'assigned' }),
      jobFixture({ lat: 89.995, lng: 100, city: 'Nordpol', district: null, plz: '00000' }),
      jobFixture({ lat: 49, lng: 179.999, city: 'Antimeridian', district: null, plz: '00000' }),
    ],
    owners: [owner],
    listings: [
      ...Array.from({ length: 20 }, () => listingFixture(owner.id, { ...AT.ettlingen, price_per_day_cents: 800 })),
      listingFixture(owner.id, { status: 'paused' }),
    ],
  });
}

describe('the search index', () => {
  test('answers the same random searches byte for byte as SQL does', async (t) => {
    const { app: plain, db } = await buildTestApp(t, NOW, { ...PLAIN, SEARCH_INDEX: 'false' });
    await seedDatabase(db.kysely, { seed: 5, jobs: 1500, listings: 900, helpers: 60, completedJobs: 100, anchor: NOW });
    await edgeRows(db.kysely);
    const indexes = new SearchIndexes(db, { minGapMs: 3_600_000 });
    t.after(() => indexes.close());
    const snapshot = await indexes.refresh();
    assert.ok(
      snapshot && snapshot.jobs.size > 1500 && snapshot.listings.size > 700,
      `the index holds the data: ${snapshot?.jobs.size} jobs, ${snapshot?.listings.size} listings`,
    );
    const indexed = await buildApp(testConfig(PLAIN), { db, now: () => NOW, searchIndexes: indexes });
    t.after(() => indexed.close());

    const dates = (
      await db.kysely.selectFrom('jobs').select('desired_date').distinct().orderBy('desired_date').execute()
    )
      .map((r) => r.desired_date)
      .filter((d): d is string => d !== null)
      .slice(0, 12);
    const urls = [...jobSearches(600, 3, dates), ...listingSearches(400, 4)];
    const seen = { results: 0, empty: 0, withWords: 0, wordResults: 0 };
    let answeredByIndex = 0;
    for (const url of urls) {
      // On PostgreSQL the data version is the cluster's: other databases' writes (parallel test
      // files) end a snapshot's use too. A search that went to SQL for that is asked again after a
      // rebuild, so every search is compared as the index answers it.
      let fromIndex = await indexed.inject({ url });
      for (
        let tries = 0;
        tries < 5 && indexes.counts.hits === answeredByIndex && fromIndex.statusCode === 200;
        tries++
      ) {
        await indexes.refresh();
        fromIndex = await indexed.inject({ url });
      }
      if (fromIndex.statusCode === 200) answeredByIndex++;
      assert.equal(indexes.counts.hits, answeredByIndex, `${url}: answered by the index`);
      const fromSql = await plain.inject({ url });
      assert.equal(fromIndex.statusCode, fromSql.statusCode, url);
      assert.equal(fromIndex.body, fromSql.body, `${url}: the index and SQL agree`);
      if (fromIndex.statusCode === 200) {
        const body = fromIndex.json() as { data: unknown[]; total: number };
        if (body.data.length > 0) seen.results++;
        else seen.empty++;
        if (url.includes('&q=')) {
          seen.withWords++;
          if (body.data.length > 0) seen.wordResults++;
        }
      }
    }
    assert.equal(answeredByIndex, seen.results + seen.empty, 'every valid search was answered by the index');
    if (TEST_ENGINE === 'sqlite') assert.equal(indexes.counts.misses, 0, 'on SQLite no search missed the index');
    assert.ok(
      seen.results > 250 && seen.empty > 50 && seen.wordResults > 25,
      `pages with results and empty ones: ${JSON.stringify(seen)}`,
    );
  });

  test('answers exactly as SQL while writes come between the searches, following them without a rebuild', async (t) => {
    const { app: plain, db } = await buildTestApp(t, NOW, { ...PLAIN, SEARCH_INDEX: 'false' });
    await seedDatabase(db.kysely, { seed: 7, jobs: 600, listings: 400, helpers: 30, completedJobs: 40, anchor: NOW });
    await edgeRows(db.kysely);
    const indexes = new SearchIndexes(db, { minGapMs: 3_600_000 });
    t.after(() => indexes.close());
    await indexes.refresh();
    const indexed = await buildApp(testConfig(PLAIN), { db, now: () => NOW, searchIndexes: indexes });
    t.after(() => indexed.close());
    const g = seeded(11);
    const dates = ['2026-11-25', '2026-11-26', '2026-11-28'];
    let compared = 0;
    for (let round = 0; round < 4; round++) {
      await randomWrites(db.kysely, g, round);
      for (const url of [...jobSearches(90, 100 + round, dates), ...listingSearches(60, 200 + round)]) {
        const fromIndex = await indexed.inject({ url });
        const fromSql = await plain.inject({ url });
        assert.equal(fromIndex.statusCode, fromSql.statusCode, url);
        assert.equal(fromIndex.body, fromSql.body, `round ${round}, ${url}: the index and SQL agree`);
        compared++;
      }
    }
    const snapshot = await indexes.follow();
    assert.equal(indexes.counts.builds, 1, 'followed, never rebuilt');
    assert.equal(indexes.counts.misses, 0, 'every search answered by the index');
    assert.ok(indexes.counts.follows >= 4 && indexes.counts.followedRows > 200, JSON.stringify(indexes.counts));
    assert.ok(snapshot && snapshot.jobs.appended > 50 && snapshot.listings.appended > 20, 'points were appended');
    assert.equal(compared, 600);
  });

  test('more changes than the room kept for them, or a pruned log: rebuilt, SQL meanwhile', async (t) => {
    const { app: plain, db } = await buildTestApp(t, NOW, { ...PLAIN, SEARCH_INDEX: 'false' });
    await seedDatabase(db.kysely, { seed: 8, jobs: 100, listings: 50, helpers: 10, completedJobs: 10, anchor: NOW });
    const indexes = new SearchIndexes(db, { minGapMs: 3_600_000 });
    t.after(() => indexes.close());
    const snapshot = await indexes.refresh();
    const indexed = await buildApp(testConfig(PLAIN), { db, now: () => NOW, searchIndexes: indexes });
    t.after(() => indexed.close());
    const url = `/v1/jobs?lat=${AT.durlach.lat}&lng=${AT.durlach.lng}&radius=5&sort=price_asc&limit=50`;

    // The room after the build is 4,096 points: 4,200 new jobs do not fit.
    assert.ok(snapshot && snapshot.jobs.size < 200);
    await insert(db.kysely, { jobs: Array.from({ length: 4_200 }, () => jobFixture({ price_cents: 100 })) });
    const misses = indexes.counts.misses;
    const full = await indexed.inject({ url });
    assert.equal(full.body, (await plain.inject({ url })).body);
    assert.equal(indexes.counts.misses, misses + 1, 'answered by SQL');
    const rebuilt = await indexes.refresh();
    assert.ok(rebuilt && rebuilt.jobs.size > 4_200);
    assert.equal((await indexed.inject({ url })).body, (await plain.inject({ url })).body);

    // A log pruned past the index: it cannot know what it missed.
    await insert(db.kysely, { jobs: [jobFixture({ price_cents: 50 })] });
    await pruneSearchChanges(db.kysely, new Date(Date.now() + 60_000));
    const pruned = await indexed.inject({ url });
    assert.equal(pruned.body, (await plain.inject({ url })).body);
    assert.equal(indexes.counts.misses, misses + 2, 'answered by SQL');
    await indexes.refresh();
    const hits = indexes.counts.hits;
    assert.equal((await indexed.inject({ url })).body, (await plain.inject({ url })).body);
    assert.equal(indexes.counts.hits, hits + 1);
  });

  test('a write is in the next search; the index follows it', async (t) => {
    const { app, db } = await buildTestApp(t, NOW, PLAIN);
    await seedDatabase(db.kysely, { seed: 6, jobs: 200, listings: 100, helpers: 20, completedJobs: 50, anchor: NOW });
    const indexes = new SearchIndexes(db, { minGapMs: 3_600_000 });
    t.after(() => indexes.close());
    await indexes.refresh();
    const indexed = await buildApp(testConfig(PLAIN), { db, now: () => NOW, searchIndexes: indexes });
    t.after(() => indexed.close());
    const url = `/v1/jobs?lat=${AT.pforzheim.lat}&lng=${AT.pforzheim.lng}&radius=0.01&sort=distance`;
    // Rebuilds until the index answers (on PostgreSQL other databases' writes move the version too).
    const fromIndex = async () => {
      for (let tries = 0; tries < 5; tries++) {
        await indexes.refresh();
        const hits = indexes.counts.hits;
        const response = await indexed.inject({ url });
        if (indexes.counts.hits > hits) return response;
      }
      throw new Error('the index never answered');
    };
    const before = (await fromIndex()).json() as { total: number };
    const builds = indexes.counts.builds;

    // Straight into the database, as another instance would write it.
    const job = jobFixture({ ...AT.pforzheim, title: 'Neu in Pforzheim' });
    await insert(db.kysely, { jobs: [job] });
    const hits = indexes.counts.hits;
    const response = await indexed.inject({ url });
    const after = response.json() as { total: number; data: { id: string }[] };
    assert.equal(after.total, before.total + 1, 'the new job is counted at once');
    assert.ok(after.data.some((j) => j.id === job.id));
    assert.equal(indexes.counts.hits, hits + 1, 'answered by the index, which followed the write');
    assert.equal(indexes.counts.builds, builds);
    assert.equal(response.body, (await app.inject({ url })).body);

    // Gone again (cancelled): gone from the next search too.
    await db.kysely.updateTable('jobs').set({ status: 'cancelled' }).where('id', '=', job.id).execute();
    const cancelled = (await indexed.inject({ url })).json() as { total: number };
    assert.equal(cancelled.total, before.total);
    assert.equal(indexes.counts.builds, builds);
  });

  test('a stored value the index cannot compare as SQL does leaves searches to SQL', async (t) => {
    const { db } = await buildTestApp(t, NOW, PLAIN);
    // Not as toISOString() writes it: its text order could differ from its time order.
    await insert(db.kysely, { jobs: [jobFixture({ created_at: '2026-11-18T10:00:00Z' }), jobFixture()] });
    const indexes = new SearchIndexes(db, { minGapMs: 0 });
    t.after(() => indexes.close());
    await assert.rejects(indexes.refresh(), /timestamp '2026-11-18T10:00:00Z'/);
    const app = await buildApp(testConfig(PLAIN), { db, now: () => NOW, searchIndexes: indexes });
    t.after(() => app.close());
    const body = (await app.inject({ url: '/v1/jobs' })).json() as { total: number };
    assert.equal(body.total, 2);
    assert.equal(indexes.counts.hits, 0);
  });
});
