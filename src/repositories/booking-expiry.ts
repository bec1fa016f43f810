import type { Queryable } from '../db/queryable.js';
import { requestExpiresAt } from '../domain/booking-price.js';
import type { WriteTransaction } from './write-transaction.js';

/** Requests expired per sweep; more wait for the next one (reads show them expired meanwhile). */
const SWEEP_BATCH = 100;

/**
 * The unanswered requests created at or before `cutoff` (past their TTL), oldest first, at most
 * one sweep's batch.
 */
export function dueBookingRequests(db: Queryable, cutoff: string): Promise<{ id: string; created_at: string }[]> {
  return db
    .selectFrom('bookings')
    .select(['id', 'created_at'])
    .where('status', '=', 'requested')
    .where('created_at', '<=', cutoff)
    .orderBy('created_at')
    .orderBy('id')
    .limit(SWEEP_BATCH)
    .execute();
}

/**
 * Writes `expired` for one request past its TTL. The write is conditional on the booking still being
 * an unanswered request created at or before `cutoff`: sweeps of several instances, or an owner's
 * answer racing it, change each booking once (and its caller records one event). updated_at is the moment it
 * expired, as reads showed it before the sweep. False: it was no longer such a request.
 */
export async function expireBookingRequest(
  trx: WriteTransaction,
  request: { id: string; created_at: string },
  cutoff: string,
  requestTtlHours: number,
): Promise<boolean> {
  const result = await trx
    .updateTable('bookings')
    .set({ status: 'expired', updated_at: requestExpiresAt(request.created_at, requestTtlHours) })
    .where('id', '=', request.id)
    .where('status', '=', 'requested')
    .where('created_at', '<=', cutoff)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
