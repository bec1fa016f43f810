/**
 * The apps a person connected (issue 31): their OAuth grants, listed and revoked. Revoking deletes
 * the grant and every code and token issued under it in one transaction, so the app's next request
 * is refused and its open streams end within a second (refusedKeys).
 */
import type { Kysely } from 'kysely';
import type { Database, OauthRecordRow } from '../db/schema.js';
import {
  deleteOauthRecord,
  deleteOauthRecordsOfGrant,
  findOauthRecord,
  oauthRecordsOfAccount,
} from '../repositories/oauth-records.js';
import { inWriteTransaction, type WriteContext } from '../repositories/write-transaction.js';
import type { Authorization } from '../schemas/oauth.js';
import { ApiError } from './errors.js';

interface GrantPayload {
  clientId?: string;
  openid?: { scope?: string };
  resources?: Record<string, string>;
}

async function authorizationOf(db: Kysely<Database>, row: OauthRecordRow): Promise<Authorization> {
  const grant = JSON.parse(row.payload) as GrantPayload;
  const clientId = grant.clientId ?? row.client_id ?? '';
  const client = await findOauthRecord(db, 'Client', clientId);
  const name = client ? ((JSON.parse(client.payload) as { client_name?: string }).client_name ?? null) : null;
  const scopes = new Set<string>((grant.openid?.scope ?? '').split(' ').filter(Boolean));
  for (const scope of Object.values(grant.resources ?? {})) for (const s of scope.split(' ')) if (s) scopes.add(s);
  return {
    id: row.id,
    client_id: clientId,
    client_name: name,
    scopes: [...scopes],
    resources: Object.keys(grant.resources ?? {}),
    created_at: row.created_at,
    expires_at: row.expires_at,
  };
}

/** The person's connected apps that are still granted, oldest first. */
export async function authorizationsOf(db: Kysely<Database>, accountId: string, now: Date): Promise<Authorization[]> {
  const rows = (await oauthRecordsOfAccount(db, 'Grant', accountId)).filter(
    (row) => row.expires_at === null || row.expires_at > now.toISOString(),
  );
  return Promise.all(rows.map((row) => authorizationOf(db, row)));
}

/** Disconnects one of the person's apps: the grant and everything issued under it. False when it is not theirs. */
export async function revokeAuthorization(context: WriteContext, accountId: string, grantId: string): Promise<boolean> {
  const row = await findOauthRecord(context.db, 'Grant', grantId);
  if (!row || row.account_id !== accountId) return false;
  await inWriteTransaction(context, async (trx) => {
    await deleteOauthRecordsOfGrant(trx, grantId);
    await deleteOauthRecord(trx, 'Grant', grantId);
  });
  return true;
}

/** The 404 of a grant that is not the caller's (or gone). */
export function authorizationNotFound(id: string): ApiError {
  return new ApiError(404, 'not_found', `No connected app '${id.slice(0, 100)}' of yours.`, {
    param: 'id',
    suggestion: 'List your connected apps with GET /v1/me/authorizations.',
  });
}
