/**
 * Damage claims on a returned booking's deposit (issue 32): one query per function; the story is
 * in services/claims.ts.
 */
import type { Queryable } from '../db/queryable.js';
import type { ClaimRow, ClaimStatus, ClaimsTable } from '../db/schema.js';
import { newId } from '../domain/ids.js';
import type { WriteTransaction } from './write-transaction.js';

export type NewClaim = Pick<
  ClaimsTable,
  'booking_id' | 'payment_id' | 'owner_account_id' | 'renter_account_id' | 'amount_cents' | 'text' | 'photos'
>;

/** Files a claim (open); undefined when the booking has one already (one per booking). */
export async function insertClaim(trx: WriteTransaction, claim: NewClaim, now: Date): Promise<ClaimRow | undefined> {
  const at = now.toISOString();
  return trx
    .insertInto('claims')
    .values({
      id: newId('clm'),
      status: 'open',
      response_text: null,
      decided_cents: null,
      explanation: null,
      created_at: at,
      answered_at: null,
      decided_at: null,
      updated_at: at,
      ...claim,
    })
    .onConflict((oc) => oc.column('booking_id').doNothing())
    .returningAll()
    .executeTakeFirst();
}

/** A claim the account is party to (owner or renter), else undefined. */
export function findClaimOfParty(db: Queryable, id: string, accountId: string): Promise<ClaimRow | undefined> {
  return db
    .selectFrom('claims')
    .selectAll()
    .where('id', '=', id)
    .where((eb) => eb.or([eb('owner_account_id', '=', accountId), eb('renter_account_id', '=', accountId)]))
    .executeTakeFirst();
}

export function findClaim(db: Queryable, id: string): Promise<ClaimRow | undefined> {
  return db.selectFrom('claims').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The claim on a booking, if one was filed. */
export function claimOfBooking(db: Queryable, bookingId: string): Promise<ClaimRow | undefined> {
  return db.selectFrom('claims').selectAll().where('booking_id', '=', bookingId).executeTakeFirst();
}

/** Claims in these states, oldest first (the operator's queue). */
export function claimsIn(db: Queryable, statuses: readonly ClaimStatus[]): Promise<ClaimRow[]> {
  return db
    .selectFrom('claims')
    .selectAll()
    .where('status', 'in', statuses)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Moves a claim from `from` to `to` with what the move records; the changed row, or undefined when it was in another state. */
export function moveClaim(
  trx: WriteTransaction,
  id: string,
  from: ClaimStatus,
  to: ClaimStatus,
  record: Partial<Pick<ClaimRow, 'response_text' | 'decided_cents' | 'explanation' | 'answered_at' | 'decided_at'>>,
  now: Date,
): Promise<ClaimRow | undefined> {
  return trx
    .updateTable('claims')
    .set({ status: to, ...record, updated_at: now.toISOString() })
    .where('id', '=', id)
    .where('status', '=', from)
    .returningAll()
    .executeTakeFirst();
}
