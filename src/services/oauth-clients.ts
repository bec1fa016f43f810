/**
 * OAuth clients (issue 31): who registered an app, for the consent page; registration with a
 * developer key is in the API (routes/oauth-clients.ts).
 */
import type { Kysely } from 'kysely';
import type { AccountRow, Database, OauthRecordRow } from '../db/schema.js';
import { API_SCOPE_NAMES } from '../domain/oauth-scopes.js';
import { randomBase62 } from '../domain/secrets.js';
import { accountHasKey } from '../repositories/access.js';
import { findAccount } from '../repositories/account-erasure.js';
import {
  allClients,
  clientStandingRow,
  deleteOauthRecordsOfClient,
  findOauthRecord,
  oauthRecordsOfAccount,
  upsertOauthRecord,
} from '../repositories/oauth-records.js';
import { inWriteTransaction, type WriteContext } from '../repositories/write-transaction.js';
import type { OauthClient, OauthClientCreate, OauthClientUpdate } from '../schemas/oauth.js';
import { ApiError } from './errors.js';

/** The developer behind a client (their organisation, else their name) and whether the operator reviewed them; null for a self-registered client. */
export async function clientDeveloper(
  db: Kysely<Database>,
  clientId: string,
): Promise<{ name: string; reviewed: boolean } | null> {
  const row = await findOauthRecord(db, 'Client', clientId);
  if (!row?.account_id) return null;
  const account = await findAccount(db, row.account_id);
  if (!account || account.erased_at !== null) return null;
  const reviewed = account.suspended_at === null && (await accountHasKey(db, account.id));
  return { name: account.organisation ?? account.name, reviewed };
}

/** What a token's request needs of its client: whether its developer is suspended, and the app's own ceiling (requests per minute), if the operator set one. */
export async function clientStanding(
  db: Kysely<Database>,
  clientId: string,
): Promise<{ ownerSuspended: boolean; perMinute: number | undefined }> {
  const row = await clientStandingRow(db, clientId);
  return {
    ownerSuspended: (row?.owner_suspended_at ?? null) !== null,
    perMinute: perMinuteOf(row?.limit_payload ?? null),
  };
}

const perMinuteOf = (payload: string | null): number | undefined =>
  payload === null ? undefined : (JSON.parse(payload) as { per_minute: number }).per_minute;
/** What the library keeps of a client (OpenID Connect Dynamic Client Registration metadata). */
interface ClientMetadata {
  client_id: string;
  client_secret?: string;
  client_name: string;
  redirect_uris: string[];
  logo_uri?: string;
  client_uri?: string;
  scope: string;
  token_endpoint_auth_method: 'none' | 'client_secret_basic';
  grant_types: string[];
  response_types: string[];
  application_type: 'web' | 'native';
}

/** The library's own check of a client's metadata (Client.validate), handed in by the HTTP layer. */
export type ClientCheck = (metadata: ClientMetadata) => Promise<void>;

const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** Why a redirect URI is refused, or undefined: https; http on the loopback only; an app's own reverse-domain scheme (RFC 8252). */
function redirectProblem(uri: string): string | undefined {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'is not a URL';
  }
  if (url.hash) return 'has a fragment';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:')
    return LOOPBACK.has(url.hostname) ? undefined : 'uses http on a host other than the loopback';
  return /^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+:$/.test(url.protocol)
    ? undefined
    : 'uses a scheme that is not https, loopback http or a reverse-domain app scheme (com.example.app:/callback)';
}

function checkRedirects(uris: readonly string[]): void {
  for (const [index, uri] of uris.entries()) {
    const problem = redirectProblem(uri);
    if (problem) {
      throw new ApiError(422, 'invalid_body', `redirect_uris[${index}] ${problem}.`, {
        param: `redirect_uris[${index}]`,
        suggestion:
          'Use https://, http://127.0.0.1:<port>/... for a local app, or a scheme of your own domain such as com.example.app:/callback.',
      });
    }
  }
}

const clientNotFound = (id: string) =>
  new ApiError(404, 'not_found', `No OAuth client '${id.slice(0, 100)}' of yours.`, {
    param: 'id',
    suggestion: 'List your clients with GET /v1/oauth-clients.',
  });

function view(row: OauthRecordRow): OauthClient {
  const meta = JSON.parse(row.payload) as ClientMetadata;
  return {
    id: meta.client_id,
    name: meta.client_name,
    type: meta.token_endpoint_auth_method === 'none' ? 'public' : 'confidential',
    redirect_uris: meta.redirect_uris,
    logo_uri: meta.logo_uri ?? null,
    client_uri: meta.client_uri ?? null,
    scopes: meta.scope.split(' ').filter((s) => s !== 'openid' && s !== 'offline_access'),
    created_at: row.created_at,
  };
}

function metadataOf(
  id: string,
  fields: {
    name: string;
    redirect_uris: string[];
    logo_uri?: string | null;
    client_uri?: string | null;
    scopes: readonly string[];
  },
  secret: string | undefined,
): ClientMetadata {
  const native = fields.redirect_uris.some((uri) => !/^https?:/.test(uri));
  return {
    client_id: id,
    ...(secret !== undefined && { client_secret: secret }),
    client_name: fields.name,
    redirect_uris: fields.redirect_uris,
    ...(fields.logo_uri ? { logo_uri: fields.logo_uri } : {}),
    ...(fields.client_uri ? { client_uri: fields.client_uri } : {}),
    scope: ['openid', 'offline_access', ...fields.scopes].join(' '),
    token_endpoint_auth_method: secret === undefined ? 'none' : 'client_secret_basic',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    application_type: native ? 'native' : 'web',
  };
}

async function store(
  context: WriteContext,
  owner: AccountRow,
  meta: ClientMetadata,
  check: ClientCheck,
  createdAt: string,
) {
  try {
    await check(meta);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new ApiError(422, 'invalid_body', `The client's metadata was refused: ${detail}.`, {
      param: 'redirect_uris',
      suggestion: 'Check the redirect URIs and URLs against the rules in the description.',
    });
  }
  await inWriteTransaction(context, (trx) =>
    upsertOauthRecord(trx, {
      model: 'Client',
      id: meta.client_id,
      payload: JSON.stringify(meta),
      grant_id: null,
      account_id: owner.id,
      client_id: meta.client_id,
      uid: null,
      created_at: createdAt,
      expires_at: null,
      consumed_at: null,
    }),
  );
}

const newSecret = () => randomBase62(43);

/** Registers a client of the developer; a confidential one gets its secret, shown in this answer only. */
export async function registerClient(
  context: WriteContext,
  owner: AccountRow,
  body: OauthClientCreate,
  check: ClientCheck,
): Promise<OauthClient & { client_secret: string | null }> {
  checkRedirects(body.redirect_uris);
  const id = `cli_${randomBase62(22)}`;
  const secret = body.type === 'confidential' ? newSecret() : undefined;
  const meta = metadataOf(id, { ...body, scopes: body.scopes ?? API_SCOPE_NAMES }, secret);
  await store(context, owner, meta, check, context.now.toISOString());
  const row = (await findOauthRecord(context.db, 'Client', id)) as OauthRecordRow;
  return { ...view(row), client_secret: secret ?? null };
}

async function ownRow(db: Kysely<Database>, owner: AccountRow, id: string): Promise<OauthRecordRow> {
  const row = await findOauthRecord(db, 'Client', id);
  if (!row || row.account_id !== owner.id) throw clientNotFound(id);
  return row;
}

export async function clientsOf(db: Kysely<Database>, owner: AccountRow): Promise<OauthClient[]> {
  return (await oauthRecordsOfAccount(db, 'Client', owner.id)).map(view);
}

export async function clientOf(db: Kysely<Database>, owner: AccountRow, id: string): Promise<OauthClient> {
  return view(await ownRow(db, owner, id));
}

export async function updateClient(
  context: WriteContext,
  owner: AccountRow,
  id: string,
  patch: OauthClientUpdate,
  check: ClientCheck,
): Promise<OauthClient> {
  const row = await ownRow(context.db, owner, id);
  const current = JSON.parse(row.payload) as ClientMetadata;
  const before = view(row);
  if (patch.redirect_uris) checkRedirects(patch.redirect_uris);
  const meta = metadataOf(
    id,
    {
      name: patch.name ?? before.name,
      redirect_uris: patch.redirect_uris ?? before.redirect_uris,
      logo_uri: patch.logo_uri === undefined ? before.logo_uri : patch.logo_uri,
      client_uri: patch.client_uri === undefined ? before.client_uri : patch.client_uri,
      scopes: patch.scopes ?? before.scopes,
    },
    current.client_secret,
  );
  await store(context, owner, meta, check, row.created_at);
  return clientOf(context.db, owner, id);
}

/** Deletes a client with every grant, code and token it was given: its users' tokens stop at once. */
export async function deleteClient(context: WriteContext, owner: AccountRow, id: string): Promise<void> {
  await ownRow(context.db, owner, id);
  await inWriteTransaction(context, (trx) => deleteOauthRecordsOfClient(trx, id));
}

/** A new secret for a confidential client (the old one stops at once), shown in this answer only. */
export async function rotateClientSecret(
  context: WriteContext,
  owner: AccountRow,
  id: string,
  check: ClientCheck,
): Promise<OauthClient & { client_secret: string }> {
  const row = await ownRow(context.db, owner, id);
  const current = JSON.parse(row.payload) as ClientMetadata;
  if (current.token_endpoint_auth_method === 'none') {
    throw new ApiError(409, 'invalid_state_transition', 'A public client has no secret to rotate.', {
      param: 'id',
      suggestion:
        'Public clients (apps, agents) authenticate with PKCE only; register a confidential client for a server.',
    });
  }
  const secret = newSecret();
  await store(context, owner, { ...current, client_secret: secret }, check, row.created_at);
  return { ...(await clientOf(context.db, owner, id)), client_secret: secret };
}

/** Sets an app's ceiling (`npm run admin -- clients limit`); false when there is no such client. */
export async function setClientLimit(context: WriteContext, clientId: string, perMinute: number): Promise<boolean> {
  if (!(await findOauthRecord(context.db, 'Client', clientId))) return false;
  await inWriteTransaction(context, (trx) =>
    upsertOauthRecord(trx, {
      model: 'ClientLimit',
      id: clientId,
      payload: JSON.stringify({ per_minute: perMinute }),
      grant_id: null,
      account_id: null,
      client_id: clientId,
      uid: null,
      created_at: context.now.toISOString(),
      expires_at: null,
      consumed_at: null,
    }),
  );
  return true;
}

/** Every client for the operator: id, name, owner (or self-registered), ceiling. */
export async function clientsForOperator(
  db: Kysely<Database>,
): Promise<{ id: string; name: string; owner: string | null; limit: number | undefined; created_at: string }[]> {
  return (await allClients(db)).map((row) => ({
    id: row.id,
    name: (JSON.parse(row.payload) as { client_name?: string }).client_name ?? '',
    owner: row.owner_email,
    limit: perMinuteOf(row.limit_payload),
    created_at: row.created_at,
  }));
}
