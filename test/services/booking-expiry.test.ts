/**
 * Booking requests expire (issue 14): a request the owner leaves unanswered for
 * BOOKING_REQUEST_TTL_HOURS frees its days and reads as expired at once, before any sweep; the
 * sweep of every instance then writes `expired` with one booking.status_changed event for the
 * owner's and the renter's webhooks. The app's clock is moved; nothing waits for real hours.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildApp } from '../../src/app.js';
import { testConfig } from '../../src/config.js';
import { buildTestApp, createKey, NOW, sendJson } from '../helpers/app.js';
import { until } from '../helpers/server-process.js';

const HOUR = 3_600_000;
const TTL_EXPIRED = new Date(NOW.getTime() + 48 * HOUR);

const call = sendJson;

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

/** An app whose clock the test moves, with an owner, a renter and a second renter. */
async function setup(t: Parameters<typeof buildTestApp>[0], config: Record<string, string> = {}) {
  const clock = { now: NOW };
  const { app, db } = await buildTestApp(t, () => clock.now, config);
  const owner = await createKey(db, { email: 'owner@example.org' });
  const renter = await createKey(db, { email: 'renter@example.org' });
  const other = await createKey(db, { email: 'other@example.org' });
  const list = async (overrides: object = {}): Promise<string> => {
    const { status, body } = await call(app, 'POST', '/v1/listings', owner.key, { ...LISTING, ...overrides });
    assert.equal(status, 201, JSON.stringify(body));
    return body.id;
  };
  const book = (listingId: string, start_date: string, end_date: string, key = renter.key) =>
    call(app, 'POST', `/v1/listings/${listingId}/bookings`, key, { start_date, end_date });
  const act = (id: string, action: string, key: string) => call(app, 'POST', `/v1/bookings/${id}/${action}`, key);
  const stored = async (id: string) =>
    (await db.kysely.selectFrom('bookings').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
  const statusEvents = () =>
    db.kysely
      .selectFrom('events')
      .select(['id', 'subject_id', 'audience', 'payload', 'created_at'])
      .where('type', '=', 'booking.status_changed')
      .orderBy('id')
      .execute();
  return { app, db, clock, owner, renter, other, list, book, act, stored, statusEvents };
}

const expiredAnswer = (action: string) => ({
  error: 'invalid_state_transition',
  message: `The booking is expired; '${action}' is not possible from there.`,
  param: null,
  suggestion: 'This booking is expired and cannot change any more.',
  alternatives: [],
  alternatives_count: 0,
});

describe('booking requests expire after BOOKING_REQUEST_TTL_HOURS', () => {
  test('at the TTL the days are free and the request reads expired at once, before any sweep', async (t) => {
    // A sweep every minute: it does not run within this test, so what it sees comes from the reads.
    const { app, clock, owner, renter, other, list, book, act, stored, statusEvents } = await setup(t, {
      EVENTS_POLL_MS: '60000',
    });
    const listingId = await list();
    const request = await book(listingId, '2026-12-01', '2026-12-10');
    assert.equal(request.status, 201);
    assert.equal(request.body.status, 'requested');
    const id = request.body.id;

    clock.now = new Date(TTL_EXPIRED.getTime() - 1);
    const clash = await book(listingId, '2026-12-05', '2026-12-06', other.key);
    assert.equal(clash.status, 409, 'one millisecond before the TTL the request still holds its days');
    assert.equal(clash.body.error, 'booking_conflict');
    assert.equal((await call(app, 'GET', `/v1/bookings/${id}`, renter.key)).body.status, 'requested');

    clock.now = TTL_EXPIRED;
    const expired = { ...request.body, status: 'expired', updated_at: TTL_EXPIRED.toISOString() };
    for (const key of [renter.key, owner.key]) {
      assert.deepEqual(await call(app, 'GET', `/v1/bookings/${id}`, key).then((r) => [r.status, r.body]), [
        200,
        expired,
      ]);
    }
    const availability = await call(app, 'GET', `/v1/listings/${listingId}/availability`);
    assert.deepEqual(availability.body, {
      listing_id: listingId,
      listing_status: 'available',
      today: '2026-11-22',
      booked: [],
    });
    for (const [action, key] of [
      ['confirm', owner.key],
      ['decline', owner.key],
      ['cancel', owner.key],
      ['cancel', renter.key],
    ] as const) {
      const answer = await act(id, action, key);
      assert.deepEqual([answer.status, answer.body], [409, expiredAnswer(action)], `${action}`);
    }
    const second = await book(listingId, '2026-12-05', '2026-12-06', other.key);
    assert.equal(second.status, 201, JSON.stringify(second.body));
    assert.equal(second.body.status, 'requested');
    assert.deepEqual((await call(app, 'GET', `/v1/listings/${listingId}/availability`)).body.booked, [
      { start_date: '2026-12-05', end_date: '2026-12-06', start_at: null, end_at: null, status: 'requested' },
    ]);
    assert.equal(await stored(id), 'requested', 'the sweep has not run: the reads alone showed it expired');
    assert.deepEqual(await statusEvents(), []);
  });

  test('the sweep writes expired with one booking.status_changed event for the owner and the renter', async (t) => {
    const { app, db, clock, owner, renter, list, book, act, stored, statusEvents } = await setup(t, {
      EVENTS_POLL_MS: '20',
    });
    const hooks: Record<string, string> = {};
    for (const [who, key] of [
      ['owner', owner.key],
      ['renter', renter.key],
    ] as const) {
      const hook = { url: 'https://93.184.215.14/hooks', events: ['booking.status_changed'] };
      const created = await call(app, 'POST', '/v1/webhooks', key, hook);
      assert.equal(created.status, 201, JSON.stringify(created.body));
      hooks[who] = created.body.id;
    }
    const unanswered = await book(await list(), '2026-12-01', '2026-12-03');
    const answered = await book(await list(), '2026-12-01', '2026-12-03');
    const instant = await book(await list({ instant_booking: true }), '2026-12-01', '2026-12-03');
    assert.deepEqual(
      [unanswered.body.status, answered.body.status, instant.body.status],
      ['requested', 'requested', 'confirmed'],
    );
    clock.now = new Date(NOW.getTime() + HOUR);
    assert.equal((await act(answered.body.id, 'confirm', owner.key)).status, 200);
    const confirmedEvents = (await statusEvents()).length;

    clock.now = new Date(TTL_EXPIRED.getTime() + 5 * 60_000);
    await until('the sweep wrote expired', async () => (await stored(unanswered.body.id)) === 'expired');
    const events = (await statusEvents()).slice(confirmedEvents);
    assert.equal(events.length, 1, 'one event for the expired request, none for the answered or instant ones');
    const [event] = events;
    assert.equal(event?.subject_id, unanswered.body.id);
    assert.equal(event?.created_at, clock.now.toISOString());
    assert.deepEqual(JSON.parse(event?.audience ?? 'null').sort(), [owner.accountId, renter.accountId].sort());
    const expired = { ...unanswered.body, status: 'expired', updated_at: TTL_EXPIRED.toISOString() };
    // Events carry the booking without its payments summary (the operations' answers have it).
    const { payments: _, ...inEvents } = expired;
    assert.deepEqual(JSON.parse(event?.payload ?? 'null'), inEvents);
    assert.deepEqual((await call(app, 'GET', `/v1/bookings/${unanswered.body.id}`, owner.key)).body, expired);
    assert.equal(await stored(answered.body.id), 'confirmed');
    assert.equal(await stored(instant.body.id), 'confirmed');

    for (const [who, key] of [
      ['owner', owner.key],
      ['renter', renter.key],
    ] as const) {
      const deliveries = await call(app, 'GET', `/v1/webhooks/${hooks[who]}/deliveries`, key);
      assert.equal(deliveries.status, 200);
      const latest = deliveries.body.data[0];
      assert.deepEqual(
        { event_id: latest.event_id, event_type: latest.event_type, status: latest.status },
        { event_id: `evt_${event?.id}`, event_type: 'booking.status_changed', status: 'pending' },
        `${who}'s webhook`,
      );
    }
    const fresh = await db.kysely.selectFrom('bookings').select('id').where('status', '=', 'requested').execute();
    assert.deepEqual(fresh, []);
  });

  test('several instances sweeping one database expire each request once', async (t) => {
    const { db, clock, list, book, stored, statusEvents } = await setup(t, { EVENTS_POLL_MS: '20' });
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push((await book(await list(), '2026-12-01', '2026-12-02')).body.id);
    // A second and third instance on the same database, sweeping as often as the first.
    const config = testConfig({ EVENTS_POLL_MS: '20', WEBHOOK_DELIVERY: 'false' });
    const others = await Promise.all([0, 1].map(() => buildApp(config, { db, now: () => clock.now })));
    try {
      await Promise.all(others.map((other) => other.ready()));
      clock.now = TTL_EXPIRED;
      for (const id of ids) await until(`${id} expired`, async () => (await stored(id)) === 'expired');
    } finally {
      await Promise.all(others.map((other) => other.close()));
    }
    const subjects = (await statusEvents()).map((event) => event.subject_id);
    assert.deepEqual(subjects.sort(), [...ids].sort(), 'one event per request, whichever instance wrote it');
  });

  test('the per-hour booking quota counts expired requests like any other', async (t) => {
    const { clock, list, book } = await setup(t, {
      BOOKING_REQUEST_TTL_HOURS: '1',
      BOOKINGS_PER_ACCOUNT_PER_HOUR: '2',
      EVENTS_POLL_MS: '60000',
    });
    const [a, b] = [await list(), await list()];
    assert.equal((await book(a, '2026-12-01', '2026-12-02')).status, 201);
    assert.equal((await book(b, '2026-12-01', '2026-12-02')).status, 201);
    clock.now = new Date(NOW.getTime() + HOUR - 1);
    const refused = await book(a, '2026-12-10', '2026-12-11');
    assert.equal(refused.status, 429, 'the requests, about to expire, still count');
    assert.equal(refused.body.error, 'account_limit_reached');
    clock.now = new Date(NOW.getTime() + HOUR);
    assert.equal((await book(a, '2026-12-01', '2026-12-02')).status, 201, 'expired: the days are free');
    assert.equal((await book(b, '2026-12-01', '2026-12-02')).status, 201);
    const again = await book(a, '2026-12-10', '2026-12-11');
    assert.equal(again.status, 429, 'the new requests count as before');
    assert.equal(again.headers['retry-after'], '3600');
  });
});
