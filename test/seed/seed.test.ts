import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Kysely, sql } from 'kysely';
import { createDb, type Db } from '../../src/db/create-db.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import type { Database, HelperRow, JobRow, ListingRow, OwnerRow } from '../../src/db/schema.js';
import { berlinDate, berlinWallClock } from '../../src/domain/berlin-time.js';
import { CATEGORIES, type Category } from '../../src/domain/categories.js';
import { type EtaHelper, smartEtaMinutes } from '../../src/domain/eta.js';
import { haversineKm } from '../../src/domain/geo.js';
import { PLACES } from '../../src/domain/places.js';
import { pricingConfidence, rateSample } from '../../src/domain/pricing.js';
import { reliabilityOf } from '../../src/domain/reliability.js';
import { TIME_PREFERENCES } from '../../src/domain/statuses.js';
import { hasMarketplaceData } from '../../src/repositories/dataset.js';
import { reliabilityFromRow } from '../../src/repositories/mappers.js';
import { helperHistory, ownerHistory } from '../../src/repositories/reliability-records.js';
import { DEFAULT_SEED_OPTIONS, type SeedOptions, seedDatabase } from '../../src/seed/seed-database.js';

/** Midnight in Karlsruhe at the start of Friday 20 November 2026 (23:00 UTC the day before). */
const ANCHOR = berlinWallClock('2026-11-20', 0);
const DEFAULTS: SeedOptions = { ...DEFAULT_SEED_OPTIONS, anchor: ANCHOR };
const KARLSRUHE = { lat: 49.0069, lng: 8.4037 };
const DAY_MS = 86_400_000;

/** Every table, each row in insertion order (rowid), all columns. */
const TABLES = [
  'jobs',
  'owners',
  'listings',
  'helpers',
  'helper_categories',
  'applications',
  'bookings',
  'reviews',
  'verifications',
  'meta',
] as const;
type Dump = Record<(typeof TABLES)[number], unknown[]>;

async function seeded(options: SeedOptions): Promise<Db> {
  const db = createDb('sqlite::memory:');
  await migrateToLatest(db);
  await seedDatabase(db.kysely, options);
  return db;
}

async function dump(db: Kysely<Database>): Promise<Dump> {
  const out: Partial<Dump> = {};
  for (const table of TABLES) {
    out[table] = (await sql`select * from ${sql.table(table)} order by rowid`.execute(db)).rows;
  }
  return out as Dump;
}

async function seededDump(options: SeedOptions): Promise<Dump> {
  const db = await seeded(options);
  try {
    return await dump(db.kysely);
  } finally {
    await db.close();
  }
}

const sorted = <T>(values: Iterable<T>): T[] => [...values].sort((a, b) => String(a).localeCompare(String(b)));

describe('seedDatabase: determinism', () => {
  test('the same options build identical rows in every table; another seed builds other data', async () => {
    const a = await seededDump(DEFAULTS);
    const b = await seededDump(DEFAULTS);
    assert.ok(a.jobs.length > 0);
    assert.deepEqual(b, a);

    const other = await seededDump({ ...DEFAULTS, seed: DEFAULTS.seed + 1 });
    for (const table of ['jobs', 'owners', 'listings', 'helpers', 'helper_categories'] as const) {
      assert.notDeepEqual(other[table], a[table], table);
    }
    const ids = (rows: unknown[]) => new Set(rows.map((r) => (r as { id: string }).id));
    const shared = [...ids(other.jobs)].filter((id) => ids(a.jobs).has(id));
    assert.deepEqual(shared, []);
  });

  test('changing only the listings count leaves jobs and helpers identical (separate streams)', async () => {
    const a = await seededDump(DEFAULTS);
    const fewerListings = await seededDump({ ...DEFAULTS, listings: 700 });
    assert.equal(fewerListings.listings.length, 700);
    assert.deepEqual(fewerListings.jobs, a.jobs);
    assert.deepEqual(fewerListings.helpers, a.helpers);
    assert.deepEqual(fewerListings.helper_categories, a.helper_categories);
    assert.notDeepEqual(fewerListings.listings, a.listings);
  });

  test('records the options it was built with in meta', async () => {
    const { meta } = await seededDump({ ...DEFAULTS, jobs: 10, listings: 5, helpers: 3, completedJobs: 7 });
    assert.deepEqual(meta, [
      {
        key: 'seed',
        value: JSON.stringify({
          seed: 20261120,
          jobs: 10,
          listings: 5,
          helpers: 3,
          completedJobs: 7,
          anchor: '2026-11-19T23:00:00.000Z',
        }),
      },
    ]);
  });
});

describe('seedDatabase with DEFAULT_SEED_OPTIONS', () => {
  let db: Db;
  let jobs: JobRow[];
  let open: JobRow[];
  let listings: ListingRow[];
  let helpers: HelperRow[];
  let owners: OwnerRow[];

  before(async () => {
    db = await seeded(DEFAULTS);
    jobs = await db.kysely.selectFrom('jobs').selectAll().orderBy('id').execute();
    open = jobs.filter((j) => j.status === 'open');
    listings = await db.kysely.selectFrom('listings').selectAll().orderBy('id').execute();
    helpers = await db.kysely.selectFrom('helpers').selectAll().orderBy('id').execute();
    owners = await db.kysely.selectFrom('owners').selectAll().orderBy('id').execute();
  });
  after(() => db?.close());

  test('size: 2,000 open jobs (all still open at the anchor), 1,500 listings, 400 helpers', () => {
    const anchor = ANCHOR.toISOString();
    assert.deepEqual(
      {
        open: open.length,
        openAtAnchor: open.filter((j) => j.deadline === null || j.deadline > anchor).length,
        listings: listings.length,
        helpers: helpers.length,
      },
      { open: 2000, openAtAnchor: 2000, listings: 1500, helpers: 400 },
    );
  });

  test('completed jobs exist for every category; all 10 categories appear in open jobs and listings', () => {
    const completed = jobs.filter((j) => j.status === 'completed');
    assert.deepEqual(
      CATEGORIES.filter((c) => completed.filter((j) => j.category === c).length < 20),
      [],
    );
    assert.deepEqual(sorted(new Set(open.map((j) => j.category))), sorted(CATEGORIES));
    assert.deepEqual(sorted(new Set(listings.map((l) => l.category))), sorted(CATEGORIES));
  });

  // SeedOptions.completedJobs reads "Completed jobs (plus about 8 % cancelled ones)", like `jobs` is the exact
  // number of open jobs, and the seed CLI prints "<C> completed jobs". The seed draws 1.08 x C history jobs and
  // cancels each with probability 1/13.5, so the completed count only matches C on average (1,494 here).
  test('completedJobs is the number of completed jobs (as the seed CLI reports it)', () => {
    assert.equal(jobs.filter((j) => j.status === 'completed').length, DEFAULT_SEED_OPTIONS.completedJobs);
  });

  test('every job, listing and helper lies within 50 km of Karlsruhe, near a place from the CSV, shown 200-500 m off', () => {
    const places = new Map(PLACES.map((p) => [`${p.city}|${p.plz}|${p.district ?? ''}`, p]));
    const misplaced: string[] = [];
    for (const row of [...jobs, ...listings, ...helpers]) {
      const place = places.get(`${row.city}|${row.plz}|${row.district ?? ''}`);
      const exact = { lat: row.exact_lat, lng: row.exact_lng };
      if (haversineKm(KARLSRUHE, exact) > 50)
        misplaced.push(`${row.id}: ${haversineKm(KARLSRUHE, exact)} km from centre`);
      if (!place) misplaced.push(`${row.id}: unknown place ${row.city} ${row.plz} ${row.district}`);
      else if (haversineKm(place, exact) > 10)
        misplaced.push(`${row.id}: ${haversineKm(place, exact)} km from its place`);
      // The shown point (lat/lng) lies 200 to 500 m from the place (4 decimals: a few metres more or less).
      const shownM = haversineKm(exact, row) * 1000;
      if (shownM < 190 || shownM > 510) misplaced.push(`${row.id}: shown ${shownM.toFixed(0)} m from its place`);
    }
    assert.deepEqual(misplaced, []);
    // The seed spreads rows over the region: most places have some.
    const used = new Set(jobs.map((j) => `${j.city}|${j.plz}|${j.district ?? ''}`));
    assert.ok(used.size >= PLACES.length * 0.8, `${used.size} of ${PLACES.length} places used`);
  });

  test('texts are German and complete: umlauts, district names, no {ort} placeholder left', async () => {
    assert.ok(jobs.some((j) => /[äöüÄÖÜß]/.test(j.title)));
    assert.ok(listings.some((l) => /[äöüÄÖÜß]/.test(l.title)));
    assert.ok(jobs.some((j) => j.title.includes('Durlach')));
    assert.ok(jobs.some((j) => j.district === null && j.title.includes(j.city)));
    const all = JSON.stringify(await dump(db.kysely));
    assert.equal(all.includes('{ort}'), false);
    assert.deepEqual(
      [...jobs, ...listings].filter((r) => r.title.length < 10 || r.description.length < 40).map((r) => r.id),
      [],
    );
  });

  test('photos are JSON arrays of https URLs', () => {
    const bad = [...jobs, ...listings].filter((r) => {
      const photos: unknown = JSON.parse(r.photos);
      return !Array.isArray(photos) || photos.some((p) => typeof p !== 'string' || !p.startsWith('https://'));
    });
    assert.deepEqual(
      bad.map((r) => r.id),
      [],
    );
  });

  test('prices are plausible: 5-80 EUR per helper-hour, positive day prices, weekly below 7 days', () => {
    const badJobs = jobs
      .map((j) => ({ id: j.id, rate: j.price_cents / 100 / (j.duration_hours * j.helpers_needed) }))
      .filter((j) => !(j.rate >= 5 && j.rate <= 80));
    assert.deepEqual(badJobs, []);
    const badListings = listings.filter(
      (l) =>
        !(l.price_per_day_cents > 0) ||
        !(l.deposit_cents >= 0) ||
        (l.price_per_week_cents !== null &&
          !(l.price_per_week_cents < 7 * l.price_per_day_cents && l.price_per_week_cents > l.price_per_day_cents)),
    );
    assert.deepEqual(
      badListings.map((l) => [l.id, l.price_per_day_cents, l.price_per_week_cents, l.deposit_cents]),
      [],
    );
    assert.ok(listings.some((l) => l.price_per_week_cents !== null));
    assert.ok(listings.some((l) => l.price_per_week_cents === null));
  });

  test('no open job is wanted at a time already passed on the first day: every desired time is from the next day on', () => {
    // The first start seeds with the anchor at midnight of the day it runs, whatever the hour.
    const tomorrow = berlinWallClock(berlinDate(new Date(ANCHOR.getTime() + 36 * 3_600_000)), 0).toISOString();
    const early = open.filter((j) => j.desired_at !== null && j.desired_at < tomorrow);
    assert.deepEqual(
      early.map((j) => [j.id, j.desired_at]),
      [],
    );
    const urgentTomorrow = open.filter((j) => j.urgent === 1 && j.desired_date === berlinDate(new Date(tomorrow)));
    assert.ok(urgentTomorrow.length > 0, 'urgent jobs are still wanted soon: tomorrow');
  });

  test('a realistic mix of open jobs: some urgent, express, remote, licensed; every time preference', () => {
    const share = (predicate: (j: JobRow) => boolean) => {
      const n = open.filter(predicate).length;
      return n > 0 && n < open.length / 2;
    };
    assert.deepEqual(
      {
        urgent: share((j) => j.urgent === 1),
        express: share((j) => j.express === 1),
        remote: share((j) => j.remote_task === 1),
        requiresLicense: share((j) => j.requires_license === 1),
        withoutDesiredDate: share((j) => j.desired_at === null),
        withDeadline: open.some((j) => j.deadline !== null),
      },
      {
        urgent: true,
        express: true,
        remote: true,
        requiresLicense: true,
        withoutDesiredDate: true,
        withDeadline: true,
      },
    );
    assert.deepEqual(sorted(new Set(open.map((j) => j.time_preference))), sorted([...TIME_PREFERENCES, null]));
    assert.deepEqual(sorted(new Set(open.map((j) => j.pricing_confidence))), ['high', 'low', 'medium']);
  });

  test('helpers_needed is 1-4 and applications_count at most three per helper needed', () => {
    const bad = jobs.filter(
      (j) =>
        !(j.helpers_needed >= 1 && j.helpers_needed <= 4) ||
        !(j.applications_count >= 0 && j.applications_count <= j.helpers_needed * 3),
    );
    assert.deepEqual(
      bad.map((j) => [j.id, j.helpers_needed, j.applications_count]),
      [],
    );
    assert.deepEqual(sorted(new Set(jobs.map((j) => j.helpers_needed))), [1, 2, 3, 4]);
  });

  test('pricing_confidence of open jobs is recomputed from the completed jobs of the category', () => {
    const rates = new Map<Category, number[]>();
    for (const j of jobs) {
      if (j.status !== 'completed') continue;
      rates.set(j.category, [
        ...(rates.get(j.category) ?? []),
        j.price_cents / 100 / (j.duration_hours * j.helpers_needed),
      ]);
    }
    const mismatches = open
      .map((j) => ({
        id: j.id,
        stored: j.pricing_confidence,
        recomputed: pricingConfidence(
          j.price_cents / 100 / (j.duration_hours * j.helpers_needed),
          rateSample(rates.get(j.category) ?? []),
        ),
      }))
      .filter((m) => m.stored !== m.recomputed);
    assert.deepEqual(mismatches, []);
  });

  test('smart_eta_minutes of open jobs is recomputed from verified, available helpers of the category', async () => {
    const links = await db.kysely
      .selectFrom('helper_categories')
      .innerJoin('helpers', 'helpers.id', 'helper_categories.helper_id')
      .select(['helper_categories.category', 'helpers.lat', 'helpers.lng', 'helpers.avg_response_minutes'])
      .where('helpers.verified', '=', 1)
      .where('helpers.available', '=', 1)
      .execute();
    const byCategory = new Map<Category, EtaHelper[]>();
    for (const { category, ...helper } of links)
      byCategory.set(category, [...(byCategory.get(category) ?? []), helper]);
    const mismatches = open
      .map((j) => ({
        id: j.id,
        stored: j.smart_eta_minutes,
        recomputed: smartEtaMinutes(
          { lat: j.exact_lat, lng: j.exact_lng, remote_task: j.remote_task === 1 },
          byCategory.get(j.category) ?? [],
          50,
        ),
      }))
      .filter((m) => m.stored !== m.recomputed);
    assert.deepEqual(mismatches, []);
    assert.ok(open.filter((j) => j.smart_eta_minutes !== null).length > open.length / 2);
  });

  test('every reliability figure of every helper and owner is recomputed from the stored history', async () => {
    const mismatches = [];
    for (const [rows, history] of [
      [helpers, helperHistory],
      [owners, ownerHistory],
    ] as const) {
      for (const row of rows) {
        const stored = reliabilityFromRow(row);
        const recomputed = reliabilityOf(await history(db.kysely, row.id));
        if (JSON.stringify(stored) !== JSON.stringify(recomputed)) mismatches.push({ id: row.id, stored, recomputed });
      }
    }
    assert.deepEqual(mismatches, []);
    // The history is rich enough to tell people apart: scores, experience and ratings vary.
    assert.ok(new Set(helpers.map((h) => h.reliability_score)).size > 20);
    assert.ok(helpers.some((h) => h.completed_jobs >= 10) && helpers.some((h) => h.completed_jobs === 0));
    assert.ok(helpers.some((h) => h.cancellation_rate > 0) && owners.some((o) => o.cancellation_rate > 0));
    assert.ok(owners.filter((o) => o.rating_count > 0).length > owners.length / 2);
    assert.ok(helpers.filter((h) => h.verified === 1).length > helpers.length / 2);
  });

  test('desired_date is the Berlin date of desired_at; a deadline lies within 30 days after creation', () => {
    const badDates = jobs
      .filter((j) => j.desired_date !== (j.desired_at === null ? null : berlinDate(new Date(j.desired_at))))
      .map((j) => [j.id, j.desired_at, j.desired_date]);
    assert.deepEqual(badDates, []);
    const badDeadlines = jobs
      .filter((j) => {
        if (j.deadline === null) return false;
        const created = Date.parse(j.created_at);
        const deadline = Date.parse(j.deadline);
        return !(deadline > created && deadline <= created + 30 * DAY_MS);
      })
      .map((j) => [j.id, j.created_at, j.deadline]);
    assert.deepEqual(badDeadlines, []);
  });

  test('time preferences hold in Karlsruhe time: weekend jobs fall on a Saturday or Sunday, mornings before noon', () => {
    const localHour = (iso: string) =>
      Number(
        new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Berlin', hour: '2-digit', hourCycle: 'h23' }).format(
          new Date(iso),
        ),
      );
    const weekday = (date: string) => new Date(`${date}T12:00:00Z`).getUTCDay();
    const offWeekend = jobs
      .filter((j) => j.time_preference === 'wochenende' && j.desired_date !== null)
      .filter((j) => ![0, 6].includes(weekday(j.desired_date as string)))
      .map((j) => [j.id, j.desired_at, j.desired_date]);
    assert.deepEqual(offWeekend, []);
    const lateMornings = jobs
      .filter((j) => j.time_preference === 'vormittags' && j.desired_at !== null)
      .filter((j) => localHour(j.desired_at as string) >= 12)
      .map((j) => [j.id, j.desired_at]);
    assert.deepEqual(lateMornings, []);
  });
});

describe('seedDatabase is all or nothing', () => {
  test('a database counts as holding data when any marketplace table has a row, not only jobs', async (t) => {
    const db = createDb('sqlite::memory:');
    t.after(() => db.close());
    await migrateToLatest(db);
    assert.equal(await hasMarketplaceData(db.kysely), false);
    await seedDatabase(db.kysely, { ...DEFAULTS, jobs: 0, completedJobs: 0, helpers: 2, listings: 0 });
    assert.equal(await hasMarketplaceData(db.kysely), true);
  });

  test('a seed that fails half-way leaves no rows behind', async (t) => {
    const db = createDb('sqlite::memory:');
    t.after(() => db.close());
    await migrateToLatest(db);
    await db.kysely.schema.dropTable('listings').execute(); // listings come last: everything before them is written
    await assert.rejects(
      seedDatabase(db.kysely, { ...DEFAULTS, jobs: 50, completedJobs: 50, helpers: 10, listings: 5 }),
    );
    for (const table of ['jobs', 'helpers', 'helper_categories', 'owners', 'meta'] as const) {
      const row = await db.kysely
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirst();
      assert.equal(Number(row?.n), 0, table);
    }
  });

  test('replace deletes the rows already there in the same transaction', async (t) => {
    const db = await seeded({ ...DEFAULTS, jobs: 30, completedJobs: 20, helpers: 10, listings: 10 });
    t.after(() => db.close());
    await seedDatabase(
      db.kysely,
      { ...DEFAULTS, seed: 99, jobs: 7, completedJobs: 0, helpers: 3, listings: 2 },
      () => {},
      {
        replace: true,
      },
    );
    const open = await db.kysely.selectFrom('jobs').select('id').where('status', '=', 'open').execute();
    const helpers = await db.kysely.selectFrom('helpers').select('id').execute();
    assert.equal(open.length, 7);
    assert.equal(helpers.length, 3);
  });
});
