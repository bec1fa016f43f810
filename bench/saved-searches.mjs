// `npm run bench:saved-searches`: what saved searches cost a write. POST /v1/jobs through the app
// in-process (app.inject: no network, so the write path is what is measured) with 0 saved searches
// stored and with 10,000 (500 accounts of 20, spread over the service area: categories, centres and
// radii at random, a third with a budget, a quarter with text words), in alternating rounds on the
// same database, so the ratio holds on a noisy machine. Prints a Markdown table (docs/performance.md).
//
//   BENCH_ENGINES=sqlite                 one engine (sqlite, postgres; both by default)
//   BENCH_WRITES=300 BENCH_ROUNDS=4      writes per round, rounds per side
//   BENCH_POSTGRES_URL=postgres://...    where the benchmark's database is created
//                                        (default postgres://postgres@127.0.0.1:5432/postgres)
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { buildApp } from '../src/app.ts';
import { testConfig } from '../src/config.ts';
import { createDb } from '../src/db/create-db.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { CATEGORIES } from '../src/domain/categories.ts';
import { boundingBox, DEFAULT_CENTER, pointAt } from '../src/domain/geo.ts';
import { findOrCreateAccount, issueKey } from '../src/repositories/access.ts';

const ENGINES = (process.env.BENCH_ENGINES ?? 'sqlite,postgres').split(',').map((e) => e.trim());
const WRITES = Number(process.env.BENCH_WRITES ?? 300);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const SAVED = 10_000;
const PER_ACCOUNT = 20;
const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PLZ = ['76227', '76131', '76133', '76185', '76137', '76199', '76229', '76149', '76187', '76344'];
const WORDS = ['hecke', 'rasen', 'umzug', 'putzen', 'fenster', 'regal', 'bohrmaschine', 'garten'];

/** A deterministic generator, so both engines store the same searches. */
function random(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/**
 * broad: radius 2 to 50 km, a fifth without a category (a job matches about 1 in 7 searches);
 * narrow: radius 1 to 10 km, every search with a category (what people save to be told of work nearby).
 */
const SHAPES = {
  broad: { maxRadius: 50, minRadius: 2, withoutCategory: 0.2 },
  narrow: { maxRadius: 10, minRadius: 1, withoutCategory: 0 },
};

function savedSearchRows(accountIds, shape) {
  const next = random(18);
  const pick = (list) => list[Math.floor(next() * list.length)];
  return Array.from({ length: SAVED }, (_, i) => {
    const center = pointAt(DEFAULT_CENTER, next() * 30, next() * 360);
    const radius = shape.minRadius + Math.floor(next() * (shape.maxRadius - shape.minRadius));
    const category = next() < shape.withoutCategory ? null : pick(CATEGORIES);
    const query = { lat: center.lat, lng: center.lng, radius };
    if (category) query.category = category;
    if (next() < 0.33) query.budget_min = Math.floor(next() * 80);
    if (next() < 0.25) query.q = pick(WORDS);
    const box = boundingBox(center, radius);
    return {
      id: `svs_${randomBytes(8).toString('hex')}`,
      account_id: accountIds[Math.floor(i / PER_ACCOUNT)],
      name: `search ${i}`,
      resource: 'jobs',
      query: JSON.stringify(query),
      category,
      center_lat: center.lat,
      center_lng: center.lng,
      radius_km: radius,
      min_lat: box.minLat,
      max_lat: box.maxLat,
      min_lng: box.minLng,
      max_lng: box.maxLng,
      email_digest: 0,
      unsubscribe_key: randomBytes(32).toString('hex'),
      created_at: new Date().toISOString(),
    };
  });
}

async function openEngine(engine) {
  if (engine === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'bench-saved-'));
    return { url: `sqlite:${join(dir, 'bench.db')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const name = `bench_saved_${process.pid}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await admin.query(`drop database if exists ${name}`);
      await admin.end();
    },
  };
}

/** Milliseconds per write of `count` job posts (each checked for its 201). */
async function writeRound(app, key, count, round) {
  const next = random(1000 + round);
  const started = process.hrtime.bigint();
  for (let i = 0; i < count; i++) {
    const response = await app.inject({
      method: 'POST',
      url: '/v1/jobs',
      headers: { 'x-api-key': key },
      payload: {
        title: `Hecke schneiden ${i}`,
        description: 'Zwanzig Meter Thuja, Werkzeug ist da.',
        category: CATEGORIES[Math.floor(next() * CATEGORIES.length)],
        price_eur: 20 + Math.floor(next() * 100),
        location: { plz: PLZ[Math.floor(next() * PLZ.length)] },
      },
    });
    if (response.statusCode !== 201) throw new Error(`POST /v1/jobs: ${response.statusCode} ${response.body}`);
  }
  return Number(process.hrtime.bigint() - started) / 1e6 / count;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const results = [];
for (const engine of ENGINES) {
  const target = await openEngine(engine);
  const db = createDb(target.url);
  try {
    await migrateToLatest(db);
    const now = new Date();
    const accountIds = [];
    for (let i = 0; i < SAVED / PER_ACCOUNT; i++) {
      const { row } = await findOrCreateAccount(
        db.kysely,
        { name: `Searcher ${i}`, email: `s${i}@example.org`, organisation: null, account_type: 'private' },
        now,
      );
      accountIds.push(row.id);
    }
    const { row: poster } = await findOrCreateAccount(
      db.kysely,
      { name: 'Poster', email: 'poster@example.org', organisation: null, account_type: 'commercial' },
      now,
    );
    const { key } = await issueKey(db.kysely, poster.id, now);
    const app = await buildApp(
      testConfig({
        RATE_LIMIT_DEVELOPER_PER_MIN: '1000000',
        WEBHOOK_DELIVERY: 'false',
        DIGEST_SWEEP_MS: '3600000',
      }),
      { db },
    );
    await writeRound(app, key, 50, 99); // warm-up
    for (const [shapeName, shape] of Object.entries(SHAPES)) {
      const rows = savedSearchRows(accountIds, shape);
      const without = [];
      const withSaved = [];
      let matched = 0;
      for (let round = 0; round < ROUNDS; round++) {
        await db.kysely.deleteFrom('saved_searches').execute();
        without.push(await writeRound(app, key, WRITES, round));
        for (let i = 0; i < rows.length; i += 500) {
          await db.kysely
            .insertInto('saved_searches')
            .values(rows.slice(i, i + 500))
            .execute();
        }
        await db.kysely.deleteFrom('saved_search_matches').execute();
        withSaved.push(await writeRound(app, key, WRITES, round));
        const count = await db.kysely
          .selectFrom('saved_search_matches')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirst();
        matched += Number(count?.n ?? 0);
      }
      results.push({
        engine,
        shape: shapeName,
        without: median(without),
        withSaved: median(withSaved),
        matchesPerWrite: matched / (WRITES * ROUNDS),
      });
    }
    await app.close();
  } finally {
    await db.close();
    await target.drop();
  }
}

console.log(`POST /v1/jobs, ${WRITES} writes per round, median of ${ROUNDS} rounds per side\n`);
console.log('| engine | searches | 0 saved searches | 10,000 saved searches | ratio | matches per write |');
console.log('| --- | --- | ---: | ---: | ---: | ---: |');
for (const r of results) {
  console.log(
    `| ${r.engine} | ${r.shape} | ${r.without.toFixed(2)} ms | ${r.withSaved.toFixed(2)} ms | ${(r.withSaved / r.without).toFixed(2)} | ${r.matchesPerWrite.toFixed(1)} |`,
  );
}
