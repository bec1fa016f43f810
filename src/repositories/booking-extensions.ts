import { sql } from 'kysely';
import type { Queryable } from '../db/queryable.js';
import type { BookingExtensionRow, BookingExtensionStatus } from '../db/schema.js';
import type { WriteTransaction } from './write-transaction.js';

/**
 * Writes the row of the booking's listing without changing it: the first statement of an
 * extension, so it and a booking of the same listing (which locks it the same way) run one after
 * the other, and SQLite never has to upgrade a read lock.
 */
export async function lockListingOfBooking(trx: WriteTransaction, bookingId: string): Promise<void> {
  await trx
    .updateTable('listings')
    .set({ updated_at: sql`updated_at` })
    .where('id', '=', (eb) =>
      eb.selectFrom('bookings').select('bookings.listing_id').where('bookings.id', '=', bookingId),
    )
    .execute();
}

/** The booking's extension that waits for its owner, if any (one at a time). */
export function waitingExtension(db: Queryable, bookingId: string): Promise<BookingExtensionRow | undefined> {
  return db
    .selectFrom('booking_extensions')
    .selectAll()
    .where('booking_id', '=', bookingId)
    .where('status', '=', 'requested')
    .executeTakeFirst();
}

/** One extension of the booking. */
export function findExtension(db: Queryable, bookingId: string, id: string): Promise<BookingExtensionRow | undefined> {
  return db
    .selectFrom('booking_extensions')
    .selectAll()
    .where('booking_id', '=', bookingId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The booking's extensions, oldest first. */
export function extensionsOf(db: Queryable, bookingId: string): Promise<BookingExtensionRow[]> {
  return db
    .selectFrom('booking_extensions')
    .selectAll()
    .where('booking_id', '=', bookingId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function insertExtension(trx: WriteTransaction, row: BookingExtensionRow): Promise<void> {
  await trx.insertInto('booking_extensions').values(row).execute();
}

/** Decides a requested extension in one conditional write; false when it was decided already. */
export async function decideExtension(
  trx: WriteTransaction,
  id: string,
  to: Exclude<BookingExtensionStatus, 'requested'>,
  now: Date,
): Promise<boolean> {
  const result = await trx
    .updateTable('booking_extensions')
    .set({ status: to, decided_at: now.toISOString() })
    .where('id', '=', id)
    .where('status', '=', 'requested')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** What an accepted extension changes on its booking. */
export interface BookingEnd {
  end_date: string;
  end_at: string | null;
  days: number;
  hours: number | null;
  price_cents: number;
  weeks: number;
  extra_days: number;
  extra_hours: number | null;
}

/**
 * Moves a confirmed or active booking's end, in one conditional write: false when it is in another
 * state or its end moved meanwhile (`from`: the end the extension was asked against).
 */
export async function moveBookingEnd(
  trx: WriteTransaction,
  bookingId: string,
  from: { end_date: string; end_at: string | null },
  end: BookingEnd,
  now: Date,
): Promise<boolean> {
  const result = await trx
    .updateTable('bookings')
    .set({ ...end, updated_at: now.toISOString() })
    .where('id', '=', bookingId)
    .where('status', 'in', ['confirmed', 'active'])
    .where('end_date', '=', from.end_date)
    .where((eb) => (from.end_at === null ? eb('end_at', 'is', null) : eb('end_at', '=', from.end_at)))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Deletes the extensions of these bookings (an erasure). */
export async function deleteExtensionsOf(trx: WriteTransaction, bookingIds: readonly string[]): Promise<void> {
  if (bookingIds.length === 0) return;
  await trx.deleteFrom('booking_extensions').where('booking_id', 'in', bookingIds).execute();
}
