import type { Queryable } from '../db/queryable.js';
import type { AccountRow, AccountType, ApiKeyRow } from '../db/schema.js';
import { generateApiKey, hashApiKey } from '../domain/api-keys.js';
import { newPlaceSalt } from '../domain/approximate-place.js';
import { newId } from '../domain/ids.js';
import type { Language } from '../domain/notifications.js';

export interface NewAccount {
  name: string;
  email: string;
  organisation: string | null;
  account_type: AccountType;
}

export interface FoundAccount {
  row: AccountRow;
  /** Whether this call created the account (false: an account with the email existed and was kept as it is). */
  created: boolean;
}

/**
 * The account with this email (emails are unique, compared in lower case), created when missing.
 * The insert comes first and yields to an existing account, so the call writes before it reads:
 * inside a transaction it takes SQLite's write lock at once rather than upgrading a read later.
 */
export async function findOrCreateAccount(db: Queryable, account: NewAccount, now: Date): Promise<FoundAccount> {
  // Only the account's own fields: callers may pass a wider row (a key request, say).
  const row: AccountRow = {
    id: newId('acc'),
    name: account.name,
    email: account.email.toLowerCase(),
    organisation: account.organisation,
    account_type: account.account_type,
    created_at: now.toISOString(),
    place_salt: newPlaceSalt(),
    erased_at: null,
    suspended_at: null,
  };
  const inserted = await db
    .insertInto('accounts')
    .values(row)
    .onConflict((conflict) => conflict.column('email').doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) return { row, created: true };
  const existing = await db.selectFrom('accounts').selectAll().where('email', '=', row.email).executeTakeFirstOrThrow();
  return { row: existing, created: false };
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

/**
 * A key for the account with this email, created when missing (findOrCreateAccount, then
 * issueKey). Without a transaction of the caller's, it runs in one of its own.
 */
export async function issueKeyForAccount(
  db: Queryable,
  account: NewAccount,
  now: Date,
): Promise<{ account: FoundAccount; issued: IssuedKey }> {
  if (!db.isTransaction) return db.transaction().execute((trx) => issueKeyForAccount(trx, account, now));
  const found = await findOrCreateAccount(db, account, now);
  return { account: found, issued: await issueKey(db, found.row.id, now) };
}

export type KeyWithAccount = ApiKeyRow & {
  account: AccountRow;
  /** The language the person chose (issue 36, notification settings): their answers' default; null: none chosen. */
  language?: Language | null;
};

/** The key with this hash and its account, whatever its state (the caller decides what is valid). */
export async function findKeyByHash(db: Queryable, keyHash: string): Promise<KeyWithAccount | undefined> {
  const row = await db
    .selectFrom('api_keys')
    .innerJoin('accounts', 'accounts.id', 'api_keys.account_id')
    .leftJoin('notification_settings', 'notification_settings.account_id', 'api_keys.account_id')
    .selectAll('api_keys')
    .select([
      'notification_settings.language as chosen_language',
      'notification_settings.language_chosen_at',
      'accounts.name as account_name',
      'accounts.email as account_email',
      'accounts.organisation as account_organisation',
      'accounts.account_type as account_account_type',
      'accounts.created_at as account_created_at',
      'accounts.place_salt as account_place_salt',
      'accounts.erased_at as account_erased_at',
      'accounts.suspended_at as account_suspended_at',
    ])
    .where('api_keys.key_hash', '=', keyHash)
    .executeTakeFirst();
  if (!row) return undefined;
  const {
    account_name,
    account_email,
    account_organisation,
    account_account_type,
    account_created_at,
    account_place_salt,
    account_erased_at,
    account_suspended_at,
    chosen_language,
    language_chosen_at,
    ...key
  } = row;
  return {
    ...key,
    language: language_chosen_at ? chosen_language : null,
    account: {
      id: key.account_id,
      name: account_name,
      email: account_email,
      organisation: account_organisation,
      account_type: account_account_type,
      created_at: account_created_at,
      place_salt: account_place_salt,
      erased_at: account_erased_at,
      suspended_at: account_suspended_at,
    },
  };
}

export type KeyState = 'active' | 'expiring' | 'expired' | 'revoked';

export function keyState(key: Pick<ApiKeyRow, 'revoked_at' | 'expires_at'>, now: Date): KeyState {
  if (key.revoked_at !== null) return 'revoked';
  if (key.expires_at === null) return 'active';
  return key.expires_at > now.toISOString() ? 'expiring' : 'expired';
}

/** What decides whether keys still open their streams: each key's state and its account's. */
export function keyStandings(
  db: Queryable,
  ids: readonly string[],
): Promise<
  {
    id: string;
    revoked_at: string | null;
    expires_at: string | null;
    suspended_at: string | null;
    erased_at: string | null;
  }[]
> {
  return db
    .selectFrom('api_keys')
    .innerJoin('accounts', 'accounts.id', 'api_keys.account_id')
    .select([
      'api_keys.id',
      'api_keys.revoked_at',
      'api_keys.expires_at',
      'accounts.suspended_at',
      'accounts.erased_at',
    ])
    .where('api_keys.id', 'in', ids.length > 0 ? [...ids] : [''])
    .execute();
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
 *
 * The guard is the first statement, a conditional update: of two concurrent rotations only one
 * sets the old key's expiry, and only that one issues a successor. Without a transaction of the
 * caller's, the whole rotation runs in one of its own.
 */
export async function rotateKey(
  db: Queryable,
  id: string,
  graceHours: number,
  now: Date,
): Promise<IssuedKey | undefined> {
  if (!db.isTransaction) return db.transaction().execute((trx) => rotateKey(trx, id, graceHours, now));
  const expiresAt = new Date(now.getTime() + graceHours * 3_600_000).toISOString();
  const old = await db
    .updateTable('api_keys')
    .set({ expires_at: expiresAt })
    .where('id', '=', id)
    .where('expires_at', 'is', null)
    .where('revoked_at', 'is', null)
    .returning(['account_id', 'lineage_id'])
    .executeTakeFirst();
  if (!old) return undefined;
  const issued = await issueKey(db, old.account_id, now, old.lineage_id);
  await db.updateTable('api_keys').set({ replaced_by: issued.row.id }).where('id', '=', id).execute();
  return issued;
}

/** Whether the account holds a developer key that still works or was rotated (a reviewed developer). */
export async function accountHasKey(db: Queryable, accountId: string): Promise<boolean> {
  const row = await db
    .selectFrom('api_keys')
    .select('id')
    .where('account_id', '=', accountId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return row !== undefined;
}
