/**
 * Busy calendars (issue 35): an owner attaches their own iCalendar feed to a listing, a helper to
 * a profile; the sweep fetches it from a real HTTP server on 127.0.0.1 (ETag, 304, errors), ical.js
 * reads it with its recurring events and exceptions, and its busy times block bookings, show in
 * availability and keep a busy helper out of /v1/helpers/availability.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import { refreshBusyCalendars } from '../../src/services/busy-calendars.js';
import { buildTestApp, clientFor, createKey, NOW } from '../helpers/app.js';
import { helperBody, LISTING_BODY } from '../helpers/bodies.js';
import { BUSY_FEED } from '../helpers/busy-feed.js';

interface Feed {
  body: string;
  status: number;
  etag: string;
  seen: (string | undefined)[];
}

async function feedServer(t: { after: (fn: () => Promise<void>) => void }, feed: Feed): Promise<string> {
  const server: Server = createServer((request, response) => {
    feed.seen.push(request.headers['if-none-match']);
    if (feed.status !== 200) {
      response.writeHead(feed.status).end('nope');
      return;
    }
    if (request.headers['if-none-match'] === feed.etag) {
      response.writeHead(304).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'text/calendar', etag: feed.etag }).end(feed.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/private/basic.ics`;
}

describe('busy calendars', () => {
  test("an owner's calendar blocks the listing's busy times; fetched with ETag; errors keep the last times", async (t) => {
    let now = NOW;
    const { app, db } = await buildTestApp(t, () => now, {
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      EVENTS_POLL_MS: '60000',
    });
    const feed: Feed = { body: BUSY_FEED, status: 200, etag: '"v1"', seen: [] };
    const url = await feedServer(t, feed);
    const owner = clientFor(app, (await createKey(db, { email: 'owner@example.org' })).key);
    const renter = clientFor(app, (await createKey(db, { email: 'renter@example.org' })).key);
    const listing = (
      await owner.post('/v1/listings', { ...LISTING_BODY, instant_booking: true, price_per_hour_eur: 2 })
    ).body;
    const refresh = () =>
      refreshBusyCalendars(db.kysely, { now, allowPrivate: true, refreshMinutes: 30, userAgent: 'test' });

    // Neither or both targets, someone else's listing: refused, each naming the field.
    assert.equal((await owner.post('/v1/me/busy-calendars', { url })).body.param, 'listing_id');
    const foreign = await renter.post('/v1/me/busy-calendars', { url, listing_id: listing.id });
    assert.equal(foreign.status, 404, foreign.raw);
    const attached = await owner.post('/v1/me/busy-calendars', {
      url: url.replace('http://', 'webcal://').replace('webcal://', 'http://'),
      listing_id: listing.id,
    });
    assert.equal(attached.status, 201, attached.raw);
    assert.deepEqual(
      [attached.body.status, attached.body.url_host, attached.body.busy_times],
      ['pending', new URL(url).host, 0],
    );
    assert.ok(!attached.raw.includes('/private/basic.ics'), 'the secret address is not shown again');

    assert.equal(await refresh(), 1);
    assert.equal(await refresh(), 0, 'not due again before refreshMinutes');
    const fetched = (await owner.get('/v1/me/busy-calendars')).body.data[0];
    assert.deepEqual([fetched.status, fetched.busy_times, fetched.last_error], ['ok', 4, null]);
    assert.equal((await renter.get('/v1/me/busy-calendars')).body.data.length, 0);

    // Saturday 21 November 10:00-12:00 is busy: that day cannot be booked, 12:00 on can by the hour.
    const day = await renter.post(`/v1/listings/${listing.id}/bookings`, {
      start_date: '2026-11-21',
      end_date: '2026-11-21',
    });
    assert.equal(day.status, 409, day.raw);
    assert.equal(day.body.error, 'booking_conflict');
    assert.match(day.body.message, /owner's calendar/);
    const afternoon = await renter.post(`/v1/listings/${listing.id}/bookings`, {
      start_at: '2026-11-21T12:00:00+01:00',
      end_at: '2026-11-21T15:00:00+01:00',
    });
    assert.equal(afternoon.status, 201, afternoon.raw);
    // 28 November is an exception (EXDATE): free; 5 December moved to 14:00-16:00.
    assert.equal(
      (await renter.post(`/v1/listings/${listing.id}/bookings`, { start_date: '2026-11-28', end_date: '2026-11-28' }))
        .status,
      201,
    );
    const moved = await renter.post(`/v1/listings/${listing.id}/bookings`, {
      start_at: '2026-12-05T10:00:00+01:00',
      end_at: '2026-12-05T15:00:00+01:00',
    });
    assert.equal(moved.status, 409, moved.raw);
    const availability = await renter.get(`/v1/listings/${listing.id}/availability`);
    const busy = availability.body.booked.filter((range: { status: string }) => range.status === 'busy');
    assert.deepEqual(
      busy.map((range: { start_at: string }) => range.start_at),
      ['2026-11-21T09:00:00.000Z', '2026-12-05T13:00:00.000Z', '2026-12-12T09:00:00.000Z', '2027-03-27T23:00:00.000Z'],
    );

    // The busy times count for extensions and waiting lists too: a booking of 10 and 11 December
    // cannot run into the busy Saturday, and that Saturday's morning can be waited for.
    const before = await renter.post(`/v1/listings/${listing.id}/bookings`, {
      start_date: '2026-12-10',
      end_date: '2026-12-11',
    });
    assert.equal(before.status, 201, before.raw);
    const extended = await renter.post(`/v1/bookings/${before.body.id}/extension-requests`, { until: '2026-12-12' });
    assert.equal(extended.status, 409, extended.raw);
    assert.match(extended.body.message, /owner’s calendar/);
    const waiting = await renter.post(`/v1/listings/${listing.id}/waitlist`, {
      start_at: '2026-12-12T10:00:00+01:00',
      end_at: '2026-12-12T12:00:00+01:00',
    });
    assert.equal(waiting.status, 201, waiting.raw);

    // Half an hour later: asked with the ETag, the server says 304, and the times stay.
    now = new Date(NOW.getTime() + 31 * 60_000);
    assert.equal(await refresh(), 1);
    assert.deepEqual(feed.seen, [undefined, '"v1"']);
    assert.equal((await owner.get('/v1/me/busy-calendars')).body.data[0].busy_times, 4);
    // The server fails: the status says why, and the last good times still count.
    feed.status = 500;
    now = new Date(NOW.getTime() + 62 * 60_000);
    assert.equal(await refresh(), 1);
    const failed = (await owner.get('/v1/me/busy-calendars')).body.data[0];
    assert.deepEqual([failed.status, failed.last_error], ['error', 'the server answered 500']);
    assert.equal(
      (await renter.post(`/v1/listings/${listing.id}/bookings`, { start_date: '2026-12-12', end_date: '2026-12-12' }))
        .status,
      409,
    );
    // Something that is no calendar: an error too.
    feed.status = 200;
    feed.body = '<html>Anmeldung</html>';
    feed.etag = '"v2"';
    now = new Date(NOW.getTime() + 93 * 60_000);
    await refresh();
    assert.match((await owner.get('/v1/me/busy-calendars')).body.data[0].last_error, /not an iCalendar feed/);

    // Detached by someone else: 404; by its owner: 204, and the day is free.
    assert.equal((await renter.delete(`/v1/me/busy-calendars/${attached.body.id}`)).status, 404);
    assert.equal((await owner.delete(`/v1/me/busy-calendars/${attached.body.id}`)).status, 204);
    assert.equal(
      (await renter.post(`/v1/listings/${listing.id}/bookings`, { start_date: '2026-12-12', end_date: '2026-12-12' }))
        .status,
      201,
    );
  });

  test('the address guard: no internal addresses unless allowed; a busy helper is not counted available', async (t) => {
    const guarded = await buildTestApp(t, NOW, { EVENTS_POLL_MS: '60000' });
    const owner = clientFor(guarded.app, (await createKey(guarded.db, { email: 'owner@example.org' })).key);
    const listing = (await owner.post('/v1/listings', LISTING_BODY)).body;
    for (const url of [
      'http://127.0.0.1:9/cal.ics',
      'http://localhost/cal.ics',
      'file:///etc/passwd',
      'http://10.0.0.1/x.ics',
    ]) {
      const refused = await owner.post('/v1/me/busy-calendars', { url, listing_id: listing.id });
      assert.equal(refused.status, 400, `${url}: ${refused.raw}`);
      assert.equal(refused.body.param, 'url');
    }

    const { app, db } = await buildTestApp(t, NOW, { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', EVENTS_POLL_MS: '60000' });
    // Busy from an hour ago to an hour ahead (a UTC event).
    const nowBusy = BUSY_FEED.replace(
      'END:VCALENDAR',
      'BEGIN:VEVENT\r\nUID:now@test\r\nDTSTAMP:20261101T000000Z\r\nDTSTART:20261120T110000Z\r\nDTEND:20261120T130000Z\r\nEND:VEVENT\r\nEND:VCALENDAR',
    );
    const url = await feedServer(t, { body: nowBusy, status: 200, etag: '"h"', seen: [] });
    const helper = clientFor(app, (await createKey(db, { email: 'helper@example.org' })).key);
    const profile = (await helper.post('/v1/helpers', helperBody('Jonas W.'))).body;
    await db.kysely.updateTable('helpers').set({ verified: 1 }).where('id', '=', profile.id).execute();
    const near = `/v1/helpers/availability?category=GARDENING&lat=49.0123&lng=8.4321&radius=1`;
    const before = (await helper.get(near)).body.available_helpers;
    assert.ok(before >= 1, `${before} available`);
    assert.equal((await helper.post('/v1/me/busy-calendars', { url, helper_id: profile.id })).status, 201);
    await refreshBusyCalendars(db.kysely, { now: NOW, allowPrivate: true, refreshMinutes: 30, userAgent: 'test' });
    assert.equal((await helper.get(near)).body.available_helpers, before - 1);
  });
});
