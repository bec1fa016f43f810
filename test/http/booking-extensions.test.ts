/**
 * Extensions of a booking (issue 35): the renter asks to keep the item longer, the owner accepts or
 * declines (or it is accepted at once with instant booking) when nothing else is booked; the price
 * follows, the added rent is owed; by the day and by the hour; who may do what.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildTestApp, clientFor, createKey } from '../helpers/app.js';
import { LISTING_BODY } from '../helpers/bodies.js';

async function setUp(t: Parameters<typeof buildTestApp>[0], listing: object) {
  const { app, db } = await buildTestApp(t);
  const owner = clientFor(app, (await createKey(db, { email: 'owner@example.org' })).key);
  const renter = clientFor(app, (await createKey(db, { email: 'renter@example.org' })).key);
  const other = clientFor(app, (await createKey(db, { email: 'other@example.org' })).key);
  const created = await owner.post('/v1/listings', listing);
  assert.equal(created.status, 201, created.raw);
  return { db, owner, renter, other, listing: created.body };
}

describe('booking extensions', () => {
  test('by the day: requested, declined, asked again and accepted; the price and the rent follow', async (t) => {
    const { owner, renter, other, listing } = await setUp(t, LISTING_BODY);
    const booked = await renter.post(`/v1/listings/${listing.id}/bookings`, {
      start_date: '2026-11-23',
      end_date: '2026-11-25',
    });
    assert.equal(booked.status, 201, booked.raw);
    const extend = (who: typeof renter, until: string) =>
      who.post(`/v1/bookings/${booked.body.id}/extension-requests`, { until });
    // Requested, not yet confirmed: no extension.
    const early = await extend(renter, '2026-11-27');
    assert.equal(early.status, 409, early.raw);
    assert.equal((await owner.post(`/v1/bookings/${booked.body.id}/confirm`)).status, 200);
    // Someone else's booking is unknown; the owner may not ask.
    assert.equal((await extend(other, '2026-11-27')).status, 404);
    assert.equal((await extend(owner, '2026-11-27')).status, 403);
    const bad = await extend(renter, '2026-11-25');
    assert.equal(bad.status, 400, bad.raw);
    assert.equal(bad.body.param, 'until');
    assert.equal((await extend(renter, '2026-11-27T10:00:00Z')).status, 400, 'a day booking takes a date');

    // Another renter holds 30 November: until 30 November collides.
    const next = await other.post(`/v1/listings/${listing.id}/bookings`, {
      start_date: '2026-11-30',
      end_date: '2026-12-01',
    });
    assert.equal(next.status, 201, next.raw);
    const clash = await extend(renter, '2026-11-30');
    assert.equal(clash.status, 409, clash.raw);
    assert.equal(clash.body.error, 'booking_conflict');
    assert.equal(clash.body.param, 'until');

    // Three days to seven: 3 × 8 = 24 becomes a week, 35; 11 EUR more.
    const asked = await extend(renter, '2026-11-29');
    assert.equal(asked.status, 201, asked.raw);
    assert.equal(asked.body.status, 'requested');
    assert.deepEqual([asked.body.until, asked.body.price_eur], ['2026-11-29', 11]);
    assert.equal((await extend(renter, '2026-11-28')).status, 409, 'one request waits at a time');
    const path = `/v1/bookings/${booked.body.id}/extension-requests/${asked.body.id}`;
    assert.equal((await renter.post(`${path}/accept`)).status, 403, 'the renter cannot accept');
    const declined = await owner.post(`${path}/decline`);
    assert.equal(declined.status, 200, declined.raw);
    assert.equal(declined.body.status, 'declined');
    assert.equal((await owner.post(`${path}/accept`)).status, 409, 'decided already');
    const unchanged = await renter.get(`/v1/bookings/${booked.body.id}`);
    assert.deepEqual([unchanged.body.end_date, unchanged.body.price_eur], ['2026-11-25', 24]);

    const again = await extend(renter, '2026-11-28');
    assert.equal(again.status, 201, again.raw);
    const accepted = await owner.post(`/v1/bookings/${booked.body.id}/extension-requests/${again.body.id}/accept`);
    assert.equal(accepted.status, 200, accepted.raw);
    assert.deepEqual([accepted.body.status, accepted.body.price_eur], ['accepted', 11]);
    const longer = await renter.get(`/v1/bookings/${booked.body.id}`);
    assert.deepEqual(
      [longer.body.end_date, longer.body.days, longer.body.price_eur, longer.body.price_breakdown.weeks],
      ['2026-11-28', 6, 35, 1],
    );
    // The added rent is a payment of its own, from the renter to the owner.
    const rents = longer.body.payments.filter((p: { kind: string }) => p.kind === 'rent');
    assert.deepEqual(rents.map((p: { amount_eur: number }) => p.amount_eur).sort(), [11, 24]);
    // Both sides list the extensions; a stranger does not.
    const listed = await owner.get(`/v1/bookings/${booked.body.id}/extension-requests`);
    // (The test clock stands still: both were asked at the same instant, so their order is the ids'.)
    assert.deepEqual(listed.body.data.map((e: { status: string }) => e.status).sort(), ['accepted', 'declined']);
    assert.equal((await other.get(`/v1/bookings/${booked.body.id}/extension-requests`)).status, 404);
    // The extended days are held: a booking of 27 November collides now.
    const taken = await other.post(`/v1/listings/${listing.id}/bookings`, {
      start_date: '2026-11-27',
      end_date: '2026-11-27',
    });
    assert.equal(taken.status, 409, taken.raw);
  });

  test('by the hour with instant booking: accepted at once, within the opening hours and the buffer', async (t) => {
    const { renter, other, listing } = await setUp(t, {
      ...LISTING_BODY,
      price_per_day_eur: 20,
      price_per_week_eur: 90,
      price_per_hour_eur: 4,
      buffer_hours: 1,
      instant_booking: true,
      opening_hours: [{ day: 'sat', open: '08:00', close: '18:00' }],
    });
    const booked = await renter.post(`/v1/listings/${listing.id}/bookings`, {
      start_at: '2026-11-21T10:00:00+01:00',
      end_at: '2026-11-21T12:00:00+01:00',
    });
    assert.equal(booked.status, 201, booked.raw);
    const later = await other.post(`/v1/listings/${listing.id}/bookings`, {
      start_at: '2026-11-21T16:00:00+01:00',
      end_at: '2026-11-21T18:00:00+01:00',
    });
    assert.equal(later.status, 201, later.raw);
    const extend = (until: string) => renter.post(`/v1/bookings/${booked.body.id}/extension-requests`, { until });
    assert.equal((await extend('2026-11-22')).status, 400, 'an hourly booking takes a date-time');
    const closing = await extend('2026-11-21T19:00:00+01:00');
    assert.equal(closing.status, 400, closing.raw);
    // 16:00 minus the hour kept free: 15:00 is the latest return.
    const tooClose = await extend('2026-11-21T16:00:00+01:00');
    assert.equal(tooClose.status, 409, tooClose.raw);
    const done = await extend('2026-11-21T15:00:00+01:00');
    assert.equal(done.status, 201, done.raw);
    assert.deepEqual(
      [done.body.status, done.body.until, done.body.price_eur],
      ['accepted', '2026-11-21T14:00:00.000Z', 12],
    );
    const booking = await renter.get(`/v1/bookings/${booked.body.id}`);
    assert.deepEqual(
      [booking.body.end_at, booking.body.hours, booking.body.price_eur],
      ['2026-11-21T14:00:00.000Z', 5, 20],
    );
  });
});
