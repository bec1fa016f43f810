/**
 * OAuth clients (issue 31): who registered an app, for the consent page; registration with a
 * developer key is in the API (routes/oauth-clients.ts).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { findAccount } from '../repositories/account-erasure.js';
import { accountHasKey, findOauthRecord } from '../repositories/oauth-records.js';

/** The developer behind a client (their organisation, else their name) and whether the operator reviewed them; null for a self-registered client. */
export async function clientDeveloper(
  db: Kysely<Database>,
  clientId: string,
): Promise<{ name: string; reviewed: boolean } | null> {
  const row = await findOauthRecord(db, 'Client', clientId);
  if (!row?.account_id) return null;
  const account = await findAccount(db, row.account_id);
  if (!account || account.erased_at !== null) return null;
  return { name: account.organisation ?? account.name, reviewed: await accountHasKey(db, account.id) };
}
