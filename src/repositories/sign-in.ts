import type { Queryable } from '../db/queryable.js';
import type { AccountRow, SessionRow, SignInCodeRow } from '../db/schema.js';
import { changedRows } from './changed-rows.js';
import type { WriteTransaction } from './write-transaction.js';

/** The account an address belongs to (addresses are stored in lower case), erased or not. */
export function accountOfEmail(db: Queryable, email: string): Promise<AccountRow | undefined> {
  return db.selectFrom('accounts').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst();
}

export async function insertSignInCode(trx: WriteTransaction, row: SignInCodeRow): Promise<void> {
  await trx.insertInto('sign_in_codes').values(row).execute();
}

/** Forgets the codes that stopped working before `before` (each code sent and a periodic sweep); how many. */
export async function deleteExpiredSignInCodes(trx: WriteTransaction, before: Date): Promise<number> {
  return changedRows(
    await trx.deleteFrom('sign_in_codes').where('expires_at', '<', before.toISOString()).executeTakeFirst(),
  );
}

export function findSignInCode(db: Queryable, challengeHash: string): Promise<SignInCodeRow | undefined> {
  return db.selectFrom('sign_in_codes').selectAll().where('challenge_hash', '=', challengeHash).executeTakeFirst();
}

/**
 * Counts a wrong try, if the code has tries left: the conditional update decides, so that
 * concurrent guesses cannot share a try. Returns the tries now counted, or undefined when none were left.
 */
export async function countWrongTry(trx: WriteTransaction, id: string, maxTries: number): Promise<number | undefined> {
  const row = await trx
    .updateTable('sign_in_codes')
    .set((eb) => ({ tries: eb('tries', '+', 1) }))
    .where('id', '=', id)
    .where('tries', '<', maxTries)
    .returning('tries')
    .executeTakeFirst();
  return row?.tries;
}

/** Takes a code (once): true for the one request that deleted it. */
export async function takeSignInCode(trx: WriteTransaction, id: string): Promise<boolean> {
  return changedRows(await trx.deleteFrom('sign_in_codes').where('id', '=', id).executeTakeFirst()) === 1;
}

export async function insertSession(trx: WriteTransaction, row: SessionRow): Promise<void> {
  await trx.insertInto('sessions').values(row).execute();
}

/** A session with its account, by the hash of its token (expired or not: the service decides). */
export async function findSession(
  db: Queryable,
  tokenHash: string,
): Promise<{ session: SessionRow; account: AccountRow } | undefined> {
  const session = await db.selectFrom('sessions').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  if (!session) return undefined;
  const account = await db.selectFrom('accounts').selectAll().where('id', '=', session.account_id).executeTakeFirst();
  return account && { session, account };
}

/** Writes a session's last use. */
export async function touchSession(db: Queryable, id: string, at: Date): Promise<void> {
  await db.updateTable('sessions').set({ last_seen_at: at.toISOString() }).where('id', '=', id).execute();
}

/** An account's sessions, newest first. */
export function sessionsOfAccount(db: Queryable, accountId: string): Promise<SessionRow[]> {
  return db
    .selectFrom('sessions')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
}

/** Ends one session of the account (another account's id ends nothing); true when it did. */
export async function deleteSession(trx: WriteTransaction, accountId: string, id: string): Promise<boolean> {
  const result = await trx
    .deleteFrom('sessions')
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return changedRows(result) === 1;
}

/**
 * Forgets the sessions that ended (expired, or unused since `idleSince`): of one account (at its
 * sign-in), or of every account (the periodic sweep); how many.
 */
export async function deleteEndedSessions(
  trx: WriteTransaction,
  now: Date,
  idleSince: Date,
  accountId?: string,
): Promise<number> {
  let query = trx
    .deleteFrom('sessions')
    .where((eb) =>
      eb.or([eb('expires_at', '<=', now.toISOString()), eb('last_seen_at', '<=', idleSince.toISOString())]),
    );
  if (accountId !== undefined) query = query.where('account_id', '=', accountId);
  return changedRows(await query.executeTakeFirst());
}
