/**
 * Calendar feeds (issue 18) over HTTP on the run's engine, each feed parsed with ical.js: a
 * listing's booked days (exactly the days its availability holds, nothing about renters), an
 * account's private feed of its bookings and jobs (only its own), replacing and revoking the URL,
 * and the 404s and 400s of unknown and malformed ids and tokens.
 */
import assert from 'node:assert/strict';
import { describe, type TestContext, test } from 'node:test';
import ICAL from 'ical.js';
import type { Db } from '../../src/db/create-db.js';
import type { BookingRow } from '../../src/db/schema.js';
import { urlForLog } from '../../src/http/plugins/observability.js';
import type { Api } from '../../src/http/route-deps.js';
import { buildTestApp, type Client, clientFor, createKey, NOW } from '../helpers/app.js';
import { helperBody, JOB_BODY, LISTING_BODY } from '../helpers/bodies.js';

const HOUR_MS = 3_600_000;
const ERROR_KEYS = ['alternatives', 'alternatives_count', 'error', 'message', 'param', 'suggestion'];

interface ParsedEvent {
  uid: string;
  summary: string;
  description: string | null;
  start: string;
  end: string;
  allDay: boolean;
  status: string;
  transp: string;
}

/** The feed's events, in the order given, and every property value of the whole calendar. */
function parseFeed(text: string): { name: unknown; events: ParsedEvent[]; values: string[] } {
  const calendar = new ICAL.Component(ICAL.parse(text));
  const events = calendar.getAllSubcomponents('vevent').map((component) => {
    const event = new ICAL.Event(component);
    return {
      uid: event.uid,
      summary: event.summary,
      description: (event.description as string | null) ?? null,
      start: event.startDate.toString(),
      end: event.endDate.toString(),
      allDay: event.startDate.isDate,
      status: String(component.getFirstPropertyValue('status')),
      transp: String(component.getFirstPropertyValue('transp')),
    };
  });
  const values = [calendar, ...calendar.getAllSubcomponents()].flatMap((component) =>
    component.getAllProperties().flatMap((property) => property.getValues().map(String)),
  );
  return { name: calendar.getFirstPropertyValue('x-wr-calname'), events, values };
}

async function insertBooking(
  db: Db,
  row: Partial<BookingRow> &
    Pick<BookingRow, 'id' | 'listing_id' | 'renter_account_id' | 'start_date' | 'end_date' | 'status'>,
) {
  await db.kysely
    .insertInto('bookings')
    .values({
      days: 1,
      price_cents: 800,
      deposit_cents: 2000,
      daily_cents: 800,
      weekly_cents: null,
      weeks: 0,
      extra_days: 1,
      created_at: NOW.toISOString(),
      updated_at: NOW.toISOString(),
      ...row,
    })
    .execute();
}

/**
 * A lender with an instantly bookable listing, two renters and a stranger; renter A booked
 * 1-3 Dec through the API, the other bookings are written straight to the database in every
 * state, in and out of the window (20 Nov 2026 minus 30 days to plus 365).
 */
async function setup(t: TestContext) {
  const { app, db } = await buildTestApp(t);
  const keys = {
    owner: await createKey(db, { email: 'lender@example.org' }),
    renterA: await createKey(db, { email: 'renter-a@example.org' }),
    renterB: await createKey(db, { email: 'renter-b@example.org' }),
    stranger: await createKey(db, { email: 'stranger@example.org' }),
  };
  const owner = clientFor(app, keys.owner.key);
  const renterA = clientFor(app, keys.renterA.key);
  const listing = await owner.post('/v1/listings', { ...LISTING_BODY, instant_booking: true });
  assert.equal(listing.status, 201, JSON.stringify(listing.body));
  const listingId = listing.body.id as string;
  const booked = await renterA.post(`/v1/listings/${listingId}/bookings`, {
    start_date: '2026-12-01',
    end_date: '2026-12-03',
  });
  assert.equal(booked.status, 201, JSON.stringify(booked.body));
  assert.equal(booked.body.status, 'confirmed');
  const b = keys.renterB.accountId;
  const old = new Date(NOW.getTime() - 100 * HOUR_MS).toISOString();
  const rows = [
    { id: 'bkg_active', renter_account_id: b, start_date: '2026-11-19', end_date: '2026-11-22', status: 'active' },
    { id: 'bkg_waiting', renter_account_id: b, start_date: '2026-12-24', end_date: '2026-12-26', status: 'requested' },
    {
      id: 'bkg_overdue',
      renter_account_id: b,
      start_date: '2026-12-10',
      end_date: '2026-12-11',
      status: 'requested',
      created_at: old,
    },
    {
      id: 'bkg_cancelled',
      renter_account_id: b,
      start_date: '2026-12-05',
      end_date: '2026-12-06',
      status: 'cancelled',
    },
    { id: 'bkg_declined', renter_account_id: b, start_date: '2026-12-07', end_date: '2026-12-08', status: 'declined' },
    { id: 'bkg_returned', renter_account_id: b, start_date: '2026-11-01', end_date: '2026-11-03', status: 'returned' },
    { id: 'bkg_too_early', renter_account_id: b, start_date: '2026-10-01', end_date: '2026-10-03', status: 'active' },
    { id: 'bkg_too_late', renter_account_id: b, start_date: '2028-01-01', end_date: '2028-01-02', status: 'confirmed' },
  ] as const;
  for (const row of rows) await insertBooking(db, { listing_id: listingId, ...row });
  return {
    app,
    db,
    keys,
    owner,
    renterA,
    renterB: clientFor(app, keys.renterB.key),
    stranger: clientFor(app, keys.stranger.key),
    anonymous: clientFor(app, null),
    listingId,
    bookingId: booked.body.id as string,
  };
}

/**
 * GETs a feed without a key (calendar apps send none): 200, text/calendar, every content line
 * ended by CRLF (RFC 5545 3.1), the last one too, parsed.
 */
async function icsOf(app: Api, url: string) {
  const response = await app.inject({ method: 'GET', url });
  assert.equal(response.statusCode, 200, response.body);
  assert.equal(response.headers['content-type'], 'text/calendar; charset=utf-8');
  assert.ok(response.body.endsWith('END:VCALENDAR\r\n'), `${url} ends with END:VCALENDAR and CRLF`);
  assert.doesNotMatch(response.body, /[^\r]\n|\r(?!\n)/, `${url}: every line ends in CRLF`);
  return { headers: response.headers, ...parseFeed(response.body) };
}

/** Makes the account's private feed and answers its URL. */
async function feedUrl(client: Client): Promise<string> {
  const made = await client.post('/v1/me/calendar-feed');
  assert.equal(made.status, 201, made.raw);
  assert.deepEqual(Object.keys(made.body).sort(), ['created_at', 'url']);
  assert.equal(made.body.created_at, NOW.toISOString());
  assert.match(made.body.url, /^\/v1\/calendar-feeds\/cal_[0-9A-Za-z]{43}\.ics$/);
  return made.body.url;
}

describe('GET /v1/listings/{id}/calendar.ics', () => {
  test('one busy all-day event per booking that holds days, as availability counts them, and nothing personal', async (t) => {
    const { app, anonymous, listingId, bookingId, keys } = await setup(t);
    const { events, values, name } = await icsOf(app, `/v1/listings/${listingId}/calendar.ics`);
    assert.equal(name, LISTING_BODY.title);
    // DTEND of an all-day event is the day after the last booked day.
    assert.deepEqual(
      events.map(({ start, end, allDay, status, transp, summary, description }) => ({
        start,
        end,
        allDay,
        status,
        transp,
        summary,
        description,
      })),
      [
        ['2026-11-19', '2026-11-23'],
        ['2026-12-01', '2026-12-04'],
        ['2026-12-24', '2026-12-27'],
      ].map(([start, end]) => ({
        start,
        end,
        allDay: true,
        status: 'CONFIRMED',
        transp: 'OPAQUE',
        summary: 'Gebucht / Booked',
        description: null,
      })),
    );
    // The same days the JSON availability lists, up to the window's end (a year ahead).
    const availability = await anonymous.get(`/v1/listings/${listingId}/availability`);
    assert.deepEqual(
      availability.body.booked
        .map((b: { start_date: string }) => b.start_date)
        .filter((date: string) => date <= '2027-11-20'),
      events.map((e) => e.start),
    );
    // UIDs are stable hashes: unique, and no booking id, account, name, e-mail or price anywhere.
    assert.equal(new Set(events.map((e) => e.uid)).size, 3);
    for (const uid of events.map((e) => e.uid)) assert.match(uid, /^[0-9a-f]{32}@karlsruhe-marketplace$/);
    const secrets = [bookingId, 'bkg_', keys.renterA.accountId, keys.renterB.accountId, 'example.org', 'Test', 'EUR'];
    for (const value of values) {
      for (const secret of secrets) assert.ok(!value.includes(secret), `${value} shows ${secret}`);
    }
    const again = await icsOf(app, `/v1/listings/${listingId}/calendar.ics`);
    assert.deepEqual(
      again.events.map((e) => e.uid),
      events.map((e) => e.uid),
      'UIDs are the same on every fetch',
    );
  });

  test('an unknown listing is a 404 ApiError; a listing without bookings an empty calendar', async (t) => {
    const { app, anonymous, owner } = await setup(t);
    const missing = await anonymous.get('/v1/listings/lst_0000000000000000/calendar.ics');
    assert.equal(missing.status, 404);
    assert.deepEqual(Object.keys(missing.body).sort(), ERROR_KEYS);
    assert.equal(missing.body.error, 'not_found');
    assert.equal(missing.body.param, 'id');
    const empty = await owner.post('/v1/listings', LISTING_BODY);
    assert.equal(empty.status, 201);
    const { events } = await icsOf(app, `/v1/listings/${empty.body.id}/calendar.ics`);
    assert.deepEqual(events, []);
  });
});

describe('private calendar feeds', () => {
  test("each account's feed shows its own bookings and jobs, and nobody else's", async (t) => {
    const { app, owner, renterA, renterB, stranger, bookingId } = await setup(t);
    // The lender posts a job for 5 Dec, 09:00 UTC, three hours; renter A, as a helper, is accepted.
    const job = await owner.post('/v1/jobs', { ...JOB_BODY, desired_at: '2026-12-05T09:00:00Z', duration_hours: 3 });
    assert.equal(job.status, 201, job.raw);
    const undated = await owner.post('/v1/jobs', { ...JOB_BODY, title: 'Irgendwann' });
    assert.equal(undated.status, 201, undated.raw);
    const profile = await renterA.post('/v1/helpers', helperBody('Jonas W.'));
    assert.equal(profile.status, 201, profile.raw);
    const applied = await renterA.post(`/v1/jobs/${job.body.id}/applications`, { helper_id: profile.body.id });
    assert.equal(applied.status, 201, applied.raw);
    const accepted = await owner.post(`/v1/jobs/${job.body.id}/applications/${applied.body.id}/accept`);
    assert.equal(accepted.status, 200, accepted.raw);

    const title = LISTING_BODY.title;
    const jobEvent = { start: '2026-12-05T09:00:00Z', end: '2026-12-05T12:00:00Z', allDay: false };
    const summaries = async (client: Client) => {
      const url = await feedUrl(client);
      const { events, headers } = await icsOf(app, url);
      assert.equal(headers['cache-control'], 'private, no-store');
      return events.map(({ summary, start, end, allDay, status, transp }) => ({
        summary,
        start,
        end,
        allDay,
        status,
        transp,
      }));
    };
    const day = (summary: string, start: string, end: string, status = 'CONFIRMED') => ({
      summary,
      start,
      end,
      allDay: true,
      status,
      transp: 'OPAQUE',
    });
    assert.deepEqual(await summaries(owner), [
      day(`Verliehen / Lending: ${title}`, '2026-11-01', '2026-11-04'),
      day(`Verliehen / Lending: ${title}`, '2026-11-19', '2026-11-23'),
      day(`Verliehen / Lending: ${title}`, '2026-12-01', '2026-12-04'),
      day(`Verliehen / Lending: ${title}`, '2026-12-24', '2026-12-27', 'TENTATIVE'),
      { summary: `Auftrag / Job posted: ${JOB_BODY.title}`, ...jobEvent, status: 'CONFIRMED', transp: 'OPAQUE' },
    ]);
    assert.deepEqual(await summaries(renterA), [
      day(`Ausleihe / Borrowing: ${title}`, '2026-12-01', '2026-12-04'),
      { summary: `Einsatz / Job to do: ${JOB_BODY.title}`, ...jobEvent, status: 'CONFIRMED', transp: 'OPAQUE' },
    ]);
    assert.deepEqual(await summaries(renterB), [
      day(`Ausleihe / Borrowing: ${title}`, '2026-11-01', '2026-11-04'),
      day(`Ausleihe / Borrowing: ${title}`, '2026-11-19', '2026-11-23'),
      day(`Ausleihe / Borrowing: ${title}`, '2026-12-24', '2026-12-27', 'TENTATIVE'),
    ]);
    assert.deepEqual(await summaries(stranger), []);

    // The renter's booking names its status; the feed does not need a key, and says nothing of others.
    const url = await feedUrl(renterA);
    const { events, values } = await icsOf(app, url);
    assert.equal(events[0]?.description, `Status: confirmed. GET /v1/bookings/${bookingId}`);
    for (const value of values) assert.ok(!value.includes('bkg_active') && !value.includes('example.org'), value);
  });

  test('a new URL replaces the old one, DELETE revokes it; both then answer 404', async (t) => {
    const { app, renterA, anonymous } = await setup(t);
    const first = await feedUrl(renterA);
    assert.equal((await icsOf(app, first)).events.length, 1);
    const second = await feedUrl(renterA);
    assert.notEqual(second, first);
    const gone = await anonymous.get(first);
    assert.equal(gone.status, 404);
    assert.deepEqual(Object.keys(gone.body).sort(), ERROR_KEYS);
    assert.equal(gone.body.error, 'not_found');
    assert.equal((await icsOf(app, second)).events.length, 1);

    const revoked = await renterA.delete('/v1/me/calendar-feed');
    assert.equal(revoked.status, 204);
    assert.equal(revoked.raw, '');
    const after = await anonymous.get(second);
    assert.equal(after.status, 404);
    // The same answer as a token that never existed.
    const never = await anonymous.get(`/v1/calendar-feeds/cal_${'A'.repeat(43)}.ics`);
    assert.deepEqual(never.body, after.body);
    assert.equal((await renterA.delete('/v1/me/calendar-feed')).status, 204, 'revoking nothing is no error');
  });

  test('the answer to a retried POST with the same Idempotency-Key is the first one', async (t) => {
    const { app, renterA } = await setup(t);
    const headers = { 'idempotency-key': 'feed-0001' };
    const made = await renterA.post('/v1/me/calendar-feed', undefined, headers);
    assert.equal(made.status, 201, made.raw);
    const replay = await renterA.post('/v1/me/calendar-feed', undefined, headers);
    assert.equal(replay.status, 201);
    assert.equal(replay.headers['idempotent-replayed'], 'true');
    assert.deepEqual(replay.body, made.body);
    assert.equal((await icsOf(app, made.body.url)).events.length, 1, 'the first URL still works');
  });

  test('making or revoking a feed needs a key; malformed tokens are an ApiError, never a 500', async (t) => {
    const { anonymous } = await setup(t);
    for (const response of [
      await anonymous.post('/v1/me/calendar-feed'),
      await anonymous.delete('/v1/me/calendar-feed'),
    ]) {
      assert.equal(response.status, 401);
      assert.equal(response.body.error, 'authentication_required');
    }
    for (const [token, status] of [
      ['nope', 404],
      ['cal_', 404],
      [`cal_${'a'.repeat(42)}`, 404],
      [`cal_${'a'.repeat(44)}`, 404],
      ['cal_%C3%A4%C3%B6', 404],
      [`cal_${'a'.repeat(120)}`, 400],
    ] as const) {
      const response = await anonymous.get(`/v1/calendar-feeds/${token}.ics`);
      assert.equal(response.status, status, `${token}: ${response.raw}`);
      assert.deepEqual(Object.keys(response.body).sort(), ERROR_KEYS);
      assert.equal(response.body.param, 'token');
    }
  });

  test('a feed URL reaches the request log without its token', async (t) => {
    const { renterA } = await setup(t);
    const url = await feedUrl(renterA);
    const token = url.slice('/v1/calendar-feeds/'.length, -'.ics'.length);
    for (const logged of [url, `${url}?x=1`, `/v1/calendar-feeds/${token.slice(0, 20)}.ics`]) {
      assert.equal(urlForLog(logged).includes(token.slice(4, 24)), false, urlForLog(logged));
    }
    assert.equal(urlForLog(url), '/v1/calendar-feeds/cal_[redacted].ics');
  });

  test('an error body echoing a feed URL holds no token, also percent-encoded', async (t) => {
    const { app, renterA } = await setup(t);
    const url = await feedUrl(renterA);
    const token = url.slice('/v1/calendar-feeds/'.length, -'.ics'.length);
    for (const sent of [url, url.replace('cal_', 'cal%5F')]) {
      // No such method on a feed: the 405 names the URL it was sent to.
      const response = await app.inject({ method: 'PUT', url: sent, headers: { 'x-test-off-contract': '1' } });
      assert.ok(response.statusCode >= 400 && response.statusCode < 500, response.body);
      assert.equal(response.body.includes(token.slice(4, 24)), false, response.body);
    }
  });
});
