import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import type { BookingRow } from '../../src/db/schema.js';
import { addDays, bookingPrice, daysInclusive } from '../../src/domain/booking-price.js';
import type { Api } from '../../src/http/route-deps.js';
import { buildTestApp, createKey, getJson, NOW } from '../helpers/app.js';

async function call(app: Api, method: 'GET' | 'POST', url: string, key?: string, body?: unknown, headers = {}) {
  const response = await app.inject({
    method,
    url,
    headers: { ...(key ? { 'x-api-key': key } : {}), ...headers },
    ...(body === undefined ? {} : { payload: body as object }),
  });
  return { status: response.statusCode, headers: response.headers, body: response.json() as any };
}

const LISTING = {
  title: 'Bierzeltgarnitur',
  description: 'Ein Tisch und zwei Bänke für acht Personen, mit Transporttaschen.',
  category: 'EVENTS',
  price_per_day_eur: 8,
  price_per_week_eur: 35,
  deposit_eur: 50,
  condition: 'good',
  location: { plz: '76227' },
  instant_booking: false,
};

/** An app with an owner, a renter and a stranger, and a way to list items as the owner. */
async function setup(t: Parameters<typeof buildTestApp>[0], now: Date | (() => Date) = NOW) {
  const { app, db } = await buildTestApp(t, now);
  const owner = await createKey(db, { email: 'owner@example.org' });
  const renter = await createKey(db, { email: 'renter@example.org' });
  const stranger = await createKey(db, { email: 'stranger@example.org' });
  const list = async (overrides: Record<string, unknown> = {}): Promise<string> => {
    const { status, body } = await call(app, 'POST', '/v1/listings', owner.key, { ...LISTING, ...overrides });
    assert.equal(status, 201, JSON.stringify(body));
    return body.id;
  };
  const book = (listingId: string, start_date: string, end_date: string, key = renter.key) =>
    call(app, 'POST', `/v1/listings/${listingId}/bookings`, key, { start_date, end_date });
  const act = (bookingId: string, action: string, key: string) =>
    call(app, 'POST', `/v1/bookings/${bookingId}/${action}`, key);
  return { app, db, owner, renter, stranger, list, book, act };
}

describe('bookingPrice (the cheapest split into weeks and days)', () => {
  test('without a weekly price every day is charged daily', () => {
    assert.deepEqual(bookingPrice(10, 800, null), { total_cents: 8000, weeks: 0, extra_days: 10 });
  });
  test('the weekly price where it is cheaper, the rest daily', () => {
    assert.deepEqual(bookingPrice(10, 800, 3500), { total_cents: 5900, weeks: 1, extra_days: 3 });
    assert.deepEqual(bookingPrice(14, 800, 3500), { total_cents: 7000, weeks: 2, extra_days: 0 });
  });
  test('the daily price where the week is dearer', () => {
    assert.deepEqual(bookingPrice(3, 800, 3500), { total_cents: 2400, weeks: 0, extra_days: 3 });
    assert.deepEqual(bookingPrice(7, 800, 5600), { total_cents: 5600, weeks: 0, extra_days: 7 }); // a tie: days
  });
  test('a remainder is rounded up to one more week when that is cheaper', () => {
    assert.deepEqual(bookingPrice(6, 800, 3500), { total_cents: 3500, weeks: 1, extra_days: 0 });
    assert.deepEqual(bookingPrice(12, 800, 3500), { total_cents: 7000, weeks: 2, extra_days: 0 });
    assert.deepEqual(bookingPrice(11, 800, 3500), { total_cents: 6700, weeks: 1, extra_days: 4 });
  });
  test('it is the minimum over every number of weeks', () => {
    for (let days = 1; days <= 60; days++) {
      for (const [daily, weekly] of [
        [800, 3500],
        [1000, 6900],
        [150, 500],
      ] as const) {
        const { total_cents, weeks, extra_days } = bookingPrice(days, daily, weekly);
        assert.equal(total_cents, weeks * weekly + extra_days * daily);
        assert.ok(weeks * 7 + extra_days >= days && extra_days <= days);
        for (let k = 0; k <= Math.ceil(days / 7); k++) {
          assert.ok(total_cents <= k * weekly + Math.max(0, days - 7 * k) * daily, `${days} days, ${k} weeks`);
        }
      }
    }
  });
  test('calendar arithmetic crosses months, years and the DST switch', () => {
    assert.equal(daysInclusive('2026-11-20', '2026-11-20'), 1);
    assert.equal(daysInclusive('2026-03-28', '2026-03-30'), 3);
    assert.equal(daysInclusive('2026-12-30', '2027-01-02'), 4);
    assert.equal(addDays('2026-10-24', 2), '2026-10-26');
    assert.equal(addDays('2028-02-28', 1), '2028-02-29');
  });
});

describe('POST /v1/listings/{id}/bookings', () => {
  test('answers 201 with the whole booking: requested, priced with the weekly price where cheaper', async (t) => {
    const { list, book } = await setup(t);
    const listingId = await list();
    const { status, body } = await book(listingId, '2026-11-25', '2026-12-04');
    assert.equal(status, 201);
    assert.match(body.id, /^bkg_[0-9a-f]{16}$/);
    assert.deepEqual(body, {
      id: body.id,
      listing_id: listingId,
      status: 'requested',
      start_date: '2026-11-25',
      end_date: '2026-12-04',
      start_at: null,
      end_at: null,
      days: 10,
      hours: null,
      price_eur: 59,
      deposit_eur: 50,
      late_fee_per_day_eur: null,
      price_breakdown: { daily_eur: 8, weekly_eur: 35, hourly_eur: null, weeks: 1, extra_days: 3, extra_hours: 0 },
      cancellation_policy: 'flexible',
      created_at: '2026-11-20T12:00:00.000Z',
      updated_at: '2026-11-20T12:00:00.000Z',
      payments: [],
    });
  });

  test('with instant_booking the booking is confirmed at once', async (t) => {
    const { list, book } = await setup(t);
    const { status, body } = await book(await list({ instant_booking: true }), '2026-11-21', '2026-11-21');
    assert.equal(status, 201);
    assert.equal(body.status, 'confirmed');
    assert.equal(body.days, 1);
  });

  test('prices: daily where cheaper, without weekly price, a remainder rounded up to a week', async (t) => {
    const { list, book } = await setup(t);
    const cases: [Record<string, unknown>, string, number, object][] = [
      [
        {},
        '2026-11-23',
        24,
        { daily_eur: 8, weekly_eur: 35, hourly_eur: null, weeks: 0, extra_days: 3, extra_hours: 0 },
      ],
      [
        { price_per_week_eur: null },
        '2026-11-30',
        80,
        { daily_eur: 8, weekly_eur: null, hourly_eur: null, weeks: 0, extra_days: 10, extra_hours: 0 },
      ],
      [
        {},
        '2026-11-26',
        35,
        { daily_eur: 8, weekly_eur: 35, hourly_eur: null, weeks: 1, extra_days: 0, extra_hours: 0 },
      ], // 6 days
      [
        {},
        '2026-12-02',
        70,
        { daily_eur: 8, weekly_eur: 35, hourly_eur: null, weeks: 2, extra_days: 0, extra_hours: 0 },
      ], // 12 days
      [
        { price_per_day_eur: 2.99, price_per_week_eur: 15.5 },
        '2026-12-01',
        27.46,
        { daily_eur: 2.99, weekly_eur: 15.5, hourly_eur: null, weeks: 1, extra_days: 4, extra_hours: 0 },
      ], // 11 days
    ];
    for (const [listing, end, price, breakdown] of cases) {
      const { status, body } = await book(await list(listing), '2026-11-21', end);
      assert.equal(status, 201, JSON.stringify(body));
      assert.equal(body.price_eur, price, `${JSON.stringify(listing)} to ${end}`);
      assert.deepEqual(body.price_breakdown, breakdown);
    }
  });

  test('a later price change leaves the booking’s price and breakdown as they were', async (t) => {
    const { app, owner, renter, list, book } = await setup(t);
    const listingId = await list();
    const booked = (await book(listingId, '2026-11-25', '2026-12-04')).body;
    await app.inject({
      method: 'PATCH',
      url: `/v1/listings/${listingId}`,
      headers: { 'x-api-key': owner.key },
      payload: { price_per_day_eur: 20, price_per_week_eur: null },
    });
    assert.deepEqual((await call(app, 'GET', `/v1/bookings/${booked.id}`, renter.key)).body, booked);
  });

  test('date rules: past, end before start, too long, too far ahead, not a date', async (t) => {
    const { list, book } = await setup(t);
    const listingId = await list();
    const cases: [string, string, string, string, string][] = [
      ['2026-11-19', '2026-11-22', 'parameter_out_of_range', 'start_date', 'start_date 2026-11-19 is in the past'],
      ['2026-11-25', '2026-11-24', 'conflicting_parameters', 'end_date', 'end_date 2026-11-24 is before start_date'],
      ['2027-11-21', '2027-11-22', 'parameter_out_of_range', 'start_date', 'start_date 2027-11-21 is more than 365'],
      ['2026-02-30', '2026-03-02', 'invalid_parameter', 'start_date', 'start_date must be a calendar date'],
      ['21.11.2026', '2026-11-22', 'invalid_parameter', 'start_date', 'start_date must be a calendar date'],
    ];
    for (const [start, end, error, param, message] of cases) {
      const { status, body } = await book(listingId, start, end);
      assert.equal(status, 400, `${start}..${end}`);
      assert.equal(body.error, error, `${start}..${end}`);
      assert.equal(body.param, param, `${start}..${end}`);
      assert.ok(body.message.startsWith(message), body.message);
    }
    const tooLong = await book(listingId, '2026-12-01', '2027-01-30');
    assert.deepEqual(tooLong.body, {
      error: 'parameter_out_of_range',
      message: 'The booking covers 61 days; at most 60 are allowed.',
      param: 'end_date',
      suggestion: 'Send an end_date up to 2027-01-29, and book the rest separately.',
      alternatives: [],
      alternatives_count: 0,
    });
    assert.equal((await book(listingId, '2026-11-21', '2027-01-19')).status, 201, '60 days are allowed');
    assert.equal((await book(listingId, '2027-11-20', '2027-11-20')).status, 201, '365 days ahead is allowed');
  });

  test('"today" is the calendar day in Karlsruhe: at 23:30 UTC it is already tomorrow there', async (t) => {
    const { list, book } = await setup(t, new Date('2026-11-20T23:30:00Z'));
    const listingId = await list();
    const yesterday = await book(listingId, '2026-11-20', '2026-11-21');
    assert.equal(yesterday.status, 400);
    assert.equal(
      yesterday.body.message,
      'start_date 2026-11-20 is in the past: today in Karlsruhe (Europe/Berlin) is 2026-11-21.',
    );
    assert.equal((await book(listingId, '2026-11-21', '2026-11-21')).status, 201);
  });

  test('only available listings take bookings; 404 for an unknown one; an owner cannot book their own', async (t) => {
    const { app, owner, list, book } = await setup(t);
    const paused = await list();
    await call(app, 'POST', `/v1/listings/${paused}/pause`, owner.key);
    const archived = await list();
    await call(app, 'POST', `/v1/listings/${archived}/archive`, owner.key);
    for (const [id, state] of [
      [paused, 'paused'],
      [archived, 'archived'],
    ]) {
      const { status, body } = await book(id as string, '2026-11-25', '2026-11-26');
      assert.equal(status, 409);
      assert.deepEqual(body, {
        error: 'invalid_state_transition',
        message: `The listing is ${state}: it takes no bookings.`,
        param: null,
        suggestion: 'Only available listings can be booked; GET /v1/listings finds them.',
        alternatives: [],
        alternatives_count: 0,
      });
    }
    const unknown = await book('lst_00000000000000aa', '2026-11-25', '2026-11-26');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error, 'not_found');

    const own = await book(await list(), '2026-11-25', '2026-11-26', owner.key);
    assert.equal(own.status, 400);
    assert.deepEqual(own.body, {
      error: 'invalid_parameter',
      message: 'This listing is your own: an owner cannot book it.',
      param: 'id',
      suggestion: `To keep days free, pause the listing (POST /v1/listings/${own.body.suggestion.match(/lst_\w+/)?.[0]}/pause) and resume it later.`,
      alternatives: [],
      alternatives_count: 0,
    });
  });

  test('overlapping days are refused with the range they collide with; adjacent days are fine', async (t) => {
    const { list, book, stranger } = await setup(t);
    const listingId = await list();
    assert.equal((await book(listingId, '2026-12-01', '2026-12-05')).status, 201);
    for (const [start, end] of [
      ['2026-12-01', '2026-12-05'],
      ['2026-11-28', '2026-12-01'],
      ['2026-12-05', '2026-12-09'],
      ['2026-12-02', '2026-12-03'],
      ['2026-11-25', '2026-12-10'],
    ]) {
      const { status, body } = await book(listingId, start as string, end as string, stranger.key);
      assert.equal(status, 409, `${start}..${end}`);
      assert.deepEqual(body, {
        error: 'booking_conflict',
        message: 'The listing is already booked from 2026-12-01 to 2026-12-05 (requested); the days overlap.',
        param: 'start_date',
        suggestion: `Choose days outside the booked ranges; GET /v1/listings/${listingId}/availability lists them.`,
        alternatives: [],
        alternatives_count: 0,
      });
    }
    assert.equal((await book(listingId, '2026-11-28', '2026-11-30', stranger.key)).status, 201);
    assert.equal((await book(listingId, '2026-12-06', '2026-12-06', stranger.key)).status, 201);
  });

  test('declined, cancelled and returned bookings free their days', async (t) => {
    const { owner, renter, stranger, list, book, act } = await setup(t);
    const listingId = await list();
    const ends: [string, string[]][] = [
      ['declined', ['decline']],
      ['cancelled', ['cancel']],
      ['returned', ['confirm', 'pick-up', 'return']],
    ];
    for (const [state, actions] of ends) {
      const first = await book(listingId, '2026-11-21', '2026-11-25');
      assert.equal(first.status, 201, state);
      assert.equal((await book(listingId, '2026-11-23', '2026-11-24', stranger.key)).status, 409);
      for (const action of actions) {
        const key = action === 'cancel' ? renter.key : owner.key;
        assert.equal((await act(first.body.id, action, key)).status, 200, action);
      }
    }
    assert.equal((await book(listingId, '2026-11-21', '2026-11-25', stranger.key)).status, 201);
  });

  test('anonymous: 401 before the body is judged', async (t) => {
    const { app, list } = await setup(t);
    const { status, body } = await call(app, 'POST', `/v1/listings/${await list()}/bookings`, undefined, {});
    assert.equal(status, 401);
    assert.equal(body.error, 'authentication_required');
  });

  test('a retry with the same Idempotency-Key and body replays the 201 and books once; another body is 422', async (t) => {
    const { app, db, renter, list } = await setup(t);
    const listingId = await list();
    const url = `/v1/listings/${listingId}/bookings`;
    const headers = { 'idempotency-key': 'booking-attempt-1' };
    const body = { start_date: '2026-12-01', end_date: '2026-12-03' };
    const first = await call(app, 'POST', url, renter.key, body, headers);
    assert.equal(first.status, 201);
    assert.equal(first.headers['idempotent-replayed'], undefined);
    const retry = await call(app, 'POST', url, renter.key, body, headers);
    assert.equal(retry.status, 201);
    assert.equal(retry.headers['idempotent-replayed'], 'true');
    assert.deepEqual(retry.body, first.body);
    const rows = await db.kysely.selectFrom('bookings').select('id').execute();
    assert.deepEqual(
      rows.map((r) => r.id),
      [first.body.id],
    );
    const other = await call(app, 'POST', url, renter.key, { ...body, end_date: '2026-12-04' }, headers);
    assert.equal(other.status, 422);
    assert.equal(other.body.error, 'idempotency_key_reused');
    assert.equal((await db.kysely.selectFrom('bookings').select('id').execute()).length, 1);
  });
});

describe('GET /v1/listings/{id}/availability', () => {
  test('anyone sees the ranges held from today on, earliest first', async (t) => {
    const { app, db, owner, list, book, act } = await setup(t);
    const listingId = await list();
    const later = (await book(listingId, '2026-12-10', '2026-12-12')).body;
    const sooner = (await book(listingId, '2026-11-25', '2026-11-27')).body;
    await act(sooner.id, 'confirm', owner.key);
    const declined = (await book(listingId, '2026-12-01', '2026-12-02')).body;
    await act(declined.id, 'decline', owner.key);
    // Bookings of the past: one that ended yesterday is gone, one that ends today still shows.
    const past = (start: string, end: string, id: string): BookingRow => ({
      ...pastRow,
      id,
      listing_id: listingId,
      start_date: start,
      end_date: end,
    });
    await db.kysely
      .insertInto('bookings')
      .values([past('2026-11-10', '2026-11-19', 'bkg_past'), past('2026-11-15', '2026-11-20', 'bkg_today')])
      .execute();

    const { status, body } = await getJson(app, `/v1/listings/${listingId}/availability`);
    assert.equal(status, 200);
    assert.deepEqual(body, {
      listing_id: listingId,
      listing_status: 'available',
      today: '2026-11-20',
      booked: [
        { start_date: '2026-11-15', end_date: '2026-11-20', start_at: null, end_at: null, status: 'active' },
        { start_date: '2026-11-25', end_date: '2026-11-27', start_at: null, end_at: null, status: 'confirmed' },
        { start_date: '2026-12-10', end_date: '2026-12-12', start_at: null, end_at: null, status: 'requested' },
      ],
    });
    assert.equal(later.status, 'requested');
  });

  test('an unknown listing is 404', async (t) => {
    const { app } = await setup(t);
    const { status, body } = await getJson(app, '/v1/listings/lst_00000000000000aa/availability');
    assert.equal(status, 404);
    assert.equal(body.error, 'not_found');
  });
});

describe('GET /v1/bookings/{id}', () => {
  test('the renter and the owner see it; a stranger and an unknown id get the same 404; anonymous 401', async (t) => {
    const { app, owner, renter, stranger, list, book } = await setup(t);
    const booked = (await book(await list(), '2026-11-25', '2026-11-26')).body;
    for (const key of [renter.key, owner.key]) {
      const { status, body } = await call(app, 'GET', `/v1/bookings/${booked.id}`, key);
      assert.equal(status, 200);
      assert.deepEqual(body, booked);
    }
    for (const id of [booked.id, 'bkg_00000000000000aa']) {
      const { status, body } = await call(app, 'GET', `/v1/bookings/${id}`, stranger.key);
      assert.equal(status, 404);
      assert.deepEqual(body, {
        error: 'not_found',
        message: `No booking with the id '${id}' is yours to see.`,
        param: 'id',
        suggestion: 'Check the id: a booking is seen and changed only by its renter and the owner of its listing.',
        alternatives: [],
        alternatives_count: 0,
      });
    }
    assert.equal((await call(app, 'GET', `/v1/bookings/${booked.id}`)).status, 401);
  });
});

describe('booking transitions', () => {
  test('requested -> confirmed -> active -> returned, each answering the whole booking', async (t) => {
    const { owner, list, book, act } = await setup(t);
    const booked = (await book(await list(), '2026-11-21', '2026-11-22')).body;
    for (const [action, status] of [
      ['confirm', 'confirmed'],
      ['pick-up', 'active'],
      ['return', 'returned'],
    ]) {
      const response = await act(booked.id, action as string, owner.key);
      assert.equal(response.status, 200, action);
      // From the confirmation on, the booking owes its rent and deposit (issue 32).
      const { payments, ...rest } = response.body;
      const { payments: none, ...requested } = booked;
      assert.deepEqual(none, [], 'a request owes nothing yet');
      assert.deepEqual(rest, { ...requested, status });
      assert.deepEqual(payments.map((p: { kind: string; amount_eur: number }) => [p.kind, p.amount_eur]).sort(), [
        ['deposit', 50],
        ['rent', 16],
      ]);
    }
  });

  test('decline by the owner; cancel by the renter or the owner, from requested or confirmed', async (t) => {
    const { owner, renter, list, book, act } = await setup(t);
    const listingId = await list();
    const declined = (await book(listingId, '2026-11-21', '2026-11-21')).body;
    assert.equal((await act(declined.id, 'decline', owner.key)).body.status, 'declined');
    const byRenter = (await book(listingId, '2026-11-22', '2026-11-22')).body;
    assert.equal((await act(byRenter.id, 'cancel', renter.key)).body.status, 'cancelled');
    const confirmed = (await book(listingId, '2026-11-23', '2026-11-23')).body;
    await act(confirmed.id, 'confirm', owner.key);
    assert.equal((await act(confirmed.id, 'cancel', owner.key)).body.status, 'cancelled');
    const confirmedToo = (await book(listingId, '2026-11-24', '2026-11-24')).body;
    await act(confirmedToo.id, 'confirm', owner.key);
    assert.equal((await act(confirmedToo.id, 'cancel', renter.key)).body.status, 'cancelled');
  });

  test('every illegal transition answers 409 naming the state, with the allowed actions', async (t) => {
    const { owner, list, book, act } = await setup(t);
    // A listing each, all booked for tomorrow: the pick-up is allowed from today on.
    const inState = async (actions: string[]) => {
      const booked = (await book(await list(), '2026-11-21', '2026-11-21')).body;
      for (const action of actions) assert.equal((await act(booked.id, action, owner.key)).status, 200);
      return booked.id as string;
    };
    const states: [string, string[], string[]][] = [
      ['requested', [], ['confirm', 'decline', 'cancel']],
      ['confirmed', ['confirm'], ['pick-up', 'cancel']],
      ['active', ['confirm', 'pick-up'], ['return']],
      ['returned', ['confirm', 'pick-up', 'return'], []],
      ['declined', ['decline'], []],
      ['cancelled', ['cancel'], []],
    ];
    const all = ['confirm', 'decline', 'cancel', 'pick-up', 'return'];
    for (const [state, path, allowed] of states) {
      const id = await inState(path);
      for (const action of all.filter((a) => !allowed.includes(a))) {
        const { status, body } = await act(id, action, owner.key);
        assert.equal(status, 409, `${action} from ${state}`);
        assert.deepEqual(body, {
          error: 'invalid_state_transition',
          message: `The booking is ${state}; '${action}' is not possible from there.`,
          param: null,
          suggestion:
            allowed.length > 0
              ? `From ${state} you can: ${allowed.join(', ')}.`
              : `This booking is ${state} and cannot change any more.`,
          alternatives: allowed,
          alternatives_count: allowed.length,
        });
      }
    }
  });

  test('the renter may only cancel: 403 forbidden with what they can do', async (t) => {
    const { owner, renter, list, book, act } = await setup(t);
    const booked = (await book(await list(), '2026-11-21', '2026-11-26')).body;
    for (const action of ['confirm', 'decline']) {
      const { status, body } = await act(booked.id, action, renter.key);
      assert.equal(status, 403);
      assert.deepEqual(body, {
        error: 'forbidden',
        message: `Only the listing's owner can ${action} this booking; you are its renter.`,
        param: null,
        suggestion: 'As its renter you can: cancel.',
        alternatives: ['cancel'],
        alternatives_count: 1,
      });
    }
    await act(booked.id, 'confirm', owner.key);
    await act(booked.id, 'pick-up', owner.key);
    const { status, body } = await act(booked.id, 'return', renter.key);
    assert.equal(status, 403);
    assert.equal(body.suggestion, 'As its renter you cannot change this active booking.');
    assert.deepEqual(body.alternatives, []);
  });

  test('pick-up: from the day before the first day to the last day (Europe/Berlin), else 409 outside_pick_up_window', async (t) => {
    // The clock: 2026-11-20 in Karlsruhe until 23:00 UTC, then 2026-11-21.
    let now = new Date('2026-11-20T12:00:00Z');
    const { owner, renter, list, book, act } = await setup(t, () => now);
    const confirmed = async (start: string, end: string) => {
      const booked = (await book(await list(), start, end)).body;
      assert.equal((await act(booked.id, 'confirm', owner.key)).status, 200);
      return booked.id as string;
    };
    const soon = await confirmed('2026-11-22', '2026-11-23');
    const early = await act(soon, 'pick-up', owner.key);
    assert.equal(early.status, 409);
    assert.deepEqual(early.body, {
      error: 'outside_pick_up_window',
      message:
        'The item can be picked up from 2026-11-21 (the day before the first day, 2026-11-22) to 2026-11-23 (the last day); today in Karlsruhe is 2026-11-20.',
      param: null,
      suggestion: 'Record the pick-up on or after 2026-11-21.',
      alternatives: [],
      alternatives_count: 0,
    });
    assert.equal((await act(soon, 'pick-up', renter.key)).status, 403, 'the role is judged first');
    now = new Date('2026-11-20T23:00:00Z'); // midnight in Karlsruhe: 2026-11-21
    const onTime = await act(soon, 'pick-up', owner.key);
    assert.equal(onTime.status, 200);
    assert.equal(onTime.body.status, 'active');

    const short = await confirmed('2026-11-21', '2026-11-21');
    now = new Date('2026-11-21T22:59:59Z'); // the last second of its only day
    const lastDay = await confirmed('2026-11-21', '2026-11-22');
    now = new Date('2026-11-21T23:00:00Z'); // 2026-11-22: the short booking's day is over
    const late = await act(short, 'pick-up', owner.key);
    assert.equal(late.status, 409);
    assert.equal(late.body.error, 'outside_pick_up_window');
    assert.equal(late.body.suggestion, 'The booked days are over: cancel the booking, or book new days.');
    assert.deepEqual(late.body.alternatives, ['cancel']);
    assert.equal((await act(short, 'cancel', owner.key)).status, 200, 'what the suggestion says works');
    assert.equal((await act(lastDay, 'pick-up', owner.key)).status, 200, 'the last day still is');
  });

  test('a stranger gets 404 for every action and changes nothing; anonymous 401', async (t) => {
    const { app, renter, stranger, list, book, act } = await setup(t);
    const booked = (await book(await list(), '2026-11-25', '2026-11-26')).body;
    for (const action of ['confirm', 'decline', 'cancel', 'pick-up', 'return']) {
      const { status, body } = await act(booked.id, action, stranger.key);
      assert.equal(status, 404, action);
      assert.equal(body.error, 'not_found');
      assert.equal((await call(app, 'POST', `/v1/bookings/${booked.id}/${action}`)).status, 401);
    }
    assert.equal((await call(app, 'GET', `/v1/bookings/${booked.id}`, renter.key)).body.status, 'requested');
  });

  test('concurrent transitions of one booking: exactly one wins, the others see the fresh state', async (t) => {
    const { owner, list, book, act } = await setup(t);
    const booked = (await book(await list(), '2026-11-25', '2026-11-26')).body;
    const answers = await Promise.all(
      ['confirm', 'decline', 'decline', 'confirm'].map((action) => act(booked.id, action, owner.key)),
    );
    assert.equal(answers.filter((a) => a.status === 200).length, 1);
    const winner = answers.find((a) => a.status === 200)?.body.status;
    for (const loser of answers.filter((a) => a.status !== 200)) {
      assert.equal(loser.status, 409);
      assert.ok(loser.body.message.startsWith(`The booking is ${winner};`), loser.body.message);
    }
  });
});

const pastRow: Omit<BookingRow, 'id' | 'listing_id' | 'start_date' | 'end_date'> = {
  renter_account_id: 'acc_someone',
  decided_at: null,
  cancelled_by: null,
  returned_at: null,
  cancellation_policy: 'flexible',
  late_fee_per_day_cents: null,
  start_at: null,
  end_at: null,
  hours: null,
  hourly_cents: null,
  extra_hours: null,
  days: 1,
  price_cents: 800,
  deposit_cents: 0,
  daily_cents: 800,
  weekly_cents: null,
  weeks: 0,
  extra_days: 1,
  status: 'active',
  created_at: '2026-11-01T10:00:00.000Z',
  updated_at: '2026-11-01T10:00:00.000Z',
};

describe('hostile booking bodies', () => {
  test('whatever a key holder sends, the answer is below 500 and every error an ApiError', async (t) => {
    const { app, renter, list } = await setup(t);
    const listingId = await list();
    const date = fc.oneof(
      fc
        .date({ min: new Date('2026-01-01'), max: new Date('2028-12-31'), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10)),
      fc.constantFrom('2026-02-29', '2028-02-29', '2026-13-01', '0000-01-01', '9999-12-31', '2026-11-20T00:00:00Z', ''),
      fc.jsonValue(),
    );
    const body = fc.oneof(
      fc.record({ start_date: date, end_date: date }),
      fc.record({ start_date: date, end_date: date, extra: fc.jsonValue() }, { requiredKeys: [] }),
      fc.jsonValue(),
    );
    await fc.assert(
      fc.asyncProperty(body, async (payload) => {
        const response = await app.inject({
          method: 'POST',
          url: `/v1/listings/${listingId}/bookings`,
          headers: { 'x-api-key': renter.key, 'content-type': 'application/json' },
          payload: JSON.stringify(payload),
        });
        assert.ok(response.statusCode < 500, `${response.statusCode} for ${JSON.stringify(payload)}: ${response.body}`);
        const answer = response.json();
        if (response.statusCode >= 400) assert.equal(typeof answer.suggestion, 'string');
        else assert.equal(answer.listing_id, listingId);
      }),
      { numRuns: 400, seed: 20261120 },
    );
  });
});
