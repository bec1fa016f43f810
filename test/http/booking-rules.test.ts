/**
 * A listing's booking rules (issue 35): a lead time, a buffer kept free between bookings, and the
 * longest booking, through HTTP; and under concurrent requests no two bookings come closer than the
 * buffer.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { addDays } from '../../src/domain/booking-price.js';
import { bookingRuleIssue, bufferDays } from '../../src/domain/booking-rules.js';
import { buildTestApp, clientFor, createKey, NOW } from '../helpers/app.js';
import { LISTING_BODY } from '../helpers/bodies.js';

const RULES = { min_lead_hours: 48, buffer_hours: 24, max_booking_days: 3 };

async function setUp(t: Parameters<typeof buildTestApp>[0]) {
  const { app, db } = await buildTestApp(t);
  const owner = clientFor(app, (await createKey(db, { email: 'owner@example.org' })).key);
  const renters = await Promise.all(
    Array.from({ length: 12 }, async (_, i) =>
      clientFor(app, (await createKey(db, { email: `r${i}@example.org` })).key),
    ),
  );
  const listing = await owner.post('/v1/listings', { ...LISTING_BODY, instant_booking: true, ...RULES });
  assert.equal(listing.status, 201, listing.raw);
  return { owner, renters, listing: listing.body };
}

describe("a listing's booking rules", () => {
  test('the rules as whole days and hours (unit)', () => {
    assert.deepEqual([0, 1, 24, 25, 48, 168].map(bufferDays), [0, 1, 1, 2, 2, 7]);
    const rules = {
      min_lead_hours: 48,
      buffer_hours: 0,
      max_booking_days: null,
      price_per_hour_cents: null,
      min_hours: 1,
      opening_hours: null,
    };
    const days = (startDate: string, endDate: string) => ({ startDate, endDate, startAt: null, endAt: null });
    // NOW is Friday 13:00 in Karlsruhe: 48 hours later is Sunday 13:00, so Monday 00:00 is the first start.
    assert.deepEqual(bookingRuleIssue(rules, days('2026-11-22', '2026-11-22'), NOW), {
      problem: 'too_soon',
      leadHours: 48,
      earliest: '2026-11-23',
      hourly: false,
    });
    assert.equal(bookingRuleIssue(rules, days('2026-11-23', '2026-11-30'), NOW), null);
    // Exactly on the hour: a lead that ends at 00:00 lets that day start.
    assert.equal(bookingRuleIssue({ ...rules, min_lead_hours: 11 }, days('2026-11-21', '2026-11-21'), NOW), null);
    assert.equal(bookingRuleIssue({ ...rules, min_lead_hours: 0 }, days('2026-11-20', '2026-11-20'), NOW), null);
  });

  test('lead time, longest booking and buffer through HTTP; the owner changes them', async (t) => {
    const { owner, renters, listing } = await setUp(t);
    assert.deepEqual(
      [listing.min_lead_hours, listing.buffer_hours, listing.max_booking_days],
      [RULES.min_lead_hours, RULES.buffer_hours, RULES.max_booking_days],
    );
    const [a, b, c] = renters as [(typeof renters)[0], (typeof renters)[0], (typeof renters)[0]];
    const book = (renter: typeof a, start: string, end: string) =>
      renter.post(`/v1/listings/${listing.id}/bookings`, { start_date: start, end_date: end });

    const soon = await book(a, '2026-11-22', '2026-11-22');
    assert.equal(soon.status, 400, soon.raw);
    assert.equal(soon.body.param, 'start_date');
    assert.match(soon.body.suggestion, /from 2026-11-23 on/);
    const long = await book(a, '2026-11-23', '2026-11-26');
    assert.equal(long.status, 400, long.raw);
    assert.equal(long.body.param, 'end_date');
    assert.equal(long.body.error, 'parameter_out_of_range');
    assert.equal((await book(a, '2026-11-23', '2026-11-25')).status, 201);

    // One day is kept free after the booking (24 hours), and before the next.
    const tooClose = await book(b, '2026-11-26', '2026-11-26');
    assert.equal(tooClose.status, 409, tooClose.raw);
    assert.equal(tooClose.body.error, 'booking_conflict');
    assert.match(tooClose.body.message, /keeps 24 hour\(s\) free .*\(1 whole day\(s\) between two day bookings\)/);
    assert.equal((await book(b, '2026-11-27', '2026-11-28')).status, 201);
    assert.equal((await book(c, '2026-11-29', '2026-11-29')).status, 409, 'the buffer holds before a booking too');

    // Without a buffer or a limit, the free day between is bookable, and long bookings are.
    const changed = await owner.patch(`/v1/listings/${listing.id}`, { buffer_hours: 0, max_booking_days: null });
    assert.equal(changed.status, 200, changed.raw);
    assert.deepEqual([changed.body.buffer_hours, changed.body.max_booking_days], [0, null]);
    assert.equal((await book(c, '2026-11-26', '2026-11-26')).status, 201);
    assert.equal((await book(c, '2026-12-01', '2026-12-10')).status, 201);
    const bad = await owner.patch(`/v1/listings/${listing.id}`, { buffer_hours: 1000 });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.param, 'buffer_hours');
  });

  test('twelve renters at once: no two bookings closer than the buffer', async (t) => {
    const { renters, listing } = await setUp(t);
    // Overlapping requests of one to three days from 23 November: the database keeps a day between any two.
    const answers = await Promise.all(
      renters.map((renter, i) => {
        const start = addDays('2026-11-23', i);
        return renter.post(`/v1/listings/${listing.id}/bookings`, {
          start_date: start,
          end_date: addDays(start, i % 3),
        });
      }),
    );
    for (const answer of answers) assert.ok([201, 409].includes(answer.status), answer.raw);
    const booked = answers
      .filter((answer) => answer.status === 201)
      .map((answer) => [answer.body.start_date as string, answer.body.end_date as string] as const)
      .sort();
    // One booking of up to three days with its free day each side keeps at most 9 of the 12 starts out.
    assert.ok(booked.length >= 2, `${booked.length} bookings`);
    for (let i = 1; i < booked.length; i++) {
      const [, previousEnd] = booked[i - 1] as readonly [string, string];
      const [start] = booked[i] as readonly [string, string];
      assert.ok(start > addDays(previousEnd, 1), `${previousEnd} and ${start} keep no free day between`);
    }
  });
});
