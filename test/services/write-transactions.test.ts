import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { stripeProvider } from '../../src/adapters/stripe.js';
import type { Db } from '../../src/db/create-db.js';
import type { Api } from '../../src/http/route-deps.js';
import { decideReport } from '../../src/services/notices.js';
import { buildTestApp, createKey, NOW } from '../helpers/app.js';
import { helperBody, JOB_BODY, LISTING_BODY } from '../helpers/bodies.js';
import { TEST_ENGINE } from '../helpers/database.js';
import { startStripeStandIn } from '../helpers/stripe-stand-in.js';

/**
 * Every POST of the developer tier writes through inWriteTransaction, which marks the request's
 * idempotency key 'committed' inside the write's own transaction. A trigger of the database notes
 * each key at the moment it turns 'committed'; the test then walks the operations of the served
 * OpenAPI document and proves that each POST it documents for developer keys was exercised and
 * committed its key with its write. A new POST route that writes outside the one write transaction,
 * or that this walk does not cover, fails here.
 */
async function noteCommittedKeys(db: Db): Promise<void> {
  await sql`create table committed_keys (key text not null)`.execute(db.kysely);
  if (TEST_ENGINE === 'postgres') {
    await sql`
      create function note_committed_key() returns trigger language plpgsql as $$
      begin
        if new.state = 'committed' then insert into committed_keys (key) values (new.key); end if;
        return new;
      end $$`.execute(db.kysely);
    await sql`
      create trigger note_committed_key after update on idempotency_keys
      for each row execute function note_committed_key()`.execute(db.kysely);
  } else {
    await sql`
      create trigger note_committed_key after update of state on idempotency_keys
      when new.state = 'committed'
      begin insert into committed_keys (key) values (new.key); end`.execute(db.kysely);
  }
}

/** The POST operations of the document that take a developer key: "POST /v1/jobs/{id}/cancel". */
async function documentedKeyedPosts(app: Api): Promise<string[]> {
  const document = (await app.inject({ method: 'GET', url: '/v1/openapi.json' })).json() as {
    paths: Record<string, Record<string, { security?: Record<string, unknown>[] }>>;
  };
  const posts: string[] = [];
  for (const [path, operations] of Object.entries(document.paths)) {
    const post = operations.post;
    if (post?.security?.some((scheme) => 'ApiKeyAuth' in scheme)) posts.push(`POST ${path}`);
  }
  return posts.sort();
}

test('every documented POST of the developer tier commits its idempotency key with its write', async (t) => {
  // Deliveries are not sent in-process; the webhook points at loopback, allowed for the test.
  let now = NOW.getTime();
  const { app, db } = await buildTestApp(t, () => new Date(now), { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
  await noteCommittedKeys(db);
  const owner = await createKey(db, { email: 'owner@example.org' });
  const helper = await createKey(db, { email: 'helper@example.org' });
  const waiter = await createKey(db, { email: 'waiter@example.org' });
  const exercised = new Map<string, string>();
  let n = 0;
  /** POSTs with a fresh Idempotency-Key, expects a 2xx, remembers which documented route it was. */
  const post = async (route: string, url: string, key: string, body?: object) => {
    const idempotencyKey = `walk-${++n}`;
    const response = await app.inject({
      method: 'POST',
      url,
      headers: { 'x-api-key': key, 'idempotency-key': idempotencyKey },
      ...(body === undefined ? {} : { payload: body }),
    });
    assert.ok(response.statusCode < 300, `${route}: ${response.statusCode} ${response.body}`);
    exercised.set(`POST ${route}`, idempotencyKey);
    return response.json() as { id: string };
  };

  const job = await post('/v1/jobs', '/v1/jobs', owner.key, { ...JOB_BODY, helpers_needed: 1 });
  const other = await post('/v1/jobs', '/v1/jobs', owner.key, JOB_BODY);
  const profile = await post('/v1/helpers', '/v1/helpers', helper.key, helperBody('Jana'));
  const second = await post('/v1/helpers', '/v1/helpers', helper.key, helperBody('Jonas'));
  const application = await post('/v1/jobs/{id}/applications', `/v1/jobs/${job.id}/applications`, helper.key, {
    helper_id: profile.id,
  });
  const rejected = await post('/v1/jobs/{id}/applications', `/v1/jobs/${job.id}/applications`, helper.key, {
    helper_id: second.id,
  });
  await post(
    '/v1/jobs/{id}/applications/{application_id}/reject',
    `/v1/jobs/${job.id}/applications/${rejected.id}/reject`,
    owner.key,
  );
  await post(
    '/v1/jobs/{id}/applications/{application_id}/accept',
    `/v1/jobs/${job.id}/applications/${application.id}/accept`,
    owner.key,
  );
  const conversation = await post('/v1/conversations', '/v1/conversations', helper.key, {
    about: { type: 'application', id: application.id },
    text: 'Bis morgen!',
  });
  await post('/v1/conversations/{id}/messages', `/v1/conversations/${conversation.id}/messages`, owner.key, {
    text: 'Bis morgen.',
  });
  await post('/v1/conversations/{id}/read', `/v1/conversations/${conversation.id}/read`, helper.key);
  // A second job whose helper will not come.
  const absent = await post('/v1/jobs', '/v1/jobs', owner.key, { ...JOB_BODY, helpers_needed: 1 });
  const absentApplication = await post('/v1/jobs/{id}/applications', `/v1/jobs/${absent.id}/applications`, helper.key, {
    helper_id: second.id,
  });
  const absentOf = `/v1/jobs/${absent.id}/applications/${absentApplication.id}`;
  await post('/v1/jobs/{id}/applications/{application_id}/accept', `${absentOf}/accept`, owner.key);
  now += 86_400_000; // The work is done: a job is completed once its time has come.
  await post('/v1/jobs/{id}/applications/{application_id}/no-show', `${absentOf}/no-show`, owner.key);
  await post('/v1/jobs/{id}/complete', `/v1/jobs/${job.id}/complete`, owner.key);
  // The helper objects (the job is assigned again), the owner completes it again, the helper confirms.
  const completion = `/v1/jobs/{id}/applications/{application_id}`;
  const completionOf = `/v1/jobs/${job.id}/applications/${application.id}`;
  await post(`${completion}/object-to-completion`, `${completionOf}/object-to-completion`, helper.key, {
    reason: 'Die Hecke ist erst zur Hälfte geschnitten.',
  });
  await post('/v1/jobs/{id}/complete', `/v1/jobs/${job.id}/complete`, owner.key);
  await post(`${completion}/confirm-completion`, `${completionOf}/confirm-completion`, helper.key);
  const jobReviews = '/v1/jobs/{id}/applications/{application_id}/reviews';
  const reviewsUrl = `/v1/jobs/${job.id}/applications/${application.id}/reviews`;
  const ownersReview = await post(jobReviews, reviewsUrl, owner.key, { rating: 5, text: 'Pünktlich.' });
  await post(jobReviews, reviewsUrl, helper.key, { rating: 4 });
  await post('/v1/reviews/{id}/reply', `/v1/reviews/${ownersReview.id}/reply`, helper.key, { text: 'Danke!' });
  await post('/v1/helpers/{id}/verification-requests', `/v1/helpers/${profile.id}/verification-requests`, helper.key, {
    method: 'phone',
  });
  await post('/v1/jobs/{id}/cancel', `/v1/jobs/${other.id}/cancel`, owner.key);
  // Issue 35: a weekly series, a standing helper accepted, excused once and ended, another rejected; paused,
  // resumed, one occurrence skipped, cancelled.
  const series = await post('/v1/job-series', '/v1/job-series', owner.key, {
    ...JOB_BODY,
    rrule: 'FREQ=WEEKLY;BYDAY=TH;COUNT=6',
    starts_on: '2026-11-26',
    local_time: '09:00',
  });
  const seriesApplications = '/v1/job-series/{id}/applications';
  const applyToSeries = (helperId: string) =>
    post(seriesApplications, `/v1/job-series/${series.id}/applications`, helper.key, { helper_id: helperId });
  const standing = await applyToSeries(profile.id);
  const notStanding = await applyToSeries(second.id);
  const decideSeries = (id: string, action: string) =>
    post(
      `${seriesApplications}/{application_id}/${action}`,
      `/v1/job-series/${series.id}/applications/${id}/${action}`,
      action === 'end' ? helper.key : owner.key,
    );
  await decideSeries(standing.id, 'accept');
  await decideSeries(notStanding.id, 'reject');
  await post(
    `${seriesApplications}/{application_id}/excuse`,
    `/v1/job-series/${series.id}/applications/${standing.id}/excuse`,
    helper.key,
    { date: '2026-12-10' },
  );
  await decideSeries(standing.id, 'end');
  for (const action of ['pause', 'resume']) {
    await post(`/v1/job-series/{id}/${action}`, `/v1/job-series/${series.id}/${action}`, owner.key);
  }
  await post(
    '/v1/job-series/{id}/occurrences/{date}/skip',
    `/v1/job-series/${series.id}/occurrences/2026-12-31/skip`,
    owner.key,
  );
  await post('/v1/job-series/{id}/cancel', `/v1/job-series/${series.id}/cancel`, owner.key);
  // Issue 32: the accepted application's payment, paid by the owner and confirmed by the helper.
  const payments = (
    await app.inject({ method: 'GET', url: '/v1/payments?role=payer', headers: { 'x-api-key': owner.key } })
  ).json() as { data: { id: string; job_id: string }[] };
  const payment = payments.data.find((p) => p.job_id === job.id);
  assert.ok(payment, 'the accepted application has its payment');
  await post('/v1/payments/{id}/paid', `/v1/payments/${payment.id}/paid`, owner.key);
  await post('/v1/payments/{id}/received', `/v1/payments/${payment.id}/received`, helper.key);

  const listing = await post('/v1/listings', '/v1/listings', owner.key, LISTING_BODY);
  await post('/v1/listings/{id}/pause', `/v1/listings/${listing.id}/pause`, owner.key);
  await post('/v1/listings/{id}/resume', `/v1/listings/${listing.id}/resume`, owner.key);
  const book = (start_date: string, end_date: string) =>
    post('/v1/listings/{id}/bookings', `/v1/listings/${listing.id}/bookings`, helper.key, { start_date, end_date });
  /** Issue 32: a booking confirmed, its deposit handed over and confirmed, picked up and returned. */
  const returnedBooking = async () => {
    const booking = await book('2026-11-21', '2026-11-22'); // picked up from the day before: today
    await post('/v1/bookings/{id}/confirm', `/v1/bookings/${booking.id}/confirm`, owner.key);
    const owed = (
      await app.inject({ method: 'GET', url: '/v1/payments?role=payer', headers: { 'x-api-key': helper.key } })
    ).json() as { data: { id: string; kind: string; booking_id: string }[] };
    const deposit = owed.data.find((p) => p.booking_id === booking.id && p.kind === 'deposit');
    assert.ok(deposit, 'the confirmed booking has its deposit');
    await post('/v1/payments/{id}/paid', `/v1/payments/${deposit.id}/paid`, helper.key);
    await post('/v1/payments/{id}/received', `/v1/payments/${deposit.id}/received`, owner.key);
    await post('/v1/bookings/{id}/pick-up', `/v1/bookings/${booking.id}/pick-up`, owner.key);
    await post('/v1/bookings/{id}/return', `/v1/bookings/${booking.id}/return`, owner.key);
    return { booking, deposit };
  };
  const claim = { amount_eur: 5, text: 'Ein Bein der Bank wackelt.' };
  const returned = await returnedBooking();
  await post('/v1/bookings/{id}/reviews', `/v1/bookings/${returned.booking.id}/reviews`, helper.key, { rating: 5 });
  const disputed = await post(
    '/v1/bookings/{id}/claims',
    `/v1/bookings/${returned.booking.id}/claims`,
    owner.key,
    claim,
  );
  await post('/v1/claims/{id}/dispute', `/v1/claims/${disputed.id}/dispute`, helper.key, {
    text: 'Das wackelte schon.',
  });
  const again = await returnedBooking(); // the same days, free again once returned
  const accepted = await post('/v1/bookings/{id}/claims', `/v1/bookings/${again.booking.id}/claims`, owner.key, claim);
  await post('/v1/claims/{id}/accept', `/v1/claims/${accepted.id}/accept`, helper.key);
  await post('/v1/payments/{id}/release', `/v1/payments/${again.deposit.id}/release`, owner.key);
  await post(
    '/v1/bookings/{id}/decline',
    `/v1/bookings/${(await book('2026-12-05', '2026-12-06')).id}/decline`,
    owner.key,
  );
  await post(
    '/v1/bookings/{id}/cancel',
    `/v1/bookings/${(await book('2026-12-08', '2026-12-09')).id}/cancel`,
    helper.key,
  );
  // Issue 35: extensions of a confirmed booking, one declined, one accepted.
  const extended = await book('2026-12-12', '2026-12-13');
  await post('/v1/bookings/{id}/confirm', `/v1/bookings/${extended.id}/confirm`, owner.key);
  const extensions = '/v1/bookings/{id}/extension-requests';
  for (const [until, action] of [
    ['2026-12-15', 'decline'],
    ['2026-12-14', 'accept'],
  ] as const) {
    const asked = await post(extensions, `/v1/bookings/${extended.id}/extension-requests`, helper.key, { until });
    await post(
      `${extensions}/{extension_id}/${action}`,
      `/v1/bookings/${extended.id}/extension-requests/${asked.id}/${action}`,
      owner.key,
    );
  }
  // A third account waits for the extended booking's days.
  await post('/v1/listings/{id}/waitlist', `/v1/listings/${listing.id}/waitlist`, waiter.key, {
    start_date: '2026-12-13',
    end_date: '2026-12-13',
  });
  // The owner's own calendar on the listing (loopback's discard port: a fetch finds nothing there).
  await post('/v1/me/busy-calendars', '/v1/me/busy-calendars', owner.key, {
    url: 'http://127.0.0.1:9/owner.ics',
    listing_id: listing.id,
  });
  await post('/v1/listings/{id}/archive', `/v1/listings/${listing.id}/archive`, owner.key);

  await post('/v1/me/calendar-feed', '/v1/me/calendar-feed', helper.key);
  // A browser of the helper subscribed to pushes (issue 36; loopback's discard port: nothing is pushed here).
  await post('/v1/me/push-subscriptions', '/v1/me/push-subscriptions', helper.key, {
    endpoint: 'https://127.0.0.1:9/push/helper-browser',
    keys: { p256dh: `B${'A'.repeat(86)}`, auth: 'A'.repeat(22) },
  });

  await post('/v1/saved-searches', '/v1/saved-searches', helper.key, {
    name: 'Gartenjobs',
    resource: 'jobs',
    query: { category: 'GARDENING' },
  });

  // A report, decided by the platform (no POST of the API), and the owner's appeal of it.
  const report = await post('/v1/reports', '/v1/reports', helper.key, {
    about: { type: 'job', id: other.id },
    reason: 'other',
    explanation: 'Zum Durchlaufen aller Schreibwege gemeldet.',
    good_faith: true,
  });
  const { decision } = await decideReport({ db: db.kysely, now: NOW, claim: null }, report.id, {
    action: 'restrict_visibility',
    ground: 'terms',
    explanation: 'Test.',
  });
  await post(
    '/v1/me/moderation-decisions/{id}/appeals',
    `/v1/me/moderation-decisions/${decision.id}/appeals`,
    owner.key,
    { text: 'Bitte noch einmal prüfen.' },
  );

  const webhook = await post('/v1/webhooks', '/v1/webhooks', owner.key, {
    url: 'http://127.0.0.1:9/marketplace',
    events: ['job.created'],
  });
  await post('/v1/jobs', '/v1/jobs', owner.key, JOB_BODY);
  const deliveries = (
    await app.inject({
      method: 'GET',
      url: `/v1/webhooks/${webhook.id}/deliveries`,
      headers: { 'x-api-key': owner.key },
    })
  ).json() as { data: { id: string }[] };
  const delivery = deliveries.data[0];
  assert.ok(delivery, 'the job posted after the webhook was made has a delivery');
  await post(
    '/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver',
    `/v1/webhooks/${webhook.id}/deliveries/${delivery.id}/redeliver`,
    owner.key,
  );

  await post('/v1/drafts', '/v1/drafts', owner.key, { operation: 'createJob', body: JOB_BODY });
  // Issue 31: an OAuth client, and its secret rotated.
  const oauthClient = await post('/v1/oauth-clients', '/v1/oauth-clients', owner.key, {
    name: 'Walk',
    redirect_uris: ['https://app.example/callback'],
    type: 'confidential',
  });
  await post('/v1/oauth-clients/{id}/secret', `/v1/oauth-clients/${oauthClient.id}/secret`, owner.key);

  assert.deepEqual(
    [...exercised.keys()].sort(),
    (await documentedKeyedPosts(app)).filter((route) => !STRIPE_POSTS.includes(route)),
    'every keyed POST is walked (those that need Stripe in the next test)',
  );
  const committed = new Set(
    (await sql<{ key: string }>`select key from committed_keys`.execute(db.kysely)).rows.map((row) => row.key),
  );
  for (const [route, key] of exercised) {
    assert.ok(committed.has(key), `${route} committed its Idempotency-Key in its write transaction`);
  }
});

/** The POSTs that need PAYMENTS_PROVIDER=stripe: walked against the Stripe stand-in below. */
const STRIPE_POSTS = ['POST /v1/me/payouts/onboarding', 'POST /v1/payments/{id}/checkout'];

test('the POSTs that need Stripe commit their idempotency key with their write', async (t) => {
  const secret = 'whsec_test_walk';
  const stripe = await startStripeStandIn({ now: () => NOW, webhookSecret: secret });
  t.after(() => stripe.close());
  const provider = stripeProvider({ secretKey: 'sk_test_walk', webhookSecret: secret, apiUrl: stripe.url });
  const { app, db } = await buildTestApp(
    t,
    NOW,
    { PAYMENTS_PROVIDER: 'stripe', STRIPE_SECRET_KEY: 'sk_test_walk', STRIPE_WEBHOOK_SECRET: secret },
    { payments: provider },
  );
  await noteCommittedKeys(db);
  const poster = await createKey(db, { email: 'poster@example.org' });
  const helper = await createKey(db, { email: 'helper@example.org' });
  const keys = new Map<string, string>();
  const post = async (route: string, url: string, key: string, body?: object) => {
    const idempotencyKey = `stripe-walk-${keys.size + 1}`;
    const response = await app.inject({
      method: 'POST',
      url,
      headers: { 'x-api-key': key, 'idempotency-key': idempotencyKey },
      ...(body === undefined ? {} : { payload: body }),
    });
    assert.ok(response.statusCode < 300, `${route}: ${response.statusCode} ${response.body}`);
    keys.set(`POST ${route}`, idempotencyKey);
    return response.json() as { id: string; payments?: { id: string }[] };
  };
  const plain = async (url: string, key: string, body?: object) =>
    (
      await app.inject({ method: 'POST', url, headers: { 'x-api-key': key }, ...(body ? { payload: body } : {}) })
    ).json();
  await post('/v1/me/payouts/onboarding', '/v1/me/payouts/onboarding', helper.key, {});
  const acct = await db.kysely.selectFrom('payout_accounts').select('provider_account_id').executeTakeFirstOrThrow();
  stripe.completeOnboarding(acct.provider_account_id);
  // The webhook is not pointed here: GET /v1/me/payouts asks Stripe itself.
  assert.equal(
    (await app.inject({ url: '/v1/me/payouts', headers: { 'x-api-key': helper.key } })).json().status,
    'enabled',
  );
  const job = await plain('/v1/jobs', poster.key, { ...JOB_BODY, helpers_needed: 1 });
  const profile = await plain('/v1/helpers', helper.key, helperBody('Jana'));
  const application = await plain(`/v1/jobs/${job.id}/applications`, helper.key, { helper_id: profile.id });
  const accepted = await plain(`/v1/jobs/${job.id}/applications/${application.id}/accept`, poster.key);
  const paymentId = accepted.payments[0].id as string;
  await post('/v1/payments/{id}/checkout', `/v1/payments/${paymentId}/checkout`, poster.key);
  assert.deepEqual([...keys.keys()].sort(), STRIPE_POSTS);
  const committed = new Set(
    (await sql<{ key: string }>`select key from committed_keys`.execute(db.kysely)).rows.map((row) => row.key),
  );
  for (const [route, key] of keys) {
    assert.ok(committed.has(key), `${route} committed its Idempotency-Key in its write transaction`);
  }
});
