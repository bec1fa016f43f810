/**
 * OWASP API Security Top 10 (2023) items checked across the whole API, driven by the served
 * OpenAPI document so that a new operation is covered (or this test fails until it is classified):
 * - API1 object-level authorization: every id a caller passes, in the path or the body, as a
 *   stranger account: 404 and nothing changed, except where the operation is public by design;
 * - API3 property-level authorization: no private field (emails, account ids, helpers' coordinates,
 *   key hashes) in any answer about another account's objects, and no read-only field settable;
 * - API7 server-side request forgery: URLs a client sends (photos) are stored, never fetched.
 * docs/SECURITY.md maps each item to this and the other tests.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Db } from '../../src/db/create-db.js';
import { decideReport } from '../../src/services/notices.js';
import { buildTestApp, createdId, createKey, NOW } from '../helpers/app.js';
import { helperBody, JOB_BODY, LISTING_BODY } from '../helpers/bodies.js';
import type { OpenApiDocument } from '../helpers/contract.js';

/** Readable by anyone: public marketplace data. */
const PUBLIC_READS = new Set([
  'getJob',
  'getListing',
  'getHelper',
  'getJobSeries',
  'getListingAvailability',
  'getListingCalendar',
  'listHelperReviews',
  'listListingReviews',
]);
/** Any account may act on any public job or listing: these check the ids in the body instead. */
const PUBLIC_ACTIONS = new Set(['applyToJob', 'applyToJobSeries', 'createBooking', 'joinWaitlist']);
/**
 * POSTs open to anonymous callers: requesting a key, the MCP endpoint, whose write tools need a
 * key inside it (checked below: a tool error, the REST write never made), and the one-click
 * unsubscribe of a digest e-mail, whose token is its authorization (test/http/saved-searches.test.ts),
 * and reports (DSA notices: anyone may file one, test/http/notices.test.ts).
 */
const OPEN_TO_ANONYMOUS = new Set(['requestDeveloperKey', 'mcp', 'unsubscribeSavedSearchDigestOneClick', 'fileReport']);

const JOB = JOB_BODY;
const LISTING = LISTING_BODY;
const helper = helperBody;

/** Valid bodies, so that only the ids decide the answer. */
const BODIES: Record<string, object> = {
  updateJob: { title: 'Von Fremden geändert' },
  updateJobSeries: { title: 'Von Fremden geändert' },
  updateListing: { title: 'Von Fremden geändert' },
  updateHelper: { display_name: 'Fremd' },
  postMessage: { text: 'Ich lese mit' },
  reviewApplication: { rating: 1 },
  reviewBooking: { rating: 1 },
  objectToCompletion: { reason: 'Von Fremden bestritten.' },
  replyToReview: { text: 'Fremd' },
  requestHelperVerification: { method: 'phone' },
  appealModerationDecision: { text: 'Nicht meine Entscheidung, trotzdem.' },
  updateOauthClient: { name: 'Fremd' },
  fileClaim: { amount_eur: 5, text: 'Von Fremden beansprucht.' },
  disputeClaim: { text: 'Von Fremden bestritten.' },
  requestBookingExtension: { until: '2026-12-20' },
  excuseJobSeriesHelper: { date: '2026-12-03' },
};

async function world(t: Parameters<typeof buildTestApp>[0]) {
  const { app, db } = await buildTestApp(t);
  const owner = await createKey(db, { email: 'owner.private@example.org' });
  const party = await createKey(db, { email: 'party.private@example.org' });
  const stranger = await createKey(db, { email: 'stranger@example.org' });
  const post = (key: string, url: string, payload: object) => createdId(app, key, url, payload);
  // A webhook of the owner with a delivery (written with the job's event): ids a stranger may not touch.
  const webhook = await post(owner.key, '/v1/webhooks', {
    url: 'https://93.184.215.14/hooks',
    events: ['job.created', 'application.created'],
  });
  const ownerHelper = await post(owner.key, '/v1/helpers', helper('Owner O.'));
  const partyHelper = await post(party.key, '/v1/helpers', helper('Party P.'));
  const strangerHelper = await post(stranger.key, '/v1/helpers', helper('Stranger S.'));
  const job = await post(owner.key, '/v1/jobs', JOB);
  const listing = await post(owner.key, '/v1/listings', LISTING);
  const application = await post(party.key, `/v1/jobs/${job}/applications`, { helper_id: partyHelper });
  const booking = await post(party.key, `/v1/listings/${listing}/bookings`, {
    start_date: '2026-12-01',
    end_date: '2026-12-03',
  });
  // A conversation of the owner and the party, with the party's phone number in it.
  const conversation = await post(party.key, '/v1/conversations', {
    about: { type: 'application', id: application },
    text: 'Meine Nummer: 0171 2345678',
  });
  // A saved search and a private calendar feed of the owner: a stranger may not read or delete them.
  const savedSearch = await post(owner.key, '/v1/saved-searches', {
    name: 'Eigene Suche',
    resource: 'jobs',
    query: { category: 'GARDENING' },
  });
  // A weekly series of the owner with the party standing for it: a stranger may not change either.
  const series = await post(owner.key, '/v1/job-series', {
    ...JOB,
    rrule: 'FREQ=WEEKLY;BYDAY=TH;COUNT=4',
    starts_on: '2026-12-01',
    local_time: '09:00',
  });
  const seriesApplication = await post(party.key, `/v1/job-series/${series}/applications`, { helper_id: partyHelper });
  // A draft the owner's agent prepared: a stranger may not read it.
  const draft = await post(owner.key, '/v1/drafts', { operation: 'createJob', body: JOB });
  const feed = await app.inject({ method: 'POST', url: '/v1/me/calendar-feed', headers: { 'x-api-key': owner.key } });
  assert.equal(feed.statusCode, 201, feed.body);
  // A report by the party about another job of the owner, decided: the report is the party's, the
  // statement of reasons the owner's; a stranger reads neither and cannot appeal.
  const reported = await post(owner.key, '/v1/jobs', { ...JOB, title: 'Gemeldeter Auftrag' });
  const report = await post(party.key, '/v1/reports', {
    about: { type: 'job', id: reported },
    reason: 'other',
    explanation: 'Zum Testen der Berechtigungen gemeldet.',
    good_faith: true,
  });
  const { decision } = await decideReport({ db: db.kysely, now: NOW, claim: null }, report, {
    action: 'remove',
    ground: 'terms',
    explanation: 'Test.',
  });
  // A payment (issue 32): the party's application to another job of the owner, accepted.
  const paidJob = await post(owner.key, '/v1/jobs', { ...JOB, title: 'Bezahlter Auftrag' });
  const paidApplication = await post(party.key, `/v1/jobs/${paidJob}/applications`, { helper_id: partyHelper });
  const accepted = await app.inject({
    method: 'POST',
    url: `/v1/jobs/${paidJob}/applications/${paidApplication}/accept`,
    headers: { 'x-api-key': owner.key },
  });
  assert.equal(accepted.statusCode, 200, accepted.body);
  const payment = await db.kysely
    .selectFrom('payments')
    .select('id')
    .where('application_id', '=', paidApplication)
    .executeTakeFirstOrThrow();
  // A claim (issue 32) of the owner on the party's booking, as a row: the booking's return is days ahead.
  await db.kysely
    .insertInto('claims')
    .values({
      id: 'clm_owasp',
      booking_id: booking,
      payment_id: payment.id,
      owner_account_id: owner.accountId,
      renter_account_id: party.accountId,
      amount_cents: 500,
      text: 'Ein Kratzer.',
      photos: '[]',
      status: 'open',
      response_text: null,
      decided_cents: null,
      explanation: null,
      created_at: NOW.toISOString(),
      answered_at: null,
      decided_at: null,
      updated_at: NOW.toISOString(),
    })
    .execute();
  // An extension the party asked of the owner (issue 35), as a row: the booking is only requested.
  await db.kysely
    .insertInto('booking_extensions')
    .values({
      id: 'ext_owasp',
      booking_id: booking,
      status: 'requested',
      until_date: '2026-12-20',
      until_at: null,
      price_cents: 800,
      created_at: NOW.toISOString(),
      decided_at: null,
    })
    .execute();
  // The party waited for a day of the owner's listing (issue 35), as a row: lapsed, so the sweep leaves it be.
  await db.kysely
    .insertInto('waitlist_entries')
    .values({
      id: 'wl_owasp',
      listing_id: listing,
      account_id: party.accountId,
      status: 'lapsed',
      start_date: '2026-12-20',
      end_date: '2026-12-20',
      start_at: null,
      end_at: null,
      hold_until: null,
      mailed_at: null,
      created_at: NOW.toISOString(),
      updated_at: NOW.toISOString(),
    })
    .execute();
  // The owner's own calendar on the listing (issue 35), as a row: not due, so no sweep fetches it.
  await db.kysely
    .insertInto('busy_calendars')
    .values({
      id: 'bcal_owasp',
      account_id: owner.accountId,
      listing_id: listing,
      helper_id: null,
      url: 'https://calendar.example.org/private/owner.ics',
      status: 'ok',
      etag: null,
      last_modified: null,
      last_fetch_at: NOW.toISOString(),
      last_error: null,
      busy_count: 0,
      next_fetch_at: '2099-01-01T00:00:00.000Z',
      created_at: NOW.toISOString(),
    })
    .execute();
  // The owner's browser subscribed to pushes (issue 36), as a row: a stranger may not delete it.
  await db.kysely
    .insertInto('push_subscriptions')
    .values({
      id: 'psub_owasp',
      account_id: owner.accountId,
      endpoint: 'https://push.example.org/send/owner-browser',
      p256dh: `B${'A'.repeat(86)}`,
      auth: 'AAAAAAAAAAAAAAAAAAAAAA',
      created_at: NOW.toISOString(),
      last_sent_at: null,
      last_error: null,
    })
    .execute();
  const doc = (await app.inject({ url: '/v1/openapi.json' })).json() as OpenApiDocument;
  const delivery = await db.kysely
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('webhook_id', '=', webhook)
    .executeTakeFirstOrThrow();
  return {
    app,
    db,
    doc,
    keys: { owner, party, stranger },
    ids: {
      job,
      listing,
      application,
      booking,
      ownerHelper,
      partyHelper,
      strangerHelper,
      webhook,
      delivery: delivery.id,
      conversation,
      savedSearch,
      series,
      seriesApplication,
      draft,
      report,
      decision: decision.id,
      payment: payment.id,
      claim: 'clm_owasp',
      extension: 'ext_owasp',
      waitlist: 'wl_owasp',
      busyCalendar: 'bcal_owasp',
      pushSubscription: 'psub_owasp',
    },
  };
}

/** Every row of the tables a write could touch, to prove a refused request changed nothing. */
async function snapshot(db: Db): Promise<string> {
  const tables = [
    'jobs',
    'listings',
    'bookings',
    'applications',
    'helpers',
    'helper_categories',
    'owners',
    'webhooks',
    'webhook_deliveries',
    'events',
    'conversations',
    'messages',
    'reviews',
    'verifications',
    'saved_searches',
    'saved_search_matches',
    'calendar_feeds',
    'providers',
    'reports',
    'moderation_decisions',
    'appeals',
    'payments',
    'ledger_entries',
    'bank_accounts',
    'claims',
    'job_series',
    'job_series_skips',
    'job_series_excusals',
    'series_applications',
    'booking_extensions',
    'waitlist_entries',
    'busy_calendars',
    'busy_times',
    'notification_settings',
    'notifications',
    'push_subscriptions',
  ] as const;
  const rows: unknown[] = [];
  // Sorted: PostgreSQL returns rows in storage order, which a no-op update (a row lock) changes.
  for (const table of tables) {
    rows.push((await db.kysely.selectFrom(table).selectAll().execute()).map((row) => JSON.stringify(row)).sort());
  }
  return JSON.stringify(rows);
}

describe('API1: object-level authorization on every id', () => {
  test('a stranger account gets 404 for every object of others it names, and changes nothing', async (t) => {
    const { app, db, doc, keys, ids } = await world(t);
    const idFor: Record<string, string> = {
      jobs: ids.job,
      listings: ids.listing,
      bookings: ids.booking,
      helpers: ids.ownerHelper,
      webhooks: ids.webhook,
      conversations: ids.conversation,
      'saved-searches': ids.savedSearch,
      'job-series': ids.series,
      drafts: ids.draft,
      reports: ids.report,
      me: ids.decision,
      payments: ids.payment,
      claims: ids.claim,
      waitlist: ids.waitlist,
    };
    const checked: string[] = [];
    const unclassified: string[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      if (!path.includes('{') || path.startsWith('/v1/demo')) continue;
      for (const [verb, op] of Object.entries(item)) {
        const { operationId } = op;
        if (PUBLIC_ACTIONS.has(operationId)) continue; // checked below, by the ids in the body
        const url = path
          .replace(
            '{id}',
            path.startsWith('/v1/me/busy-calendars')
              ? ids.busyCalendar
              : path.startsWith('/v1/me/push-subscriptions')
                ? ids.pushSubscription
                : (idFor[path.split('/')[2] ?? ''] ?? 'x'),
          )
          .replace('{application_id}', path.startsWith('/v1/job-series') ? ids.seriesApplication : ids.application)
          .replace('{delivery_id}', ids.delivery)
          .replace('{extension_id}', ids.extension)
          .replace('{date}', '2026-12-03');
        const before = await snapshot(db);
        const response = await app.inject({
          method: verb.toUpperCase() as 'GET',
          url,
          headers: { 'x-api-key': keys.stranger.key },
          // A body only where the operation takes one, as a client of the document sends it (the
          // request check judges every request a test sends against the document).
          ...(verb !== 'get' && 'requestBody' in op ? { payload: BODIES[operationId] ?? {} } : {}),
        });
        if (PUBLIC_READS.has(operationId)) {
          assert.equal(response.statusCode, 200, `${operationId} is public`);
        } else if (verb === 'get' || verb === 'post' || verb === 'patch' || verb === 'delete') {
          assert.equal(response.statusCode, 404, `${operationId} ${url} as a stranger: ${response.body}`);
          assert.equal(response.json().error, 'not_found');
          assert.ok(!response.body.includes('private@'), 'the 404 tells nothing about the object');
          assert.ok(!response.body.includes('2345678'), 'nor about a conversation');
        } else {
          unclassified.push(operationId);
        }
        assert.equal(await snapshot(db), before, `${operationId} as a stranger changed data`);
        checked.push(operationId);
      }
    }
    assert.deepEqual(unclassified, []);
    assert.ok(checked.length >= 20, `${checked.length} operations with ids checked`);
    t.diagnostic(`checked as a stranger: ${checked.join(', ')}`);
  });

  test('ids in bodies too: applying with, or booking for, another account’s objects is refused', async (t) => {
    const { app, db, keys, ids } = await world(t);
    const before = await snapshot(db);
    const apply = await app.inject({
      method: 'POST',
      url: `/v1/jobs/${ids.job}/applications`,
      headers: { 'x-api-key': keys.stranger.key },
      payload: { helper_id: ids.partyHelper },
    });
    assert.equal(apply.statusCode, 404);
    assert.equal(apply.json().param, 'helper_id');
    const ownListing = await app.inject({
      method: 'POST',
      url: `/v1/listings/${ids.listing}/bookings`,
      headers: { 'x-api-key': keys.owner.key },
      payload: { start_date: '2026-12-10', end_date: '2026-12-11' },
    });
    assert.equal(ownListing.statusCode, 400, 'an owner cannot book their own listing');
    assert.equal(await snapshot(db), before);
    // As designed, any account may apply with its own helper and book what others lend.
    const allowed = await app.inject({
      method: 'POST',
      url: `/v1/jobs/${ids.job}/applications`,
      headers: { 'x-api-key': keys.stranger.key },
      payload: { helper_id: ids.strangerHelper },
    });
    assert.equal(allowed.statusCode, 201);
  });

  test('anonymous callers get 401 for every operation that is not a public read', async (t) => {
    const { app, db, doc, ids } = await world(t);
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [verb, op] of Object.entries(item)) {
        if (verb === 'get' || OPEN_TO_ANONYMOUS.has(op.operationId)) continue;
        const url = path.replace('{id}', ids.job).replace('{application_id}', ids.application);
        const response = await app.inject({ method: verb.toUpperCase() as 'POST', url, payload: {} });
        assert.equal(response.statusCode, 401, `${op.operationId} anonymously`);
      }
    }
    // Through MCP, anonymously: the write tools are refused with 401 and write nothing.
    const before = await snapshot(db);
    const tools = [
      ['create_job', JOB],
      ['apply_to_job', { id: ids.job, helper_id: ids.strangerHelper }],
      ['create_booking', { id: ids.listing, start_date: '2026-12-20', end_date: '2026-12-21' }],
    ] as const;
    for (const [name, args] of tools) {
      const response = await app.inject({
        method: 'POST',
        url: '/mcp',
        headers: { accept: 'application/json, text/event-stream' },
        payload: {
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name, arguments: { ...args, idempotency_key: `anonymous-${name}` } },
        },
      });
      // An HTTP 401 with the OAuth challenge (issue 31), before any REST request is made.
      assert.equal(response.statusCode, 401, name);
      assert.equal(response.json().error, 'authentication_required', name);
      assert.match(String(response.headers['www-authenticate']), /^Bearer resource_metadata=/, name);
    }
    assert.equal(await snapshot(db), before, 'anonymous MCP write tools changed data');
  });
});

describe('API3: property-level authorization', () => {
  /** Fields no answer about others' objects may have (job and listing coordinates are public by design). */
  const PRIVATE_KEYS = ['email', 'account_id', 'owner_account_id', 'renter_account_id', 'key_hash', 'api_key'];

  /** Every key anywhere in a JSON value. */
  const keysOf = (value: unknown, into = new Set<string>()): Set<string> => {
    if (Array.isArray(value)) for (const v of value) keysOf(v, into);
    else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) {
        into.add(k);
        keysOf(v, into);
      }
    }
    return into;
  };

  test('answers about others’ objects hold no private field and no email', async (t) => {
    const { app, keys, ids } = await world(t);
    const asStranger = { 'x-api-key': keys.stranger.key };
    const reads = [
      `/v1/jobs/${ids.job}`,
      `/v1/listings/${ids.listing}`,
      `/v1/helpers/${ids.ownerHelper}`,
      `/v1/listings/${ids.listing}/availability`,
      '/v1/jobs?limit=100',
      '/v1/listings?limit=100',
      '/v1/helpers/availability?category=GARDENING',
    ];
    for (const url of reads) {
      const response = await app.inject({ url, headers: asStranger });
      assert.equal(response.statusCode, 200, url);
      assert.ok(!/private@|stranger@/.test(response.body), `${url} shows an email`);
      const found = [...keysOf(response.json())].filter((k) => PRIVATE_KEYS.includes(k));
      assert.deepEqual(found, [], `${url} shows ${found}`);
    }
    // Helpers' coordinates (where a person lives) are never shown; job and listing locations are public by design.
    const helperBody = (await app.inject({ url: `/v1/helpers/${ids.ownerHelper}`, headers: asStranger })).json();
    assert.ok(!keysOf(helperBody).has('lat') && !JSON.stringify(helperBody).includes('49.0123'));
    // The other party of a booking sees the booking, not the other account.
    const booking = await app.inject({ url: `/v1/bookings/${ids.booking}`, headers: { 'x-api-key': keys.owner.key } });
    assert.equal(booking.statusCode, 200);
    assert.ok(!/private@/.test(booking.body));
    assert.deepEqual(
      [...keysOf(booking.json())].filter((k) => PRIVATE_KEYS.includes(k)),
      [],
    );
  });

  test('no mass assignment: a read-only field in a body is refused, and nothing is set', async (t) => {
    const { app, db, keys, ids } = await world(t);
    const attempts: [string, string, object][] = [
      ['POST', '/v1/jobs', { ...JOB, status: 'completed' }],
      ['POST', '/v1/jobs', { ...JOB, owner_account_id: keys.party.accountId }],
      ['POST', '/v1/jobs', { ...JOB, applications_count: 99 }],
      ['PATCH', `/v1/jobs/${ids.job}`, { id: 'job_mine' }],
      ['POST', '/v1/helpers', { ...helper('X'), verified: true }],
      ['PATCH', `/v1/helpers/${ids.ownerHelper}`, { reliability_score: 100 }],
      ['POST', '/v1/listings', { ...LISTING, status: 'archived', owner_id: 'own_x' }],
      [
        'POST',
        `/v1/listings/${ids.listing}/bookings`,
        { start_date: '2026-12-20', end_date: '2026-12-21', price_eur: 0 },
      ],
    ];
    const before = await snapshot(db);
    for (const [method, url, payload] of attempts) {
      const response = await app.inject({
        method: method as 'POST',
        url,
        headers: { 'x-api-key': url.includes('bookings') ? keys.stranger.key : keys.owner.key },
        payload,
      });
      assert.equal(response.statusCode, 400, `${method} ${url} ${JSON.stringify(payload)}`);
      assert.equal(response.json().error, 'unknown_parameter');
    }
    assert.equal(await snapshot(db), before);
  });
});

describe('API7: server-side request forgery', () => {
  test('URLs in bodies are stored, never fetched by the server', async (t) => {
    const { app, keys } = await world(t);
    let fetched = 0;
    const trap = createServer((_request, response) => {
      fetched += 1;
      response.end();
    }).listen(0, '127.0.0.1');
    await once(trap, 'listening');
    t.after(() => trap.close());
    const { port } = trap.address() as { port: number };
    const photos = [`http://127.0.0.1:${port}/a.jpg`, `https://127.0.0.1:${port}/b.jpg`];
    const job = await app.inject({
      method: 'POST',
      url: '/v1/jobs',
      headers: { 'x-api-key': keys.owner.key },
      payload: { ...JOB, photos: photos.map((p) => p.replace('http://', 'https://')) },
    });
    const listing = await app.inject({
      method: 'POST',
      url: '/v1/listings',
      headers: { 'x-api-key': keys.owner.key },
      payload: { ...LISTING, photos: [`https://127.0.0.1:${port}/c.jpg`] },
    });
    assert.ok([201, 400].includes(job.statusCode) && [201, 400].includes(listing.statusCode));
    for (const url of ['/v1/jobs?limit=5', '/v1/listings?limit=5']) await app.inject({ url });
    await sleep(300);
    assert.equal(fetched, 0, 'the server fetched a URL a client sent');
  });

  test('only createWebhook, attachBusyCalendar and createPushSubscription take a URL the server would call, and they refuse internal addresses', (t) => {
    return world(t).then(async ({ app, doc, keys }) => {
      const urlInputs: string[] = [];
      const visit = (schema: unknown, where: string) => {
        if (!schema || typeof schema !== 'object') return;
        const s = schema as {
          format?: string;
          properties?: Record<string, unknown>;
          items?: unknown;
          anyOf?: unknown[];
        };
        if (s.format === 'uri' && !where.endsWith('photos[]')) urlInputs.push(where);
        for (const [name, sub] of Object.entries(s.properties ?? {})) visit(sub, `${where}.${name}`);
        if (s.items) visit(s.items, `${where}[]`);
        for (const sub of s.anyOf ?? []) visit(sub, where);
      };
      for (const [path, item] of Object.entries(doc.paths)) {
        for (const [verb, op] of Object.entries(item)) {
          const body = (op as { requestBody?: { content: Record<string, { schema: unknown }> } }).requestBody;
          visit(body?.content['application/json']?.schema, `${verb.toUpperCase()} ${path}`);
        }
      }
      assert.deepEqual(
        urlInputs,
        [
          // Reviewed (issue 35): an owner's or helper's own calendar, fetched on a schedule with the
          // webhooks' guard (src/webhooks/calendar-fetch.ts: connect-time lookup, no redirects, 2 MB, 10 s).
          'POST /v1/me/busy-calendars.url',
          // Reviewed (issue 36): a browser's push endpoint, posted to with the webhooks' guard
          // (src/services/push-subscriptions.ts: https only, private addresses refused when
          // subscribing and, through guardedLookup, when connecting).
          'POST /v1/me/push-subscriptions.endpoint',
          // Reviewed (issue 32): handed to Stripe as the page its onboarding sends the person back to
          // (https only); the server never fetches it.
          'POST /v1/me/payouts/onboarding.return_url',
          'POST /v1/webhooks.url',
          // Reviewed (issue 31): an OAuth client's logo and home page are stored and never fetched;
          // the consent page does not show the logo, so no browser loads it from there either.
          'POST /v1/oauth-clients.logo_uri',
          'POST /v1/oauth-clients.client_uri',
          'PATCH /v1/oauth-clients/{id}.logo_uri',
          'PATCH /v1/oauth-clients/{id}.client_uri',
        ],
        'a URL input needs an SSRF review (docs/SECURITY.md, API7)',
      );
      // The reviewed one: internal addresses are refused (more in test/http/webhooks.test.ts).
      for (const url of ['http://169.254.169.254/latest/meta-data/', 'http://127.0.0.1:6379/', 'http://[::1]/']) {
        const response = await app.inject({
          method: 'POST',
          url: '/v1/webhooks',
          headers: { 'x-api-key': keys.stranger.key },
          payload: { url, events: ['job.created'] },
        });
        assert.equal(response.statusCode, 400, url);
        assert.equal(response.json().error, 'webhook_url_not_allowed', url);
        // A busy calendar's address: the same guard, before anything else is looked at.
        const calendar = await app.inject({
          method: 'POST',
          url: '/v1/me/busy-calendars',
          headers: { 'x-api-key': keys.stranger.key },
          payload: { url, listing_id: 'lst_0000000000000000' },
        });
        assert.equal(calendar.statusCode, 400, url);
        assert.equal(calendar.json().param, 'url', url);
        // A push endpoint: the same guard (and https only).
        const https = url.replace(/^http:/, 'https:');
        const push = await app.inject({
          method: 'POST',
          url: '/v1/me/push-subscriptions',
          headers: { 'x-api-key': keys.stranger.key },
          payload: { endpoint: https, keys: { p256dh: `B${'A'.repeat(86)}`, auth: 'AAAAAAAAAAAAAAAAAAAAAA' } },
        });
        assert.equal(push.statusCode, 400, https);
        assert.equal(push.json().param, 'endpoint', https);
      }
    });
  });
});
