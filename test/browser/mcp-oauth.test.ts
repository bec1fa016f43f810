/**
 * Issue 31, an agent acting for a person over MCP: the official MCP client SDK
 * (@modelcontextprotocol/client, its OAuth support, nothing of ours) connects to /mcp without
 * credentials; a write tool answers 401 with the RFC 9728 challenge; the SDK discovers the
 * protected resource and the authorization server, registers itself (RFC 7591) and sends the
 * person to the authorization URL, which Debian's headless Chromium opens: the person (signed in)
 * sees the consent page (axe-core checked) and allows; the SDK redeems the code and the tool
 * posts the job as the person. Then the person disconnects the app on /account and the token stops.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  Client,
  type OAuthClientInformationMixed,
  type OAuthClientProvider,
  type OAuthTokens,
  StreamableHTTPClientTransport,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import { findOrCreateAccount } from '../../src/repositories/access.js';
import { buildTestApp } from '../helpers/app.js';
import { JOB_BODY } from '../helpers/bodies.js';
import { launchChromium, seriousViolations } from '../helpers/browser.js';
import { freePort } from '../helpers/server-process.js';
import { signedInAs } from '../helpers/sessions.js';

const CALLBACK = 'http://127.0.0.1:9/mcp-callback';

/** The client side's storage, as an agent keeps it: in memory here. */
class MemoryProvider implements OAuthClientProvider {
  client?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';
  authorizationUrl?: URL;
  get redirectUrl() {
    return CALLBACK;
  }
  get clientMetadata() {
    return {
      client_name: 'Garden Agent',
      redirect_uris: [CALLBACK],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

describe('an MCP client acts for a person with OAuth', () => {
  test('401 with resource metadata, the SDK authorizes through the consent page in Chromium, the tool writes as the person', async (t) => {
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const { app, db } = await buildTestApp(t, () => new Date(), { PUBLIC_URL: origin });
    await app.listen({ port, host: '127.0.0.1' });
    const { row: person } = await findOrCreateAccount(
      db.kysely,
      { name: 'Mary Jackson', email: 'mary@example.org', organisation: null, account_type: 'private' },
      new Date(),
    );
    const session = await signedInAs(db.kysely, person.id);

    // Without credentials: a write tool is refused with the challenge that starts OAuth.
    const bare = await fetch(`${origin}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'create_job', arguments: {} },
      }),
    });
    assert.equal(bare.status, 401);
    assert.equal(
      bare.headers.get('www-authenticate'),
      `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`,
    );
    const metadata = (await (await fetch(`${origin}/.well-known/oauth-protected-resource/mcp`)).json()) as {
      resource: string;
      authorization_servers: string[];
    };
    assert.deepEqual([metadata.resource, metadata.authorization_servers], [`${origin}/mcp`, [origin]]);

    const provider = new MemoryProvider();
    const transport = new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), { authProvider: provider });
    const client = new Client({ name: 'garden-agent', version: '1.0.0' });
    t.after(() => client.close());
    await client.connect(transport);
    const args = { ...JOB_BODY, idempotency_key: 'agent-hedge-1' };
    await assert.rejects(client.callTool({ name: 'create_job', arguments: args }), UnauthorizedError);
    const url = provider.authorizationUrl as URL;
    assert.ok(url, 'the SDK sent the person to the authorization URL');
    assert.equal(url.origin, origin);
    assert.equal(url.searchParams.get('resource'), `${origin}/mcp`);
    assert.equal(url.searchParams.get('code_challenge_method'), 'S256');
    assert.ok(provider.client?.client_id, 'registered itself');

    const browser = await launchChromium(t);
    const context = await browser.newContext({ locale: 'en-GB' });
    await context.addCookies([
      { name: session.name, value: session.token, url: origin, httpOnly: true, sameSite: 'Lax' },
    ]);
    const page = await context.newPage();
    let callback: URL | undefined;
    await page.route(`${CALLBACK}**`, async (route) => {
      callback = new URL(route.request().url());
      await route.fulfill({ status: 200, contentType: 'text/plain', body: 'You can close this window.' });
    });
    await page.goto(url.toString());
    assert.match((await page.getByRole('heading', { level: 1 }).textContent()) ?? '', /Connect Garden Agent/);
    assert.match((await page.locator('main').textContent()) ?? '', /Registered by itself/);
    assert.deepEqual(await seriousViolations(page), [], 'axe-core on the consent page');
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL(`${CALLBACK}**`);
    assert.ok(callback?.searchParams.get('code'), 'the code came back');

    await transport.finishAuth((callback as URL).searchParams);
    const result = (await client.callTool({ name: 'create_job', arguments: args })) as {
      isError?: boolean;
      structuredContent?: { id: string };
    };
    assert.notEqual(result.isError, true, JSON.stringify(result));
    const job = await db.kysely
      .selectFrom('jobs')
      .select(['owner_account_id'])
      .where('id', '=', result.structuredContent?.id as string)
      .executeTakeFirstOrThrow();
    assert.equal(job.owner_account_id, person.id, 'the job is the person’s');

    // The person disconnects the agent on /account: its token stops at once.
    await page.goto(`${origin}/account`);
    await page.getByRole('button', { name: 'Disconnect Garden Agent' }).click();
    assert.match((await page.locator('main').textContent()) ?? '', /No app acts for you/);
    const me = await fetch(`${origin}/v1/me`, { headers: { authorization: `Bearer ${provider.saved?.access_token}` } });
    assert.equal(me.status, 401);
  });
});
