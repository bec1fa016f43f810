import { eurosOf } from '../domain/payments.js';
import { checkLedger, feesOwed } from '../services/payments.js';
import type { AdminContext } from './admin-context.js';

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
