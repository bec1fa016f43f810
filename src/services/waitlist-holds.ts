import type { Queryable } from '../db/queryable.js';
import { heldSpan, requestSpan, spansMeet, widened } from '../domain/hourly-lending.js';
import { activeEntriesOf, heldOffers, moveEntry } from '../repositories/waitlist.js';
import type { WriteTransaction } from '../repositories/write-transaction.js';

/**
 * What a waiting list's offer means for bookings (issue 35): while it holds, the time is the offered
 * account's to book; booked by it, the entry is booked. Apart from services/waitlist.ts, which books
 * nothing, so services/bookings.ts can ask.
 */

/** The first offer of another account that holds time the request wants (its buffer included), if any. */
export async function heldFor(
  db: Queryable,
  request: { listingId: string; startDate: string; endDate: string; startAt: string | null; endAt: string | null },
  bufferHours: number,
  now: Date,
  except: string,
): Promise<
  | {
      start_date: string;
      end_date: string;
      start_at: string | null;
      end_at: string | null;
      status: 'requested';
      hold_until: string;
    }
  | undefined
> {
  const wanted = widened(requestSpan(request), bufferHours);
  const offer = (await heldOffers(db, request.listingId, now, except)).find((entry) =>
    spansMeet(heldSpan(entry), wanted),
  );
  return offer && { ...offer, status: 'requested', hold_until: offer.hold_until as string };
}

/** In a booking's transaction: the renter's offers the booking covers are booked. */
export async function bookedFromWaitlist(
  trx: WriteTransaction,
  request: {
    listingId: string;
    renterAccountId: string;
    startDate: string;
    endDate: string;
    startAt: string | null;
    endAt: string | null;
  },
  now: Date,
): Promise<void> {
  const booked = requestSpan(request);
  const mine = await activeEntriesOf(trx, request.listingId, request.renterAccountId);
  for (const entry of mine) {
    if (spansMeet(heldSpan(entry), booked))
      await moveEntry(trx, entry.id, ['waiting', 'offered'], { status: 'booked' }, now);
  }
}
