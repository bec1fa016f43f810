/**
 * The authorization server's storage on SQLite and PostgreSQL alike (issue 31): oidc-provider's
 * adapter interface over the `oauth_records` table, so that every instance shares clients, grants,
 * codes and tokens (a code issued by one instance is redeemed at another; a token revoked at one is
 * refused by all). Also the server's signing keys and cookie secrets, made by the first instance
 * that needs them and read by every other.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { AccountRow, Database, OauthRecordRow } from '../db/schema.js';
import { findAccount } from '../repositories/account-erasure.js';
import {
  consumeOauthRecord,
  deleteOauthRecord,
  deleteOauthRecordsOfGrant,
  findOauthRecord,
  findOauthRecordByUid,
  insertOauthRecordOnce,
  upsertOauthRecord,
} from '../repositories/oauth-records.js';
import { inWriteTransaction } from '../repositories/write-transaction.js';

/** What oidc-provider hands its adapter: the model's own JSON. */
export type OauthPayload = Record<string, unknown> & {
  accountId?: string;
  grantId?: string;
  clientId?: string;
  client_id?: string;
  uid?: string;
  consumed?: unknown;
};

const str = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);

/** The adapter class oidc-provider instantiates once per model (`new Adapter('AccessToken')`). */
export function oauthAdapter(db: Kysely<Database>) {
  const write = <T>(work: Parameters<typeof inWriteTransaction<T>>[1]) =>
    inWriteTransaction({ db, now: new Date(), claim: null }, work);
  const live = (row: OauthRecordRow | undefined): OauthPayload | undefined => {
    if (!row || (row.expires_at !== null && row.expires_at <= new Date().toISOString())) return undefined;
    const payload = JSON.parse(row.payload) as OauthPayload;
    if (row.consumed_at !== null) payload.consumed = Math.floor(Date.parse(row.consumed_at) / 1000);
    return payload;
  };
  return class SqlAdapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: OauthPayload, expiresIn?: number): Promise<void> {
      const now = new Date();
      await write((trx) =>
        upsertOauthRecord(trx, {
          model: this.model,
          id,
          payload: JSON.stringify(payload),
          grant_id: str(payload.grantId),
          account_id: str(payload.accountId),
          client_id: str(payload.clientId) ?? str(payload.client_id),
          uid: str(payload.uid),
          created_at: now.toISOString(),
          expires_at: expiresIn ? new Date(now.getTime() + expiresIn * 1000).toISOString() : null,
          consumed_at: null,
        }),
      );
    }

    async find(id: string): Promise<OauthPayload | undefined> {
      return live(await findOauthRecord(db, this.model, id));
    }

    async findByUid(uid: string): Promise<OauthPayload | undefined> {
      return live(await findOauthRecordByUid(db, this.model, uid));
    }

    async findByUserCode(): Promise<undefined> {
      // No device flow: nothing has a user code.
      return undefined;
    }

    async consume(id: string): Promise<void> {
      await write((trx) => consumeOauthRecord(trx, this.model, id, new Date()));
    }

    async destroy(id: string): Promise<void> {
      await write((trx) => deleteOauthRecord(trx, this.model, id));
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await write(async (trx) => {
        await deleteOauthRecordsOfGrant(trx, grantId);
        await deleteOauthRecord(trx, 'Grant', grantId);
      });
    }
  };
}

/** The server's secrets: the key its ID tokens are signed with and the keys of its cookies. */
export interface OauthSecrets {
  jwks: { keys: Record<string, unknown>[] };
  cookieKeys: string[];
}

/**
 * The signing key (RSA 2048, RS256 as OpenID Connect's default) and cookie keys: made by the first
 * instance and stored, so every instance signs and reads alike, and a restart keeps them.
 */
export async function oauthSecrets(db: Kysely<Database>): Promise<OauthSecrets> {
  const stored = await findOauthRecord(db, 'Keys', 'server');
  if (stored) return JSON.parse(stored.payload) as OauthSecrets;
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = {
    ...privateKey.export({ format: 'jwk' }),
    kid: randomBytes(8).toString('hex'),
    alg: 'RS256',
    use: 'sig',
  };
  const made: OauthSecrets = { jwks: { keys: [jwk] }, cookieKeys: [randomBytes(32).toString('base64url')] };
  await inWriteTransaction({ db, now: new Date(), claim: null }, (trx) =>
    insertOauthRecordOnce(trx, {
      model: 'Keys',
      id: 'server',
      payload: JSON.stringify(made),
      grant_id: null,
      account_id: null,
      client_id: null,
      uid: null,
      created_at: new Date().toISOString(),
      expires_at: null,
      consumed_at: null,
    }),
  );
  // Another instance may have stored its own first: everyone uses the stored one.
  const winner = await findOauthRecord(db, 'Keys', 'server');
  return JSON.parse((winner as OauthRecordRow).payload) as OauthSecrets;
}

/** The person an authorization is for, while their account may act (not suspended, not erased). */
export async function personForClaims(db: Kysely<Database>, accountId: string): Promise<{ name: string } | undefined> {
  const account = await accountForToken(db, accountId);
  return account && account.suspended_at === null ? { name: account.name } : undefined;
}

/** The account an access token acts for, unless erased (a suspended one is the access plugin's to refuse). */
export async function accountForToken(db: Kysely<Database>, accountId: string): Promise<AccountRow | undefined> {
  const account = await findAccount(db, accountId);
  return account && account.erased_at === null ? account : undefined;
}
