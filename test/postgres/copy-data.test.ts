/**
 * `npm run copy-data` as operators run it: a real child process copying a real SQLite file into a
 * PostgreSQL schema of this run (PostgreSQL pass only), checked row by row and through the API.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, type TestContext, test } from 'node:test';
import { sql } from 'kysely';
import { buildApp } from '../../src/app.js';
import { testConfig } from '../../src/config.js';
import { COPIED_TABLES, DERIVED_TABLES } from '../../src/db/copy-data.js';
import { createDb, type Db } from '../../src/db/create-db.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { createMailer } from '../../src/mail/mailer.js';
import { anchorFor, DEFAULT_SEED_OPTIONS, seedDatabase } from '../../src/seed/seed-database.js';
import { decideReport } from '../../src/services/notices.js';
import { planNotifications, sendDueNotifications } from '../../src/services/notifications.js';
import { sendSavedSearchDigests } from '../../src/services/saved-search-digests.js';
import { type CliRun, runCli } from '../helpers/admin-cli.js';
import { createKey, NOW } from '../helpers/app.js';
import { PROVIDER_BODY } from '../helpers/bodies.js';
import { freshDatabaseUrl } from '../helpers/database.js';
import { insert, jobFixture } from '../helpers/fixtures.js';

type Run = CliRun;

/** Runs `node --import tsx src/cli/copy-data.ts ...args` to its end, as an operator would. */
const copyData = (args: string[]): Promise<Run> => runCli('src/cli/copy-data.ts', args, {}, 60_000);

interface ApiRows {
  jobId: string;
  listingId: string;
  bookingId: string;
  renterKey: string;
}

/**
 * What only the API writes, on the source: accounts and keys, a job with an owner and an
 * application and a conversation about it, a helper profile, a listing (with an idempotency key)
 * with a booking, a key request.
 */
async function writeThroughApi(db: Db): Promise<ApiRows> {
  const app = await buildApp(testConfig({ WEBHOOK_DELIVERY: 'false', NOTIFICATION_EMAILS: 'false' }), {
    db,
    now: () => NOW,
  });
  const post = async (url: string, key: string | null, payload: object, headers = {}) => {
    const response = await app.inject({
      method: 'POST',
      url,
      headers: { ...(key ? { 'x-api-key': key } : {}), ...headers },
      payload,
    });
    assert.ok(response.statusCode < 300, `${url}: ${response.body}`);
    return response.json() as { id: string };
  };
  try {
    const [owner, helper, renter] = [
      await createKey(db, { email: 'owner@example.org', account_type: 'commercial' }),
      await createKey(db, { email: 'helper@example.org' }),
      await createKey(db, { email: 'renter@example.org' }),
    ].map((created) => created.key) as [string, string, string];
    const location = { plz: '76131' };
    // A webhook first: the writes below add events and deliveries to it (the outbox is copied too).
    await post('/v1/webhooks', owner, {
      url: 'https://93.184.215.14/hooks',
      events: ['job.created', 'application.created', 'booking.created'],
    });
    // A private calendar feed: its row (a token hash) is copied too.
    const feed = await app.inject({ method: 'POST', url: '/v1/me/calendar-feed', headers: { 'x-api-key': renter } });
    assert.equal(feed.statusCode, 201, feed.body);
    // A saved search the job below matches, with the daily e-mail (sent below: its digest row).
    await post('/v1/saved-searches', renter, {
      name: 'Umzüge',
      resource: 'jobs',
      query: { category: 'MOVING' },
      email_digest: true,
    });
    // The commercial owner's provider details (required before it posts).
    const provider = await app.inject({
      method: 'PUT',
      url: '/v1/me/provider',
      headers: { 'x-api-key': owner },
      payload: PROVIDER_BODY,
    });
    assert.equal(provider.statusCode, 200, provider.body);
    const job = await post('/v1/jobs', owner, {
      title: 'Umzugskartons tragen',
      description: 'Zehn Kartons in den dritten Stock.',
      category: 'MOVING',
      price_eur: 80,
      location,
    });
    // A weekly series (its first occurrences posted as jobs) with one occurrence skipped.
    const series = await post('/v1/job-series', owner, {
      title: 'Treppenhaus reinigen',
      description: 'Jeden Montag das Treppenhaus wischen.',
      category: 'CLEANING',
      price_eur: 30,
      location,
      rrule: 'FREQ=WEEKLY;BYDAY=MO;COUNT=4',
      starts_on: '2026-11-23',
      local_time: '08:00',
    });
    const skipped = await app.inject({
      method: 'POST',
      url: `/v1/job-series/${series.id}/occurrences/2026-11-30/skip`,
      headers: { 'x-api-key': owner },
    });
    assert.equal(skipped.statusCode, 200, skipped.body);
    const profile = await post('/v1/helpers', helper, {
      display_name: 'Jonas W.',
      categories: ['MOVING'],
      location,
      hourly_rate_eur: 18,
    });
    // The helper stands for the weekly series too.
    const standing = await post(`/v1/job-series/${series.id}/applications`, helper, {
      helper_id: profile.id,
      message: 'Jeden Montag.',
    });
    // Accepted, and excused from one Monday for a substitute (an accepted place given up: excused_by).
    for (const url of [
      `/v1/job-series/${series.id}/applications/${standing.id}/accept`,
      `/v1/job-series/${series.id}/applications/${standing.id}/excuse`,
    ]) {
      const payload = url.endsWith('excuse') ? { date: '2026-12-07' } : undefined;
      const response = await app.inject({ method: 'POST', url, headers: { 'x-api-key': owner }, payload });
      assert.equal(response.statusCode, 200, response.body);
    }
    const application = await post(`/v1/jobs/${job.id}/applications`, helper, {
      helper_id: profile.id,
      message: 'Gern, ab 9 Uhr.',
    });
    // A conversation with two messages (the outbox gets their message.created events).
    const conversation = await post('/v1/conversations', helper, {
      about: { type: 'application', id: application.id },
      text: 'Soll ich eine Sackkarre mitbringen?',
    });
    await post(`/v1/conversations/${conversation.id}/messages`, owner, { text: 'Ja, gern.' });
    // Accepted, the helper reads the job's exact place: a place release is recorded.
    const accepted = await app.inject({
      method: 'POST',
      url: `/v1/jobs/${job.id}/applications/${application.id}/accept`,
      headers: { 'x-api-key': owner },
    });
    assert.equal(accepted.statusCode, 200, accepted.body);
    const place = await app.inject({
      method: 'GET',
      url: `/v1/jobs/${job.id}/location`,
      headers: { 'x-api-key': helper },
    });
    assert.equal(place.statusCode, 200, place.body);
    const listing = await post(
      '/v1/listings',
      owner,
      {
        title: 'Bierzeltgarnitur',
        description: 'Ein Tisch und zwei Bänke für acht Personen.',
        category: 'EVENTS',
        price_per_day_eur: 8,
        price_per_week_eur: 35,
        deposit_eur: 50,
        condition: 'good',
        location,
        instant_booking: true,
      },
      { 'idempotency-key': 'listing-1' },
    );
    const booking = await post(`/v1/listings/${listing.id}/bookings`, renter, {
      start_date: '2026-11-23',
      end_date: '2026-12-02',
    });
    // An extension, accepted at once (instant booking), with its added rent.
    await post(`/v1/bookings/${booking.id}/extension-requests`, renter, { until: '2026-12-04' });
    // The helper waits for one of those days (a waiting list, issue 35).
    await post(`/v1/listings/${listing.id}/waitlist`, helper, { start_date: '2026-11-30', end_date: '2026-11-30' });
    // The owner's own calendar on the listing with a busy time, as a fetch writes them (rows: a
    // calendar attached through the API would be fetched, and tests fetch from loopback only).
    const ownerAccount = await db.kysely
      .selectFrom('accounts')
      .select('id')
      .where('email', '=', 'owner@example.org')
      .executeTakeFirstOrThrow();
    await db.kysely
      .insertInto('busy_calendars')
      .values({
        id: 'bcal_00000000000000a1',
        account_id: ownerAccount.id,
        listing_id: listing.id,
        helper_id: null,
        url: 'https://calendar.example.org/private/owner.ics',
        status: 'ok',
        etag: '"v1"',
        last_modified: null,
        last_fetch_at: NOW.toISOString(),
        last_error: null,
        busy_count: 1,
        next_fetch_at: '2099-01-01T00:00:00.000Z',
        created_at: NOW.toISOString(),
      })
      .execute();
    await db.kysely
      .insertInto('busy_times')
      .values({
        calendar_id: 'bcal_00000000000000a1',
        start_at: '2026-12-20T09:00:00.000Z',
        end_at: '2026-12-20T11:00:00.000Z',
      })
      .execute();
    // A draft waiting for its person (the page's token is stored as a hash only).
    await post('/v1/drafts', renter, {
      operation: 'createBooking',
      path: { id: listing.id },
      body: { start_date: '2026-12-10', end_date: '2026-12-11' },
    });
    await post('/v1/developer/key-requests', null, {
      name: 'Ada Lovelace',
      email: 'ada@example.org',
      organisation: 'Analytical Engines',
      account_type: 'commercial',
      intended_use: 'A bot that posts moving jobs for our customers.',
    });
    // A report about the listing (with its snapshot), decided by the platform, and the owner's appeal of the decision.
    const report = await post('/v1/reports', renter, {
      about: { type: 'listing', id: listing.id },
      reason: 'other',
      explanation: 'Zum Kopieren gemeldet: bitte prüfen.',
      good_faith: true,
    });
    const { decision } = await decideReport({ db: db.kysely, now: NOW, claim: null }, report.id, {
      action: 'no_action',
      ground: 'terms',
      explanation: 'Nichts zu beanstanden.',
    });
    await db.kysely
      .insertInto('appeals')
      .values({
        id: 'apl_00000000000000a1',
        decision_id: decision.id,
        account_id: (
          await db.kysely
            .selectFrom('accounts')
            .select('id')
            .where('email', '=', 'owner@example.org')
            .executeTakeFirstOrThrow()
        ).id,
        text: 'Eine Beschwerde zum Kopieren.',
        status: 'pending',
        created_at: NOW.toISOString(),
        decided_at: null,
        explanation: null,
      })
      .execute();
    // A code in flight and a signed-in browser (issue 31): hashes only, as the pages store them.
    const later = new Date(NOW.getTime() + 600_000).toISOString();
    await db.kysely
      .insertInto('sign_in_codes')
      .values({
        id: 'sic_00000000000000a1',
        challenge_hash: 'c'.repeat(64),
        code_hash: 'd'.repeat(64),
        purpose: 'signup',
        email: 'neu@example.org',
        name: 'Neu Hier',
        account_type: 'private',
        account_id: null,
        tries: 1,
        created_at: NOW.toISOString(),
        expires_at: later,
      })
      .execute();
    await db.kysely
      .insertInto('sessions')
      .values({
        id: 'ses_00000000000000a1',
        token_hash: 'e'.repeat(64),
        account_id: (
          await db.kysely
            .selectFrom('accounts')
            .select('id')
            .where('email', '=', 'owner@example.org')
            .executeTakeFirstOrThrow()
        ).id,
        user_agent: 'Firefox',
        created_at: NOW.toISOString(),
        last_seen_at: NOW.toISOString(),
        expires_at: later,
      })
      .execute();
    // A passkey and a registration in flight (issue 31).
    const passkeyOwner = (
      await db.kysely
        .selectFrom('accounts')
        .select('id')
        .where('email', '=', 'owner@example.org')
        .executeTakeFirstOrThrow()
    ).id;
    await db.kysely
      .insertInto('passkeys')
      .values({
        id: 'pk_00000000000000a1',
        credential_id: 'Y3JlZGVudGlhbA',
        account_id: passkeyOwner,
        public_key: 'cHVibGljLWtleQ',
        counter: 41,
        transports: '["internal"]',
        device_type: 'multiDevice',
        backed_up: 1,
        name: 'Laptop',
        created_at: NOW.toISOString(),
        last_used_at: null,
      })
      .execute();
    await db.kysely
      .insertInto('passkey_challenges')
      .values({
        challenge_hash: 'f'.repeat(64),
        purpose: 'register',
        account_id: passkeyOwner,
        created_at: NOW.toISOString(),
        expires_at: later,
      })
      .execute();
    // A grant of the authorization server (issue 31), as its adapter stores one.
    await db.kysely
      .insertInto('oauth_records')
      .values({
        model: 'Grant',
        id: 'grant-1',
        payload: JSON.stringify({ accountId: passkeyOwner, clientId: 'app-1', openid: { scope: 'openid' } }),
        grant_id: null,
        account_id: passkeyOwner,
        client_id: 'app-1',
        uid: null,
        created_at: NOW.toISOString(),
        expires_at: later,
        consumed_at: null,
      })
      .execute();
    // A payment received and its two ledger lines (issue 32).
    await db.kysely
      .insertInto('payments')
      .values({
        id: 'pay_copy',
        kind: 'job',
        provider: 'manual',
        status: 'received',
        payer_account_id: passkeyOwner,
        payee_account_id: passkeyOwner,
        job_id: null,
        application_id: null,
        amount_cents: 1_234,
        fee_cents: 0,
        currency: 'EUR',
        created_at: NOW.toISOString(),
        paid_at: null,
        received_at: NOW.toISOString(),
        cancelled_at: null,
        updated_at: NOW.toISOString(),
      })
      .execute();
    await db.kysely
      .insertInto('ledger_entries')
      .values(
        [-1_234, 1_234].map((cents, i) => ({
          id: `led_copy_${i}`,
          transaction_id: 'ltx_copy',
          payment_id: 'pay_copy',
          ledger_account: `party:${passkeyOwner}`,
          amount_cents: cents,
          kind: 'settlement' as const,
          created_at: NOW.toISOString(),
        })),
      )
      .execute();
    await db.kysely
      .insertInto('bank_accounts')
      .values({
        account_id: passkeyOwner,
        iban: 'DE89370400440532013000',
        account_holder: 'Copy Owner',
        created_at: NOW.toISOString(),
        updated_at: NOW.toISOString(),
      })
      .execute();
    await db.kysely
      .insertInto('claims')
      .values({
        id: 'clm_copy',
        booking_id: booking.id,
        payment_id: 'pay_copy',
        owner_account_id: passkeyOwner,
        renter_account_id: passkeyOwner,
        amount_cents: 500,
        text: 'Ein Kratzer am Gehäuse.',
        photos: JSON.stringify(['https://example.org/kratzer.jpg']),
        status: 'disputed',
        response_text: 'War schon so.',
        decided_cents: null,
        explanation: null,
        created_at: NOW.toISOString(),
        answered_at: NOW.toISOString(),
        decided_at: null,
        updated_at: NOW.toISOString(),
      })
      .execute();
    await db.kysely
      .insertInto('payout_accounts')
      .values({
        account_id: passkeyOwner,
        provider_account_id: 'acct_copy',
        charges_enabled: 1,
        payouts_enabled: 0,
        details_submitted: 1,
        currently_due: JSON.stringify(['external_account']),
        created_at: NOW.toISOString(),
        updated_at: NOW.toISOString(),
      })
      .execute();
    await db.kysely
      .insertInto('provider_events')
      .values({
        id: 'evt_copy',
        type: 'payment_intent.succeeded',
        object_id: 'pi_copy',
        received_at: NOW.toISOString(),
        processed_at: NOW.toISOString(),
      })
      .execute();
    await db.kysely
      .insertInto('provider_tasks')
      .values({
        id: 'ptk_copy',
        payment_id: 'pay_copy',
        action: 'capture',
        amount_cents: 500,
        attempt: 1,
        status: 'failed',
        error: 'card_declined',
        due_at: NOW.toISOString(),
        created_at: NOW.toISOString(),
        updated_at: NOW.toISOString(),
      })
      .execute();
    await db.kysely
      .insertInto('operators')
      .values({
        account_id: passkeyOwner,
        role: 'moderator',
        created_by: 'cli',
        created_at: NOW.toISOString(),
        updated_at: NOW.toISOString(),
      })
      .execute();
    await db.kysely
      .insertInto('audit_log')
      .values({
        id: 'aud_copy',
        at: NOW.toISOString(),
        actor: 'cli',
        actor_role: 'cli',
        action: 'operator.added',
        target_type: 'account',
        target_id: passkeyOwner,
        reason: 'Kopie',
        details: JSON.stringify({ role: 'moderator' }),
      })
      .execute();
    const outbox = mkdtempSync(join(tmpdir(), 'copy-data-mail-'));
    const mailer = createMailer({ OUTBOX_DIR: outbox, MAIL_FROM: 'api@example.org', SMTP_URL: undefined });
    try {
      assert.equal(await sendSavedSearchDigests(db.kysely, mailer, { now: NOW, baseUrl: 'http://127.0.0.1' }), 1);
      // The notifications the writes above made (issue 36), one sent; the renter's settings chosen.
      const chosen = await app.inject({
        method: 'PUT',
        url: '/v1/me/notification-settings',
        headers: { 'x-api-key': renter },
        payload: { language: 'en', quiet_hours: { start: '22:00', end: '07:00' } },
      });
      assert.equal(chosen.statusCode, 200, chosen.body);
      await planNotifications(db.kysely, NOW);
      await sendDueNotifications(db.kysely, mailer, {
        now: NOW,
        baseUrl: 'http://127.0.0.1',
        push: { keys: null, subject: 'mailto:api@example.org', allowPrivate: true },
      });
      const made = await db.kysely.selectFrom('notifications').select('id').execute();
      assert.ok(made.length > 0, 'the writes made notifications');
      // A browser of the renter subscribed to pushes, as a row after the sends (tests push to 127.0.0.1 only).
      await db.kysely
        .insertInto('push_subscriptions')
        .values({
          id: 'psub_copy',
          account_id: (
            await db.kysely
              .selectFrom('accounts')
              .select('id')
              .where('email', '=', 'renter@example.org')
              .executeTakeFirstOrThrow()
          ).id,
          endpoint: 'https://push.example.org/send/renter-browser',
          p256dh: `B${'A'.repeat(86)}`,
          auth: 'AAAAAAAAAAAAAAAAAAAAAA',
          created_at: NOW.toISOString(),
          last_sent_at: null,
          last_error: null,
        })
        .execute();
    } finally {
      mailer.close();
      rmSync(outbox, { recursive: true, force: true });
    }
    return { jobId: job.id, listingId: listing.id, bookingId: booking.id, renterKey: renter };
  } finally {
    await app.close();
  }
}

/** Opens a database for the length of the test. */
function open(t: TestContext, url: string): Db {
  const db = createDb(url);
  t.after(() => db.close());
  return db;
}

/** Every row of every copied table, each in an order that does not depend on the engine. */
async function allRows(db: Db): Promise<Record<string, Record<string, unknown>[]>> {
  const canonical = (row: Record<string, unknown>) => JSON.stringify(Object.entries(row).sort());
  const all: Record<string, Record<string, unknown>[]> = {};
  for (const table of COPIED_TABLES) {
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(db.kysely);
    all[table] = rows.sort((a, b) => (canonical(a) < canonical(b) ? -1 : 1));
  }
  return all;
}

const NO_ROWS = Object.fromEntries(COPIED_TABLES.map((table) => [table, []]));

/** A target URL with a password in it: PostgreSQL's trust auth ignores it, and no output may show it. */
async function targetUrl(t: TestContext): Promise<string> {
  const url = new URL(await freshDatabaseUrl(t));
  url.password = 'pw-never-printed';
  return url.toString();
}

function assertNoPassword(run: Run): void {
  assert.ok(!`${run.stdout}${run.stderr}`.includes('pw-never-printed'), 'a password was printed');
}

describe('npm run copy-data (SQLite file to PostgreSQL)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kmp-copy-'));
  const sourceUrl = `sqlite:${join(dir, 'source.db')}`;
  let api: ApiRows;

  before(async () => {
    const source = createDb(sourceUrl);
    try {
      await migrateToLatest(source);
      const options = { ...DEFAULT_SEED_OPTIONS, jobs: 300, listings: 200, helpers: 60, completedJobs: 150 };
      await seedDatabase(source.kysely, { ...options, anchor: anchorFor(NOW) });
      api = await writeThroughApi(source);
    } finally {
      await source.close();
    }
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('copies every table row for row, the API answers the same on both engines, and back into SQLite', async (t) => {
    const to = await targetUrl(t);
    const run = await copyData(['--from', sourceUrl, '--to', to]);
    assert.equal(run.code, 0, run.stderr);
    assertNoPassword(run);
    assert.match(run.stdout, /postgres:\/\/postgres:\*\*\*@127\.0\.0\.1/);
    // Every table is reported with its count: the bookings (the seed's history and the API's one)
    // as many as the source holds.
    const sourceBookings = await (async () => {
      const db = open(t, sourceUrl);
      const row = await db.kysely
        .selectFrom('bookings')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    })();
    assert.match(run.stdout, new RegExp(`^ {2}bookings +${sourceBookings}$`, 'm'));
    assert.match(run.stdout, /^ {2}messages +2$/m);
    assert.match(run.stdout, /total +\d+ rows in \d+\.\d s/);

    const source = open(t, sourceUrl);
    const target = open(t, to);
    // The list copied is the schema's tables (less those the target fills itself, by triggers),
    // checked against the database rather than the code.
    const { rows: tables } = await sql<{ name: string }>`select name from sqlite_master
      where type = 'table' and name not like 'kysely_%' and name not like 'sqlite_%'`.execute(source.kysely);
    const derived: readonly string[] = DERIVED_TABLES;
    assert.deepEqual(
      tables
        .map((r) => r.name)
        .filter((name) => !derived.includes(name))
        .sort(),
      [...COPIED_TABLES].sort(),
    );
    const [copied, original] = [await allRows(target), await allRows(source)];
    // The report keeps its listing's snapshot and account (migration 0032): compared like every column.
    assert.ok(
      original.reports?.every((row) => typeof row.snapshot === 'string' && typeof row.about_account_id === 'string'),
      'the report has a snapshot to copy',
    );
    for (const table of COPIED_TABLES) {
      assert.ok((original[table]?.length ?? 0) > 0, `the source has no ${table} rows to compare`);
      assert.deepEqual(copied[table], original[table], table);
    }
    await assertSameAnswers(t, source, target, api);

    const backup = `sqlite:${join(dir, 'backup.db')}`;
    const back = await copyData(['--from', to, '--to', backup]);
    assert.equal(back.code, 0, back.stderr);
    assert.deepEqual(await allRows(open(t, backup)), original, 'PostgreSQL back into SQLite');
  });

  test('refuses a target that holds rows, leaving it as it was; --replace copies anew', async (t) => {
    const to = await targetUrl(t);
    assert.equal((await copyData(['--from', sourceUrl, '--to', to])).code, 0);
    const target = open(t, to);
    await target.kysely.deleteFrom('key_requests').execute();
    const before = await allRows(target);

    const refused = await copyData(['--from', sourceUrl, '--to', to]);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /The target already holds rows: meta \(\d+\), accounts \(\d+\).*add --replace/);
    assertNoPassword(refused);
    assert.deepEqual(await allRows(target), before);

    const replaced = await copyData(['--from', sourceUrl, '--to', to, '--replace']);
    assert.equal(replaced.code, 0, replaced.stderr);
    assert.deepEqual(await allRows(target), await allRows(open(t, sourceUrl)));
  });

  test('a failure half-way rolls everything back: the target holds no rows', async (t) => {
    const to = await targetUrl(t);
    const target = open(t, to);
    await migrateToLatest(target);
    // The target refuses the last job the copy reaches, after every earlier table and batch went in.
    const { rows } = await sql<{ id: string }>`select max(id) as id from jobs`.execute(open(t, sourceUrl).kysely);
    await sql`alter table jobs add constraint refuse_one check (id <> ${sql.lit(rows[0]?.id)})`.execute(target.kysely);

    const run = await copyData(['--from', sourceUrl, '--to', to]);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /owners: \d+\/\d+ \(100%\)/);
    assert.match(run.stderr, /Copying jobs failed after \d+ of \d+ rows: .*refuse_one/);
    assert.match(run.stderr, /Nothing was committed/);
    assertNoPassword(run);
    assert.deepEqual(await allRows(target), NO_ROWS);
  });

  test('a text holding U+0000 (stored by earlier versions on SQLite) stops the copy, unless --strip-nul', async (t) => {
    const nulDir = mkdtempSync(join(tmpdir(), 'kmp-copy-nul-'));
    t.after(() => rmSync(nulDir, { recursive: true, force: true }));
    const nulUrl = `sqlite:${join(nulDir, 'nul.db')}`;
    const source = open(t, nulUrl);
    await migrateToLatest(source);
    await insert(source.kysely, { jobs: [jobFixture({ id: 'job_nul', title: 'Hecke\u0000 schneiden' })] });

    const to = await targetUrl(t);
    const refused = await copyData(['--from', nulUrl, '--to', to]);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /jobs\.title of the row job_nul holds a NUL character \(U\+0000\).*--strip-nul/);
    assert.deepEqual(await allRows(open(t, to)), NO_ROWS);

    const stripped = await copyData(['--from', nulUrl, '--to', to, '--strip-nul']);
    assert.equal(stripped.code, 0, stripped.stderr);
    const job = await open(t, to)
      .kysely.selectFrom('jobs')
      .select('title')
      .where('id', '=', 'job_nul')
      .executeTakeFirst();
    assert.equal(job?.title, 'Hecke schneiden');
  });

  test('refuses a source whose migrations differ from this version, before touching the target', async (t) => {
    const behind = `sqlite:${join(dir, 'behind.db')}`;
    const ahead = `sqlite:${join(dir, 'ahead.db')}`;
    for (const url of [behind, ahead]) await migrateToLatest(open(t, url));
    await sql`delete from kysely_migration where name = '0005-geo-index'`.execute(open(t, behind).kysely);
    await sql`insert into kysely_migration (name, timestamp) values ('9999-future', '2030-01-01T00:00:00.000Z')`.execute(
      open(t, ahead).kysely,
    );

    const to = await targetUrl(t);
    const pending = await copyData(['--from', behind, '--to', to]);
    assert.equal(pending.code, 1);
    assert.match(pending.stderr, /source schema is behind \(0005-geo-index pending\).*npm run migrate/);
    const target = open(t, to);
    const { rows } = await sql`select table_name from information_schema.tables
      where table_schema = current_schema()`.execute(target.kysely);
    assert.deepEqual(rows, [], 'the target was left untouched');

    const newer = await copyData(['--from', ahead, '--to', to]);
    assert.equal(newer.code, 1);
    assert.match(newer.stderr, /migrations this version does not know \(9999-future\)/);
    assert.deepEqual(await allRows(target), NO_ROWS);
  });

  test('--help, missing or unusable arguments: a message naming what to do, exit 1', async () => {
    const help = await copyData(['--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^Usage: npm run copy-data -- --from <database URL> --to <database URL> \[--replace\]/);
    const cases: [string[], RegExp][] = [
      [['--from', sourceUrl], /--to is required/],
      [['--from', `sqlite:${join(dir, 'missing.db')}`, '--to', sourceUrl], /There is no SQLite database at/],
      [['--from', sourceUrl, '--to', `sqlite:${dir}/../${dir.split('/').at(-1)}/source.db`], /the same database/],
      [['--from', sourceUrl, '--to', 'postgres://u:pw-never-printed@127.0.0.1:1/x'], /Cannot reach the target/],
      [['--from', sourceUrl, '--to', 'mysql://h/x'], /--to must start with sqlite: or postgres:\/\//],
      [['--form', sourceUrl], /Unknown option '--form'/],
    ];
    const runs = await Promise.all(cases.map(([args]) => copyData(args)));
    runs.forEach((run, i) => {
      assert.equal(run.code, 1, run.stdout);
      assert.match(run.stderr, cases[i]?.[1] ?? /never/);
      assertNoPassword(run);
    });
  });
});

/** The same requests to an app on each database, at the same fixed now, answer the same. */
async function assertSameAnswers(t: TestContext, source: Db, target: Db, api: ApiRows): Promise<void> {
  // Without the delivery worker and the notification sweeps: they would change the copied rows
  // (deliveries; reminders of the seeded bookings' review windows) while they are compared.
  const config = testConfig({
    RATE_LIMIT_ANONYMOUS_PER_MIN: '1000',
    RATE_LIMIT_DEVELOPER_PER_MIN: '1000',
    WEBHOOK_DELIVERY: 'false',
    NOTIFICATION_EMAILS: 'false',
  });
  const apps = await Promise.all([source, target].map((db) => buildApp(config, { db, now: () => NOW })));
  t.after(() => Promise.all(apps.map((app) => app.close())));
  const key = { 'x-api-key': api.renterKey };
  const requests: [string, Record<string, string>?][] = [
    ['/v1/jobs?lat=49.0069&lng=8.4037&radius=20&sort=distance'],
    ['/v1/jobs?category=gardening&sort=price_asc&limit=50'],
    [`/v1/jobs/${api.jobId}`],
    ['/v1/listings?limit=50'],
    [`/v1/listings/${api.listingId}`],
    [`/v1/listings/${api.listingId}/availability`],
    ['/v1/categories'],
    ['/v1/stats'],
    ['/v1/estimate?category=gardening&duration_hours=3'],
    ['/v1/helpers/availability?category=moving'],
    [`/v1/bookings/${api.bookingId}`, key],
    ['/v1/me', key],
  ];
  for (const [url, headers] of requests) {
    const [a, b] = await Promise.all(apps.map((app) => app.inject({ method: 'GET', url, headers: headers ?? {} })));
    assert.equal(a?.statusCode, 200, `${url}: ${a?.body}`);
    assert.equal(b?.statusCode, 200, `${url}: ${b?.body}`);
    const [bodyA, bodyB] = [a?.json(), b?.json()];
    if (url === '/v1/stats') {
      delete bodyA.generated_at;
      delete bodyB.generated_at;
    }
    assert.deepEqual(bodyB, bodyA, url);
  }
}
