/**
 * Payments and the ledger (issue 32): one query per function; the story of each movement is in
 * services/payments.ts.
 */
import { sql } from 'kysely';
import type { Queryable } from '../db/queryable.js';
import type { BankAccountRow, PaymentRow } from '../db/schema.js';
import { newId } from '../domain/ids.js';
import {
  FEE_REVENUE_ACCOUNT,
  FEES_RECEIVABLE_PREFIX,
  PARTY_PREFIX,
  type PaymentKind,
  type PaymentStatus,
  type Posting,
} from '../domain/payments.js';
import type { WriteTransaction } from './write-transaction.js';

export type NewPayment = Pick<
  PaymentRow,
  'kind' | 'payer_account_id' | 'payee_account_id' | 'job_id' | 'application_id' | 'amount_cents' | 'fee_cents'
> & { booking_id?: string; provider?: PaymentRow['provider']; provider_ref?: string | null };

export async function insertPayment(trx: WriteTransaction, payment: NewPayment, now: Date): Promise<PaymentRow> {
  const at = now.toISOString();
  return trx
    .insertInto('payments')
    .values({
      id: newId('pay'),
      provider: 'manual',
      status: 'awaiting_payment',
      currency: 'EUR',
      created_at: at,
      paid_at: null,
      received_at: null,
      cancelled_at: null,
      updated_at: at,
      ...payment,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** What a job's payments are computed from: its price, how many helpers share it, who pays; and its place (for the events). */
export function jobPriceOf(trx: WriteTransaction, jobId: string) {
  return trx
    .selectFrom('jobs')
    .select([
      'price_cents',
      'helpers_needed',
      'owner_account_id',
      'category',
      'lat',
      'lng',
      'desired_at',
      'cancellation_policy',
      'status',
    ])
    .where('id', '=', jobId)
    .executeTakeFirstOrThrow();
}

/** How many payments a job has already (the acceptance's index for its share). */
export async function paymentsOfJobCount(trx: WriteTransaction, jobId: string): Promise<number> {
  const row = await trx
    .selectFrom('payments')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('job_id', '=', jobId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** A payment the account is party to (payer or payee), else undefined. */
export function findPaymentOfParty(db: Queryable, id: string, accountId: string): Promise<PaymentRow | undefined> {
  return db
    .selectFrom('payments')
    .selectAll()
    .where('id', '=', id)
    .where((eb) => eb.or([eb('payer_account_id', '=', accountId), eb('payee_account_id', '=', accountId)]))
    .executeTakeFirst();
}

export interface PaymentFilter {
  accountId: string;
  role?: 'payer' | 'payee' | undefined;
  status?: PaymentStatus | undefined;
  limit: number;
  offset: number;
}

/** The account's payments, newest first, with the total count. */
export async function paymentsOfParty(
  db: Queryable,
  filter: PaymentFilter,
): Promise<{ rows: PaymentRow[]; total: number }> {
  let query = db.selectFrom('payments');
  if (filter.role === 'payer') query = query.where('payer_account_id', '=', filter.accountId);
  else if (filter.role === 'payee') query = query.where('payee_account_id', '=', filter.accountId);
  else {
    query = query.where((eb) =>
      eb.or([eb('payer_account_id', '=', filter.accountId), eb('payee_account_id', '=', filter.accountId)]),
    );
  }
  if (filter.status) query = query.where('status', '=', filter.status);
  const [rows, count] = await Promise.all([
    query
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(filter.limit)
      .offset(filter.offset)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.count) };
}

/**
 * Moves a payment from one of `from` to `to` if the account is on the right side of it, stamping
 * `stamp`; the changed row, or undefined when nothing matched (another state, or not theirs).
 */
export async function movePayment(
  trx: WriteTransaction,
  move: {
    id: string;
    side: 'payer_account_id' | 'payee_account_id';
    accountId: string;
    from: readonly PaymentStatus[];
    to: PaymentStatus;
    stamp: 'paid_at' | 'received_at';
  },
  now: Date,
): Promise<PaymentRow | undefined> {
  const at = now.toISOString();
  return trx
    .updateTable('payments')
    .set({ status: move.to, [move.stamp]: at, updated_at: at })
    .where('id', '=', move.id)
    .where(move.side, '=', move.accountId)
    .where('status', 'in', move.from)
    .returningAll()
    .executeTakeFirst();
}

/** What payments belong to: a job (all its shares), one application (one helper's share) or a booking. */
export type PaymentsOf = { job_id: string } | { application_id: string } | { booking_id: string };

const columnOf = (of: PaymentsOf) =>
  'job_id' in of
    ? (['job_id', of.job_id] as const)
    : 'application_id' in of
      ? (['application_id', of.application_id] as const)
      : (['booking_id', of.booking_id] as const);

/** Cancels a job's or a booking's payments (of these kinds) that nothing was paid on yet; the cancelled ones. */
export function cancelUnpaidPayments(
  trx: WriteTransaction,
  of: PaymentsOf,
  kinds: readonly PaymentKind[],
  now: Date,
): Promise<PaymentRow[]> {
  const at = now.toISOString();
  const [column, id] = columnOf(of);
  return trx
    .updateTable('payments')
    .set({ status: 'cancelled', cancelled_at: at, updated_at: at })
    .where(column, '=', id)
    .where('kind', 'in', kinds)
    .where('status', '=', 'awaiting_payment')
    .returningAll()
    .execute();
}

/** A job's or a booking's payments of these kinds that are not cancelled (what a cancellation policy applies to). */
export function livePaymentsOf(
  trx: WriteTransaction,
  of: PaymentsOf,
  kinds: readonly PaymentKind[],
): Promise<PaymentRow[]> {
  const [column, id] = columnOf(of);
  let query = trx
    .selectFrom('payments')
    .selectAll()
    .where(column, '=', id)
    .where('kind', 'in', kinds)
    .where('status', 'in', ['awaiting_payment', 'paid', 'received']);
  if ('job_id' in of) {
    // A job's shares: not those of an acceptance that ended (a no-show settled its own).
    query = query.where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('applications')
            .select('applications.id')
            .whereRef('applications.id', '=', 'payments.application_id')
            .where('applications.withdrawn_at', 'is not', null),
        ),
      ),
    );
  }
  return query.orderBy('created_at').orderBy('id').execute();
}

/** Cancels one payment nothing was paid on; the changed row, or undefined when it was paid meanwhile. */
export function cancelPayment(trx: WriteTransaction, id: string, now: Date): Promise<PaymentRow | undefined> {
  const at = now.toISOString();
  return trx
    .updateTable('payments')
    .set({ status: 'cancelled', cancelled_at: at, updated_at: at })
    .where('id', '=', id)
    .where('status', '=', 'awaiting_payment')
    .returningAll()
    .executeTakeFirst();
}

/** Lowers a payment's fee (a cancellation left the payee less); the changed row. */
export function setPaymentFee(trx: WriteTransaction, id: string, feeCents: number, now: Date): Promise<PaymentRow> {
  return trx
    .updateTable('payments')
    .set({ fee_cents: feeCents, updated_at: now.toISOString() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** What a booking's payments are computed from: its rent, deposit and renter, its owner's account, its listing's place. */
export function bookingMoneyOf(trx: WriteTransaction, bookingId: string) {
  return trx
    .selectFrom('bookings')
    .innerJoin('listings', 'listings.id', 'bookings.listing_id')
    .innerJoin('owners', 'owners.id', 'listings.owner_id')
    .select([
      'bookings.id',
      'bookings.price_cents',
      'bookings.deposit_cents',
      'bookings.renter_account_id',
      'bookings.status',
      'bookings.end_date',
      'bookings.late_fee_per_day_cents',
      'owners.account_id as owner_account_id',
      'listings.category',
      'listings.lat',
      'listings.lng',
    ])
    .where('bookings.id', '=', bookingId)
    .executeTakeFirstOrThrow();
}

/**
 * Writes a booking's deposit row without changing it: as the first statement of a claim or a
 * release it locks the deposit, so that a claim and a release of it run one after the other (the
 * later one sees what the earlier did).
 */
export async function lockDeposit(trx: WriteTransaction, bookingId: string): Promise<void> {
  await trx
    .updateTable('payments')
    .set({ updated_at: sql`updated_at` })
    .where('booking_id', '=', bookingId)
    .where('kind', '=', 'deposit')
    .execute();
}

/** A booking's payment of one kind (its rent or its deposit), if it has one. */
export function paymentOfBooking(
  db: Queryable,
  bookingId: string,
  kind: 'rent' | 'deposit',
): Promise<PaymentRow | undefined> {
  return db
    .selectFrom('payments')
    .selectAll()
    .where('booking_id', '=', bookingId)
    .where('kind', '=', kind)
    .executeTakeFirst();
}

/** The payments of these jobs' applications or bookings, for their payment summaries. */
export async function paymentsFor(
  db: Queryable,
  column: 'application_id' | 'booking_id',
  ids: readonly string[],
): Promise<PaymentRow[]> {
  if (ids.length === 0) return [];
  // Made together (a booking's rent and deposit): in the order of the deal, the same on both engines.
  return db
    .selectFrom('payments')
    .selectAll()
    .where(column, 'in', ids)
    .orderBy('created_at')
    .orderBy(sql`case kind when 'job' then 0 when 'rent' then 1 when 'deposit' then 2 when 'fee' then 3 else 4 end`)
    .orderBy('id')
    .execute();
}

/** Releases a held deposit, keeping `keptCents` with the owner; the changed row, or undefined when it was not held by this payee. */
export function releaseDeposit(
  trx: WriteTransaction,
  release: { id: string; payeeAccountId: string; keptCents: number },
  now: Date,
): Promise<PaymentRow | undefined> {
  const at = now.toISOString();
  return trx
    .updateTable('payments')
    .set({ status: 'released', kept_cents: release.keptCents, released_at: at, updated_at: at })
    .where('id', '=', release.id)
    .where('kind', '=', 'deposit')
    .where('payee_account_id', '=', release.payeeAccountId)
    .where('status', '=', 'received')
    .returningAll()
    .executeTakeFirst();
}

/** Writes one ledger transaction; the caller has checked its postings sum to zero. */
export async function insertLedgerTransaction(
  trx: WriteTransaction,
  paymentId: string | null,
  postings: readonly Posting[],
  now: Date,
): Promise<string> {
  const transactionId = newId('ltx');
  const at = now.toISOString();
  await trx
    .insertInto('ledger_entries')
    .values(
      postings.map((posting) => ({
        id: newId('led'),
        transaction_id: transactionId,
        payment_id: paymentId,
        ledger_account: posting.ledgerAccount,
        amount_cents: posting.amountCents,
        kind: posting.kind,
        created_at: at,
      })),
    )
    .execute();
  return transactionId;
}

/** Ledger transactions whose entries do not sum to zero: id and sum. */
export function unbalancedTransactions(db: Queryable): Promise<{ transaction_id: string; total: number }[]> {
  return db
    .selectFrom('ledger_entries')
    .select(['transaction_id', sql<number>`sum(amount_cents)`.as('total')])
    .groupBy('transaction_id')
    .having(sql`sum(amount_cents)`, '<>', 0)
    .orderBy('transaction_id')
    .execute();
}

/**
 * Each payment beside what the ledger holds for it: the settlement that reached the payee and the
 * fee booked to the platform (0 when none).
 */
export function paymentsWithLedger(db: Queryable): Promise<
  {
    id: string;
    status: PaymentStatus;
    amount_cents: number;
    fee_cents: number;
    kept_cents: number;
    payee_account_id: string;
    settled: number;
    fee_booked: number;
  }[]
> {
  return db
    .selectFrom('payments')
    .select([
      'payments.id',
      'payments.status',
      'payments.amount_cents',
      'payments.fee_cents',
      'payments.kept_cents',
      'payments.payee_account_id',
      sql<number>`coalesce((select sum(e.amount_cents) from ledger_entries e where e.payment_id = payments.id and e.kind = 'settlement' and e.ledger_account = ${PARTY_PREFIX} || payments.payee_account_id), 0)`.as(
        'settled',
      ),
      sql<number>`coalesce((select -sum(e.amount_cents) from ledger_entries e where e.payment_id = payments.id and e.kind = 'fee' and e.ledger_account = ${FEE_REVENUE_ACCOUNT}), 0)`.as(
        'fee_booked',
      ),
    ])
    .orderBy('payments.id')
    .execute();
}

/** Fees owed to the platform per payee (what fees_receivable holds), largest first: for the operator. */
export function feesReceivable(db: Queryable): Promise<{ ledger_account: string; total: number }[]> {
  return db
    .selectFrom('ledger_entries')
    .select(['ledger_account', sql<number>`sum(amount_cents)`.as('total')])
    .where('ledger_account', 'like', `${FEES_RECEIVABLE_PREFIX}%`)
    .groupBy('ledger_account')
    .orderBy(sql`sum(amount_cents)`, 'desc')
    .execute();
}

/**
 * Payments received in [from, to) by payee: the account's name, organisation and type, each
 * payment's amount, fee and when it was received, oldest first (the report sums them by quarter).
 */
export function receivedBetween(db: Queryable, from: string, to: string) {
  return (
    db
      .selectFrom('payments')
      .innerJoin('accounts', 'accounts.id', 'payments.payee_account_id')
      .select([
        'payments.payee_account_id',
        'accounts.name',
        'accounts.organisation',
        'accounts.account_type',
        'payments.amount_cents',
        'payments.fee_cents',
        'payments.received_at',
      ])
      .where('payments.status', '=', 'received')
      // Consideration only: a deposit is the renter's money held, not a price paid.
      .where('payments.kind', 'in', ['job', 'rent', 'fee'])
      .where('payments.received_at', '>=', from)
      .where('payments.received_at', '<', to)
      .orderBy('payments.payee_account_id')
      .orderBy('payments.received_at')
      .execute()
  );
}

/** Refunds received in [from, to) by the seller who paid them back: the seller's account and the amount. */
export function refundsBetween(db: Queryable, from: string, to: string) {
  return db
    .selectFrom('payments')
    .select(['payments.payer_account_id as seller_account_id', 'payments.amount_cents', 'payments.received_at'])
    .where('payments.status', '=', 'received')
    .where('payments.kind', '=', 'refund')
    .where('payments.received_at', '>=', from)
    .where('payments.received_at', '<', to)
    .orderBy('payments.received_at')
    .execute();
}

/** The account's bank account, if it gave one. */
export function findBankAccount(db: Queryable, accountId: string): Promise<BankAccountRow | undefined> {
  return db.selectFrom('bank_accounts').selectAll().where('account_id', '=', accountId).executeTakeFirst();
}

/** The bank accounts of these accounts (those that gave one). */
export async function bankAccountsOf(db: Queryable, accountIds: readonly string[]): Promise<BankAccountRow[]> {
  if (accountIds.length === 0) return [];
  return db.selectFrom('bank_accounts').selectAll().where('account_id', 'in', accountIds).execute();
}

/** Sets the account's bank account (the first time, or again). */
export function putBankAccount(
  trx: WriteTransaction,
  accountId: string,
  details: { iban: string; account_holder: string },
  now: Date,
): Promise<BankAccountRow> {
  const at = now.toISOString();
  return trx
    .insertInto('bank_accounts')
    .values({ account_id: accountId, ...details, created_at: at, updated_at: at })
    .onConflict((oc) => oc.column('account_id').doUpdateSet({ ...details, updated_at: at }))
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Removes the account's bank account; whether there was one. */
export async function deleteBankAccount(trx: WriteTransaction, accountId: string): Promise<boolean> {
  const result = await trx.deleteFrom('bank_accounts').where('account_id', '=', accountId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
