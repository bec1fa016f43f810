import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { expireBookingRequests } from '../services/bookings.js';
import { PeriodicSweep } from './periodic.js';

export interface BookingRequestSweepOptions {
  now: () => Date;
  /** EVENTS_POLL_MS: an expiry's event is recorded about as soon as any other reaches the readers. */
  everyMs: number;
  requestTtlHours: number;
  log: FastifyBaseLogger;
}

/**
 * Writes `expired` (with its event) for booking requests past their TTL, every everyMs, in every
 * instance: the conditional writes make concurrent sweeps safe. Reads and the overlap check do not
 * wait for it (domain/booking-price.ts effectiveBooking); it exists for the event and the stored row.
 */
export function bookingRequestSweep(db: Kysely<Database>, options: BookingRequestSweepOptions): PeriodicSweep {
  const { now, requestTtlHours, everyMs, log } = options;
  return new PeriodicSweep({
    everyMs,
    log,
    run: () => expireBookingRequests({ db, now: now(), claim: null }, requestTtlHours),
    done: 'unanswered booking requests expired',
    failed: 'booking request sweep failed; retried next round',
  });
}
