import { berlinWallClock } from '../domain/berlin-time.js';
import { eurosOf } from '../domain/payments.js';
import { checkLedger, feesOwed, sellerYears } from '../services/payments.js';
import { reconcileWithProvider } from '../services/stripe-payments.js';
import type { AdminContext, AdminOptions } from './admin-context.js';

/** Proves the books (issue 32): every ledger transaction sums to zero, and every payment's settlement and fee are booked as its state says. */
export async function checkLedgerCommand(ctx: AdminContext): Promise<void> {
  const problems = await checkLedger(ctx.db);
  for (const problem of problems) ctx.out(problem);
  if (problems.length > 0) throw new Error(`The ledger does not balance: ${problems.length} problem(s) above.`);
  ctx.out('The ledger balances: every transaction sums to zero and every payment is booked as its state says.');
}

/** What commercial providers owe the platform in fees (manual provider), largest first. */
export async function listFeesOwed(ctx: AdminContext): Promise<void> {
  const owed = await feesOwed(ctx.db);
  if (owed.length === 0) {
    ctx.out('No fees are owed.');
    return;
  }
  for (const row of owed) ctx.out(`${row.accountId}  ${eurosOf(row.cents).toFixed(2)} EUR`);
}

const euros = (cents: number) => `${eurosOf(cents).toFixed(2)} EUR`;

/**
 * `ledger report --year 2026`: per seller (payee), the payments received in that calendar year
 * (Europe/Berlin), the consideration per quarter and in all, and the fees: what a platform
 * reports under DAC7 (PStTG). A tab-free line per seller; names as JSON strings.
 */
export async function ledgerReport(ctx: AdminContext, _id: string, options: AdminOptions): Promise<void> {
  const year = Number(options.year);
  if (!/^\d{4}$/.test(options.year ?? '') || year < 2000 || year > 2100) {
    throw new Error('--year needs a calendar year, such as --year 2026.');
  }
  const sellers = await sellerYears(ctx.db, year);
  if (sellers.length === 0) {
    ctx.out(`No payments were received in ${year}.`);
    return;
  }
  for (const s of sellers) {
    const quarters = s.quarters.map((cents, i) => `Q${i + 1} ${euros(cents)}`).join(', ');
    ctx.out(
      `${s.accountId}  ${JSON.stringify(s.organisation ?? s.name)}  ${s.accountType}  payments ${s.payments}  consideration ${euros(s.considerationCents)} (${quarters})  fees ${euros(s.feeCents)}`,
    );
  }
}

/**
 * `ledger reconcile --year 2026`: the books against Stripe's (PAYMENTS_PROVIDER=stripe): each
 * payment's capture, the year's (Europe/Berlin) application fees in Stripe's balance against the
 * fee income booked, and provider tasks that failed for good. Fails with the differences.
 */
export async function reconcileLedgerCommand(ctx: AdminContext, _id: string, options: AdminOptions): Promise<void> {
  if (!ctx.payments) {
    throw new Error(
      'ledger reconcile compares the books with Stripe: it needs PAYMENTS_PROVIDER=stripe and STRIPE_SECRET_KEY.',
    );
  }
  const year = Number(options.year ?? ctx.now.getUTCFullYear());
  if (!Number.isInteger(year) || year < 2000 || year > 2100) {
    throw new Error('--year needs a calendar year, such as --year 2026.');
  }
  const from = berlinWallClock(`${year}-01-01`, 0);
  const to = berlinWallClock(`${year + 1}-01-01`, 0);
  const { problems, payments, feeCents } = await reconcileWithProvider(ctx.db, ctx.payments, from, to);
  for (const problem of problems) ctx.out(problem);
  if (problems.length > 0) throw new Error(`The books and Stripe differ: ${problems.length} problem(s) above.`);
  ctx.out(
    `The books and Stripe agree: ${payments} Stripe payment(s) captured as booked, fees of ${year} ${euros(feeCents)}.`,
  );
}
