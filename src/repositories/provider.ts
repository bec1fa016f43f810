/**
 * What the platform keeps of the Stripe provider (issue 32, migration 0030): payees' connected
 * accounts, the events received (by id, so each is processed once), the calls to Stripe that
 * writes decided on (provider tasks), and the Stripe references of payments.
 */
import { sql } from 'kysely';
import type { Queryable } from '../db/queryable.js';
import type { PaymentRow, PayoutAccountRow, ProviderAction, ProviderTaskRow } from '../db/schema.js';
import { newId } from '../domain/ids.js';
import type { WriteTransaction } from './write-transaction.js';

export function findPayoutAccount(db: Queryable, accountId: string): Promise<PayoutAccountRow | undefined> {
  return db.selectFrom('payout_accounts').selectAll().where('account_id', '=', accountId).executeTakeFirst();
}

/** Stores what Stripe said of an account's connected account (inserted the first time). */
export async function putPayoutAccount(
  trx: WriteTransaction,
  accountId: string,
  state: {
    provider_account_id: string;
    charges_enabled: boolean;
    payouts_enabled: boolean;
    details_submitted: boolean;
    currently_due: string[];
  },
  now: Date,
): Promise<PayoutAccountRow> {
  const at = now.toISOString();
  const values = {
    provider_account_id: state.provider_account_id,
    charges_enabled: state.charges_enabled ? 1 : 0,
    payouts_enabled: state.payouts_enabled ? 1 : 0,
    details_submitted: state.details_submitted ? 1 : 0,
    currently_due: JSON.stringify(state.currently_due),
    updated_at: at,
  };
  return trx
    .insertInto('payout_accounts')
    .values({ account_id: accountId, created_at: at, ...values })
    .onConflict((oc) => oc.column('account_id').doUpdateSet(values))
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The connected account an account.updated event is about; undefined when it is none of ours. */
export function payoutAccountByProviderId(db: Queryable, providerAccountId: string) {
  return db
    .selectFrom('payout_accounts')
    .selectAll()
    .where('provider_account_id', '=', providerAccountId)
    .executeTakeFirst();
}

/** Whether an event was recorded before (a repeated delivery). */
export async function providerEventSeen(db: Queryable, id: string): Promise<boolean> {
  return (await db.selectFrom('provider_events').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}

/** Records an event by its id; false when it was recorded before (a second delivery). */
export async function recordProviderEvent(
  trx: WriteTransaction,
  event: { id: string; type: string; objectId: string },
  now: Date,
): Promise<boolean> {
  const inserted = await trx
    .insertInto('provider_events')
    .values({
      id: event.id,
      type: event.type,
      object_id: event.objectId,
      received_at: now.toISOString(),
      processed_at: now.toISOString(),
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** A call to Stripe to make after the commit of the write that decided it. */
export async function insertProviderTask(
  trx: WriteTransaction,
  task: { payment_id: string; action: ProviderAction; amount_cents: number; intent_ref?: string | null },
  now: Date,
): Promise<ProviderTaskRow> {
  const at = now.toISOString();
  return trx
    .insertInto('provider_tasks')
    .values({
      id: newId('ptk'),
      intent_ref: null,
      ...task,
      attempt: 1,
      status: 'pending',
      error: null,
      due_at: at,
      created_at: at,
      updated_at: at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Pending tasks that are due, oldest first. */
export function dueProviderTasks(db: Queryable, now: Date, limit: number): Promise<ProviderTaskRow[]> {
  return db
    .selectFrom('provider_tasks')
    .selectAll()
    .where('status', '=', 'pending')
    .where('due_at', '<=', now.toISOString())
    .orderBy('due_at')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/**
 * Takes a due task for `leaseMs` (its due_at moves on), so that one instance works on it at a
 * time; false when another took it first.
 */
export async function leaseProviderTask(trx: WriteTransaction, task: ProviderTaskRow, now: Date, leaseMs: number) {
  const leased = await trx
    .updateTable('provider_tasks')
    .set({ due_at: new Date(now.getTime() + leaseMs).toISOString(), updated_at: now.toISOString() })
    .where('id', '=', task.id)
    .where('status', '=', 'pending')
    .where('due_at', '=', task.due_at)
    .executeTakeFirst();
  return Number(leased.numUpdatedRows) > 0;
}

/** A task's outcome: done, failed for good, or pending again at `dueAt` (with the next attempt after a refusal). */
export async function endProviderTask(
  trx: WriteTransaction,
  id: string,
  outcome: { status: 'done' | 'failed' | 'pending'; error: string | null; attempt?: number; dueAt?: Date },
  now: Date,
): Promise<void> {
  await trx
    .updateTable('provider_tasks')
    .set({
      status: outcome.status,
      error: outcome.error,
      updated_at: now.toISOString(),
      ...(outcome.attempt !== undefined && { attempt: outcome.attempt }),
      ...(outcome.dueAt && { due_at: outcome.dueAt.toISOString() }),
    })
    .where('id', '=', id)
    // Only a task still pending: a runner whose lease ran out cannot undo another's ending.
    .where('status', '=', 'pending')
    .execute();
}

/** Tasks that failed for good, newest first (`ledger reconcile` lists them). */
export function failedProviderTasks(db: Queryable): Promise<ProviderTaskRow[]> {
  return db
    .selectFrom('provider_tasks')
    .selectAll()
    .where('status', '=', 'failed')
    .orderBy('updated_at', 'desc')
    .execute();
}

/** Whether a payment has a task of this action pending (a second release or capture waits for the first). */
export async function hasPendingTask(db: Queryable, paymentId: string): Promise<boolean> {
  const row = await db
    .selectFrom('provider_tasks')
    .select('id')
    .where('payment_id', '=', paymentId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return row !== undefined;
}

/** A payment by its id (the provider's metadata names it) or its PaymentIntent. */
export function paymentByProviderRef(db: Queryable, ref: { paymentId: string | null; intentId: string }) {
  // A refund shares its payment's PaymentIntent: the metadata's id, when there, is the payment's own.
  const query = db.selectFrom('payments').selectAll();
  return (
    ref.paymentId
      ? query.where('id', '=', ref.paymentId)
      : query.where('provider_ref', '=', ref.intentId).where('kind', '!=', 'refund')
  ).executeTakeFirst();
}

/** Stripe's references and last refusal of a payment. */
export function setProviderRefs(
  trx: WriteTransaction,
  id: string,
  refs: Partial<
    Pick<
      PaymentRow,
      'provider_ref' | 'checkout_ref' | 'customer_ref' | 'payment_method_ref' | 'provider_error' | 'provider_attempt'
    >
  >,
  now: Date,
): Promise<PaymentRow> {
  return trx
    .updateTable('payments')
    .set({ ...refs, updated_at: now.toISOString() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * A Stripe payment's change of state, when it is still in one of `from`: to paid (authorised),
 * received (captured, with what was captured), cancelled, or released (a deposit, keeping what was
 * captured). The changed row, or undefined when it had moved on (a late or repeated event).
 */
export function moveProviderPayment(
  trx: WriteTransaction,
  id: string,
  from: PaymentRow['status'][],
  to: { status: PaymentRow['status']; amount_cents?: number; fee_cents?: number; kept_cents?: number },
  now: Date,
): Promise<PaymentRow | undefined> {
  const at = now.toISOString();
  const stamp =
    to.status === 'awaiting_payment'
      ? { paid_at: null }
      : to.status === 'paid'
        ? { paid_at: at }
        : to.status === 'received'
          ? { received_at: at }
          : to.status === 'cancelled'
            ? { cancelled_at: at }
            : { released_at: at };
  return trx
    .updateTable('payments')
    .set({ ...to, ...stamp, updated_at: at })
    .where('id', '=', id)
    .where('status', 'in', from)
    .returningAll()
    .executeTakeFirst();
}

/** Stripe payments with a PaymentIntent, for `ledger reconcile`. */
export function providerPayments(db: Queryable) {
  return db
    .selectFrom('payments')
    .select([
      'id',
      'kind',
      'status',
      'amount_cents',
      'fee_cents',
      'kept_cents',
      'provider_ref',
      sql<number>`coalesce((select sum(e.amount_cents) from ledger_entries e where e.payment_id = payments.id and e.kind = 'fee' and e.ledger_account = 'platform:fee_revenue'), 0)`.as(
        'fee_revenue',
      ),
    ])
    .where('provider', '=', 'stripe')
    .where('provider_ref', 'is not', null)
    .orderBy('id')
    .execute();
}

/** A job's status, for the capture a checkout asks for (a completed job's share is charged at once). */
export async function jobStatusOf(db: Queryable, jobId: string): Promise<string | undefined> {
  const row = await db.selectFrom('jobs').select('status').where('id', '=', jobId).executeTakeFirst();
  return row?.status;
}

/** A payment by id, whoever's it is (the provider tasks). */
export function paymentById(db: Queryable, id: string): Promise<PaymentRow | undefined> {
  return db.selectFrom('payments').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The platform's fee income booked for Stripe payments in [from, to), in cents (positive). */
export async function stripeFeeRevenueBetween(db: Queryable, from: string, to: string): Promise<number> {
  const row = await db
    .selectFrom('ledger_entries')
    .innerJoin('payments', 'payments.id', 'ledger_entries.payment_id')
    .select(sql<number>`coalesce(-sum(ledger_entries.amount_cents), 0)`.as('total'))
    .where('payments.provider', '=', 'stripe')
    .where('ledger_entries.kind', '=', 'fee')
    .where('ledger_entries.ledger_account', '=', 'platform:fee_revenue')
    .where('ledger_entries.created_at', '>=', from)
    .where('ledger_entries.created_at', '<', to)
    .executeTakeFirst();
  return Number(row?.total ?? 0);
}

/** Whether a task of `action` about this PaymentIntent was made already (pending or done). */
export async function hasTaskFor(db: Queryable, intentRef: string, action: ProviderAction): Promise<boolean> {
  const row = await db
    .selectFrom('provider_tasks')
    .select('id')
    .where('intent_ref', '=', intentRef)
    .where('action', '=', action)
    .where('status', '!=', 'failed')
    .executeTakeFirst();
  return row !== undefined;
}
