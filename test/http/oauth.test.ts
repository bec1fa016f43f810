/**
 * Issue 31, apps acting for people: a third-party client built with `openid-client` (not ours)
 * registers itself (RFC 7591), sends the person through the authorization code flow with PKCE
 * (S256) and the consent page, and calls /v1 as the person; refresh tokens rotate, a reused one
 * revokes the grant; revocation (RFC 7009) ends a token; a token for /mcp does not open /v1; a
 * token without a scope is refused with the scope named; what is never delegated is refused to
 * every token. Real HTTP between the client and the server on 127.0.0.1, both engines.
 */
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { describe, type TestContext, test } from 'node:test';
import { exportJWK, SignJWT } from 'jose';
import * as client from 'openid-client';
import { limitClient, listClientsTable } from '../../src/cli/admin-clients.js';
import { findOrCreateAccount, issueKey } from '../../src/repositories/access.js';
import { adminContext } from '../helpers/admin-cli.js';
import { buildTestApp, createKey } from '../helpers/app.js';
import { JOB_BODY } from '../helpers/bodies.js';
import { csrfOf, OauthBrowser } from '../helpers/oauth.js';
import { freePort } from '../helpers/server-process.js';
import { signedInAs } from '../helpers/sessions.js';

const REDIRECT = 'http://127.0.0.1:9/callback';

async function serve(t: TestContext, config: Record<string, string> = {}) {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const { app, db } = await buildTestApp(t, () => new Date(), { PUBLIC_URL: origin, ...config });
  await app.listen({ port, host: '127.0.0.1' });
  assert.equal((app.server.address() as AddressInfo).port, port);
  const { row: person } = await findOrCreateAccount(
    db.kysely,
    { name: 'Rosalind Franklin', email: 'rosalind@example.org', organisation: null, account_type: 'private' },
    new Date(),
  );
  const { cookie } = await signedInAs(db.kysely, person.id);
  return { app, db, origin, person, cookie };
}

/** The person's own developer key (as a key request would give them). */
async function keyOf(db: Awaited<ReturnType<typeof serve>>['db'], accountId: string): Promise<string> {
  return (await issueKey(db.kysely, accountId, new Date())).key;
}

/** A public client (a mobile app or an agent) registered through dynamic client registration. */
async function registered(origin: string, name = 'Hedge Helper App') {
  return client.dynamicClientRegistration(
    new URL(origin),
    {
      client_name: name,
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    },
    client.None(),
    { execute: [client.allowInsecureRequests] },
  );
}

interface Flow {
  scope?: string;
  resource?: string;
  /** The scopes the person leaves ticked on the consent page (all when undefined). */
  keep?: string[];
  /** Binds the tokens to this client's DPoP key (RFC 9449). */
  dpop?: client.DPoPHandle;
}

/** The authorization code flow through the consent page; the tokens. */
async function authorize(config: client.Configuration, browser: OauthBrowser, flow: Flow = {}) {
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT,
    scope: flow.scope ?? 'openid profile jobs:write',
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    resource: flow.resource ?? `${config.serverMetadata().issuer}/v1`,
  });
  const consent = await browser.follow(url.toString());
  assert.equal(consent.status, 200, consent.text);
  assert.match(consent.text, /wants to act for you/);
  const uid = /action="\/oauth\/interaction\/([^/]+)\/consent"/.exec(consent.text)?.[1] as string;
  const offered = [...consent.text.matchAll(/name="scope" value="([^"]+)"/g)].map((m) => m[1] as string);
  const back = await browser.follow(`/oauth/interaction/${uid}/consent`, {
    form: { _csrf: csrfOf(consent.text), decision: 'allow', scope: flow.keep ?? offered },
  });
  assert.ok(back.left, `no redirect to the client: ${back.status} ${back.text.slice(0, 300)}`);
  const tokens = await client.authorizationCodeGrant(
    config,
    back.left,
    { pkceCodeVerifier: verifier, expectedState: state },
    undefined,
    flow.dpop && { DPoP: flow.dpop },
  );
  return { tokens, offered, callback: back.left, verifier };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A DPoP proof (RFC 9449 section 4.2) made by hand, to send what openid-client never would. */
async function proofOf(
  keys: Awaited<ReturnType<typeof client.randomDPoPKeyPair>>,
  method: string,
  url: string,
  token: string,
  jti = randomUUID(),
) {
  return new SignJWT({
    htm: method,
    htu: url,
    jti,
    ath: createHash('sha256').update(token).digest('base64url'),
  })
    .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: await exportJWK(keys.publicKey) })
    .setIssuedAt()
    .sign(keys.privateKey);
}

describe('OAuth 2.1 with openid-client', () => {
  test('code + PKCE through the consent page; /v1 as the person; refresh rotates; reuse revokes the grant', async (t) => {
    const { app, origin, person, cookie } = await serve(t);
    const discovered = (await (await fetch(`${origin}/.well-known/openid-configuration`)).json()) as Record<
      string,
      string[] | string
    >;
    assert.deepEqual(discovered.code_challenge_methods_supported, ['S256']);
    assert.deepEqual(discovered.response_types_supported, ['code']);
    assert.ok(!discovered.grant_types_supported?.includes('implicit'));
    assert.ok(!discovered.grant_types_supported?.includes('password'));
    assert.equal(discovered.revocation_endpoint, `${origin}/oauth/revoke`);
    const rfc8414 = (await (await fetch(`${origin}/.well-known/oauth-authorization-server`)).json()) as {
      issuer: string;
    };
    assert.equal(rfc8414.issuer, origin);

    const config = await registered(origin);
    const browser = new OauthBrowser(origin, [cookie]);
    const { tokens, offered } = await authorize(config, browser, { scope: 'openid profile jobs:write' });
    assert.deepEqual(offered.sort(), ['jobs:write', 'openid', 'profile']);
    assert.equal(tokens.claims()?.sub, person.id);
    assert.ok(tokens.refresh_token, 'a refresh token');
    assert.equal(tokens.token_type.toLowerCase(), 'bearer');

    const me = await app.inject({ url: '/v1/me', headers: bearer(tokens.access_token) });
    assert.equal(me.statusCode, 200, me.body);
    assert.equal(me.json().account.id, person.id);
    assert.equal(me.json().key, null);
    assert.deepEqual(me.json().app, {
      client_id: config.clientMetadata().client_id,
      scopes: ['profile', 'jobs:write'],
    });
    const posted = await app.inject({
      method: 'POST',
      url: '/v1/jobs',
      headers: bearer(tokens.access_token),
      payload: JOB_BODY,
    });
    assert.equal(posted.statusCode, 201, posted.body);
    const job = await app.inject({ url: `/v1/jobs/${posted.json().id}` });
    assert.equal(job.statusCode, 200);

    // Not delegated, whatever the scopes: erasing the account.
    const erase = await app.inject({
      method: 'DELETE',
      url: '/v1/me',
      headers: bearer(tokens.access_token),
      payload: { confirm: 'rosalind@example.org' },
    });
    assert.equal(erase.statusCode, 403);
    assert.equal(erase.json().error, 'not_delegable');
    // Nor what would outlive the app, or a home's exact place.
    for (const [method, url] of [
      ['POST', '/v1/webhooks'],
      ['POST', '/v1/me/calendar-feed'],
      ['GET', `/v1/jobs/${posted.json().id}/location`],
    ] as const) {
      const refused = await app.inject({
        method,
        url,
        headers: bearer(tokens.access_token),
        ...(method === 'POST' && { payload: {} }),
      });
      assert.equal(refused.statusCode, 403, `${method} ${url}`);
      assert.equal(refused.json().error, 'not_delegable', `${method} ${url}`);
    }
    // A scope not granted: named in the error and the challenge.
    const message = await app.inject({ url: '/v1/conversations', headers: bearer(tokens.access_token) });
    assert.equal(message.statusCode, 403);
    assert.equal(message.json().error, 'insufficient_scope');
    assert.match(
      String(message.headers['www-authenticate']),
      /^Bearer error="insufficient_scope", scope="messages", resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/v1"$/,
    );

    // Refresh: a new pair; the old refresh token once more revokes the whole grant.
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token as string);
    assert.notEqual(refreshed.refresh_token, tokens.refresh_token);
    assert.equal((await app.inject({ url: '/v1/me', headers: bearer(refreshed.access_token) })).statusCode, 200);
    await assert.rejects(
      client.refreshTokenGrant(config, tokens.refresh_token as string),
      (error: { cause?: { error?: string } }) => error.cause?.error === 'invalid_grant',
    );
    const after = await app.inject({ url: '/v1/me', headers: bearer(refreshed.access_token) });
    assert.equal(after.statusCode, 401);
    assert.equal(after.json().error, 'invalid_token');
    await assert.rejects(
      client.refreshTokenGrant(config, refreshed.refresh_token as string),
      (error: { cause?: { error?: string } }) => error.cause?.error === 'invalid_grant',
    );
  });

  test('revocation ends a token; a token for /mcp does not open /v1; a cleared scope is not granted', async (t) => {
    const { app, origin, cookie } = await serve(t);
    const config = await registered(origin);
    const browser = new OauthBrowser(origin, [cookie]);

    const first = await authorize(config, browser);
    assert.equal((await app.inject({ url: '/v1/me', headers: bearer(first.tokens.access_token) })).statusCode, 200);
    await client.tokenRevocation(config, first.tokens.access_token);
    const revoked = await app.inject({ url: '/v1/me', headers: bearer(first.tokens.access_token) });
    assert.equal(revoked.statusCode, 401);
    assert.equal(revoked.json().error, 'invalid_token');

    const mcp = await authorize(config, new OauthBrowser(origin, [cookie]), { resource: `${origin}/mcp` });
    const wrong = await app.inject({ url: '/v1/me', headers: bearer(mcp.tokens.access_token) });
    assert.equal(wrong.statusCode, 401);
    assert.match(wrong.json().message, /issued for .*\/mcp, not for .*\/v1/);

    const other = await registered(origin, 'Second App');
    const narrow = await authorize(other, new OauthBrowser(origin, [cookie]), {
      scope: 'openid profile jobs:write',
      keep: ['openid', 'profile'],
    });
    assert.equal((await app.inject({ url: '/v1/me', headers: bearer(narrow.tokens.access_token) })).statusCode, 200);
    const refused = await app.inject({
      method: 'POST',
      url: '/v1/jobs',
      headers: bearer(narrow.tokens.access_token),
      payload: JOB_BODY,
    });
    assert.equal(refused.statusCode, 403);
    assert.equal(refused.json().error, 'insufficient_scope');
    assert.match(refused.json().message, /lacks the scope jobs:write/);
  });

  test('DPoP: openid-client binds the tokens to its key and proves it on every request; a stolen token, a replayed proof, a proof for another request are refused', async (t) => {
    const { origin, person, cookie } = await serve(t);
    const config = await registered(origin, 'Key-Bound App');
    const keys = await client.randomDPoPKeyPair('ES256');
    const dpop = client.getDPoPHandle(config, keys);
    const { tokens } = await authorize(config, new OauthBrowser(origin, [cookie]), { dpop });
    assert.equal(tokens.token_type.toLowerCase(), 'dpop');
    const token = tokens.access_token;

    // openid-client's own requests, over real HTTP: a fresh proof each time.
    const me = await client.fetchProtectedResource(
      config,
      token,
      new URL(`${origin}/v1/me`),
      'GET',
      undefined,
      undefined,
      {
        DPoP: dpop,
      },
    );
    assert.equal(me.status, 200);
    assert.equal(((await me.json()) as { account: { id: string } }).account.id, person.id);
    const posted = await client.fetchProtectedResource(
      config,
      token,
      new URL(`${origin}/v1/jobs`),
      'POST',
      JSON.stringify(JOB_BODY),
      new Headers({ 'content-type': 'application/json' }),
      { DPoP: dpop },
    );
    assert.equal(posted.status, 201, await posted.clone().text());

    const send = (headers: Record<string, string>, path = '/v1/me') =>
      fetch(`${origin}${path}`, { headers }).then(async (r) => ({
        status: r.status,
        challenge: r.headers.get('www-authenticate') ?? '',
        body: (await r.json()) as { error: string; message: string },
      }));
    // A stolen token as a bearer token, or with no proof, or with the thief's own key: refused.
    const asBearer = await send(bearer(token));
    assert.equal(asBearer.status, 401);
    assert.equal(asBearer.body.error, 'invalid_token');
    assert.match(asBearer.body.message, /bound to a DPoP key/);
    const noProof = await send({ authorization: `DPoP ${token}` });
    assert.equal(noProof.status, 401);
    assert.equal(noProof.body.error, 'invalid_dpop_proof');
    assert.match(
      noProof.challenge,
      /^DPoP error="invalid_dpop_proof", algs="ES256 EdDSA RS256 PS256", resource_metadata=/,
    );
    const thief = await client.randomDPoPKeyPair('ES256');
    const otherKey = await send({
      authorization: `DPoP ${token}`,
      dpop: await proofOf(thief, 'GET', `${origin}/v1/me`, token),
    });
    assert.equal(otherKey.status, 401);
    assert.match(otherKey.body.message, /another key than the one this access token is bound to/);

    // The right key, but a proof for another request, or one sent twice.
    const wrongUrl = await send({
      authorization: `DPoP ${token}`,
      dpop: await proofOf(keys, 'GET', `${origin}/v1/jobs`, token),
    });
    assert.equal(wrongUrl.status, 401);
    assert.match(wrongUrl.body.message, /htu must be/);
    const wrongMethod = await send({
      authorization: `DPoP ${token}`,
      dpop: await proofOf(keys, 'POST', `${origin}/v1/me`, token),
    });
    assert.match(wrongMethod.body.message, /htm must be GET/);
    const once = await proofOf(keys, 'GET', `${origin}/v1/jobs?limit=1`, token);
    assert.equal((await send({ authorization: `DPoP ${token}`, dpop: once }, '/v1/jobs?limit=1')).status, 200);
    const replayed = await send({ authorization: `DPoP ${token}`, dpop: once }, '/v1/jobs?limit=1');
    assert.equal(replayed.status, 401);
    assert.match(replayed.body.message, /used before/);
    const forOtherToken = await send({
      authorization: `DPoP ${token}`,
      dpop: await proofOf(keys, 'GET', `${origin}/v1/me`, 'another'),
    });
    assert.match(forOtherToken.body.message, /ath must be/);

    // The refresh token is bound too: refreshing needs the key, and the new token stays bound.
    await assert.rejects(
      client.refreshTokenGrant(config, tokens.refresh_token as string),
      (error: { cause?: { error?: string } }) => error.cause?.error === 'invalid_grant',
    );
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token as string, undefined, { DPoP: dpop });
    assert.equal(refreshed.token_type.toLowerCase(), 'dpop');
    assert.equal((await send(bearer(refreshed.access_token))).status, 401);
    const again = await client.fetchProtectedResource(
      config,
      refreshed.access_token,
      new URL(`${origin}/v1/me`),
      'GET',
      undefined,
      undefined,
      { DPoP: dpop },
    );
    assert.equal(again.status, 200);
    // On /mcp: the proof of the /mcp request covers the REST requests its tool makes.
    const agent = await authorize(config, new OauthBrowser(origin, [cookie]), { dpop, resource: `${origin}/mcp` });
    const call = async (proof?: string) => {
      const response = await fetch(`${origin}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `DPoP ${agent.tokens.access_token}`,
          ...(proof && { dpop: proof }),
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'create_job', arguments: { ...JOB_BODY, idempotency_key: 'dpop-agent-1' } },
        }),
      });
      return { status: response.status, body: await response.text() };
    };
    assert.equal((await call()).status, 401);
    const tool = await call(await proofOf(keys, 'POST', `${origin}/mcp`, agent.tokens.access_token));
    assert.equal(tool.status, 200, tool.body);
    assert.doesNotMatch(tool.body, /"isError":true/, tool.body);
    assert.match(tool.body, /"status":"open"/);
    // A token that is not bound is refused under the DPoP scheme.
    const plain = await authorize(await registered(origin, 'Plain App'), new OauthBrowser(origin, [cookie]));
    const unbound = await send({
      authorization: `DPoP ${plain.tokens.access_token}`,
      dpop: await proofOf(keys, 'GET', `${origin}/v1/me`, plain.tokens.access_token),
    });
    assert.equal(unbound.status, 401);
    assert.match(unbound.body.message, /not bound to a DPoP key/);
    // A developer key is not an access token under the DPoP scheme.
    assert.equal((await send({ authorization: 'DPoP kmp_live_0000000000000000000000000000000000000000' })).status, 401);
  });

  test('negative cases: wrong redirect URI, no PKCE, plain PKCE, a code used twice, CSRF and another site on the consent form, an expired code', async (t) => {
    const { db, origin, cookie } = await serve(t);
    const config = await registered(origin);
    const browser = new OauthBrowser(origin, [cookie]);
    const base = { client_id: config.clientMetadata().client_id, response_type: 'code', scope: 'openid', state: 's' };
    const authorizeUrl = (params: Record<string, string>) =>
      `${origin}/oauth/authorize?${new URLSearchParams({ ...base, ...params })}`;
    const challenge = await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier());

    // A redirect URI not registered exactly: an error page here, never a redirect to it.
    const wrongRedirect = await browser.request(
      authorizeUrl({ redirect_uri: `${REDIRECT}/other`, code_challenge: challenge, code_challenge_method: 'S256' }),
    );
    assert.equal(wrongRedirect.status, 400);
    assert.equal(wrongRedirect.location, null);
    assert.match(wrongRedirect.text, /redirect_uri/);
    // Without PKCE, and with plain PKCE: refused back to the client with the reason.
    for (const params of [{}, { code_challenge: 'x'.repeat(43), code_challenge_method: 'plain' }] as Record<
      string,
      string
    >[]) {
      const refused = await browser.request(authorizeUrl({ redirect_uri: REDIRECT, ...params }));
      assert.equal(refused.status, 303, refused.text);
      const back = new URL(refused.location as string);
      assert.equal(back.searchParams.get('error'), 'invalid_request', JSON.stringify(params));
      assert.match(back.searchParams.get('error_description') ?? '', /PKCE|code_challenge/);
    }

    // A code works once.
    const { callback, verifier } = await authorize(config, browser);
    await assert.rejects(
      client.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: verifier,
        expectedState: callback.searchParams.get('state') as string,
      }),
      (error: { cause?: { error?: string } }) => error.cause?.error === 'invalid_grant',
    );

    // The consent form refuses a post without its CSRF token, and one from another site.
    const second = client.randomPKCECodeVerifier();
    const consent = await browser.follow(
      authorizeUrl({
        redirect_uri: REDIRECT,
        scope: 'openid profile',
        code_challenge: await client.calculatePKCECodeChallenge(second),
        code_challenge_method: 'S256',
      }),
    );
    const uid = /action="\/oauth\/interaction\/([^/]+)\/consent"/.exec(consent.text)?.[1] as string;
    assert.ok(uid, consent.text.slice(0, 300));
    const tokenless = await browser.request(`/oauth/interaction/${uid}/consent`, {
      form: { decision: 'allow', scope: ['openid', 'profile'] },
    });
    assert.equal(tokenless.status, 403);
    assert.equal(tokenless.location, null, 'nothing was granted');
    const foreign = await fetch(`${origin}/oauth/interaction/${uid}/consent`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example', cookie },
      body: new URLSearchParams({ _csrf: csrfOf(consent.text), decision: 'allow', scope: 'profile' }),
    });
    assert.equal(foreign.status, 403);

    // An expired code (they live 60 seconds) is refused.
    const back = await browser.follow(`/oauth/interaction/${uid}/consent`, {
      form: { _csrf: csrfOf(consent.text), decision: 'allow', scope: ['openid', 'profile'] },
    });
    assert.ok(back.left, back.text.slice(0, 300));
    await db.kysely
      .updateTable('oauth_records')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('model', '=', 'AuthorizationCode')
      .execute();
    await assert.rejects(
      client.authorizationCodeGrant(config, back.left, { pkceCodeVerifier: second, expectedState: 's' }),
      (error: { cause?: { error?: string } }) => error.cause?.error === 'invalid_grant',
    );
  });

  test('the person lists and disconnects connected apps with their own key; never with a token', async (t) => {
    const { app, db, origin, person, cookie } = await serve(t);
    const config = await registered(origin, 'Lawn Planner');
    const { tokens } = await authorize(config, new OauthBrowser(origin, [cookie]));
    const key = await keyOf(db, person.id);
    const listed = await app.inject({ url: '/v1/me/authorizations', headers: { 'x-api-key': key } });
    assert.equal(listed.statusCode, 200, listed.body);
    const [grant, ...more] = listed.json().data;
    assert.equal(more.length, 0);
    assert.equal(grant.client_name, 'Lawn Planner');
    assert.equal(grant.client_id, config.clientMetadata().client_id);
    assert.deepEqual([...grant.scopes].sort(), ['jobs:write', 'openid', 'profile']);
    assert.deepEqual(grant.resources, [`${origin}/v1`]);
    // The export lists the connected app too (GDPR Art. 15), without anything of the token.
    const exported = await app.inject({ url: '/v1/me/export', headers: { 'x-api-key': key } });
    assert.equal(exported.statusCode, 200);
    assert.deepEqual(
      exported.json().connected_apps.map((row: { id: string; client_id: string }) => [row.id, row.client_id]),
      [[grant.id, grant.client_id]],
    );
    const byToken = await app.inject({ url: '/v1/me/authorizations', headers: bearer(tokens.access_token) });
    assert.equal(byToken.statusCode, 403);
    assert.equal(byToken.json().error, 'not_delegable');

    const gone = await app.inject({
      method: 'DELETE',
      url: `/v1/me/authorizations/${grant.id}`,
      headers: { 'x-api-key': key },
    });
    assert.equal(gone.statusCode, 204);
    assert.equal((await app.inject({ url: '/v1/me', headers: bearer(tokens.access_token) })).statusCode, 401);
    await assert.rejects(
      client.refreshTokenGrant(config, tokens.refresh_token as string),
      (error: { cause?: { error?: string } }) => error.cause?.error === 'invalid_grant',
    );
    const again = await app.inject({
      method: 'DELETE',
      url: `/v1/me/authorizations/${grant.id}`,
      headers: { 'x-api-key': key },
    });
    assert.equal(again.statusCode, 404);
    // Another person's key sees nothing of it.
    const other = await findOrCreateAccount(
      db.kysely,
      { name: 'Other', email: 'other@example.org', organisation: null, account_type: 'private' },
      new Date(),
    );
    const theirs = await app.inject({
      url: '/v1/me/authorizations',
      headers: { 'x-api-key': await keyOf(db, other.row.id) },
    });
    assert.deepEqual(theirs.json().data, []);
  });

  test('a developer registers a confidential client with their key; consent names them; secret rotation; deletion stops its tokens', async (t) => {
    const { app, db, origin, cookie } = await serve(t);
    const { key } = await createKey(db, { email: 'dev@garden.example', account_type: 'commercial' });
    await db.kysely
      .updateTable('accounts')
      .set({ organisation: 'Garten GmbH' })
      .where('email', '=', 'dev@garden.example')
      .execute();
    const dev = { 'x-api-key': key };
    const refused = await app.inject({
      method: 'POST',
      url: '/v1/oauth-clients',
      headers: dev,
      payload: { name: 'Bad', redirect_uris: ['http://app.example/cb'] },
    });
    assert.equal(refused.statusCode, 422, refused.body);
    assert.equal(refused.json().param, 'redirect_uris[0]');
    const made = await app.inject({
      method: 'POST',
      url: '/v1/oauth-clients',
      headers: dev,
      payload: {
        name: 'Garten Planer',
        redirect_uris: [REDIRECT],
        type: 'confidential',
        scopes: ['profile', 'jobs:write'],
      },
    });
    assert.equal(made.statusCode, 201, made.body);
    const registeredClient = made.json();
    assert.match(registeredClient.client_secret, /^[0-9A-Za-z]{43}$/);
    assert.equal(made.headers.location, `/v1/oauth-clients/${registeredClient.id}`);
    assert.deepEqual(registeredClient.scopes, ['profile', 'jobs:write']);
    const listed = await app.inject({ url: '/v1/oauth-clients', headers: dev });
    assert.deepEqual(
      listed.json().data.map((c: { id: string }) => c.id),
      [registeredClient.id],
    );
    assert.ok(!listed.body.includes(registeredClient.client_secret), 'the secret is shown once');
    const exported = await app.inject({ url: '/v1/me/export', headers: dev });
    assert.deepEqual(
      exported.json().oauth_clients.map((row: { id: string }) => row.id),
      [registeredClient.id],
    );
    assert.ok(!exported.body.includes(registeredClient.client_secret), 'the export holds no client secret');

    const config = await client.discovery(
      new URL(origin),
      registeredClient.id,
      { redirect_uris: [REDIRECT] },
      client.ClientSecretBasic(registeredClient.client_secret),
      { execute: [client.allowInsecureRequests] },
    );
    const browser = new OauthBrowser(origin, [cookie]);
    const consent = await browser.follow(
      client
        .buildAuthorizationUrl(config, {
          redirect_uri: REDIRECT,
          scope: 'openid profile',
          code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()),
          code_challenge_method: 'S256',
          state: 'x',
        })
        .toString(),
    );
    assert.match(consent.text, /Registered by <strong>Garten GmbH<\/strong> · developer reviewed by the operator/);
    const { tokens } = await authorize(config, new OauthBrowser(origin, [cookie]));
    assert.equal((await app.inject({ url: '/v1/me', headers: bearer(tokens.access_token) })).statusCode, 200);
    // Registering clients is never delegated.
    const byToken = await app.inject({ url: '/v1/oauth-clients', headers: bearer(tokens.access_token) });
    assert.equal(byToken.statusCode, 403);

    const rotated = await app.inject({
      method: 'POST',
      url: `/v1/oauth-clients/${registeredClient.id}/secret`,
      headers: dev,
    });
    assert.equal(rotated.statusCode, 200, rotated.body);
    assert.notEqual(rotated.json().client_secret, registeredClient.client_secret);
    await assert.rejects(
      client.refreshTokenGrant(config, tokens.refresh_token as string),
      // The old secret: 401 with the invalid_client challenge.
      (error: { cause?: unknown }) => JSON.stringify(error.cause).includes('invalid_client'),
    );
    const renamed = await app.inject({
      method: 'PATCH',
      url: `/v1/oauth-clients/${registeredClient.id}`,
      headers: dev,
      payload: { name: 'Garten Planer 2' },
    });
    assert.equal(renamed.statusCode, 200, renamed.body);
    assert.equal(renamed.json().name, 'Garten Planer 2');
    const other = await createKey(db, { email: 'other-dev@example.org' });
    const foreign = await app.inject({
      url: `/v1/oauth-clients/${registeredClient.id}`,
      headers: { 'x-api-key': other.key },
    });
    assert.equal(foreign.statusCode, 404);
    const deleted = await app.inject({
      method: 'DELETE',
      url: `/v1/oauth-clients/${registeredClient.id}`,
      headers: dev,
    });
    assert.equal(deleted.statusCode, 204);
    assert.equal((await app.inject({ url: '/v1/me', headers: bearer(tokens.access_token) })).statusCode, 401);
  });

  test('an app has a ceiling across all its people; the operator raises it; the headers name it', async (t) => {
    const { app, db, origin, cookie } = await serve(t, { OAUTH_CLIENT_LIMIT_PER_MIN: '3' });
    const config = await registered(origin, 'Busy App');
    const { tokens } = await authorize(config, new OauthBrowser(origin, [cookie]));
    for (let i = 0; i < 3; i++) {
      assert.equal((await app.inject({ url: '/v1/me', headers: bearer(tokens.access_token) })).statusCode, 200);
    }
    const over = await app.inject({ url: '/v1/me', headers: bearer(tokens.access_token) });
    assert.equal(over.statusCode, 429);
    assert.match(over.json().message, /across all its people/);
    assert.match(String(over.headers['ratelimit-policy']), /^"oauth-app";q=3;w=60/);
    const lines: string[] = [];
    const clientId = config.clientMetadata().client_id;
    await limitClient(adminContext(db.kysely, lines), clientId, { 'per-minute': '100' });
    assert.match(lines.join('\n'), /may now make 100 requests per minute/);
    await listClientsTable(adminContext(db.kysely, lines));
    assert.match(lines.at(-1) ?? '', new RegExp(`^${clientId}  "Busy App"  self-registered  100/min  `));
    assert.equal((await app.inject({ url: '/v1/me', headers: bearer(tokens.access_token) })).statusCode, 200);
  });
});
