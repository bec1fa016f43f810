import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { requestCutoff, requestExpiresAt } from '../domain/booking-price.js';
import { recordStatusChange } from './bookings.js';

/** Requests expired per sweep; more wait for the next one (reads show them expired meanwhile). */
const SWEEP_BATCH = 100;

/**
 * Writes `expired` for requests past their TTL (BOOKING_REQUEST_TTL_HOURS), oldest first, each in
 * its own transaction with its booking.status_changed event, so the owner's and the renter's
 * webhooks hear of it. The write is conditional on the booking still being an unanswered request:
 * sweeps of several instances, or an owner's answer racing it, change each booking once and record
 * one event. updated_at is the moment it expired, as reads showed it before the sweep.
 * Returns how many this sweep expired.
 */
export async function expireBookingRequests(db: Kysely<Database>, now: Date, requestTtlHours: number): Promise<number> {
  const cutoff = requestCutoff(now, requestTtlHours);
  const due = await db
    .selectFrom('bookings')
    .select(['id', 'created_at'])
    .where('status', '=', 'requested')
    .where('created_at', '<=', cutoff)
    .orderBy('created_at')
    .orderBy('id')
    .limit(SWEEP_BATCH)
    .execute();
  let expired = 0;
  for (const { id, created_at } of due) {
    const changed = await db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable('bookings')
        .set({ status: 'expired', updated_at: requestExpiresAt(created_at, requestTtlHours) })
        .where('id', '=', id)
        .where('status', '=', 'requested')
        .where('created_at', '<=', cutoff)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return false;
      await recordStatusChange(trx, id, now);
      return true;
    });
    if (changed) expired++;
  }
  return expired;
}
