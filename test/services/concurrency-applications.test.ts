/**
 * The application invariants under real parallel requests: of 50 concurrent applications for a
 * job that allows 3, exactly 3 succeed; of concurrent applications by one helper, exactly one. In
 * process first (app.inject; better-sqlite3 serialises the statements of one connection, so this
 * shows the logic), then across two server processes on one database (a SQLite file, or one
 * PostgreSQL schema in the PostgreSQL pass), where the database's locking alone decides.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createDb, type Db } from '../../src/db/create-db.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { buildTestApp, NOW } from '../helpers/app.js';
import { jobsWithApplicants } from '../helpers/applicants.js';
import { freshDatabaseUrl, TEST_ENGINE } from '../helpers/database.js';
import { type ServerProcess, startServer, stopServer } from '../helpers/server-process.js';

const APPLICANTS = 50;

type Outcome = { status: number; error?: string };

function tally(outcomes: readonly Outcome[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const o of outcomes) {
    const key = o.error ? `${o.status} ${o.error}` : String(o.status);
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

async function countsIn(db: Db, jobId: string) {
  const job = await db.kysely
    .selectFrom('jobs')
    .select('applications_count')
    .where('id', '=', jobId)
    .executeTakeFirst();
  const rows = await db.kysely
    .selectFrom('applications')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('job_id', '=', jobId)
    .executeTakeFirst();
  return { applications_count: job?.applications_count, rows: Number(rows?.n) };
}

describe('concurrent applications in one process', () => {
  test(`${APPLICANTS} concurrent applications for a job allowing 3: exactly 3 succeed`, async (t) => {
    const { app, db } = await buildTestApp(t);
    const { jobId, applicants } = await jobsWithApplicants(db, APPLICANTS, NOW);
    const outcomes = await Promise.all(
      applicants.map(async ({ key, helperId }) => {
        const response = await app.inject({
          method: 'POST',
          url: `/v1/jobs/${jobId}/applications`,
          headers: { 'x-api-key': key },
          payload: { helper_id: helperId },
        });
        return { status: response.statusCode, error: response.json().error };
      }),
    );
    assert.deepEqual(tally(outcomes), { 201: 3, '409 limit_reached': APPLICANTS - 3 });
    assert.deepEqual(await countsIn(db, jobId), { applications_count: 3, rows: 3 });
  });

  test('one helper applying 20 times at once: exactly one application', async (t) => {
    const { app, db } = await buildTestApp(t);
    const { jobId, applicants } = await jobsWithApplicants(db, APPLICANTS, NOW);
    const { key, helperId } = applicants[0] as { key: string; helperId: string };
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const response = await app.inject({
          method: 'POST',
          url: `/v1/jobs/${jobId}/applications`,
          headers: { 'x-api-key': key },
          payload: { helper_id: helperId },
        });
        return { status: response.statusCode, error: response.json().error };
      }),
    );
    assert.deepEqual(tally(outcomes), { 201: 1, '409 already_applied': 19 });
    assert.deepEqual(await countsIn(db, jobId), { applications_count: 1, rows: 1 });
  });
});

// ---------------------------------------------------------------------------------------------
// Two server processes on one database
// ---------------------------------------------------------------------------------------------

describe(`concurrent applications across two server processes on one ${TEST_ENGINE} database`, () => {
  test(`${APPLICANTS} applications for a job allowing 3, split over both: exactly 3 succeed, none fails`, {
    timeout: 180_000,
  }, async (t) => {
    const url = await freshDatabaseUrl(t, { file: true });
    const setupDb = createDb(url);
    await migrateToLatest(setupDb);
    const { jobId, secondJobId, applicants } = await jobsWithApplicants(setupDb, APPLICANTS);
    await setupDb.close();

    const config = { DATABASE_URL: url, LOG_LEVEL: 'error', RATE_LIMIT_DEVELOPER_PER_MIN: '100000' };
    const servers = await Promise.all([startServer(t, config), startServer(t, config)]);
    const applyVia = async (i: number, jobId: string, { key, helperId }: { key: string; helperId: string }) => {
      const server = servers[i % 2] as ServerProcess;
      const response = await fetch(`${server.baseUrl}/v1/jobs/${jobId}/applications`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify({ helper_id: helperId }),
      });
      const body = (await response.json()) as { error?: string };
      return { status: response.status, error: body.error };
    };

    const many = await Promise.all(applicants.map((applicant, i) => applyVia(i, jobId, applicant)));
    const first = applicants[0] as { key: string; helperId: string };
    const single = await Promise.all(Array.from({ length: 20 }, (_, i) => applyVia(i, secondJobId, first)));

    for (const server of servers) assert.deepEqual(await stopServer(server), { code: 0, signal: null });
    // A transaction that read before it wrote would fail here with SQLITE_BUSY (a 500) when the
    // other process committed in between; this one's first statement writes and waits its turn.
    // On PostgreSQL, a check-then-write without the row lock would let a fourth application in.
    const logged = servers.map((s) => s.output()).join('');
    assert.doesNotMatch(logged, /SQLITE_BUSY|unhandled error/);
    assert.deepEqual(tally(many), { 201: 3, '409 limit_reached': APPLICANTS - 3 });
    assert.deepEqual(tally(single), { 201: 1, '409 already_applied': 19 });
    const db = createDb(url);
    const stored = [await countsIn(db, jobId), await countsIn(db, secondJobId)];
    await db.close();
    assert.deepEqual(stored, [
      { applications_count: 3, rows: 3 },
      { applications_count: 1, rows: 1 },
    ]);
  });
});
