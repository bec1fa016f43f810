/**
 * The OAuth 2.1 / OpenID Connect authorization server (issue 31) on `oidc-provider`: an OpenID
 * Certified implementation, kept by its author for years, so none of the protocol (codes, PKCE,
 * token rotation and reuse detection, DPoP binding, revocation, dynamic registration, discovery) is
 * ours; the resource server's half of DPoP, checking the proofs on /v1 and /mcp, is ./dpop-proof.ts.
 * Our parts are its configuration, its storage (services/oauth-store.ts, both engines), who the
 * person is (the site's own sign-in session, docs/accounts.md) and the consent page.
 *
 * Built lazily, on the first request that needs it (the library and Koa are loaded then, not at
 * start): the first instance makes the signing key.
 */

type Library = typeof import('oidc-provider');

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Kysely } from 'kysely';
import type Provider from 'oidc-provider';
import type { Configuration, KoaContextWithOIDC } from 'oidc-provider';
import { API_SCOPE_NAMES } from '../domain/oauth-scopes.js';
import type { Database } from '../services/database.js';
import { oauthAdapter, oauthSecrets, personForClaims } from '../services/oauth-store.js';
import { sessionOfToken } from '../services/sign-in.js';
import { DPOP_ALGORITHMS } from './dpop-proof.js';
import { COOKIES } from './site-cookies.js';
import { escapeHtml } from './views/html.js';

/** How long what the server issues lives, in seconds. */
export const OAUTH_TTL = {
  AccessToken: 3_600,
  AuthorizationCode: 60,
  RefreshToken: 30 * 86_400,
  Grant: 365 * 86_400,
  Interaction: 600,
  Session: 14 * 86_400,
  IdToken: 3_600,
} as const;

export interface OauthServerOptions {
  db: Kysely<Database>;
  /** PUBLIC_URL: the issuer, and the base of the resource servers /v1 and /mcp. */
  issuer: string;
  /** Behind a trusted proxy (TRUST_PROXY): the scheme and host come from its headers. */
  proxy: boolean;
}

/** The resource servers tokens are bound to (RFC 8707): the REST API and the MCP endpoint. */
export function resourcesOf(issuer: string): { api: string; mcp: string } {
  return { api: `${issuer}/v1`, mcp: `${issuer}/mcp` };
}

/**
 * The login prompt asks again whenever the person signed in to the site is not the one the
 * server's own session remembers (signed out, ended the session on /account, or another person in
 * this browser): the site's sign-in is the only proof of who is there.
 */
function siteSessionCheck({ interactionPolicy }: Library, db: Kysely<Database>) {
  return new interactionPolicy.Check(
    'site_session',
    'The person signed in to the site is not the one this authorization is for',
    async (ctx: KoaContextWithOIDC) => {
      const token = ctx.cookies.get(COOKIES.session);
      const signedIn = await sessionOfToken(db, token, new Date());
      const accountId = ctx.oidc.session?.accountId;
      if (!signedIn || accountId === undefined || signedIn.account.id !== accountId) {
        return interactionPolicy.Check.REQUEST_PROMPT;
      }
      return interactionPolicy.Check.NO_NEED_TO_PROMPT;
    },
  );
}

async function configuration(library: Library, options: OauthServerOptions): Promise<Configuration> {
  const { db, issuer } = options;
  const { errors, interactionPolicy } = library;
  const secrets = await oauthSecrets(db);
  const resources = resourcesOf(issuer);
  const policy = interactionPolicy.base();
  policy.get('login')?.checks.add(siteSessionCheck(library, db));
  return {
    adapter: oauthAdapter(db),
    jwks: secrets.jwks as Configuration['jwks'],
    cookies: {
      keys: secrets.cookieKeys,
      long: { httpOnly: true, sameSite: 'lax' },
      short: { httpOnly: true, sameSite: 'lax' },
    },
    findAccount: async (_ctx, sub) => {
      const person = await personForClaims(db, sub);
      if (!person) return undefined;
      return { accountId: sub, claims: async () => ({ sub, name: person.name }) };
    },
    claims: { openid: ['sub'], profile: ['name'] },
    scopes: ['openid', 'offline_access', ...API_SCOPE_NAMES],
    responseTypes: ['code'],
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      id_token_signed_response_alg: 'RS256',
    },
    // S256 only (the library offers no other), for every client, public or confidential.
    pkce: { required: () => true },
    // Refresh tokens for every client allowed the grant (not only with offline_access), one use
    // each: a used one that comes back revokes the whole grant (the library's reuse detection).
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    // Tokens do not end with the server's own login session: the site's sign-in is the person's
    // session, and an app stays connected until the person disconnects it.
    expiresWithSession: async () => false,
    rotateRefreshToken: true,
    ttl: { ...OAUTH_TTL },
    interactions: { url: (_ctx, interaction) => `/oauth/interaction/${interaction.uid}`, policy },
    routes: {
      authorization: '/oauth/authorize',
      token: '/oauth/token',
      revocation: '/oauth/revoke',
      registration: '/oauth/register',
      jwks: '/oauth/jwks',
      userinfo: '/oauth/userinfo',
      end_session: '/oauth/end-session',
      pushed_authorization_request: '/oauth/par',
      introspection: '/oauth/introspect',
      code_verification: '/oauth/device',
      device_authorization: '/oauth/device/auth',
      backchannel_authentication: '/oauth/backchannel',
      challenge: '/oauth/challenge',
    },
    features: {
      devInteractions: { enabled: false },
      // A client revokes only what was issued to it (RFC 7009 section 2.1).
      revocation: { enabled: true, allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId },
      dPoP: { enabled: true },
      // Dynamic client registration (RFC 7591) for MCP clients, as the MCP authorization
      // specification expects; clients registered so belong to nobody until a person grants them.
      registration: { enabled: true, initialAccessToken: false },
      // Off: every token is bound to /v1 or /mcp (resource indicators), which userinfo refuses;
      // the ID token carries sub and name, and GET /v1/me the account.
      userinfo: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      resourceIndicators: {
        enabled: true,
        // No resource named: the REST API.
        defaultResource: async (_ctx, _client, oneOf) => oneOf ?? resources.api,
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx, indicator) => {
          if (indicator !== resources.api && indicator !== resources.mcp) throw new errors.InvalidTarget();
          return {
            scope: API_SCOPE_NAMES.join(' '),
            audience: indicator,
            accessTokenTTL: OAUTH_TTL.AccessToken,
            accessTokenFormat: 'opaque',
          };
        },
      },
    },
    renderError: async (ctx, out) => {
      const de = ctx.acceptsLanguages('de', 'en') === 'de';
      ctx.type = 'html';
      ctx.set('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'");
      ctx.set('cache-control', 'no-store');
      ctx.body = errorPage(de, String(out.error), String(out.error_description ?? ''));
    },
    enabledJWA: { dPoPSigningAlgValues: DPOP_ALGORITHMS },
  };
}

/** The page of an authorization request that cannot go back to its app (an unknown client, a redirect URI not registered). */
function errorPage(de: boolean, error: string, description: string): string {
  const title = de ? 'Diese Anfrage geht nicht' : 'This request cannot go on';
  const advice = de
    ? 'Die App hat eine Anfrage geschickt, die hier nicht angenommen wird. Gehen Sie zurück zur App; ihr Entwickler findet den Grund unten.'
    : 'The app sent a request this site does not take. Go back to the app; its developer finds the reason below.';
  return `<!doctype html>
<html lang="${de ? 'de' : 'en'}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${title} – Karlsruhe Marketplace</title>
<style>body{font:1rem/1.5 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem}code{overflow-wrap:anywhere}</style></head>
<body><main><h1>${title}</h1><p>${advice}</p><p><code>${escapeHtml(error)}</code>: ${escapeHtml(description)}</p></main></body></html>`;
}

export interface OauthServer {
  provider: Provider;
  /** The provider's own request handler, for the raw Node request and response. */
  handle: (req: IncomingMessage, res: ServerResponse) => void;
}

/** The server, built on first use (its keys read from, or made in, the database). */
export function lazyOauthServer(options: OauthServerOptions): () => Promise<OauthServer> {
  let built: Promise<OauthServer> | undefined;
  return () => {
    built ??= import('oidc-provider').then(async (library) => {
      const provider = new library.default(options.issuer, await configuration(library, options));
      provider.proxy = options.proxy;
      const callback = provider.callback();
      return { provider, handle: (req, res) => void callback(req, res) };
    });
    return built;
  };
}
