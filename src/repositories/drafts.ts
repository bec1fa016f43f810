import type { Selectable } from 'kysely';
import type { Queryable } from '../db/queryable.js';
import type { AccountRow, DraftsTable } from '../db/schema.js';
import type { WriteTransaction } from './write-transaction.js';

export type DraftRow = Selectable<DraftsTable>;

export async function insertDraft(trx: WriteTransaction, row: DraftRow): Promise<void> {
  await trx.insertInto('drafts').values(row).execute();
}

/** Drafts of the account still waiting for their person (pending and not expired). */
export async function countPendingDrafts(db: Queryable, accountId: string, now: Date): Promise<number> {
  const { count } = await db
    .selectFrom('drafts')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('account_id', '=', accountId)
    .where('status', '=', 'pending')
    .where('expires_at', '>', now.toISOString())
    .executeTakeFirstOrThrow();
  return Number(count);
}

export function findOwnDraft(db: Queryable, id: string, accountId: string): Promise<DraftRow | undefined> {
  return db
    .selectFrom('drafts')
    .selectAll()
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
}

export function findDraftByTokenHash(db: Queryable, tokenHash: string): Promise<DraftRow | undefined> {
  return db.selectFrom('drafts').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

export function findAccount(db: Queryable, id: string): Promise<AccountRow | undefined> {
  return db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Moves a pending, unexpired draft to its decision; false when it was decided or expired first.
 * Conditional, so of two decisions racing (two tabs, Confirm and Decline) exactly one is recorded.
 */
export async function decideDraft(
  trx: WriteTransaction,
  id: string,
  decision: { status: 'confirmed'; result_id: string; result_location: string } | { status: 'declined' },
  now: Date,
): Promise<boolean> {
  const at = now.toISOString();
  const result = await trx
    .updateTable('drafts')
    .set({ ...decision, decided_at: at })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where('expires_at', '>', at)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
