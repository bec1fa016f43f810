/**
 * Waiting lists (issue 35): join for a taken time; when the booking holding it is declined, the
 * sweep offers the time to the first waiting for it (event, e-mail), holds it for them for
 * WAITLIST_HOLD_HOURS, then offers it to the next; nothing is offered or mailed twice, also with
 * two sweeps at once.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { createMailer } from '../../src/mail/mailer.js';
import { offerFreedTimes } from '../../src/services/waitlist.js';
import { buildTestApp, clientFor, createKey, NOW } from '../helpers/app.js';
import { LISTING_BODY } from '../helpers/bodies.js';

const HOUR_MS = 3_600_000;

describe('waiting lists', () => {
  test('join, offer to the first, hold, lapse to the next, book; e-mails and events once', async (t) => {
    let now = NOW;
    // The app's own sweep waits a minute: this test runs the sweep itself, as two instances would.
    const { app, db } = await buildTestApp(t, () => now, { EVENTS_POLL_MS: '60000' });
    const outbox = mkdtempSync(join(tmpdir(), 'waitlist-'));
    const mailer = createMailer({ OUTBOX_DIR: outbox, MAIL_FROM: 'api@example.org', SMTP_URL: undefined });
    t.after(() => {
      mailer.close();
      rmSync(outbox, { recursive: true, force: true });
    });
    const sweep = () =>
      offerFreedTimes(db.kysely, mailer, { now, holdHours: 2, requestTtlHours: 48, baseUrl: 'http://127.0.0.1:3000' });
    const key = async (email: string) => clientFor(app, (await createKey(db, { email })).key);
    const owner = await key('owner@example.org');
    const [a, b, c, d] = [
      await key('a@example.org'),
      await key('b@example.org'),
      await key('c@example.org'),
      await key('d@example.org'),
    ];
    const listing = (await owner.post('/v1/listings', LISTING_BODY)).body;
    const booked = await a.post(`/v1/listings/${listing.id}/bookings`, {
      start_date: '2026-11-23',
      end_date: '2026-11-25',
    });
    assert.equal(booked.status, 201, booked.raw);

    const enter = (who: typeof a, body: object) => who.post(`/v1/listings/${listing.id}/waitlist`, body);
    const first = await enter(b, { start_date: '2026-11-24', end_date: '2026-11-24' });
    assert.equal(first.status, 201, first.raw);
    assert.deepEqual([first.body.status, first.body.place, first.body.hold_until], ['waiting', 1, null]);
    // A second later (first come, first served: by the time of joining).
    now = new Date(NOW.getTime() + 1_000);
    const second = await enter(c, { start_date: '2026-11-24', end_date: '2026-11-25' });
    assert.equal(second.status, 201, second.raw);
    assert.equal(second.body.place, 2);
    assert.equal(
      (await enter(b, { start_date: '2026-11-25', end_date: '2026-11-25' })).status,
      409,
      'once per listing',
    );
    const free = await enter(d, { start_date: '2026-12-10', end_date: '2026-12-10' });
    assert.equal(free.status, 400, free.raw);
    assert.match(free.body.suggestion, /POST \/v1\/listings\/.*\/bookings/);
    assert.equal((await enter(owner, { start_date: '2026-11-24', end_date: '2026-11-24' })).status, 400);
    assert.equal((await enter(d, {})).status, 400);

    // Still taken: nothing is offered.
    assert.equal(await sweep(), 0);
    // The owner declines the booking: the first waiting is offered the day, held for two hours;
    // the second wants an overlapping time and waits on, even with two sweeps at once.
    assert.equal((await owner.post(`/v1/bookings/${booked.body.id}/decline`)).status, 200);
    assert.deepEqual((await Promise.all([sweep(), sweep()])).sort(), [0, 1]);
    const offered = (await b.get('/v1/me/waitlist')).body.data[0];
    assert.deepEqual(
      [offered.status, offered.place, offered.hold_until],
      ['offered', 1, new Date(now.getTime() + 2 * HOUR_MS).toISOString()],
    );
    assert.equal((await c.get('/v1/me/waitlist')).body.data[0].status, 'waiting');
    const events = await db.kysely
      .selectFrom('events')
      .select(['type', 'audience', 'subject_id'])
      .where('type', '=', 'waitlist.offered')
      .execute();
    assert.equal(events.length, 1);
    assert.equal(events[0]?.subject_id, first.body.id);
    assert.equal(await sweep(), 0, 'offered once');
    const mails = readdirSync(outbox);
    assert.equal(mails.length, 1, 'one e-mail, however often the sweep runs');
    const mail = readFileSync(join(outbox, mails[0] as string), 'utf8');
    assert.match(mail, /b@example\.org/);
    assert.match(mail, /Bierzeltgarnitur/);
    assert.match(mail, /2026-11-24/);

    // While held, the day is the first's: others are refused, naming the hold.
    const others = await c.post(`/v1/listings/${listing.id}/bookings`, {
      start_date: '2026-11-24',
      end_date: '2026-11-24',
    });
    assert.equal(others.status, 409, others.raw);
    assert.equal(others.body.error, 'booking_conflict');
    assert.match(others.body.message, /held until .* waiting list/);
    // A day not held stays bookable.
    assert.equal(
      (await d.post(`/v1/listings/${listing.id}/bookings`, { start_date: '2026-11-26', end_date: '2026-11-26' }))
        .status,
      201,
    );

    // Three hours later the hold has lapsed: the next waiting is offered the time, and books it.
    now = new Date(NOW.getTime() + 3 * HOUR_MS);
    assert.equal(await sweep(), 1);
    assert.equal((await b.get('/v1/me/waitlist')).body.data[0].status, 'lapsed');
    const next = (await c.get('/v1/me/waitlist')).body.data[0];
    assert.equal(next.status, 'offered');
    assert.equal(readdirSync(outbox).length, 2);
    const taken = await c.post(`/v1/listings/${listing.id}/bookings`, {
      start_date: '2026-11-24',
      end_date: '2026-11-25',
    });
    assert.equal(taken.status, 201, taken.raw);
    assert.equal((await c.get('/v1/me/waitlist')).body.data[0].status, 'booked');

    // Leaving: one's own waiting entry (204), not someone else's (404), not one that ended (409).
    const waiting = await enter(d, { start_date: '2026-11-25', end_date: '2026-11-25' });
    assert.equal(waiting.status, 201, waiting.raw);
    assert.equal((await b.delete(`/v1/waitlist/${waiting.body.id}`)).status, 404);
    assert.equal((await d.delete(`/v1/waitlist/${waiting.body.id}`)).status, 204);
    assert.equal((await d.get('/v1/me/waitlist')).body.data[0].status, 'left');
    assert.equal((await b.delete(`/v1/waitlist/${first.body.id}`)).status, 409);

    // Waiting for a day that passes taken (a day can be booked until it ends): then the entry lapses.
    const late = await enter(a, { start_date: '2026-11-25', end_date: '2026-11-25' });
    assert.equal(late.status, 201, late.raw);
    await sweep();
    assert.equal((await a.get('/v1/me/waitlist')).body.data[0].status, 'waiting');
    now = new Date('2026-11-26T00:30:00Z'); // 01:30 the day after in Karlsruhe: the day is over
    await sweep();
    assert.equal((await a.get('/v1/me/waitlist')).body.data[0].status, 'lapsed');
  });

  test('by the hour: a trailer’s afternoon comes free', async (t) => {
    const { app, db } = await buildTestApp(t, NOW, { EVENTS_POLL_MS: '60000' });
    const outbox = mkdtempSync(join(tmpdir(), 'waitlist-'));
    const mailer = createMailer({ OUTBOX_DIR: outbox, MAIL_FROM: 'api@example.org', SMTP_URL: undefined });
    t.after(() => {
      mailer.close();
      rmSync(outbox, { recursive: true, force: true });
    });
    const key = async (email: string) => clientFor(app, (await createKey(db, { email })).key);
    const owner = await key('owner@example.org');
    const [a, b] = [await key('a@example.org'), await key('b@example.org')];
    const listing = (
      await owner.post('/v1/listings', { ...LISTING_BODY, price_per_hour_eur: 2, instant_booking: true })
    ).body;
    const booked = await a.post(`/v1/listings/${listing.id}/bookings`, {
      start_at: '2026-11-21T13:00:00+01:00',
      end_at: '2026-11-21T17:00:00+01:00',
    });
    assert.equal(booked.status, 201, booked.raw);
    const hours = { start_at: '2026-11-21T14:00:00+01:00', end_at: '2026-11-21T16:00:00+01:00' };
    const entry = await b.post(`/v1/listings/${listing.id}/waitlist`, hours);
    assert.equal(entry.status, 201, entry.raw);
    assert.equal(entry.body.start_at, '2026-11-21T13:00:00.000Z');
    assert.equal((await a.post(`/v1/bookings/${booked.body.id}/cancel`)).status, 200);
    const run = () =>
      offerFreedTimes(db.kysely, mailer, { now: NOW, holdHours: 2, requestTtlHours: 48, baseUrl: 'http://x' });
    assert.equal(await run(), 1);
    // The renter who cancelled cannot take the afternoon back while it is held.
    assert.equal((await a.post(`/v1/listings/${listing.id}/bookings`, hours)).status, 409);
    assert.equal((await b.post(`/v1/listings/${listing.id}/bookings`, hours)).status, 201);
    const mail = readFileSync(join(outbox, readdirSync(outbox)[0] as string), 'utf8');
    assert.match(mail, /start_at/);
  });
});
