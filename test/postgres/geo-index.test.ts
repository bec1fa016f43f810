/**
 * PostgreSQL answers radius searches through the GiST index on point(lng, lat) (migration 0005),
 * not a full scan, and the index's bounding box never drops a row within the radius. Runs in the
 * PostgreSQL pass only, on 100,000 jobs and 30,000 listings spread over Baden-Wuerttemberg.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type CompiledQuery, Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from '../../src/db/schema.js';
import { haversineKm, type LatLng } from '../../src/domain/geo.js';
import { searchJobs } from '../../src/repositories/jobs.js';
import { searchListings } from '../../src/repositories/listings.js';
import { NOW } from '../helpers/app.js';
import { openTestDb } from '../helpers/database.js';
import { AT, insert, jobFixture, listingFixture, ownerFixture } from '../helpers/fixtures.js';

const DURLACH: LatLng = { lat: AT.durlach.lat, lng: AT.durlach.lng };

/** Every node of an EXPLAIN (FORMAT JSON) plan. */
function nodes(plan: Record<string, unknown>): Record<string, unknown>[] {
  const children = (plan.Plans as Record<string, unknown>[] | undefined) ?? [];
  return [plan, ...children.flatMap(nodes)];
}

/** Copies `count` rows of the template, each at a random point of Baden-Wuerttemberg (deterministic). */
async function spread(client: pg.PoolClient, table: 'jobs' | 'listings', templateId: string, count: number) {
  const { rows } = await client.query(
    `select column_name from information_schema.columns where table_schema = current_schema() and table_name = $1`,
    [table],
  );
  const columns = rows.map((r: { column_name: string }) => r.column_name);
  const values = columns.map((c) => {
    if (c === 'id') return `t.id || '_' || lpad(i::text, 7, '0')`;
    if (c === 'lat') return '47.6 + 2.2 * ((i::bigint * 7919) % 10007) / 10007.0';
    if (c === 'lng') return '7.6 + 2.6 * ((i::bigint * 104729) % 10009) / 10009.0';
    if (c === 'created_at')
      return `to_char(timestamp '2026-11-01' + i * interval '1 second', 'YYYY-MM-DD"T"HH24:MI:SS".000Z"')`;
    return `t.${c}`;
  });
  await client.query(
    `insert into ${table} (${columns.join(', ')})
     select ${values.join(', ')} from ${table} t, generate_series(1, ${count}) i where t.id = $1`,
    [templateId],
  );
  await client.query(`analyze ${table}`);
}

test('radius searches on PostgreSQL use the GiST index and find every row within the radius', async (t) => {
  const { db, url, dispose } = await openTestDb();
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  const captured: CompiledQuery[] = [];
  const logged = new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    log: (event) => {
      if (event.level === 'query') captured.push(event.query);
    },
  });
  t.after(async () => {
    await logged.destroy();
    await dispose();
  });

  const owner = ownerFixture();
  const job = jobFixture({ deadline: null });
  const listing = listingFixture(owner.id);
  await insert(db.kysely, { jobs: [job], owners: [owner], listings: [listing] });
  const client = await pool.connect();
  try {
    await spread(client, 'jobs', job.id, 100_000);
    await spread(client, 'listings', listing.id, 30_000);
  } finally {
    client.release();
  }

  const explain = async (query: CompiledQuery) => {
    const { rows } = await pool.query(`explain (format json) ${query.sql}`, [...query.parameters]);
    return nodes((rows[0] as { 'QUERY PLAN': [{ Plan: Record<string, unknown> }] })['QUERY PLAN'][0].Plan);
  };
  const expectIndexed = async (table: string, index: string) => {
    assert.ok(captured.length > 0, 'the search ran queries');
    for (const query of captured) {
      const plan = await explain(query);
      const names = plan.map((n) => n['Index Name']).filter(Boolean);
      assert.ok(names.includes(index), `${table} search uses ${index}; plan used ${names.join(', ') || 'no index'}`);
      assert.ok(
        !plan.some((n) => n['Node Type'] === 'Seq Scan' && n['Relation Name'] === table),
        `no full scan of ${table}`,
      );
    }
    captured.length = 0;
  };

  const jobs = await searchJobs(logged, { center: DURLACH, radiusKm: 5, sort: 'distance', limit: 20, offset: 0 }, NOW);
  await expectIndexed('jobs', 'jobs_geo');
  const listings = await searchListings(logged, { center: DURLACH, radiusKm: 5, sort: 'newest', limit: 20, offset: 0 });
  await expectIndexed('listings', 'listings_geo');

  // The box in front of the index is a superset: the totals equal an exact count over every row.
  const within = async (table: 'jobs' | 'listings') => {
    const points = await db.kysely.selectFrom(table).select(['lat', 'lng']).execute();
    return points.filter((p) => haversineKm(DURLACH, p) <= 5).length;
  };
  assert.ok(jobs.total > 100, `enough jobs near Durlach to mean something (${jobs.total})`);
  assert.equal(jobs.total, await within('jobs'));
  assert.equal(listings.total, await within('listings'));
});
