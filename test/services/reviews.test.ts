import assert from 'node:assert/strict';
import { describe, type TestContext, test } from 'node:test';
import { FRESH_HISTORY, reliabilityScore } from '../../src/domain/reliability.js';
import { publishClosedReviews } from '../../src/services/reviews.js';
import { buildTestApp, type Client, clientFor, createKey, NOW } from '../helpers/app.js';

const DAY_MS = 86_400_000;

const JOB = {
  title: 'Umzugskartons tragen',
  description: 'Zehn Kartons in den dritten Stock, ohne Aufzug.',
  category: 'MOVING',
  price_eur: 80,
  location: { plz: '76131' },
};

/** An app on a clock the test moves; a job owner, a helper account with its helper, and a stranger. */
async function setup(t: TestContext) {
  let now = NOW;
  const { app, db } = await buildTestApp(t, () => now);
  // Accounts two days old: what they review and complete counts (NEW_ACCOUNT_HOURS, domain/reliability.ts).
  const client = async (email: string) =>
    clientFor(app, (await createKey(db, { email }, new Date(NOW.getTime() - 2 * DAY_MS))).key);
  const owner = await client('owner@example.org');
  const helper = await client('helper@example.org');
  const stranger = await client('stranger@example.org');
  const registered = await helper.post('/v1/helpers', {
    display_name: 'Jonas W.',
    categories: ['MOVING'],
    location: { plz: '76227' },
    hourly_rate_eur: 18,
  });
  assert.equal(registered.status, 201);
  return {
    app,
    db,
    owner,
    helper,
    stranger,
    anonymous: clientFor(app, null),
    helperId: registered.body.id as string,
    advance: (ms: number) => {
      now = new Date(now.getTime() + ms);
      return now;
    },
    now: () => now,
  };
}

type Setup = Awaited<ReturnType<typeof setup>>;

/** Posts a job, the helper applies, the owner accepts; completes it unless told not to. */
async function acceptedJob(s: Setup, complete = true) {
  const job = await s.owner.post('/v1/jobs', JOB);
  assert.equal(job.status, 201);
  s.advance(30 * 60_000);
  const applied = await s.helper.post(`/v1/jobs/${job.body.id}/applications`, { helper_id: s.helperId });
  assert.equal(applied.status, 201);
  const accepted = await s.owner.post(`/v1/jobs/${job.body.id}/applications/${applied.body.id}/accept`);
  assert.equal(accepted.status, 200);
  const ids = { jobId: job.body.id as string, applicationId: applied.body.id as string };
  if (complete) {
    s.advance(DAY_MS); // The work is done: not before (completion_too_early).
    assert.equal((await s.owner.post(`/v1/jobs/${job.body.id}/complete`)).status, 200);
    await confirmed(s.helper, ids);
  }
  return ids;
}

/** The helper confirms the completion: final, the reviews open (issue 30, 3). */
async function confirmed(helper: Client, ids: { jobId: string; applicationId: string }) {
  const confirm = await helper.post(`/v1/jobs/${ids.jobId}/applications/${ids.applicationId}/confirm-completion`);
  assert.equal(confirm.status, 200, confirm.raw);
  assert.equal(confirm.body.completion.state, 'confirmed');
}

const reviewsUrl = (ids: { jobId: string; applicationId: string }) =>
  `/v1/jobs/${ids.jobId}/applications/${ids.applicationId}/reviews`;

describe('reviews of a completed job: double-blind', () => {
  test('the whole story: hidden until both reviewed, then both at once; the figures move in the next read', async (t) => {
    const s = await setup(t);
    const fresh = (await s.anonymous.get(`/v1/helpers/${s.helperId}`)).body.reliability;
    assert.deepEqual(fresh, {
      reliability_score: reliabilityScore(FRESH_HISTORY),
      completed_jobs: 0,
      avg_response_minutes: 0,
      cancellation_rate: 0,
      rating_avg: 0,
      rating_count: 0,
      verified: false,
    });

    const ids = await acceptedJob(s, false);
    const early = await s.owner.post(reviewsUrl(ids), { rating: 5 });
    assert.equal(early.status, 409);
    assert.equal(early.body.error, 'not_reviewable');
    assert.match(early.body.message, /^The job is assigned; reviews open when its owner completes it/);

    // Applying 30 minutes after the posting, accepted, then completed: the next read shows it.
    const before = (await s.anonymous.get(`/v1/helpers/${s.helperId}`)).body.reliability;
    assert.deepEqual([before.completed_jobs, before.avg_response_minutes], [0, 30]);
    s.advance(DAY_MS);
    assert.equal((await s.owner.post(`/v1/jobs/${ids.jobId}/complete`)).status, 200);
    await confirmed(s.helper, ids);
    const completed = (await s.anonymous.get(`/v1/helpers/${s.helperId}`)).body.reliability;
    assert.equal(completed.completed_jobs, 1);
    assert.equal(
      completed.reliability_score,
      reliabilityScore({ ...FRESH_HISTORY, completed: 1, commitments: 1, responseMinutes: [30] }),
    );

    s.advance(DAY_MS);
    const first = await s.owner.post(reviewsUrl(ids), { rating: 5, text: 'Pünktlich und sorgfältig.' });
    assert.equal(first.status, 201, JSON.stringify(first.body));
    assert.equal(first.headers.location, `/v1/reviews/${first.body.id}`);
    assert.match(first.body.id, /^rev_[0-9a-f]{16}$/);
    assert.deepEqual(first.body, {
      id: first.body.id,
      about: { type: 'application', id: ids.applicationId },
      side: 'client',
      author_name: 'Test D.',
      rating: 5,
      text: 'Pünktlich und sorgfältig.',
      created_at: s.now().toISOString(),
      published: false,
      published_at: null,
      window_closes_at: new Date(Date.parse(s.now().toISOString()) - DAY_MS + 14 * DAY_MS).toISOString(),
      reply: null,
    });
    // Hidden: not in the public list, not for the reviewed helper, not in the figures.
    const hidden = await s.anonymous.get(`/v1/helpers/${s.helperId}/reviews`);
    assert.deepEqual(hidden.body, { data: [], total: 0, limit: 20, offset: 0, has_more: false });
    assert.equal((await s.helper.get(`/v1/reviews/${first.body.id}`)).status, 404);
    assert.equal((await s.owner.get(`/v1/reviews/${first.body.id}`)).body.published, false);
    assert.equal((await s.anonymous.get(`/v1/helpers/${s.helperId}`)).body.reliability.rating_count, 0);

    s.advance(60_000);
    const second = await s.helper.post(reviewsUrl(ids), { rating: 4 });
    assert.equal(second.status, 201);
    assert.deepEqual([second.body.side, second.body.author_name, second.body.published], ['helper', 'Jonas W.', true]);
    const published = await s.anonymous.get(`/v1/helpers/${s.helperId}/reviews`);
    assert.deepEqual(published.body, {
      data: [
        {
          id: first.body.id,
          rating: 5,
          text: 'Pünktlich und sorgfältig.',
          author_name: 'Test D.',
          created_at: first.body.created_at,
          published_at: s.now().toISOString(),
          reply: null,
        },
      ],
      total: 1,
      limit: 20,
      offset: 0,
      has_more: false,
    });
    assert.ok(!JSON.stringify(published.body).includes('acc_'), 'no account ids in public reads');
    assert.ok(!JSON.stringify(published.body).includes('@'), 'no emails in public reads');
    const seen = await s.helper.get(`/v1/reviews/${first.body.id}`);
    assert.deepEqual([seen.status, seen.body.published], [200, true]);
    const rated = (await s.anonymous.get(`/v1/helpers/${s.helperId}`)).body.reliability;
    assert.deepEqual([rated.rating_avg, rated.rating_count, rated.completed_jobs], [5, 1, 1]);
    assert.equal(
      rated.reliability_score,
      reliabilityScore({ ...FRESH_HISTORY, completed: 1, commitments: 1, responseMinutes: [30], ratings: [5] }),
    );
    assert.ok(rated.reliability_score > completed.reliability_score);

    // Both parties hear of both publications, privately.
    const events = await s.db.kysely
      .selectFrom('events')
      .select(['type', 'audience'])
      .where('type', '=', 'review.published')
      .execute();
    assert.equal(events.length, 2);
    for (const event of events) assert.equal(JSON.parse(event.audience ?? '[]').length, 2);
  });

  test('one review per side (409), a third account gets 404, a reply once by the reviewed party', async (t) => {
    const s = await setup(t);
    const ids = await acceptedJob(s);
    const review = await s.owner.post(reviewsUrl(ids), { rating: 3 });
    assert.equal(review.status, 201);
    const again = await s.owner.post(reviewsUrl(ids), { rating: 4 });
    assert.deepEqual([again.status, again.body.error], [409, 'already_reviewed']);
    const stranger = await s.stranger.post(reviewsUrl(ids), { rating: 1 });
    assert.deepEqual([stranger.status, stranger.body.error, stranger.body.param], [404, 'not_found', 'application_id']);
    assert.equal((await s.stranger.get(`/v1/reviews/${review.body.id}`)).status, 404);

    // Unpublished: the helper cannot reply yet (404), then the helper's own review publishes both.
    assert.equal((await s.helper.post(`/v1/reviews/${review.body.id}/reply`, { text: 'Danke!' })).status, 404);
    assert.equal((await s.helper.post(reviewsUrl(ids), { rating: 5 })).status, 201);
    const replied = await s.helper.post(`/v1/reviews/${review.body.id}/reply`, { text: 'Danke, gerne wieder!' });
    assert.equal(replied.status, 201);
    assert.equal(replied.headers.location, `/v1/reviews/${review.body.id}`);
    assert.deepEqual(replied.body.reply, { text: 'Danke, gerne wieder!', created_at: s.now().toISOString() });
    const twice = await s.helper.post(`/v1/reviews/${review.body.id}/reply`, { text: 'Noch was.' });
    assert.deepEqual([twice.status, twice.body.error], [409, 'already_replied']);
    assert.equal((await s.owner.post(`/v1/reviews/${review.body.id}/reply`, { text: 'Ich?' })).status, 404);
    assert.equal((await s.stranger.post(`/v1/reviews/${review.body.id}/reply`, { text: 'Ich?' })).status, 404);
    const list = await s.anonymous.get(`/v1/helpers/${s.helperId}/reviews`);
    assert.equal(list.body.data[0].reply.text, 'Danke, gerne wieder!');
  });

  test('public reviews never show contact data: the shield masks texts and replies for everyone', async (t) => {
    const s = await setup(t);
    const ids = await acceptedJob(s);
    const review = await s.owner.post(reviewsUrl(ids), { rating: 5, text: 'Top! Erreichbar unter 0171 2345678' });
    assert.equal(review.status, 201);
    // Its author reads it as written.
    assert.equal(review.body.text, 'Top! Erreichbar unter 0171 2345678');
    assert.equal((await s.helper.post(reviewsUrl(ids), { rating: 5 })).status, 201);
    const reply = await s.helper.post(`/v1/reviews/${review.body.id}/reply`, { text: 'Danke! jonas at web dot de' });
    assert.equal(reply.status, 201);
    const list = await s.anonymous.get(`/v1/helpers/${s.helperId}/reviews`);
    assert.equal(list.body.data[0].text, 'Top! Erreichbar unter [contact data hidden]');
    assert.equal(list.body.data[0].reply.text, 'Danke! [contact data hidden]');
    assert.doesNotMatch(JSON.stringify(list.body), /2345678|web dot de/);
  });

  test('the window: a lone review is published when it closes, at read time; then review_window_closed', async (t) => {
    const s = await setup(t);
    const ids = await acceptedJob(s);
    const lone = await s.owner.post(reviewsUrl(ids), { rating: 2 });
    assert.equal(lone.status, 201);
    s.advance(14 * DAY_MS - 1000);
    assert.equal((await s.anonymous.get(`/v1/helpers/${s.helperId}/reviews`)).body.total, 0);
    s.advance(1000);
    // No request and no background job happened: the read itself shows it published.
    const open = await s.anonymous.get(`/v1/helpers/${s.helperId}/reviews`);
    assert.equal(open.body.total, 1);
    assert.equal(open.body.data[0].published_at, lone.body.window_closes_at);
    const late = await s.helper.post(reviewsUrl(ids), { rating: 5 });
    assert.deepEqual([late.status, late.body.error], [409, 'review_window_closed']);

    // The background publication writes it, with its event, and the figures count it.
    assert.equal(await publishClosedReviews({ db: s.db.kysely, now: s.now(), claim: null }), 1);
    assert.equal(await publishClosedReviews({ db: s.db.kysely, now: s.now(), claim: null }), 0);
    const rated = (await s.anonymous.get(`/v1/helpers/${s.helperId}`)).body.reliability;
    assert.deepEqual([rated.rating_avg, rated.rating_count], [2, 1]);
  });

  test('bodies: rating 1-5 integer, text at most 2000 characters, nothing else', async (t) => {
    const s = await setup(t);
    const ids = await acceptedJob(s);
    for (const body of [
      { rating: 0 },
      { rating: 6 },
      { rating: 4.5 },
      {},
      { rating: 4, text: 'x'.repeat(2001) },
      { rating: 4, extra: 1 },
    ]) {
      const response = await s.owner.post(reviewsUrl(ids), body);
      assert.equal(response.status, 400, JSON.stringify(body));
    }
    const anonymous = await s.anonymous.post(reviewsUrl(ids), { rating: 4 });
    assert.equal(anonymous.status, 401);
    assert.equal((await s.anonymous.get('/v1/helpers/hlp_ffffffffffffffff/reviews')).status, 404);
  });
});

const LISTING = {
  title: 'Bierzeltgarnitur',
  description: 'Ein Tisch und zwei Bänke für acht Personen, mit Transporttaschen.',
  category: 'EVENTS',
  price_per_day_eur: 8,
  deposit_eur: 50,
  condition: 'good',
  location: { plz: '76227' },
  instant_booking: false,
};

describe('reviews of a returned booking', () => {
  test('renter and owner review each other; the listing shows the renter’s; owner_reliability moves', async (t) => {
    const s = await setup(t);
    const owner: Client = s.owner;
    const renter: Client = s.helper;
    const listing = await owner.post('/v1/listings', LISTING);
    assert.equal(listing.status, 201);
    const today = NOW.toISOString().slice(0, 10);
    const booked = await renter.post(`/v1/listings/${listing.body.id}/bookings`, {
      start_date: today,
      end_date: today,
    });
    assert.equal(booked.status, 201);
    const bookingReviews = `/v1/bookings/${booked.body.id}/reviews`;
    s.advance(45 * 60_000);
    for (const action of ['confirm', 'pick-up']) {
      assert.equal((await owner.post(`/v1/bookings/${booked.body.id}/${action}`)).status, 200, action);
    }
    assert.equal((await renter.post(bookingReviews, { rating: 5 })).body.error, 'not_reviewable');
    assert.equal((await owner.post(`/v1/bookings/${booked.body.id}/return`)).status, 200);
    const figures = (await s.anonymous.get(`/v1/listings/${listing.body.id}`)).body.owner_reliability;
    assert.deepEqual([figures.completed_jobs, figures.avg_response_minutes], [1, 45]);

    const byRenter = await renter.post(bookingReviews, { rating: 4, text: 'Sauber und vollständig.' });
    assert.equal(byRenter.status, 201);
    assert.equal(byRenter.body.side, 'renter');
    assert.equal((await s.stranger.post(bookingReviews, { rating: 1 })).status, 404);
    assert.equal((await s.anonymous.get(`/v1/listings/${listing.body.id}/reviews`)).body.total, 0);
    const byOwner = await owner.post(bookingReviews, { rating: 5 });
    assert.deepEqual([byOwner.status, byOwner.body.side, byOwner.body.published], [201, 'owner', true]);
    const list = await s.anonymous.get(`/v1/listings/${listing.body.id}/reviews?limit=5`);
    assert.deepEqual(
      list.body.data.map((r: any) => [r.id, r.rating, r.author_name]),
      [[byRenter.body.id, 4, 'Test D.']],
    );
    assert.deepEqual([list.body.total, list.body.limit, list.body.has_more], [1, 5, false]);
    const rated = (await s.anonymous.get(`/v1/listings/${listing.body.id}`)).body.owner_reliability;
    assert.deepEqual([rated.rating_avg, rated.rating_count], [4, 1]);
  });
});

describe('reputation cannot be bought with a second account (issue 30, 3)', () => {
  /** A poster and a helper account made `madeAgoMs` before the clock, and a way to run job cycles between them. */
  async function pair(t: TestContext, madeAgoMs: number) {
    let now = NOW.getTime();
    const { app, db } = await buildTestApp(t, () => new Date(now));
    const made = new Date(now - madeAgoMs);
    const poster = clientFor(app, (await createKey(db, { email: 'poster@example.org' }, made)).key);
    const helper = clientFor(app, (await createKey(db, { email: 'friend@example.org' }, made)).key);
    const profile = await helper.post('/v1/helpers', {
      display_name: 'Freund F.',
      categories: ['MOVING'],
      location: { plz: '76131' },
      hourly_rate_eur: 18,
    });
    assert.equal(profile.status, 201, profile.raw);
    const figures = async () => (await clientFor(app, null).get(`/v1/helpers/${profile.body.id}`)).body.reliability;
    /** Job, application, acceptance, completion, two five-star reviews; `wait` ms between acceptance and completion. */
    const cycle = async (wait: number) => {
      const job = await poster.post('/v1/jobs', JOB);
      const applied = await helper.post(`/v1/jobs/${job.body.id}/applications`, { helper_id: profile.body.id });
      await poster.post(`/v1/jobs/${job.body.id}/applications/${applied.body.id}/accept`);
      const early = await poster.post(`/v1/jobs/${job.body.id}/complete`);
      assert.deepEqual([early.status, early.body.error], [409, 'completion_too_early'], 'completed at once');
      now += wait;
      assert.equal((await poster.post(`/v1/jobs/${job.body.id}/complete`)).status, 200);
      await confirmed(helper, { jobId: job.body.id, applicationId: applied.body.id });
      const url = `/v1/jobs/${job.body.id}/applications/${applied.body.id}/reviews`;
      assert.equal((await poster.post(url, { rating: 5 })).status, 201);
      assert.equal((await helper.post(url, { rating: 5 })).status, 201);
    };
    return { figures, cycle };
  }

  test('eleven five-star cycles of one pair count as one review', async (t) => {
    const { figures, cycle } = await pair(t, 2 * DAY_MS);
    const before = await figures();
    for (let i = 0; i < 11; i++) await cycle(DAY_MS);
    const after = await figures();
    assert.deepEqual([after.completed_jobs, after.rating_count, after.rating_avg], [11, 1, 5]);
    // Eleven completions (applied at once) and one five-star review: what counted, not eleven reviews.
    const counted = { ...FRESH_HISTORY, completed: 11, commitments: 11, responseMinutes: Array(11).fill(0) };
    assert.equal(
      after.reliability_score,
      reliabilityScore({ ...counted, ratings: [5] }),
      `${before.reliability_score} ->`,
    );
    assert.ok(after.reliability_score < reliabilityScore({ ...counted, ratings: Array(11).fill(5) }));
  });

  test('accounts made minutes before: their completions and reviews count not at all', async (t) => {
    const { figures, cycle } = await pair(t, 5 * 60_000);
    await cycle(6 * 3_600_000);
    const after = await figures();
    assert.deepEqual([after.completed_jobs, after.rating_count], [0, 0]);
  });
});
