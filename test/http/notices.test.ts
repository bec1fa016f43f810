/**
 * Issue 19, DSA notice and action through HTTP on the run's engine: an anonymous report, the
 * platform's decision (the admin command's service), the statement of reasons, an appeal and its
 * reversal, suspension, removed messages and profiles, transparency figures that equal a count
 * over the stored records, and the snapshot each report keeps of its item (migration 0032).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createDb } from '../../src/db/create-db.js';
import { migrateTo, migrateToLatest } from '../../src/db/migrate.js';
import type { Queryable } from '../../src/db/queryable.js';
import { MODERATED_TEXT } from '../../src/domain/erasure.js';
import { parseReportSnapshot } from '../../src/domain/report-snapshot.js';
import { findReport } from '../../src/repositories/notices.js';
import { digestOf } from '../../src/repositories/saved-searches.js';
import { decideAppeal, decideReport } from '../../src/services/notices.js';
import { buildTestApp, clientFor, createKey, NOW } from '../helpers/app.js';
import { helperBody, JOB_BODY, LISTING_BODY } from '../helpers/bodies.js';
import { freshDatabaseUrl } from '../helpers/database.js';
import { jobFixture, listingFixture, ownerFixture } from '../helpers/fixtures.js';

/** What a report kept of its item, as the console reads it (services/console.ts reportFile): null for none. */
async function reportEvidence(db: Queryable, id: string) {
  return parseReportSnapshot((await findReport(db, id))?.snapshot ?? null);
}

const REPORT = {
  reason: 'scam_or_fraud',
  explanation: 'Verlangt Vorkasse per Gutschein, bevor jemand kommt.',
  good_faith: true,
};

async function setUp(t: Parameters<typeof buildTestApp>[0], config: Record<string, string> = {}) {
  let now = NOW.getTime();
  const clock = () => new Date(now);
  const { app, db } = await buildTestApp(t, clock, { REPORTS_PER_HOUR: '1000', ...config });
  const ownerKey = await createKey(db, { email: 'owner@example.org' });
  const owner = clientFor(app, ownerKey.key);
  const other = clientFor(app, (await createKey(db, { email: 'other@example.org' })).key);
  const stranger = clientFor(app, (await createKey(db, { email: 'stranger@example.org' })).key);
  const anonymous = clientFor(app, null);
  const admin = () => ({ db: db.kysely, now: clock(), claim: null });
  return { app, db, owner, ownerKey, other, stranger, anonymous, admin, advance: (ms: number) => (now += ms) };
}

test('a report from an anonymous client through decision, statement, appeal and reversal', async (t) => {
  const { app, db, owner, stranger, anonymous, admin, advance } = await setUp(t);
  const job = (await owner.post('/v1/jobs', { ...JOB_BODY, title: 'Gutscheinhecke schneiden' })).body;
  const openBefore = (await anonymous.get('/v1/stats')).body.totals.open_jobs;

  // Bad notices say what is wrong.
  const notFaith = await anonymous.post('/v1/reports', {
    ...REPORT,
    about: { type: 'job', id: job.id },
    good_faith: false,
  });
  assert.equal(notFaith.status, 400);
  assert.equal(notFaith.body.param, 'good_faith');
  const badReason = await anonymous.post('/v1/reports', {
    ...REPORT,
    about: { type: 'job', id: job.id },
    reason: 'boring',
  });
  assert.equal(badReason.status, 400);
  assert.equal(badReason.body.error, 'invalid_enum_value');
  const unseen = await anonymous.post('/v1/reports', { ...REPORT, about: { type: 'job', id: 'job_00000000000000ff' } });
  assert.equal(unseen.status, 404);
  assert.equal(unseen.body.param, 'about.id');

  const filed = await anonymous.post('/v1/reports', {
    ...REPORT,
    about: { type: 'job', id: job.id },
    reporter_email: 'melder@example.org',
  });
  assert.equal(filed.status, 201, filed.raw);
  assert.equal(filed.headers.location, `/v1/reports/${filed.body.id}`);
  assert.equal(filed.body.status, 'received');
  assert.match(filed.body.report_token, /^rtk_[A-Za-z0-9]{32}$/);
  const token = filed.body.report_token as string;
  const reportUrl = `/v1/reports/${filed.body.id}`;
  assert.equal((await anonymous.get(reportUrl)).status, 404, 'no token');
  assert.equal((await stranger.get(reportUrl)).status, 404, 'another key');
  const byToken = async (value: string) => {
    const response = await app.inject({ method: 'GET', url: reportUrl, headers: { 'x-report-token': value } });
    return { status: response.statusCode, body: response.json() };
  };
  assert.equal((await byToken(`rtk_${'x'.repeat(32)}`)).status, 404, 'a wrong token');
  const received = await byToken(token);
  assert.equal(received.status, 200);
  assert.deepEqual(
    [received.body.status, received.body.outcome, received.body.report_token],
    ['received', null, undefined],
  );

  // Decided: removed at once from every public read, search, count and stream replay.
  advance(3 * 3_600_000);
  const { decision } = await decideReport(admin(), filed.body.id, {
    action: 'remove',
    ground: 'terms',
    explanation: 'Vorkasse per Gutschein verstößt gegen Nr. 4.2 der Nutzungsbedingungen.',
  });
  assert.equal((await anonymous.get(`/v1/jobs/${job.id}`)).status, 404);
  assert.equal((await stranger.get(`/v1/jobs/${job.id}`)).status, 404);
  assert.equal((await anonymous.get('/v1/jobs?q=Gutscheinhecke')).body.total, 0);
  assert.equal((await anonymous.get('/v1/stats')).body.totals.open_jobs, openBefore - 1);
  const mine = await owner.get(`/v1/jobs/${job.id}`);
  assert.equal(mine.status, 200);
  assert.equal(mine.body.status, 'removed');
  assert.equal(mine.headers['cache-control'], 'private, no-store');
  assert.equal((await anonymous.get(`/v1/jobs/${job.id}`)).status, 404, 'the owner’s answer is not shared');
  const publicEvents = await db.kysely
    .selectFrom('events')
    .select('id')
    .where('subject_id', '=', job.id)
    .where('audience', 'is', null)
    .execute();
  assert.equal(publicEvents.length, 0, 'the stream no longer replays it');
  const told = await db.kysely.selectFrom('events').selectAll().where('type', '=', 'moderation.decided').execute();
  assert.equal(told.length, 1);
  assert.equal(told[0]?.subject_id, decision.id);

  // The statement of reasons.
  const list = await owner.get('/v1/me/moderation-decisions');
  assert.equal(list.status, 200, list.raw);
  assert.equal(list.body.total, 1);
  const statement = list.body.data[0];
  assert.deepEqual(
    [
      statement.id,
      statement.about,
      statement.action,
      statement.ground,
      statement.automated,
      statement.prompted_by_report,
    ],
    [decision.id, { type: 'job', id: job.id }, 'remove', 'terms', false, true],
  );
  assert.equal(statement.redress.appeal_until, '2027-05-20T15:00:00.000Z');
  assert.match(statement.redress.appeal, new RegExp(`/v1/me/moderation-decisions/${decision.id}/appeals$`));
  assert.deepEqual((await owner.get(`/v1/me/moderation-decisions/${decision.id}`)).body, statement);
  assert.equal((await stranger.get(`/v1/me/moderation-decisions/${decision.id}`)).status, 404);
  assert.equal(JSON.stringify(statement).includes('melder@example.org'), false, 'the reporter is not named');

  // The reporter follows it by token.
  const outcome = (await byToken(token)).body;
  assert.equal(outcome.status, 'decided');
  assert.equal(outcome.outcome.action, 'remove');

  // Appeal, once; a stranger cannot.
  const appealUrl = `/v1/me/moderation-decisions/${decision.id}/appeals`;
  assert.equal((await stranger.post(appealUrl, { text: 'Das ist nicht meins, aber egal.' })).status, 404);
  const appeal = await owner.post(appealUrl, { text: 'Ich verlange keine Vorkasse; das war ein Missverständnis.' });
  assert.equal(appeal.status, 201, appeal.raw);
  assert.equal(appeal.headers.location, `/v1/me/moderation-decisions/${decision.id}`);
  assert.equal(appeal.body.status, 'pending');
  const again = await owner.post(appealUrl, { text: 'Noch einmal, bitte prüfen Sie das.' });
  assert.equal(again.status, 409);
  assert.equal(again.body.error, 'appeal_not_allowed');

  // Reversed: the job is back for everyone.
  advance(3_600_000);
  await decideAppeal(admin(), appeal.body.id, 'reversed', 'Die Rückfrage hat das Missverständnis aufgeklärt.');
  const back = await anonymous.get(`/v1/jobs/${job.id}`);
  assert.equal(back.status, 200);
  assert.equal(back.body.status, 'open');
  assert.equal((await anonymous.get('/v1/jobs?q=Gutscheinhecke')).body.total, 1);
  const reversed = (await owner.get(`/v1/me/moderation-decisions/${decision.id}`)).body;
  assert.ok(reversed.reversed_at);
  assert.equal(reversed.appeal.status, 'reversed');

  // Transparency equals a count over the stored records.
  const figures = (await anonymous.get('/v1/transparency')).body;
  const month = figures.months[0];
  assert.equal(month.month, '2026-11');
  const counted = async (table: 'reports' | 'appeals') =>
    Number(
      (
        await db.kysely
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirst()
      )?.n,
    );
  assert.equal(month.notices.scam_or_fraud, await counted('reports'));
  assert.equal(
    Object.values(month.notices as Record<string, number>).reduce((a, b) => a + b, 0),
    await counted('reports'),
  );
  assert.deepEqual(month.decisions, { remove: 1, restrict_visibility: 0, suspend_account: 0, no_action: 0 });
  assert.deepEqual(month.decisions_by_ground, { legal: 0, terms: 1 });
  assert.equal(month.median_hours_to_decision, 3);
  assert.equal(month.appeals, await counted('appeals'));
  assert.equal(month.reversals, 1);
  assert.equal(figures.months.length, 12);
});

test('suspension refuses the account’s keys but for its statements, appeal and export; messages and profiles removed', async (t) => {
  const { db, owner, other, anonymous, admin } = await setUp(t);
  const listing = (await other.post('/v1/listings', LISTING_BODY)).body;
  const helper = (await other.post('/v1/helpers', helperBody('Otto O.'))).body;
  const conversation = await owner.post('/v1/conversations', {
    about: { type: 'listing', id: listing.id },
    text: 'Ist das Zelt noch frei?',
  });
  assert.equal(conversation.status, 201, conversation.raw);
  const reply = await other.post(`/v1/conversations/${conversation.body.id}/messages`, { text: 'Beleidigung hier.' });
  assert.equal(reply.status, 201, reply.raw);

  // A message: only its parties can report it, and then it reads as removed for both.
  const aboutMessage = { ...REPORT, reason: 'discrimination_or_hate', about: { type: 'message', id: reply.body.id } };
  assert.equal((await anonymous.post('/v1/reports', aboutMessage)).status, 404);
  const onMessage = await owner.post('/v1/reports', aboutMessage);
  assert.equal(onMessage.status, 201, onMessage.raw);
  assert.equal((await owner.get(`/v1/reports/${onMessage.body.id}`)).status, 200, 'the reporting key reads it');
  await decideReport(admin(), onMessage.body.id, {
    action: 'remove',
    ground: 'legal',
    explanation: '§ 185 StGB (Beleidigung).',
  });
  for (const reader of [owner, other]) {
    const texts = (await reader.get(`/v1/conversations/${conversation.body.id}/messages`)).body.data.map(
      (m: { text: string }) => m.text,
    );
    assert.deepEqual(texts, ['Ist das Zelt noch frei?', MODERATED_TEXT]);
  }

  // A helper profile: gone for the public, still there for its account.
  const onHelper = await anonymous.post('/v1/reports', { ...REPORT, about: { type: 'helper', id: helper.id } });
  await decideReport(admin(), onHelper.body.id, {
    action: 'restrict_visibility',
    ground: 'terms',
    explanation: 'Gefälschte Angaben.',
  });
  assert.equal((await anonymous.get(`/v1/helpers/${helper.id}`)).status, 404);
  assert.equal((await other.get(`/v1/helpers/${helper.id}`)).status, 200);

  // Suspension of the account behind the listing.
  const onListing = await anonymous.post('/v1/reports', { ...REPORT, about: { type: 'listing', id: listing.id } });
  const { decision } = await decideReport(admin(), onListing.body.id, {
    action: 'suspend_account',
    ground: 'terms',
    explanation: 'Wiederholte Verstöße (Nr. 7 der Nutzungsbedingungen).',
  });
  const refused = await other.get('/v1/jobs');
  assert.equal(refused.status, 403);
  assert.equal(refused.body.error, 'account_suspended');
  assert.match(refused.body.suggestion, /moderation-decisions/);
  assert.equal((await other.post('/v1/jobs', JOB_BODY)).status, 403);
  assert.equal((await other.get('/v1/me')).status, 200);
  assert.equal((await other.get('/v1/me/export')).status, 200);
  // Open are only the routes that say so (config.openWhileSuspended), not every path under /v1/me.
  assert.equal((await other.get('/v1/me/provider')).status, 403);
  const statements = (await other.get('/v1/me/moderation-decisions')).body;
  assert.equal(statements.total, 3, 'the message, the profile and the suspension');
  const appeal = await other.post(`/v1/me/moderation-decisions/${decision.id}/appeals`, {
    text: 'Ich habe nichts Verbotenes angeboten.',
  });
  assert.equal(appeal.status, 201, appeal.raw);
  await decideAppeal(admin(), appeal.body.id, 'upheld', 'Die Verstöße sind belegt.');
  assert.equal((await other.get('/v1/jobs')).status, 403, 'upheld: still suspended');
  assert.equal((await other.get(`/v1/me/moderation-decisions/${decision.id}`)).body.appeal.status, 'upheld');
  const events = await db.kysely.selectFrom('events').select('type').where('type', '=', 'moderation.decided').execute();
  assert.equal(events.length, 4, 'three decisions and the appeal’s outcome');
  // Erasure stays a right while suspended (GDPR Art. 17); the decision, a DSA record, is kept.
  const erased = await other.delete('/v1/me', { confirm: 'other@example.org' });
  assert.equal(erased.status, 202, erased.raw);
  assert.equal((await other.get('/v1/me')).status, 401, 'the erased account’s key is gone');
  const kept = await db.kysely.selectFrom('moderation_decisions').select('id').where('id', '=', decision.id).execute();
  assert.equal(kept.length, 1, 'the decision stays');
});

test('every read of a removed listing, job or helper answers 404 as an unknown id does', async (t) => {
  const { app, db, owner, other, stranger, anonymous, admin } = await setUp(t);
  const searcherKey = await createKey(db, { email: 'searcher@example.org' });
  const searcher = clientFor(app, searcherKey.key);
  const listingSearch = (
    await searcher.post('/v1/saved-searches', {
      name: 'Bänke',
      resource: 'listings',
      query: { category: 'EVENTS' },
      email_digest: true,
    })
  ).body;
  const jobSearch = (
    await searcher.post('/v1/saved-searches', {
      name: 'Garten',
      resource: 'jobs',
      query: { category: 'GARDENING' },
      email_digest: true,
    })
  ).body;
  const title = 'Festzeltgarnitur Spezial';
  const listing = (await owner.post('/v1/listings', { ...LISTING_BODY, title, instant_booking: true })).body;
  const booked = await other.post(`/v1/listings/${listing.id}/bookings`, {
    start_date: '2026-12-01',
    end_date: '2026-12-03',
  });
  assert.equal(booked.status, 201, booked.raw);
  const feed = (await other.post('/v1/me/calendar-feed')).body.url as string;
  const helper = (await owner.post('/v1/helpers', helperBody('Hanna H.'))).body;
  const job = (await owner.post('/v1/jobs', { ...JOB_BODY, title: 'Gutscheinhecke schneiden' })).body;
  const strangerHelper = (await stranger.post('/v1/helpers', helperBody('Sven S.'))).body;
  const ics = async (url: string) => {
    const response = await app.inject({ method: 'GET', url });
    return { status: response.statusCode, text: response.body };
  };

  // Before: every read answers.
  const listingReads = ['calendar.ics', 'availability', 'reviews'].map((read) => `/v1/listings/${listing.id}/${read}`);
  for (const url of listingReads) assert.equal((await ics(url)).status, 200, url);
  assert.ok((await ics(listingReads[0] as string)).text.includes(title));
  assert.equal((await anonymous.get(`/v1/helpers/${helper.id}/reviews`)).status, 200);
  assert.ok((await ics(feed)).text.includes(title), 'the renter’s private feed names the listing');
  assert.equal((await searcher.get(`/v1/saved-searches/${listingSearch.id}/matches`)).body.total, 1);
  assert.equal((await searcher.get(`/v1/saved-searches/${jobSearch.id}/matches`)).body.total, 1);

  for (const about of [
    { type: 'listing', id: listing.id },
    { type: 'job', id: job.id },
    { type: 'helper', id: helper.id },
  ]) {
    const report = await anonymous.post('/v1/reports', { ...REPORT, about });
    assert.equal(report.status, 201, report.raw);
    await decideReport(admin(), report.body.id, { action: 'remove', ground: 'terms', explanation: 'Verstoß.' });
  }

  // After: the same 404 as an id that never existed, for anyone (its owner and its renter too).
  const unknown = { listing: 'lst_ffffffffffffffff', job: 'job_ffffffffffffffff', helper: 'hlp_ffffffffffffffff' };
  const sameAsUnknown = async (
    send: (id: string) => Promise<{ status: number; body: unknown }>,
    removedId: string,
    unknownId: string,
    what: string,
  ) => {
    const removed = await send(removedId);
    const never = await send(unknownId);
    assert.equal(never.status, 404, what);
    assert.deepEqual(
      { status: removed.status, body: JSON.stringify(removed.body).replaceAll(removedId, '{id}') },
      { status: 404, body: JSON.stringify(never.body).replaceAll(unknownId, '{id}') },
      what,
    );
  };
  for (const client of [anonymous, owner, other, stranger]) {
    for (const read of ['calendar.ics', 'availability', 'reviews']) {
      await sameAsUnknown(
        (id) => client.get(`/v1/listings/${id}/${read}`),
        listing.id,
        unknown.listing,
        `listing ${read}`,
      );
    }
    await sameAsUnknown((id) => client.get(`/v1/helpers/${id}/reviews`), helper.id, unknown.helper, 'helper reviews');
  }
  // A write tells no more than a read: booking the listing or applying to the job is 404, not "409 removed".
  await sameAsUnknown(
    (id) => stranger.post(`/v1/listings/${id}/bookings`, { start_date: '2026-12-10', end_date: '2026-12-11' }),
    listing.id,
    unknown.listing,
    'booking',
  );
  await sameAsUnknown(
    (id) => stranger.post(`/v1/jobs/${id}/applications`, { helper_id: strangerHelper.id }),
    job.id,
    unknown.job,
    'application',
  );
  const renterFeed = await ics(feed);
  assert.equal(renterFeed.status, 200);
  assert.ok(!renterFeed.text.includes(title), 'the private feed no longer names it');
  for (const search of [listingSearch, jobSearch]) {
    const matches = (await searcher.get(`/v1/saved-searches/${search.id}/matches`)).body;
    assert.deepEqual([matches.total, matches.data], [0, []], search.name);
  }
  const digest = await digestOf(db.kysely, searcherKey.accountId, null);
  assert.deepEqual(digest?.searches, [], 'no digest e-mail carries them');
});

test('reports have their own hourly budget per address (429 with Retry-After)', async (t) => {
  const { owner, anonymous } = await setUp(t, { REPORTS_PER_HOUR: '2' });
  const job = (await owner.post('/v1/jobs', JOB_BODY)).body;
  const body = { ...REPORT, about: { type: 'job', id: job.id } };
  assert.equal((await anonymous.post('/v1/reports', body)).status, 201);
  assert.equal((await anonymous.post('/v1/reports', body)).status, 201);
  const third = await anonymous.post('/v1/reports', body);
  assert.equal(third.status, 429);
  assert.equal(third.body.error, 'rate_limit_exceeded');
  assert.ok(Number(third.headers['retry-after']) > 0);
  assert.equal((await owner.post('/v1/reports', body)).status, 201, 'a key has a budget of its own');
});

test('a report keeps what the item said when reported: after an edit, never answered, dropped by its account’s erasure', async (t) => {
  const { db, owner, ownerKey, other, anonymous, admin } = await setUp(t);
  const accountOf = async (email: string) =>
    (await db.kysely.selectFrom('accounts').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
  const otherId = await accountOf('other@example.org');
  const job = (await owner.post('/v1/jobs', { ...JOB_BODY, title: 'Gutscheinhecke schneiden' })).body;
  const listing = (await other.post('/v1/listings', LISTING_BODY)).body;
  const helper = (await other.post('/v1/helpers', { ...helperBody('Otto O.'), bio: 'Hecken und Rasen.' })).body;
  const conversation = await owner.post('/v1/conversations', {
    about: { type: 'listing', id: listing.id },
    text: 'Ist das Zelt noch frei?',
  });
  assert.equal(conversation.status, 201, conversation.raw);
  const message = await other.post(`/v1/conversations/${conversation.body.id}/messages`, {
    text: 'Nur gegen Vorkasse.',
  });
  assert.equal(message.status, 201, message.raw);
  await db.kysely
    .insertInto('reviews')
    .values({
      id: 'rev_00000000000000a1',
      about_type: 'application',
      about_id: 'app_00000000000000a1',
      author_side: 'client',
      author_account_id: otherId,
      author_name: 'Otto O.',
      helper_id: helper.id,
      owner_id: null,
      listing_id: null,
      reviewed_account_id: null,
      rating: 1,
      text: `Betrug! ${'x'.repeat(4100)}`,
      created_at: NOW.toISOString(),
      window_closes_at: NOW.toISOString(),
      published_at: NOW.toISOString(),
      reply: null,
      replied_at: null,
    })
    .execute();

  const file = async (client: typeof owner, about: { type: string; id: string }) => {
    const filed = await client.post('/v1/reports', { ...REPORT, about });
    assert.equal(filed.status, 201, filed.raw);
    return filed;
  };
  const onJob = await file(other, { type: 'job', id: job.id });
  // The API answers as before: no snapshot, no account of the item, when filed and when read.
  const answered = ['about', 'created_at', 'id', 'outcome', 'reason', 'report_token', 'status'];
  assert.deepEqual(Object.keys(onJob.body).sort(), answered);
  const read = await other.get(`/v1/reports/${onJob.body.id}`);
  assert.deepEqual(
    Object.keys(read.body).sort(),
    answered.filter((key) => key !== 'report_token'),
  );
  assert.ok(!/Gutscheinhecke|snapshot|about_account/.test(read.raw + onJob.raw), read.raw);

  // The owner edits the job: the report keeps what it said then, its place as the public view names it.
  const edited = await owner.patch(`/v1/jobs/${job.id}`, { title: 'Hecke schneiden', description: 'Ganz normal.' });
  assert.equal(edited.status, 200, edited.raw);
  assert.equal(edited.body.title, 'Hecke schneiden');
  const { city, plz, district } = job.location;
  assert.deepEqual(await reportEvidence(db.kysely, onJob.body.id), {
    type: 'job',
    version: 1,
    title: 'Gutscheinhecke schneiden',
    description: JOB_BODY.description,
    category: 'GARDENING',
    price_cents: 6000,
    photos: [],
    city,
    plz,
    district,
    truncated: false,
  });

  // Nor the reporter's export: the snapshot is the other account's words, not the reporter's data.
  const exported = await other.get('/v1/me/export');
  assert.equal(exported.status, 200);
  assert.equal(exported.body.reports_filed.length, 1);
  assert.ok(!/Gutscheinhecke|snapshot|about_account/.test(exported.raw), 'the export shows no snapshot');

  // Each kind of item: what its public view shows (a message: its text as written and its sender).
  const onListing = await file(anonymous, { type: 'listing', id: listing.id });
  const onHelper = await file(anonymous, { type: 'helper', id: helper.id });
  const onReview = await file(anonymous, { type: 'review', id: 'rev_00000000000000a1' });
  const onMessage = await file(owner, { type: 'message', id: message.body.id });
  const evidence = async (report: { body: { id: string } }) => {
    const snapshot = (await reportEvidence(db.kysely, report.body.id)) as Record<string, unknown> | null;
    assert.ok(snapshot, report.body.id);
    const { city: _c, plz: _p, district: _d, ...rest } = snapshot;
    return rest;
  };
  assert.deepEqual(await evidence(onListing), {
    type: 'listing',
    version: 1,
    title: LISTING_BODY.title,
    description: LISTING_BODY.description,
    category: 'EVENTS',
    condition: 'good',
    price_per_day_cents: 800,
    photos: [],
    truncated: false,
  });
  assert.deepEqual(await evidence(onHelper), {
    type: 'helper',
    version: 1,
    display_name: 'Otto O.',
    bio: 'Hecken und Rasen.',
    hourly_rate_cents: 1800,
    categories: ['GARDENING'],
    truncated: false,
  });
  const review = await evidence(onReview);
  assert.deepEqual(
    { ...review, text: (review.text as string).length },
    {
      type: 'review',
      version: 1,
      rating: 1,
      text: 4000,
      truncated: true,
    },
  );
  assert.deepEqual(await evidence(onMessage), {
    type: 'message',
    version: 1,
    sender_account_id: otherId,
    text: 'Nur gegen Vorkasse.',
    sent_at: message.body.created_at,
    truncated: false,
  });
  const stored = await db.kysely
    .selectFrom('reports')
    .select(['id', 'about_account_id', 'snapshot'])
    .orderBy('id')
    .execute();
  const aboutAccount = new Map(stored.map((row) => [row.id, row.about_account_id]));
  assert.equal(aboutAccount.get(onJob.body.id), ownerKey.accountId);
  for (const report of [onListing, onHelper, onReview, onMessage]) {
    assert.equal(aboutAccount.get(report.body.id), otherId);
  }
  // No exact place, no coordinates: only the place names of the public view.
  assert.ok(stored.every((row) => row.snapshot !== null && !/lat|lng|exact|email/.test(row.snapshot)));

  // Decided and removed, the item changes; the evidence does not.
  await decideReport(admin(), onMessage.body.id, { action: 'remove', ground: 'terms', explanation: 'Vorkasse.' });
  assert.equal((await evidence(onMessage)).text, 'Nur gegen Vorkasse.');
  assert.equal(await reportEvidence(db.kysely, 'rpt_ffffffffffffffff'), null, 'an unknown report');

  // The job's owner erases the account: the snapshot of its job goes, the report stays; the report
  // it filed about the message keeps the other account's message, no longer tied to the reporter.
  const erased = await owner.delete('/v1/me', { confirm: 'owner@example.org' });
  assert.equal(erased.status, 202, erased.raw);
  assert.equal(await reportEvidence(db.kysely, onJob.body.id), null);
  const afterJob = await db.kysely
    .selectFrom('reports')
    .select(['status', 'about_account_id', 'snapshot'])
    .where('id', '=', onJob.body.id)
    .executeTakeFirstOrThrow();
  assert.deepEqual(afterJob, { status: 'received', about_account_id: ownerKey.accountId, snapshot: null });
  const filedByErased = await db.kysely
    .selectFrom('reports')
    .select(['reporter_account_id', 'snapshot'])
    .where('id', '=', onMessage.body.id)
    .executeTakeFirstOrThrow();
  assert.equal(filedByErased.reporter_account_id, null);
  assert.equal((await evidence(onMessage)).text, 'Nur gegen Vorkasse.');

  // The other account's erasure drops the snapshots of its listing, profile, review and message.
  assert.equal((await other.delete('/v1/me', { confirm: 'other@example.org' })).status, 202);
  for (const report of [onListing, onHelper, onReview, onMessage]) {
    assert.equal(await reportEvidence(db.kysely, report.body.id), null, report.body.id);
  }
});

test('migration 0032: reports filed before it get the account of their item and no snapshot', async (t) => {
  const db = createDb(await freshDatabaseUrl(t, { file: false }));
  t.after(() => db.close());
  await migrateTo(db, '0031-operators-and-audit');
  const k = db.kysely as any;
  const accountId = 'acc_00000000000000a1';
  const job = jobFixture({ owner_account_id: accountId });
  const seededJob = jobFixture();
  const owner = ownerFixture({ account_id: accountId });
  const listing = listingFixture(owner.id);
  await k.insertInto('jobs').values([job, seededJob]).execute();
  await k.insertInto('owners').values(owner).execute();
  await k.insertInto('listings').values(listing).execute();
  const report = (id: string, type: string, aboutId: string) => ({
    id,
    about_type: type,
    about_id: aboutId,
    reason: 'other',
    explanation: 'Vor 0032 gemeldet.',
    reporter_email: null,
    reporter_account_id: null,
    token_hash: id.slice(-1).repeat(64),
    status: 'received',
    decision_id: null,
    created_at: NOW.toISOString(),
    decided_at: null,
  });
  await k
    .insertInto('reports')
    .values([
      report('rpt_00000000000000a1', 'job', job.id),
      report('rpt_00000000000000a2', 'job', seededJob.id),
      report('rpt_00000000000000a3', 'listing', listing.id),
      report('rpt_00000000000000a4', 'message', 'msg_00000000000000ff'),
    ])
    .execute();
  await migrateToLatest(db);
  const rows = await db.kysely
    .selectFrom('reports')
    .select(['id', 'about_account_id', 'snapshot'])
    .orderBy('id')
    .execute();
  assert.deepEqual(rows, [
    { id: 'rpt_00000000000000a1', about_account_id: accountId, snapshot: null },
    { id: 'rpt_00000000000000a2', about_account_id: null, snapshot: null },
    { id: 'rpt_00000000000000a3', about_account_id: accountId, snapshot: null },
    { id: 'rpt_00000000000000a4', about_account_id: null, snapshot: null },
  ]);
  assert.equal(await reportEvidence(db.kysely, 'rpt_00000000000000a1'), null);
});
