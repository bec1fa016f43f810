/**
 * "A listing is never booked twice for overlapping days", with real parallel requests: 20 accounts
 * ask for the same days at once, in one process (app.inject) and spread over two server processes
 * on one database (a SQLite file, or one PostgreSQL schema in the PostgreSQL pass), where only the
 * database can keep them apart.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createDb, type Db } from '../../src/db/create-db.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { berlinDate } from '../../src/domain/berlin-time.js';
import { addDays } from '../../src/domain/booking-price.js';
import { buildTestApp, createKey } from '../helpers/app.js';
import { freshDatabaseUrl, TEST_ENGINE } from '../helpers/database.js';
import { insert, listingFixture, ownerFixture } from '../helpers/fixtures.js';
import { type ServerProcess, startServer, stopServer } from '../helpers/server-process.js';

const CONTENDERS = 20;
/** Rounds over the two processes: the more, the surer a race would show (without the lock, most rounds fail). */
const ROUNDS = 10;

/** 20 accounts with a key each, and an available listing that none of them owns. */
async function contenders(db: Db, now?: Date) {
  const owner = ownerFixture();
  const listing = listingFixture(owner.id, { instant_booking: 0 });
  await insert(db.kysely, { owners: [owner], listings: [listing] });
  const keys: string[] = [];
  for (let i = 0; i < CONTENDERS; i++) {
    keys.push((await createKey(db, { email: `renter${i}@example.org` }, now)).key);
  }
  return { listingId: listing.id, keys };
}

/** Exactly one 201; every other answer a 409 booking_conflict that names the range taken. */
function assertOneWinner(answers: { status: number; body: any }[], start: string, end: string): void {
  const statuses = answers.map((a) => a.status).sort();
  const seen = answers.map((a) => `${a.status} ${a.body.error ?? a.body.id}`);
  assert.deepEqual(statuses, [201, ...Array(CONTENDERS - 1).fill(409)], seen.join(', '));
  const winner = answers.find((a) => a.status === 201)?.body;
  assert.equal(winner.start_date, start);
  for (const loser of answers.filter((a) => a.status === 409)) {
    assert.equal(loser.body.error, 'booking_conflict');
    assert.equal(
      loser.body.message,
      `The listing is already booked from ${start} to ${end} (requested); the days overlap.`,
    );
  }
}

describe('20 concurrent bookings of the same days', () => {
  test('in one process: exactly one 201, 19 × 409 booking_conflict', async (t) => {
    const { app, db } = await buildTestApp(t);
    const { listingId, keys } = await contenders(db);
    const answers = await Promise.all(
      keys.map(async (key) => {
        const response = await app.inject({
          method: 'POST',
          url: `/v1/listings/${listingId}/bookings`,
          headers: { 'x-api-key': key },
          payload: { start_date: '2026-12-01', end_date: '2026-12-05' },
        });
        return { status: response.statusCode, body: response.json() as any };
      }),
    );
    assertOneWinner(answers, '2026-12-01', '2026-12-05');
    assert.equal((await db.kysely.selectFrom('bookings').select('id').execute()).length, 1);
  });
});

// ---------------------------------------------------------------------------------------------
// Two server processes on one database
// ---------------------------------------------------------------------------------------------

describe(`20 concurrent bookings over two server processes on one ${TEST_ENGINE} database`, () => {
  test('exactly one 201 per round, no 5xx, one booking per range in the database', { timeout: 180_000 }, async (t) => {
    const databaseUrl = await freshDatabaseUrl(t, { file: true });
    const db = createDb(databaseUrl);
    await migrateToLatest(db);
    const { listingId, keys } = await contenders(db, new Date());
    await db.close();

    const config = { DATABASE_URL: databaseUrl, LOG_LEVEL: 'error', RATE_LIMIT_DEVELOPER_PER_MIN: '100000' };
    const pair = await Promise.all([startServer(t, config), startServer(t, config)]);
    // The servers run on the real clock: book some days a month ahead, in several rounds.
    const today = berlinDate(new Date());
    for (let round = 0; round < ROUNDS; round++) {
      const start = addDays(today, 30 + round * 7);
      const end = addDays(start, 4);
      const answers = await Promise.all(
        keys.map(async (key, i) => {
          const server = pair[i % 2] as ServerProcess;
          const response = await fetch(`${server.baseUrl}/v1/listings/${listingId}/bookings`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-api-key': key },
            body: JSON.stringify({ start_date: start, end_date: end }),
          });
          return { status: response.status, body: (await response.json()) as any };
        }),
      );
      assertOneWinner(answers, start, end);
    }

    for (const server of pair) {
      assert.deepEqual(await stopServer(server), { code: 0, signal: null });
      assert.equal(server.output(), '', 'no errors were logged');
    }
    const check = createDb(databaseUrl);
    const rows = await check.kysely.selectFrom('bookings').select(['start_date', 'end_date']).execute();
    await check.close();
    assert.equal(rows.length, ROUNDS);
  });
});
