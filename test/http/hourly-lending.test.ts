/**
 * Lending by the hour (issue 35): the price rule, opening hours, both clock changes of
 * Europe/Berlin, hourly and day bookings of one listing against each other (with a buffer), and
 * under concurrent requests no two bookings' held times (widened by the buffer) meet.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { addDays } from '../../src/domain/booking-price.js';
import {
  heldSpan,
  hourlyPrice,
  hoursBetween,
  type OpeningHours,
  widened,
  withinOpeningHours,
} from '../../src/domain/hourly-lending.js';
import { buildTestApp, clientFor, createKey } from '../helpers/app.js';
import { LISTING_BODY } from '../helpers/bodies.js';

/** Weekdays 08:00-20:00, Saturday with a lunch break, Sunday closed. */
const OPEN: OpeningHours = [
  ...(['mon', 'tue', 'wed', 'thu', 'fri'] as const).map((day) => ({ day, open: '08:00', close: '20:00' })),
  { day: 'sat', open: '08:00', close: '12:00' },
  { day: 'sat', open: '13:00', close: '20:00' },
];
/** A trailer: 4 EUR an hour, 20 a day, 90 a week; at least two hours. */
const TRAILER = {
  ...LISTING_BODY,
  title: 'Anhänger 750 kg',
  description: 'Ungebremster Anhänger mit Plane, 2,50 m Ladefläche.',
  category: 'MOVING',
  price_per_day_eur: 20,
  price_per_week_eur: 90,
  price_per_hour_eur: 4,
  min_hours: 2,
  opening_hours: OPEN,
  instant_booking: true,
};

async function setUp(t: Parameters<typeof buildTestApp>[0], listing: object = TRAILER, renterCount = 3) {
  const { app, db } = await buildTestApp(t);
  const owner = clientFor(app, (await createKey(db, { email: 'owner@example.org' })).key);
  const renters = await Promise.all(
    Array.from({ length: renterCount }, async (_, i) =>
      clientFor(app, (await createKey(db, { email: `r${i}@example.org` })).key),
    ),
  );
  const created = await owner.post('/v1/listings', listing);
  assert.equal(created.status, 201, created.raw);
  return { app, db, owner, renters, listing: created.body };
}

describe('lending by the hour', () => {
  test('the price rule: hours, days and weeks, the cheapest for the renter (unit)', () => {
    const prices = { hourly: 400, daily: 2000, weekly: 9000 };
    assert.deepEqual(hourlyPrice(3, prices), { total_cents: 1200, weeks: 0, extra_days: 0, extra_hours: 3 });
    // Five hours cost as much as a day: the day is cheaper from the sixth hour on; on a tie, fewer days.
    assert.deepEqual(hourlyPrice(5, prices), { total_cents: 2000, weeks: 0, extra_days: 0, extra_hours: 5 });
    assert.deepEqual(hourlyPrice(6, prices), { total_cents: 2000, weeks: 0, extra_days: 1, extra_hours: 0 });
    assert.deepEqual(hourlyPrice(27, prices), { total_cents: 3200, weeks: 0, extra_days: 1, extra_hours: 3 });
    // Six days and two hours: a week (90) is cheaper than six days and two hours (128).
    assert.deepEqual(hourlyPrice(146, prices), { total_cents: 9000, weeks: 1, extra_days: 0, extra_hours: 0 });
    assert.deepEqual(hourlyPrice(24, { ...prices, weekly: null }), {
      total_cents: 2000,
      weeks: 0,
      extra_days: 1,
      extra_hours: 0,
    });
  });

  test('both clock changes, midnight and month ends (unit)', () => {
    // 2026-10-25, clocks back: 00:00 summer time to 04:00 winter time is five real hours.
    assert.equal(hoursBetween(new Date('2026-10-25T00:00:00+02:00'), new Date('2026-10-25T04:00:00+01:00')), 5);
    // 2027-03-28, clocks forward: 01:00 winter time to 04:00 summer time is two.
    assert.equal(hoursBetween(new Date('2027-03-28T01:00:00+01:00'), new Date('2027-03-28T04:00:00+02:00')), 2);
    // 02:30 happens twice on 2026-10-25 (a Sunday): both are within Sunday's opening hours, and neither on Saturday's.
    const sunday: OpeningHours = [{ day: 'sun', open: '02:00', close: '03:00' }];
    assert.ok(withinOpeningHours(sunday, new Date('2026-10-25T02:30:00+02:00')));
    assert.ok(withinOpeningHours(sunday, new Date('2026-10-25T02:30:00+01:00')));
    assert.ok(!withinOpeningHours(sunday, new Date('2026-10-25T03:30:00+01:00')));
    // A return at midnight counts for the day before when it closes at 24:00 (31 January to 1 February).
    const late: OpeningHours = [{ day: 'sun', open: '18:00', close: '24:00' }];
    assert.ok(withinOpeningHours(late, new Date('2027-02-01T00:00:00+01:00')));
    assert.ok(!withinOpeningHours(late, new Date('2027-02-01T01:00:00+01:00')));
    // A day booking holds local midnight to midnight: 23 hours on the day the clocks go forward, 25 when they go back.
    const forward = heldSpan({ start_date: '2027-03-28', end_date: '2027-03-28', start_at: null, end_at: null });
    assert.equal(hoursBetween(forward.from, forward.to), 23);
    const back = heldSpan({ start_date: '2026-10-25', end_date: '2026-10-25', start_at: null, end_at: null });
    assert.equal(hoursBetween(back.from, back.to), 25);
    assert.equal(widened(back, 2).from.toISOString(), '2026-10-24T20:00:00.000Z');
  });

  test('a three-hour trailer booking, and what it holds against hours and days', async (t) => {
    const { app, owner, renters, listing } = await setUp(t);
    assert.deepEqual([listing.price_per_hour_eur, listing.min_hours, listing.opening_hours], [4, 2, OPEN]);
    const [a, b] = renters as [(typeof renters)[0], (typeof renters)[0]];
    const book = (renter: typeof a, body: object) => renter.post(`/v1/listings/${listing.id}/bookings`, body);
    // Saturday 21 November 2026, 10:00 to 13:00 in Karlsruhe (winter time, +01:00).
    const trip = await book(a, { start_at: '2026-11-21T10:00:00+01:00', end_at: '2026-11-21T13:00:00+01:00' });
    assert.equal(trip.status, 201, trip.raw);
    assert.equal(trip.body.status, 'confirmed');
    assert.equal(trip.body.start_at, '2026-11-21T09:00:00.000Z');
    assert.equal(trip.body.end_at, '2026-11-21T12:00:00.000Z');
    assert.deepEqual(
      [trip.body.start_date, trip.body.end_date, trip.body.days, trip.body.hours],
      ['2026-11-21', '2026-11-21', 1, 3],
    );
    assert.equal(trip.body.price_eur, 12);
    assert.deepEqual(trip.body.price_breakdown, {
      daily_eur: 20,
      weekly_eur: 90,
      hourly_eur: 4,
      weeks: 0,
      extra_days: 0,
      extra_hours: 3,
    });
    assert.equal(trip.body.deposit_eur, 20);

    const overlap = await book(b, { start_at: '2026-11-21T12:00:00+01:00', end_at: '2026-11-21T14:00:00+01:00' });
    assert.equal(overlap.status, 409, overlap.raw);
    assert.equal(overlap.body.error, 'booking_conflict');
    assert.equal(overlap.body.param, 'start_at');
    assert.match(overlap.body.message, /from 2026-11-21T09:00:00.000Z to 2026-11-21T12:00:00.000Z/);
    const after = await book(b, { start_at: '2026-11-21T13:00:00+01:00', end_at: '2026-11-21T15:00:00+01:00' });
    assert.equal(after.status, 201, 'back to back is fine');
    // A day booking of that Saturday meets the hours; the Sunday is free, and then holds its hours.
    const saturday = await book(b, { start_date: '2026-11-21', end_date: '2026-11-21' });
    assert.equal(saturday.status, 409, saturday.raw);
    assert.equal(saturday.body.param, 'start_date');
    assert.equal((await book(b, { start_date: '2026-11-23', end_date: '2026-11-23' })).status, 201);
    const onMonday = await book(a, { start_at: '2026-11-23T10:00:00+01:00', end_at: '2026-11-23T12:00:00+01:00' });
    assert.equal(onMonday.status, 409, onMonday.raw);

    // Availability shows the hours of each booking by the hour.
    const availability = await a.get(`/v1/listings/${listing.id}/availability`);
    assert.deepEqual(
      availability.body.booked.map((range: { start_at: string | null }) => range.start_at),
      ['2026-11-21T09:00:00.000Z', '2026-11-21T12:00:00.000Z', null],
    );

    // The listing's calendar shows hours as timed events and the day booking as a whole day.
    const feed = await app.inject({ method: 'GET', url: `/v1/listings/${listing.id}/calendar.ics` });
    assert.equal(feed.statusCode, 200);
    assert.match(feed.body, /DTSTART:20261121T090000Z\r\nDTEND:20261121T120000Z/);
    assert.match(feed.body, /DTSTART;VALUE=DATE:20261123\r\n/);

    // With two hours kept free, 15:00 is too close after the booking that ends at 15:00; 17:00 is not.
    assert.equal((await owner.patch(`/v1/listings/${listing.id}`, { buffer_hours: 2 })).status, 200);
    const close = await book(a, { start_at: '2026-11-21T16:00:00+01:00', end_at: '2026-11-21T18:00:00+01:00' });
    assert.equal(close.status, 409, close.raw);
    assert.match(close.body.message, /keeps 2 hour\(s\) free/);
    assert.equal(
      (await book(a, { start_at: '2026-11-21T17:00:00+01:00', end_at: '2026-11-21T19:00:00+01:00' })).status,
      201,
    );
    // Tuesday: the Monday day booking ends at 00:00, so 02:00 keeps the buffer... but the shop opens at 08:00.
    const early = await book(a, { start_at: '2026-11-24T07:00:00+01:00', end_at: '2026-11-24T10:00:00+01:00' });
    assert.equal(early.status, 400, early.raw);
    assert.equal(early.body.param, 'start_at');
    assert.match(early.body.message, /outside the listing's opening hours .*mon 08:00-20:00/);
    const lateReturn = await book(a, { start_at: '2026-11-24T18:00:00+01:00', end_at: '2026-11-24T21:00:00+01:00' });
    assert.equal(lateReturn.status, 400, lateReturn.raw);
    assert.equal(lateReturn.body.param, 'end_at');
    const sunday = await book(a, { start_at: '2026-11-29T10:00:00+01:00', end_at: '2026-11-29T12:00:00+01:00' });
    assert.equal(sunday.status, 400, 'closed on Sundays');
  });

  test('what a booking by the hour refuses, each with the field to mend', async (t) => {
    const { owner, renters, listing } = await setUp(t);
    const [a] = renters as [(typeof renters)[0]];
    const book = (body: object, id = listing.id) => a.post(`/v1/listings/${id}/bookings`, body);
    const cases: [object, number, string, string][] = [
      [
        { start_at: '2026-11-21T10:30:00+01:00', end_at: '2026-11-21T13:00:00+01:00' },
        400,
        'invalid_parameter',
        'start_at',
      ],
      [
        { start_at: '2026-11-21T10:00:00+01:00', end_at: '2026-11-21T11:00:00+01:00' },
        400,
        'parameter_out_of_range',
        'end_at',
      ],
      [
        { start_at: '2026-11-21T13:00:00+01:00', end_at: '2026-11-21T10:00:00+01:00' },
        400,
        'conflicting_parameters',
        'end_at',
      ],
      [
        { start_at: '2026-11-20T10:00:00+01:00', end_at: '2026-11-20T13:00:00+01:00' },
        400,
        'parameter_out_of_range',
        'start_at',
      ],
      [{ start_at: '2026-11-21T10:00:00+01:00' }, 400, 'missing_parameter', 'end_at'],
      [
        { start_date: '2026-11-21', start_at: '2026-11-21T10:00:00+01:00', end_at: '2026-11-21T13:00:00+01:00' },
        400,
        'conflicting_parameters',
        'start_date',
      ],
      [{}, 400, 'missing_parameter', 'start_date'],
      [
        { start_at: '2026-11-21T10:00:00+01:00', end_at: '2026-11-29T10:00:00+01:00' },
        400,
        'parameter_out_of_range',
        'end_at',
      ],
    ];
    for (const [body, status, error, param] of cases) {
      const answer = await book(body);
      assert.equal(answer.status, status, `${JSON.stringify(body)}: ${answer.raw}`);
      assert.deepEqual([answer.body.error, answer.body.param], [error, param], JSON.stringify(body));
    }
    // A listing lent by the day only.
    const daily = await owner.post('/v1/listings', { ...LISTING_BODY, instant_booking: true });
    const byDay = await book(
      { start_at: '2026-11-21T10:00:00+01:00', end_at: '2026-11-21T13:00:00+01:00' },
      daily.body.id,
    );
    assert.equal(byDay.status, 400, byDay.raw);
    assert.equal(byDay.body.param, 'start_at');
    assert.match(byDay.body.message, /by the day only/);
    // An owner's rules of their own: an hour costing a day, a close before the open.
    const dear = await owner.patch(`/v1/listings/${listing.id}`, { price_per_hour_eur: 20 });
    assert.equal(dear.status, 400, dear.raw);
    assert.equal(dear.body.param, 'price_per_hour_eur');
    const backwards = await owner.patch(`/v1/listings/${listing.id}`, {
      opening_hours: [{ day: 'mon', open: '18:00', close: '08:00' }],
    });
    assert.equal(backwards.status, 400, backwards.raw);
    assert.equal(backwards.body.param, 'opening_hours[0].close');
    const badTime = await owner.patch(`/v1/listings/${listing.id}`, {
      opening_hours: { mon: { open: '8 Uhr', close: '18:00' } },
    });
    assert.equal(badTime.status, 400, badTime.raw);
  });

  test('over the missing hour and the doubled one: real hours are booked and paid', async (t) => {
    const { renters, listing } = await setUp(t, { ...TRAILER, opening_hours: null, min_hours: 1 });
    const [a, b] = renters as [(typeof renters)[0], (typeof renters)[0]];
    const book = (renter: typeof a, body: object) => renter.post(`/v1/listings/${listing.id}/bookings`, body);
    // 2027-03-28: 01:00 winter time to 04:00 summer time is two hours (02:00-03:00 does not exist).
    const spring = await book(a, { start_at: '2027-03-28T01:00:00+01:00', end_at: '2027-03-28T04:00:00+02:00' });
    assert.equal(spring.status, 201, spring.raw);
    assert.deepEqual([spring.body.hours, spring.body.price_eur], [2, 8]);
    assert.deepEqual(
      [spring.body.start_at, spring.body.end_at],
      ['2027-03-28T00:00:00.000Z', '2027-03-28T02:00:00.000Z'],
    );
    // 03:00 summer time is the instant right after 01:59 winter time: it is taken.
    const inGap = await book(b, { start_at: '2027-03-28T03:00:00+02:00', end_at: '2027-03-28T05:00:00+02:00' });
    assert.equal(inGap.status, 409, inGap.raw);
    // 2027-10-31: 01:00 summer time to 04:00 winter time is four hours (02:00-03:00 happens twice).
    const autumn = await book(a, { start_at: '2027-10-31T01:00:00+02:00', end_at: '2027-10-31T04:00:00+01:00' });
    assert.equal(autumn.status, 201, autumn.raw);
    assert.deepEqual([autumn.body.hours, autumn.body.price_eur, autumn.body.start_date], [4, 16, '2027-10-31']);
    // The second 02:00 (winter time) lies inside it; the first day booking after is 1 November.
    const second = await book(b, { start_at: '2027-10-31T02:00:00+01:00', end_at: '2027-10-31T05:00:00+01:00' });
    assert.equal(second.status, 409, second.raw);
    assert.equal((await book(b, { start_date: '2027-10-31', end_date: '2027-10-31' })).status, 409);
    // Midnight and a month's end: 30 November 22:00 to 1 December 02:00 touches two days.
    const midnight = await book(b, { start_at: '2026-11-30T22:00:00+01:00', end_at: '2026-12-01T02:00:00+01:00' });
    assert.equal(midnight.status, 201, midnight.raw);
    assert.deepEqual(
      [midnight.body.start_date, midnight.body.end_date, midnight.body.days],
      ['2026-11-30', '2026-12-01', 2],
    );
    // Ending at midnight, it does not touch the next day: 1 December 00:00 ends on 30 November.
    const toMidnight = await book(a, { start_at: '2026-11-30T20:00:00+01:00', end_at: '2026-12-01T00:00:00+01:00' });
    assert.equal(toMidnight.status, 409, 'it meets the booking from 22:00');
    const dayBefore = await book(a, { start_at: '2026-11-29T20:00:00+01:00', end_at: '2026-11-30T00:00:00+01:00' });
    assert.equal(dayBefore.status, 201, dayBefore.raw);
    assert.deepEqual([dayBefore.body.start_date, dayBefore.body.end_date], ['2026-11-29', '2026-11-29']);
  });

  test('twelve renters at once, by the hour and by the day: no two held times meet, buffer included', async (t) => {
    const { renters, listing } = await setUp(t, { ...TRAILER, opening_hours: null, min_hours: 1, buffer_hours: 3 }, 12);
    const answers = await Promise.all(
      renters.map((renter, i) => {
        // Every third asks for whole days, the others for 4 to 9 hours starting 6 hours apart.
        const body =
          i % 3 === 0
            ? { start_date: addDays('2026-11-22', i / 3), end_date: addDays('2026-11-22', i / 3) }
            : {
                start_at: new Date(Date.parse('2026-11-21T23:00:00Z') + i * 6 * 3_600_000).toISOString(),
                end_at: new Date(Date.parse('2026-11-21T23:00:00Z') + (i * 6 + 4 + (i % 6)) * 3_600_000).toISOString(),
              };
        return renter.post(`/v1/listings/${listing.id}/bookings`, body);
      }),
    );
    for (const answer of answers) assert.ok([201, 409].includes(answer.status), answer.raw);
    const held = answers.filter((answer) => answer.status === 201).map((answer) => answer.body);
    assert.ok(held.length >= 3, `${held.length} bookings`);
    for (const [i, one] of held.entries()) {
      for (const other of held.slice(i + 1)) {
        const bothDays = one.start_at === null && other.start_at === null;
        if (bothDays) {
          // Day bookings keep a whole day (3 hours rounded up) between them.
          assert.ok(one.end_date < addDays(other.start_date, -1) || other.end_date < addDays(one.start_date, -1));
          continue;
        }
        const a = widened(heldSpan(one), 3);
        const b = heldSpan(other);
        assert.ok(a.to <= b.from || b.to <= a.from, `${JSON.stringify(one)} and ${JSON.stringify(other)} meet`);
      }
    }
  });
});
