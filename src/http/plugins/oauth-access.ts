/**
 * OAuth access tokens on /v1 and /mcp (issue 31): `Authorization: Bearer <token>` that is not a
 * developer key is an access token of this site's authorization server. It must be known, unexpired
 * and not revoked (the library's own lookup), issued for this resource (RFC 8707: a token for /mcp
 * does not open /v1), of a grant and a client that still exist and a person who may act, and carry
 * the scope the route needs (domain/oauth-scopes.ts). Then the request acts as the person, with a
 * budget per app and person. Refusals follow RFC 6750: 401 invalid_token, 403 insufficient_scope,
 * each with WWW-Authenticate naming the resource's metadata (RFC 9728). A DPoP-bound token comes as
 * `Authorization: DPoP <token>` with a proof of its key on every request (RFC 9449, ../dpop-proof.ts);
 * it is refused as a bearer token, and a bearer token is refused under the DPoP scheme.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { scopeNeed } from '../../domain/oauth-scopes.js';
import type { Database } from '../../services/database.js';
import { ApiError } from '../../services/errors.js';
import { type KeyWithAccount, OAUTH_KEY_PREFIX } from '../../services/keys.js';
import { clientStanding } from '../../services/oauth-clients.js';
import { accountForToken } from '../../services/oauth-store.js';
import { DPOP_ALGORITHMS, DpopProofError, verifyDpopProof } from '../dpop-proof.js';
import type { OauthServer } from '../oauth-server.js';

/** What an access token brought: the app, the grant, the scopes. */
export interface OauthGrant {
  clientId: string;
  grantId: string;
  scopes: string[];
  /** The app's ceiling in requests per minute across all its people. */
  ceiling: number;
}

export interface OauthAccess {
  server: () => Promise<OauthServer>;
  resources: { api: string; mcp: string };
  /** An app's ceiling in requests per minute across all its people, unless the operator set its own (OAUTH_CLIENT_LIMIT_PER_MIN). */
  defaultClientLimit: number;
}

/**
 * The header the MCP endpoint puts on the REST requests its tools make through app.inject, with a
 * secret of this process (never sent anywhere): a token for /mcp may then make them, as the tools
 * are /mcp's own work. A client cannot forge it from outside.
 */
export const MCP_FORWARD_HEADER = 'x-mcp-forward';
export const MCP_FORWARD_SECRET = randomBytes(32).toString('hex');

const BEARER_TOKEN = /^Bearer\s+([A-Za-z0-9._~+/-]+=*)\s*$/i;
const DPOP_TOKEN = /^DPoP\s+([A-Za-z0-9._~+/-]+=*)\s*$/i;
const DPOP_SCHEME = /^DPoP\s/i;

const usesDpop = (request: FastifyRequest) => DPOP_SCHEME.test(request.headers.authorization ?? '');

const resourceOf = (request: FastifyRequest) => {
  const path = request.routeOptions.url ?? request.url;
  return path === '/mcp' ? 'mcp' : path === '/v1' || path.startsWith('/v1/') ? 'api' : undefined;
};

/** The access token of a request to /v1 or /mcp, or undefined (no token, a developer key, another path). */
export function oauthTokenOf(oauth: OauthAccess | undefined, request: FastifyRequest): string | undefined {
  if (!oauth || resourceOf(request) === undefined) return undefined;
  const header = request.headers.authorization ?? '';
  // Under the DPoP scheme everything is taken as an access token (a developer key there is refused).
  const token = DPOP_TOKEN.exec(header)?.[1] ?? BEARER_TOKEN.exec(header)?.[1];
  if (token === undefined || (token.startsWith('kmp_') && !usesDpop(request))) return undefined;
  if (request.headers['x-api-key'] !== undefined) {
    throw new ApiError(400, 'conflicting_parameters', 'Send either a developer key or an access token, not both.', {
      param: 'Authorization',
      suggestion:
        'Drop X-API-Key to act as the person of the access token, or drop Authorization to act as your own account.',
    });
  }
  return token;
}

function refusal(
  oauth: OauthAccess,
  request: FastifyRequest,
  status: 401 | 403,
  error: 'invalid_token' | 'invalid_dpop_proof' | 'insufficient_scope' | 'not_delegable' | 'account_suspended',
  message: string,
  extra: { suggestion: string; scope?: string },
): ApiError {
  const resource = resourceOf(request) === 'mcp' ? oauth.resources.mcp : oauth.resources.api;
  const metadata = `${new URL(resource).origin}/.well-known/oauth-protected-resource${new URL(resource).pathname}`;
  const bearerError =
    error === 'insufficient_scope' || error === 'not_delegable'
      ? 'insufficient_scope'
      : error === 'invalid_dpop_proof'
        ? 'invalid_dpop_proof'
        : 'invalid_token';
  // RFC 9449 section 7.1: a request under the DPoP scheme is answered with a DPoP challenge.
  const dpop = usesDpop(request) || error === 'invalid_dpop_proof';
  const challenge = [
    `${dpop ? 'DPoP' : 'Bearer'} error="${bearerError}"`,
    ...(extra.scope ? [`scope="${extra.scope}"`] : []),
    ...(dpop ? [`algs="${DPOP_ALGORITHMS.join(' ')}"`] : []),
    `resource_metadata="${metadata}"`,
  ].join(', ');
  return new ApiError(status, error, message, {
    param: 'Authorization',
    suggestion: extra.suggestion,
    headers: { 'www-authenticate': challenge },
  });
}

/** The person an access token acts for, as the stand-in key the rest of the request uses. */
export async function personOfToken(
  db: Kysely<Database>,
  oauth: OauthAccess,
  request: FastifyRequest,
  token: string,
  openWhileSuspended: boolean,
): Promise<KeyWithAccount & { oauth: OauthGrant }> {
  const { provider } = await oauth.server();
  const again = { suggestion: 'Refresh the token, or send the person through the authorization again.' };
  const found = await provider.AccessToken.find(token);
  if (!found)
    throw refusal(
      oauth,
      request,
      401,
      'invalid_token',
      'The access token is not known, has expired or was revoked.',
      again,
    );
  const resource = resourceOf(request) === 'mcp' ? oauth.resources.mcp : oauth.resources.api;
  const audience = [found.aud].flat();
  const forMcp = request.headers[MCP_FORWARD_HEADER] === MCP_FORWARD_SECRET && audience.includes(oauth.resources.mcp);
  if (!audience.includes(resource) && !forMcp) {
    throw refusal(
      oauth,
      request,
      401,
      'invalid_token',
      `The access token was issued for ${audience.join(', ')}, not for ${resource}.`,
      {
        suggestion: `Ask for a token with resource=${resource} (RFC 8707).`,
      },
    );
  }
  await checkBinding(oauth, request, token, found.jkt, forMcp, (jti, expiresAt) =>
    provider.ReplayDetection.unique(`dpop-resource:${found.clientId}`, jti, expiresAt),
  );
  const [grant, client] = await Promise.all([
    found.grantId ? provider.Grant.find(found.grantId) : undefined,
    found.clientId ? provider.Client.find(found.clientId) : undefined,
  ]);
  if (!grant || !client) {
    throw refusal(
      oauth,
      request,
      401,
      'invalid_token',
      'The person disconnected this app, or the app was removed.',
      again,
    );
  }
  const standing = await clientStanding(db, found.clientId as string);
  if (standing.ownerSuspended) {
    throw refusal(
      oauth,
      request,
      401,
      'invalid_token',
      "The app's developer is suspended; its tokens do not work meanwhile.",
      again,
    );
  }
  const account = found.accountId ? await accountForToken(db, found.accountId) : undefined;
  if (!account) throw refusal(oauth, request, 401, 'invalid_token', 'The account of this access token is gone.', again);
  if (account.suspended_at !== null && !openWhileSuspended) {
    throw refusal(
      oauth,
      request,
      403,
      'account_suspended',
      `This account was suspended by a moderation decision on ${account.suspended_at}.`,
      {
        suggestion:
          'The person can read the statement of reasons and appeal it themselves; an app cannot act for a suspended account.',
      },
    );
  }
  const scopes = (found.scope ?? '').split(' ').filter(Boolean);
  const route = request.routeOptions.url ?? request.url;
  const needs = scopeNeed(request.method, route);
  if (needs.kind === 'never') {
    throw refusal(
      oauth,
      request,
      403,
      'not_delegable',
      `${request.method} ${route} is not open to apps acting for a person. ${needs.why}`,
      {
        suggestion: 'The person does this themselves, on the site or with a developer key of their own.',
      },
    );
  }
  if (needs.kind === 'scope' && !scopes.includes(needs.scope)) {
    throw refusal(
      oauth,
      request,
      403,
      'insufficient_scope',
      `This access token lacks the scope ${needs.scope}, which ${request.method} ${route} needs.`,
      {
        suggestion: `Ask the person again with scope=${needs.scope} (they may decline it).`,
        scope: needs.scope,
      },
    );
  }
  return {
    id: `${OAUTH_KEY_PREFIX}${found.grantId}`,
    account_id: account.id,
    key_hash: '',
    last4: '',
    created_at: new Date(found.iat * 1000).toISOString(),
    expires_at: new Date((found.exp ?? found.iat) * 1000).toISOString(),
    revoked_at: null,
    replaced_by: null,
    // One budget per app and person: an app with many people is not throttled as one key.
    lineage_id: `oauth:${found.clientId}:${account.id}`,
    account,
    oauth: {
      clientId: found.clientId as string,
      grantId: found.grantId as string,
      scopes,
      ceiling: standing.perMinute ?? oauth.defaultClientLimit,
    },
  };
}

/**
 * A DPoP-bound token needs the DPoP scheme and a proof of its key; a bearer token the Bearer scheme.
 * The REST requests an /mcp tool makes on the caller's behalf carry no proof of their own: the
 * caller's proof was checked on the /mcp request itself.
 */
async function checkBinding(
  oauth: OauthAccess,
  request: FastifyRequest,
  token: string,
  jkt: string | undefined,
  forMcp: boolean,
  unique: (jti: string, expiresAt: number) => Promise<boolean>,
): Promise<void> {
  const dpop = usesDpop(request);
  if (jkt === undefined) {
    if (!dpop) return;
    throw refusal(oauth, request, 401, 'invalid_token', 'This access token is not bound to a DPoP key.', {
      suggestion: 'Send it as Authorization: Bearer, without a DPoP proof.',
    });
  }
  if (!dpop) {
    throw refusal(oauth, request, 401, 'invalid_token', 'This access token is bound to a DPoP key (RFC 9449).', {
      suggestion: 'Send it as Authorization: DPoP <token>, with a fresh proof of that key in the DPoP header.',
    });
  }
  if (forMcp) return;
  const issuer = oauth.resources.api.slice(0, -'/v1'.length);
  try {
    await verifyDpopProof({
      proof: request.headers.dpop,
      method: request.method,
      uri: `${issuer}${request.url.split('?')[0]}`,
      accessToken: token,
      jkt,
      now: new Date(),
      unique,
    });
  } catch (error) {
    if (!(error instanceof DpopProofError)) throw error;
    throw refusal(oauth, request, 401, 'invalid_dpop_proof', error.message, {
      suggestion:
        'Make a new proof for every request: typ dpop+jwt, signed by the bound key, with htm, htu, iat, a fresh jti and ath (RFC 9449 section 4.2).',
    });
  }
}
