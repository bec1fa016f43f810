import type { Queryable } from '../db/queryable.js';
import type { PasskeyChallengeRow, PasskeyRow } from '../db/schema.js';
import { changedRows } from './changed-rows.js';
import type { WriteTransaction } from './write-transaction.js';

export async function insertPasskeyChallenge(trx: WriteTransaction, row: PasskeyChallengeRow): Promise<void> {
  await trx.insertInto('passkey_challenges').values(row).execute();
}

/** Takes a challenge (once): the row for the one request that deleted it, else undefined. */
export async function takePasskeyChallenge(
  trx: WriteTransaction,
  challengeHash: string,
): Promise<PasskeyChallengeRow | undefined> {
  return trx
    .deleteFrom('passkey_challenges')
    .where('challenge_hash', '=', challengeHash)
    .returningAll()
    .executeTakeFirst();
}

/** Forgets the challenges that expired before `before`; how many. */
export async function deleteExpiredPasskeyChallenges(trx: WriteTransaction, before: Date): Promise<number> {
  return changedRows(
    await trx.deleteFrom('passkey_challenges').where('expires_at', '<', before.toISOString()).executeTakeFirst(),
  );
}

export async function insertPasskey(trx: WriteTransaction, row: PasskeyRow): Promise<void> {
  await trx.insertInto('passkeys').values(row).execute();
}

export function passkeyOfCredential(db: Queryable, credentialId: string): Promise<PasskeyRow | undefined> {
  return db.selectFrom('passkeys').selectAll().where('credential_id', '=', credentialId).executeTakeFirst();
}

/** An account's passkeys, oldest first. */
export function passkeysOfAccount(db: Queryable, accountId: string): Promise<PasskeyRow[]> {
  return db
    .selectFrom('passkeys')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Writes a passkey's use: its new signature counter and when. */
export async function recordPasskeyUse(trx: WriteTransaction, id: string, counter: number, at: Date): Promise<void> {
  await trx.updateTable('passkeys').set({ counter, last_used_at: at.toISOString() }).where('id', '=', id).execute();
}

/** Removes one passkey of the account (another account's id removes nothing); true when it did. */
export async function deletePasskey(trx: WriteTransaction, accountId: string, id: string): Promise<boolean> {
  const result = await trx
    .deleteFrom('passkeys')
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return changedRows(result) === 1;
}
