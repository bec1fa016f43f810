/**
 * Damage claims (issue 32): within CLAIM_WINDOW_HOURS of a booking's return, its owner claims part
 * or all of the held deposit, with a text and photos; the renter accepts or disputes; an operator
 * decides a disputed claim (`npm run admin -- claims decide`). What an accepted or decided claim
 * keeps stays with the owner when the deposit is released (services/payments.ts).
 */
import type { Queryable } from '../db/queryable.js';
import type { AccountRow, ClaimRow, ClaimStatus } from '../db/schema.js';
import { depositHeld, eurosOf } from '../domain/payments.js';
import { findBookingWithOwner } from '../repositories/bookings.js';
import {
  claimOfBooking,
  claimsIn,
  findClaim,
  findClaimOfParty,
  insertClaim,
  moveClaim,
} from '../repositories/claims.js';
import { recordEvent } from '../repositories/outbox.js';
import { bookingMoneyOf, lockDeposit, paymentOfBooking } from '../repositories/payments.js';
import { hasPendingTask } from '../repositories/provider.js';
import { inWriteTransaction, type WriteContext, type WriteTransaction } from '../repositories/write-transaction.js';
import type { Claim, ClaimBody, DisputeBody } from '../schemas/claims.js';
import { ApiError, badRequest } from './errors.js';
import { type Actor, audit, OperatorError } from './operators.js';
import { centsOf } from './write-rules.js';

/** The claim as one of its parties reads it: their side, what they do next. */
export function claimView(row: ClaimRow, accountId: string): Claim {
  const role = row.owner_account_id === accountId ? 'owner' : 'renter';
  const answerable = role === 'renter' && row.status === 'open';
  return {
    id: row.id,
    booking_id: row.booking_id,
    payment_id: row.payment_id,
    role,
    status: row.status,
    amount_eur: eurosOf(row.amount_cents),
    text: row.text,
    photos: JSON.parse(row.photos) as string[],
    response_text: row.response_text,
    decided_amount_eur: row.decided_cents === null ? null : eurosOf(row.decided_cents),
    explanation: row.explanation,
    kept_eur: eurosOf(keptCents(row)),
    next_actions: answerable ? ['accept', 'dispute'] : [],
    created_at: row.created_at,
    answered_at: row.answered_at,
    decided_at: row.decided_at,
  };
}

/** What the claim keeps of the deposit: the claimed amount once accepted, the decided one once decided, else nothing (yet). */
export function keptCents(row: Pick<ClaimRow, 'status' | 'amount_cents' | 'decided_cents'>): number {
  if (row.status === 'accepted') return row.amount_cents;
  if (row.status === 'decided') return row.decided_cents ?? 0;
  return 0;
}

/** claim.created or claim.status_changed, to each party with the claim as they read it; the listing's place for webhook filters. */
async function recordClaimEvents(
  trx: WriteTransaction,
  type: 'claim.created' | 'claim.status_changed',
  claim: ClaimRow,
  now: Date,
): Promise<void> {
  const place = await bookingMoneyOf(trx, claim.booking_id);
  for (const accountId of [claim.owner_account_id, claim.renter_account_id]) {
    const data = claimView(claim, accountId);
    await recordEvent(trx, { type, subjectId: claim.id, place, audience: [accountId], data }, now);
  }
}

const bookingNotYours = (id: string) =>
  new ApiError(404, 'not_found', `No booking with the id '${id}' is yours to see.`, {
    param: 'id',
    suggestion: 'Check the id: a claim is filed by the owner of the booked listing, on a booking of it.',
  });

const claimNotYours = (id: string) =>
  new ApiError(404, 'not_found', `No claim with the id '${id}' is yours.`, {
    param: 'id',
    suggestion: "Check the id (claim ids start with clm_); a claim is seen by the booking's owner and renter only.",
  });

/**
 * The owner files a claim on a returned booking's held deposit, within the claim window: 404 for
 * anyone but the booking's parties, 403 for the renter, 409 before the return, after the window,
 * with no deposit held, or with a claim filed already.
 */
export async function fileClaim(
  context: WriteContext,
  account: AccountRow,
  bookingId: string,
  body: ClaimBody,
  claimWindowHours: number,
): Promise<Claim> {
  const amount = centsOf(body.amount_eur, 'amount_eur');
  const photos = [...new Set(body.photos ?? [])];
  return inWriteTransaction(context, async (trx) => {
    const booking = await findBookingWithOwner(trx, bookingId);
    if (!booking || (booking.owner_account_id !== account.id && booking.renter_account_id !== account.id)) {
      throw bookingNotYours(bookingId);
    }
    if (booking.owner_account_id !== account.id) {
      throw new ApiError(403, 'forbidden', "Only the listing's owner files a claim on a booking; you are its renter.", {
        param: 'id',
        suggestion: 'As the renter, you answer a claim: POST /v1/claims/{id}/accept or /dispute.',
      });
    }
    if (booking.status !== 'returned') {
      throw new ApiError(
        409,
        'invalid_state_transition',
        `The booking is ${booking.status}: a claim follows the return.`,
        {
          param: 'id',
          suggestion: `Record the return first (POST /v1/bookings/${bookingId}/return); then claim within ${claimWindowHours} hours.`,
        },
      );
    }
    const returnedAt = new Date(booking.returned_at ?? booking.updated_at);
    const closes = new Date(returnedAt.getTime() + claimWindowHours * 3_600_000);
    if (context.now > closes) {
      throw new ApiError(
        409,
        'claim_window_closed',
        `Claims on this booking were possible until ${closes.toISOString()} (${claimWindowHours} hours after the return).`,
        {
          param: 'id',
          suggestion: 'Release the deposit (POST /v1/payments/{id}/release); the renter gets it back in full.',
        },
      );
    }
    // The deposit locked first: a release of it at the same time waits, and then sees the claim.
    await lockDeposit(trx, bookingId);
    const existing = await claimOfBooking(trx, bookingId);
    if (existing) throw alreadyClaimed(existing.id);
    const deposit = await paymentOfBooking(trx, bookingId, 'deposit');
    if (deposit && deposit.provider === 'stripe' && (await hasPendingTask(trx, deposit.id))) {
      throw new ApiError(409, 'invalid_state_transition', 'The deposit is being released at Stripe right now.', {
        param: 'id',
        suggestion:
          'A released deposit cannot be claimed on; settle the damage with the renter, or report abuse (POST /v1/reports).',
      });
    }
    if (!deposit || !depositHeld(deposit)) {
      throw new ApiError(
        409,
        'invalid_state_transition',
        deposit
          ? `The deposit ${deposit.id} is ${deposit.status}, not held: a claim is taken from a deposit you confirmed receiving and have not released.`
          : 'This booking has no deposit: there is nothing to claim on.',
        {
          param: 'id',
          suggestion: 'Settle the damage with the renter directly, or report abuse with POST /v1/reports.',
        },
      );
    }
    if (amount > deposit.amount_cents) {
      throw badRequest(
        'parameter_out_of_range',
        'amount_eur',
        `amount_eur ${body.amount_eur} is more than the deposit of ${eurosOf(deposit.amount_cents)} EUR.`,
        `Claim at most ${eurosOf(deposit.amount_cents)} EUR.`,
      );
    }
    const row = await insertClaim(
      trx,
      {
        booking_id: bookingId,
        payment_id: deposit.id,
        owner_account_id: account.id,
        renter_account_id: booking.renter_account_id,
        amount_cents: amount,
        text: body.text.trim(),
        photos: JSON.stringify(photos),
      },
      context.now,
    );
    if (!row) throw alreadyClaimed((await claimOfBooking(trx, bookingId))?.id ?? '?');
    await recordClaimEvents(trx, 'claim.created', row, context.now);
    return claimView(row, account.id);
  });
}

const alreadyClaimed = (id: string) =>
  new ApiError(409, 'already_claimed', `This booking has a claim already: ${id}.`, {
    param: 'id',
    suggestion: `One claim per booking: GET /v1/claims/${id} shows where it stands.`,
  });

export async function getClaim(db: Queryable, account: AccountRow, id: string): Promise<Claim> {
  const row = await findClaimOfParty(db, id, account.id);
  if (!row) throw claimNotYours(id);
  return claimView(row, account.id);
}

/** The renter accepts an open claim, or disputes it with their side; 403 for the owner, 409 once answered. */
export async function answerClaim(
  context: WriteContext,
  account: AccountRow,
  id: string,
  answer: { action: 'accept' } | ({ action: 'dispute' } & DisputeBody),
): Promise<Claim> {
  return inWriteTransaction(context, async (trx) => {
    const row = await findClaimOfParty(trx, id, account.id);
    if (!row) throw claimNotYours(id);
    if (row.renter_account_id !== account.id) {
      throw new ApiError(403, 'forbidden', `Only the renter ${answer.action}s a claim; you filed it.`, {
        param: 'id',
        suggestion: 'Wait for the renter to accept or dispute it; GET /v1/claims/{id} shows where it stands.',
      });
    }
    const at = context.now.toISOString();
    const moved =
      answer.action === 'accept'
        ? await moveClaim(trx, id, 'open', 'accepted', { answered_at: at }, context.now)
        : await moveClaim(
            trx,
            id,
            'open',
            'disputed',
            { answered_at: at, response_text: answer.text.trim() },
            context.now,
          );
    if (!moved) throw answered(row.status, answer.action);
    await recordClaimEvents(trx, 'claim.status_changed', moved, context.now);
    return claimView(moved, account.id);
  });
}

const answered = (status: ClaimStatus, action: string) =>
  new ApiError(
    409,
    'invalid_state_transition',
    `The claim is ${status}; '${action}' is possible only while it is open.`,
    {
      param: 'id',
      suggestion:
        status === 'disputed' ? 'An operator decides a disputed claim; both sides are told.' : 'The claim is settled.',
      alternatives: [],
    },
  );

/** Claims in the operator's queue: disputed first (they wait for a decision), then open ones. */
export async function claimsToReview(db: Queryable): Promise<ClaimRow[]> {
  const [disputed, open] = await Promise.all([claimsIn(db, ['disputed']), claimsIn(db, ['open'])]);
  return [...disputed, ...open];
}

/**
 * An operator decides a disputed claim: the amount the owner keeps (0 up to the claimed amount)
 * and why. Throws with a message for the command when the claim is unknown or not disputed.
 */
export async function decideClaim(
  context: WriteContext,
  id: string,
  decision: { amountCents: number; explanation: string },
  actor: Actor = 'cli',
): Promise<ClaimRow> {
  return inWriteTransaction(context, async (trx) => {
    const row = await findClaim(trx, id);
    if (!row) throw new OperatorError(`No claim ${id}.`);
    if (row.status !== 'disputed')
      throw new OperatorError(`Claim ${id} is ${row.status}; only a disputed claim is decided.`);
    if (actor !== 'cli' && (row.owner_account_id === actor.accountId || row.renter_account_id === actor.accountId)) {
      throw new OperatorError('You are a party to this claim; another operator decides it.');
    }
    if (decision.amountCents > row.amount_cents) {
      throw new OperatorError(`--amount-eur is more than the ${eurosOf(row.amount_cents)} EUR claimed.`);
    }
    const at = context.now.toISOString();
    const moved = await moveClaim(
      trx,
      id,
      'disputed',
      'decided',
      { decided_cents: decision.amountCents, explanation: decision.explanation, decided_at: at },
      context.now,
    );
    if (!moved) throw new OperatorError(`Claim ${id} changed meanwhile; list the claims again.`);
    await recordClaimEvents(trx, 'claim.status_changed', moved, context.now);
    await audit(
      trx,
      actor,
      {
        action: 'claim.decided',
        targetType: 'claim',
        targetId: id,
        reason: decision.explanation,
        details: { claimed_cents: row.amount_cents, decided_cents: decision.amountCents },
      },
      context.now,
    );
    return moved;
  });
}
