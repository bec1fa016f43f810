import { once } from 'node:events';
import type { AccountRow } from '../db/schema.js';
import { findAccount } from '../repositories/account-erasure.js';
import { eraseAccount, exportAccount } from '../services/account-data.js';
import type { AdminContext } from './admin-context.js';

async function accountOf(ctx: AdminContext, id: string): Promise<AccountRow> {
  const account = await findAccount(ctx.db, id);
  if (!account) throw new Error(`No account ${id}: 'keys list' shows the accounts there are.`);
  return account;
}

/**
 * `accounts export <acc_id>`: the same JSON document GET /v1/me/export sends, on stdout, written
 * as it is read (redirect it to a file: `npm run admin -- accounts export acc_… > export.json`).
 */
export async function exportAccountCommand(ctx: AdminContext, id: string): Promise<void> {
  const account = await accountOf(ctx, id);
  // Without a raw writer, line by line: JSON allows a line break between its tokens.
  const write =
    ctx.write ??
    ((chunk: string) => {
      ctx.out(chunk);
      return true;
    });
  for await (const chunk of exportAccount(ctx.db, account, ctx.now)) {
    if (!write(chunk) && ctx.drained) await ctx.drained();
  }
  ctx.note(`Exported account ${id}.`);
}

/**
 * `accounts erase <acc_id>`: what DELETE /v1/me does, for a request that came another way (a
 * letter, an e-mail to the operator); the operator has checked who asked. Prints what was done.
 */
export async function eraseAccountCommand(ctx: AdminContext, id: string): Promise<void> {
  const account = await accountOf(ctx, id);
  if (account.erased_at !== null) throw new Error(`Account ${id} was erased at ${account.erased_at} already.`);
  const result = await eraseAccount(
    { db: ctx.db, now: ctx.now, claim: null },
    account,
    account.email,
    ctx.config.BOOKING_REQUEST_TTL_HOURS,
    { actor: 'cli', reason: 'Erased by the admin command (accounts erase).' },
  );
  ctx.out(`Erased account ${id} at ${result.erased_at}.`);
  for (const [what, count] of Object.entries(result.done)) ctx.out(`  ${what.replaceAll('_', ' ')}: ${count}`);
  ctx.out('Kept, without personal data (docs/privacy.md):');
  for (const kept of result.kept) ctx.out(`  ${kept.record}: ${kept.period}`);
}

/** Writes to stdout, waiting when the pipe is full (an export may be large). */
export const stdoutWriter = {
  write: (chunk: string) => process.stdout.write(chunk),
  drained: async () => {
    await once(process.stdout, 'drain');
  },
};
