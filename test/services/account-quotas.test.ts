/**
 * Sensitive business flows (OWASP API6): applying and booking are limited per account and hour
 * (APPLICATIONS_PER_ACCOUNT_PER_HOUR, BOOKINGS_PER_ACCOUNT_PER_HOUR), counted in the database in the
 * write transaction itself, so the limit holds across instances and under concurrency.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildApp } from '../../src/app.js';
import { testConfig } from '../../src/config.js';
import { buildTestApp, createKey, NOW } from '../helpers/app.js';
import { helperFixture, insert, jobFixture, listingFixture, ownerFixture } from '../helpers/fixtures.js';

const HOUR_MS = 3_600_000;

async function setup(t: Parameters<typeof buildTestApp>[0], config: Record<string, string>) {
  const built = await buildTestApp(t, NOW, config);
  const owner = await createKey(built.db, { email: 'owner@example.org' });
  const me = await createKey(built.db, { email: 'me@example.org' });
  const other = await createKey(built.db, { email: 'other@example.org' });
  const open = { owner_account_id: owner.accountId, helpers_needed: 2, applications_count: 0, deadline: null };
  const jobs = Array.from({ length: 12 }, () => jobFixture(open));
  const myHelper = helperFixture(['GARDENING'], { account_id: me.accountId, verified: 0 });
  const otherHelper = helperFixture(['GARDENING'], { account_id: other.accountId, verified: 0 });
  const lender = ownerFixture({ account_id: owner.accountId });
  const listings = Array.from({ length: 4 }, () => listingFixture(lender.id, { instant_booking: 0 }));
  await insert(built.db.kysely, { jobs, helpers: [myHelper, otherHelper], owners: [lender], listings });
  return { ...built, me, other, jobs, myHelper, otherHelper, listings };
}

describe('applications per account and hour', () => {
  test('the next one past the limit is a 429 account_limit_reached; nothing of it is kept', async (t) => {
    const { app, db, me, other, jobs, myHelper, otherHelper } = await setup(t, {
      APPLICATIONS_PER_ACCOUNT_PER_HOUR: '3',
    });
    const apply = (key: string, jobId: string, helperId: string) =>
      app.inject({
        method: 'POST',
        url: `/v1/jobs/${jobId}/applications`,
        headers: { 'x-api-key': key },
        payload: { helper_id: helperId },
      });
    const statuses: number[] = [];
    for (const job of jobs.slice(0, 3)) statuses.push((await apply(me.key, job.id, myHelper.id)).statusCode);
    assert.deepEqual(statuses, [201, 201, 201]);
    const refused = await apply(me.key, jobs[3]?.id ?? '', myHelper.id);
    assert.equal(refused.statusCode, 429);
    assert.equal(refused.json().error, 'account_limit_reached');
    assert.equal(refused.headers['retry-after'], '3600', 'the oldest leaves the window in an hour');
    assert.match(refused.json().message, /3 applications in the last hour/);
    const job = await db.kysely
      .selectFrom('jobs')
      .select('applications_count')
      .where('id', '=', jobs[3]?.id ?? '')
      .executeTakeFirstOrThrow();
    assert.equal(job.applications_count, 0, 'the place taken in the transaction was given back');
    assert.equal(
      (await apply(other.key, jobs[3]?.id ?? '', otherHelper.id)).statusCode,
      201,
      'other accounts count apart',
    );

    // An hour later the window has moved on.
    const later = await buildApp(testConfig({ APPLICATIONS_PER_ACCOUNT_PER_HOUR: '3' }), {
      db,
      now: () => new Date(NOW.getTime() + HOUR_MS + 1_000),
    });
    t.after(() => later.close());
    const again = await later.inject({
      method: 'POST',
      url: `/v1/jobs/${jobs[4]?.id}/applications`,
      headers: { 'x-api-key': me.key },
      payload: { helper_id: myHelper.id },
    });
    assert.equal(again.statusCode, 201);
  });

  test('10 concurrent applications of one account with a limit of 4: exactly 4 get through', async (t) => {
    const { app, db, me, jobs, myHelper } = await setup(t, { APPLICATIONS_PER_ACCOUNT_PER_HOUR: '4' });
    const answers = await Promise.all(
      jobs.slice(0, 10).map((job) =>
        app.inject({
          method: 'POST',
          url: `/v1/jobs/${job.id}/applications`,
          headers: { 'x-api-key': me.key },
          payload: { helper_id: myHelper.id },
        }),
      ),
    );
    const statuses = answers.map((a) => a.statusCode).sort();
    assert.deepEqual(statuses, [201, 201, 201, 201, 429, 429, 429, 429, 429, 429]);
    const rows = await db.kysely
      .selectFrom('applications')
      .select('id')
      .where('account_id', '=', me.accountId)
      .execute();
    assert.equal(rows.length, 4);
  });
});

describe('bookings per account and hour', () => {
  test('the next one past the limit is a 429; refused and conflicting requests do not count', async (t) => {
    const { app, me, other, listings } = await setup(t, { BOOKINGS_PER_ACCOUNT_PER_HOUR: '2' });
    const book = (key: string, listingId: string, start: string, end: string) =>
      app.inject({
        method: 'POST',
        url: `/v1/listings/${listingId}/bookings`,
        headers: { 'x-api-key': key },
        payload: { start_date: start, end_date: end },
      });
    const [a, b, c] = listings.map((l) => l.id) as [string, string, string];
    assert.equal((await book(other.key, a, '2026-12-01', '2026-12-03')).statusCode, 201);
    assert.equal((await book(me.key, a, '2026-12-02', '2026-12-04')).statusCode, 409, 'a conflict');
    assert.equal((await book(me.key, a, '2026-12-10', '2026-12-11')).statusCode, 201);
    assert.equal((await book(me.key, b, '2026-12-10', '2026-12-11')).statusCode, 201);
    const refused = await book(me.key, c, '2026-12-10', '2026-12-11');
    assert.equal(refused.statusCode, 429);
    assert.equal(refused.json().error, 'account_limit_reached');
    assert.match(refused.json().message, /2 booking requests in the last hour/);
    assert.equal(refused.headers['retry-after'], '3600');
    const availability = await app.inject({ url: `/v1/listings/${c}/availability` });
    assert.deepEqual(availability.json().booked, [], 'the refused booking holds no days');
  });
});
