import type { Queryable } from '../db/queryable.js';
import type { OauthRecordRow } from '../db/schema.js';
import type { WriteTransaction } from './write-transaction.js';

/**
 * The authorization server's storage (oidc-provider's adapter, services/oauth-adapter.ts): one row
 * per object of a model. A row keeps the account it had when a later write of the library's
 * carries none (a client registered by a developer keeps its owner).
 */
export async function upsertOauthRecord(trx: WriteTransaction, row: OauthRecordRow): Promise<void> {
  await trx
    .insertInto('oauth_records')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['model', 'id']).doUpdateSet((eb) => ({
        payload: eb.ref('excluded.payload'),
        grant_id: eb.ref('excluded.grant_id'),
        uid: eb.ref('excluded.uid'),
        client_id: eb.fn.coalesce(eb.ref('excluded.client_id'), eb.ref('oauth_records.client_id')),
        expires_at: eb.ref('excluded.expires_at'),
        consumed_at: eb.ref('excluded.consumed_at'),
        account_id: eb.fn.coalesce(eb.ref('excluded.account_id'), eb.ref('oauth_records.account_id')),
      })),
    )
    .execute();
}

/** Inserts a row unless one is there: true when this call inserted it (the first instance to start wins). */
export async function insertOauthRecordOnce(trx: WriteTransaction, row: OauthRecordRow): Promise<boolean> {
  const result = await trx
    .insertInto('oauth_records')
    .values(row)
    .onConflict((oc) => oc.columns(['model', 'id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

export function findOauthRecord(db: Queryable, model: string, id: string): Promise<OauthRecordRow | undefined> {
  return db.selectFrom('oauth_records').selectAll().where('model', '=', model).where('id', '=', id).executeTakeFirst();
}

export function findOauthRecordByUid(db: Queryable, model: string, uid: string): Promise<OauthRecordRow | undefined> {
  return db
    .selectFrom('oauth_records')
    .selectAll()
    .where('model', '=', model)
    .where('uid', '=', uid)
    .executeTakeFirst();
}

/** The rows of a model that belong to an account (a person's grants, a developer's clients), oldest first. */
export function oauthRecordsOfAccount(db: Queryable, model: string, accountId: string): Promise<OauthRecordRow[]> {
  return db
    .selectFrom('oauth_records')
    .selectAll()
    .where('model', '=', model)
    .where('account_id', '=', accountId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function consumeOauthRecord(trx: WriteTransaction, model: string, id: string, at: Date): Promise<void> {
  await trx
    .updateTable('oauth_records')
    .set({ consumed_at: at.toISOString() })
    .where('model', '=', model)
    .where('id', '=', id)
    .execute();
}

export async function deleteOauthRecord(trx: WriteTransaction, model: string, id: string): Promise<number> {
  const result = await trx
    .deleteFrom('oauth_records')
    .where('model', '=', model)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Everything issued under a grant (codes, access and refresh tokens): revoking the grant ends them. */
export async function deleteOauthRecordsOfGrant(trx: WriteTransaction, grantId: string): Promise<number> {
  const result = await trx.deleteFrom('oauth_records').where('grant_id', '=', grantId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Everything of a client: its row, and every grant, code and token given to it. */
export async function deleteOauthRecordsOfClient(trx: WriteTransaction, clientId: string): Promise<number> {
  const result = await trx.deleteFrom('oauth_records').where('client_id', '=', clientId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Forgets what expired before `before`; how many rows. */
export async function deleteExpiredOauthRecords(trx: WriteTransaction, before: Date): Promise<number> {
  const result = await trx
    .deleteFrom('oauth_records')
    .where('expires_at', 'is not', null)
    .where('expires_at', '<', before.toISOString())
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Of these grants, those still there whose person may act (not suspended, not erased). */
export async function standingGrantIds(db: Queryable, grantIds: readonly string[], now: Date): Promise<string[]> {
  const rows = await db
    .selectFrom('oauth_records')
    .innerJoin('accounts', 'accounts.id', 'oauth_records.account_id')
    .select('oauth_records.id')
    .where('oauth_records.model', '=', 'Grant')
    .where('oauth_records.id', 'in', grantIds.length > 0 ? [...grantIds] : [''])
    .where((eb) =>
      eb.or([eb('oauth_records.expires_at', 'is', null), eb('oauth_records.expires_at', '>', now.toISOString())]),
    )
    .where('accounts.suspended_at', 'is', null)
    .where('accounts.erased_at', 'is', null)
    .execute();
  return rows.map((row) => row.id);
}

/**
 * Every client with its owner's e-mail (null for a self-registered one) and the ceiling the operator
 * set (the ClientLimit row's payload, or null), oldest first: for the operator.
 */
export function allClients(
  db: Queryable,
): Promise<(OauthRecordRow & { owner_email: string | null; limit_payload: string | null })[]> {
  return db
    .selectFrom('oauth_records')
    .leftJoin('accounts', 'accounts.id', 'oauth_records.account_id')
    .leftJoin('oauth_records as limits', (join) =>
      join.onRef('limits.id', '=', 'oauth_records.id').on('limits.model', '=', 'ClientLimit'),
    )
    .selectAll('oauth_records')
    .select(['accounts.email as owner_email', 'limits.payload as limit_payload'])
    .where('oauth_records.model', '=', 'Client')
    .orderBy('oauth_records.created_at')
    .orderBy('oauth_records.id')
    .execute();
}

/**
 * What a request with a client's token needs to know of the client beyond the library's own
 * record, in one query: whether its developer is suspended, and the ceiling the operator set.
 */
export async function clientStandingRow(
  db: Queryable,
  clientId: string,
): Promise<{ owner_suspended_at: string | null; limit_payload: string | null } | undefined> {
  return db
    .selectFrom('oauth_records')
    .leftJoin('accounts', 'accounts.id', 'oauth_records.account_id')
    .leftJoin('oauth_records as limits', (join) =>
      join.onRef('limits.id', '=', 'oauth_records.id').on('limits.model', '=', 'ClientLimit'),
    )
    .select(['accounts.suspended_at as owner_suspended_at', 'limits.payload as limit_payload'])
    .where('oauth_records.model', '=', 'Client')
    .where('oauth_records.id', '=', clientId)
    .executeTakeFirst();
}
