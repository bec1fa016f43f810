import type { AccountRow, AccountType, ApiKeyRow } from '../db/schema.js';
import { generateApiKey, hashApiKey } from '../domain/api-keys.js';
import { newId } from '../domain/ids.js';
import type { Queryable } from './db.js';

export interface NewAccount {
  name: string;
  email: string;
  organisation: string | null;
  account_type: AccountType;
}

/** The account with this email (emails are unique, compared in lower case), created when missing. */
export async function findOrCreateAccount(db: Queryable, account: NewAccount, now: Date): Promise<AccountRow> {
  const email = account.email.toLowerCase();
  const existing = await db.selectFrom('accounts').selectAll().where('email', '=', email).executeTakeFirst();
  if (existing) return existing;
  // Only the account's own fields: callers may pass a wider row (a key request, say).
  const row: AccountRow = {
    id: newId('acc'),
    name: account.name,
    email,
    organisation: account.organisation,
    account_type: account.account_type,
    created_at: now.toISOString(),
  };
  await db.insertInto('accounts').values(row).execute();
  return row;
}

export interface IssuedKey {
  /** The key itself: shown once, never stored. */
  key: string;
  row: ApiKeyRow;
}

export async function issueKey(db: Queryable, accountId: string, now: Date, lineageId?: string): Promise<IssuedKey> {
  const key = generateApiKey();
  const id = newId('key');
  const row: ApiKeyRow = {
    id,
    lineage_id: lineageId ?? id,
    account_id: accountId,
    key_hash: hashApiKey(key),
    last4: key.slice(-4),
    created_at: now.toISOString(),
    expires_at: null,
    revoked_at: null,
    replaced_by: null,
  };
  await db.insertInto('api_keys').values(row).execute();
  return { key, row };
}

export type KeyWithAccount = ApiKeyRow & { account: AccountRow };

/** The key with this hash and its account, whatever its state (the caller decides what is valid). */
export async function findKeyByHash(db: Queryable, keyHash: string): Promise<KeyWithAccount | undefined> {
  const row = await db
    .selectFrom('api_keys')
    .innerJoin('accounts', 'accounts.id', 'api_keys.account_id')
    .selectAll('api_keys')
    .select([
      'accounts.name as account_name',
      'accounts.email as account_email',
      'accounts.organisation as account_organisation',
      'accounts.account_type as account_account_type',
      'accounts.created_at as account_created_at',
    ])
    .where('api_keys.key_hash', '=', keyHash)
    .executeTakeFirst();
  if (!row) return undefined;
  const { account_name, account_email, account_organisation, account_account_type, account_created_at, ...key } = row;
  return {
    ...key,
    account: {
      id: key.account_id,
      name: account_name,
      email: account_email,
      organisation: account_organisation,
      account_type: account_account_type,
      created_at: account_created_at,
    },
  };
}

export type KeyState = 'active' | 'expiring' | 'expired' | 'revoked';

export function keyState(key: Pick<ApiKeyRow, 'revoked_at' | 'expires_at'>, now: Date): KeyState {
  if (key.revoked_at !== null) return 'revoked';
  if (key.expires_at === null) return 'active';
  return key.expires_at > now.toISOString() ? 'expiring' : 'expired';
}

export async function listKeys(db: Queryable): Promise<(ApiKeyRow & { email: string; account_type: AccountType })[]> {
  return db
    .selectFrom('api_keys')
    .innerJoin('accounts', 'accounts.id', 'api_keys.account_id')
    .selectAll('api_keys')
    .select(['accounts.email', 'accounts.account_type'])
    .orderBy('api_keys.created_at')
    .orderBy('api_keys.id')
    .execute();
}

export async function findKey(db: Queryable, id: string): Promise<ApiKeyRow | undefined> {
  return db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Revokes a key at once; returns false when there is no such key or it was already revoked. */
export async function revokeKey(db: Queryable, id: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('api_keys')
    .set({ revoked_at: now.toISOString() })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Issues a successor for a key; the old one stays valid for the grace period, so deployments can
 * switch without downtime. Returns undefined for an unknown, revoked or already rotated key.
 */
export async function rotateKey(
  db: Queryable,
  id: string,
  graceHours: number,
  now: Date,
): Promise<IssuedKey | undefined> {
  const old = await findKey(db, id);
  if (!old || keyState(old, now) !== 'active') return undefined;
  const issued = await issueKey(db, old.account_id, now, old.lineage_id);
  const expiresAt = new Date(now.getTime() + graceHours * 3_600_000).toISOString();
  await db
    .updateTable('api_keys')
    .set({ expires_at: expiresAt, replaced_by: issued.row.id })
    .where('id', '=', id)
    .execute();
  return issued;
}
