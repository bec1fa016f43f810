/**
 * Issue 31, passkeys over HTTP: what the pages' script calls, and what it must refuse. The whole
 * ceremony with a real authenticator is test/browser/passkeys.test.ts (Chromium's virtual one);
 * here the options handed out, the challenge kept only as a hash and used once, a response that is
 * not a credential or not ours, calls without a session or CSRF token, the per-client limit,
 * removal (only of one's own), the export and erasure.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import type { Db } from '../../src/db/create-db.js';
import type { Api } from '../../src/http/route-deps.js';
import { buildTestApp, clientFor, createKey, NOW } from '../helpers/app.js';
import { signedInAs } from '../helpers/sessions.js';

const PUBLIC_URL = 'https://markt.example.org';

/** A browser over app.inject: its cookies, and the CSRF token of the last page shown. */
function browser(app: Api, cookie = '') {
  const jar = new Map<string, string>(cookie ? [cookie.split('=') as [string, string]] : []);
  let csrf = '';
  const send = async (method: 'GET' | 'POST', url: string, payload?: unknown, form = false) => {
    const response = await app.inject({
      method,
      url,
      headers: {
        cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; '),
        ...(payload !== undefined && {
          'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json',
        }),
      },
      ...(payload !== undefined && {
        payload: form ? new URLSearchParams(payload as Record<string, string>).toString() : JSON.stringify(payload),
      }),
    });
    for (const set of response.cookies as { name: string; value: string }[]) jar.set(set.name, set.value);
    csrf =
      /data-csrf="([^"]+)"/.exec(response.body)?.[1] ?? /name="_csrf" value="([^"]+)"/.exec(response.body)?.[1] ?? csrf;
    return response;
  };
  return {
    get: (url: string) => send('GET', url),
    json: (url: string, body: Record<string, unknown> = {}) => send('POST', url, { _csrf: csrf, ...body }),
    form: (url: string, body: Record<string, string>) => send('POST', url, { _csrf: csrf, ...body }, true),
    bare: (url: string, body: unknown) => send('POST', url, body),
  };
}

const challengeRows = (db: Db) => db.kysely.selectFrom('passkey_challenges').selectAll().execute();
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** A response shaped like a credential's JSON, which no authenticator made. */
const FORGED = {
  id: 'Zm9yZ2Vk',
  rawId: 'Zm9yZ2Vk',
  type: 'public-key',
  response: { clientDataJSON: 'e30', authenticatorData: 'AAAA', signature: 'AAAA' },
  clientExtensionResults: {},
};

async function withPasskey(db: Db, accountId: string, id: string, name: string) {
  await db.kysely
    .insertInto('passkeys')
    .values({
      id,
      credential_id: `cred-${id}`,
      account_id: accountId,
      public_key: 'cHVibGljLWtleQ',
      counter: 0,
      transports: '["internal"]',
      device_type: 'multiDevice',
      backed_up: 1,
      name,
      created_at: NOW.toISOString(),
      last_used_at: null,
    })
    .execute();
}

describe('passkeys over HTTP', () => {
  test('the sign-in page offers a passkey to scripts; options come with a challenge kept as a hash, used once', async (t) => {
    const { app, db } = await buildTestApp(t, NOW, { PUBLIC_URL });
    const person = browser(app);
    const page = await person.get('/signin');
    assert.equal(page.statusCode, 200);
    // The box is hidden: without the script (or WebAuthn) the page is the e-mail form alone.
    assert.match(page.body, /<div class="passkey" data-passkey="signin" data-csrf="[^"]+" data-failed="[^"]+" hidden>/);
    assert.match(page.body, /<script src="\/assets\/webauthn\.js" defer><\/script>/);
    const csp = String(page.headers['content-security-policy']);
    assert.match(csp, /script-src 'self'; connect-src 'self'/);
    assert.doesNotMatch(csp, /unsafe-inline[^;]*;[^;]*script|script-src[^;]*unsafe/);
    for (const path of ['/assets/webauthn.js', '/assets/passkeys.js']) {
      const script = await app.inject({ method: 'GET', url: path });
      assert.equal(script.statusCode, 200, path);
      assert.equal(script.headers['content-type'], 'text/javascript; charset=utf-8');
    }
    assert.match((await app.inject({ method: 'GET', url: '/assets/webauthn.js' })).body, /SimpleWebAuthnBrowser/);

    // Without the form's token, nothing is handed out.
    const bare = await person.bare('/signin/passkey/options', {});
    assert.equal(bare.statusCode, 403);
    assert.equal((await challengeRows(db)).length, 0);

    const options = await person.json('/signin/passkey/options');
    assert.equal(options.statusCode, 200, options.body);
    assert.equal(options.headers['cache-control'], 'no-store');
    const body = options.json() as { challenge: string; rpId: string; userVerification: string; allowCredentials?: [] };
    assert.equal(body.rpId, 'markt.example.org');
    assert.equal(body.userVerification, 'required');
    assert.deepEqual(body.allowCredentials ?? [], [], 'any passkey of the site: the person picks one');
    const [row] = await challengeRows(db);
    assert.equal(row?.challenge_hash, sha256(body.challenge), 'only the hash of the challenge is kept');
    assert.deepEqual([row?.purpose, row?.account_id], ['signin', null]);
    assert.equal(row?.expires_at, new Date(NOW.getTime() + 5 * 60_000).toISOString());

    // Not a credential, and a credential that is not one of ours: the same refusal, no session.
    for (const credential of [undefined, 'x', { ...FORGED, type: 'other' }, FORGED]) {
      const refused = await person.json('/signin/passkey', { credential });
      assert.equal(refused.statusCode, 400, JSON.stringify(credential));
      assert.equal(refused.json().error, 'passkey_invalid');
      assert.ok(!refused.cookies.some((c: { name: string }) => c.name === 'kmp_session'));
    }
  });

  test('a forged response naming a real passkey fails verification and uses its challenge up', async (t) => {
    const { app, db } = await buildTestApp(t, NOW, { PUBLIC_URL });
    const { accountId } = await createKey(db, { email: 'ada@example.org' });
    await withPasskey(db, accountId, 'pk_ada', 'Laptop');
    const person = browser(app);
    await person.get('/signin?lang=en');
    const { challenge } = (await person.json('/signin/passkey/options')).json() as { challenge: string };
    const clientDataJSON = Buffer.from(
      JSON.stringify({ type: 'webauthn.get', challenge, origin: PUBLIC_URL, crossOrigin: false }),
    ).toString('base64url');
    const forged = {
      ...FORGED,
      id: 'cred-pk_ada',
      rawId: 'cred-pk_ada',
      response: { ...FORGED.response, clientDataJSON },
    };
    const refused = await person.json('/signin/passkey', { credential: forged });
    assert.equal(refused.statusCode, 400);
    assert.deepEqual(refused.json(), {
      error: 'passkey_invalid',
      message: 'This passkey could not be verified. Try again, or sign in with a code by e-mail.',
    });
    assert.equal((await challengeRows(db)).length, 0, 'the challenge went with the try');
    const [kept] = await db.kysely.selectFrom('passkeys').selectAll().execute();
    assert.equal(kept?.last_used_at, null);
    assert.equal((await db.kysely.selectFrom('sessions').selectAll().execute()).length, 0);
  });

  test('registration needs a session; its options exclude the passkeys the account has', async (t) => {
    const { app, db } = await buildTestApp(t, NOW, { PUBLIC_URL });
    const { accountId } = await createKey(db, { email: 'grace@example.org' });
    await withPasskey(db, accountId, 'pk_one', 'Phone');

    const stranger = browser(app);
    await stranger.get('/signin');
    const signedOut = await stranger.json('/account/passkeys/options');
    assert.equal(signedOut.statusCode, 401);
    assert.equal(signedOut.json().error, 'passkey_signedOut');
    assert.equal((await stranger.json('/account/passkeys', { credential: FORGED })).statusCode, 401);

    const { cookie } = await signedInAs(db.kysely, accountId, NOW);
    const grace = browser(app, cookie);
    const page = await grace.get('/account');
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /data-passkey="register"/);
    assert.match(page.body, /<td>Phone<\/td>/);
    const options = await grace.json('/account/passkeys/options');
    assert.equal(options.statusCode, 200, options.body);
    const body = options.json() as {
      rp: { id: string; name: string };
      user: { id: string; name: string; displayName: string };
      excludeCredentials: { id: string }[];
      authenticatorSelection: { residentKey: string; userVerification: string };
      attestation: string;
    };
    assert.deepEqual(body.rp, { id: 'markt.example.org', name: 'Karlsruhe Marketplace' });
    assert.equal(body.user.name, 'grace@example.org');
    assert.equal(Buffer.from(body.user.id, 'base64url').toString(), accountId, 'the user handle is the account id');
    assert.deepEqual(
      body.excludeCredentials.map((c) => c.id),
      ['cred-pk_one'],
    );
    assert.deepEqual(body.authenticatorSelection, {
      residentKey: 'required',
      userVerification: 'required',
      requireResidentKey: true,
    });
    assert.equal(body.attestation, 'none');
    const [row] = await challengeRows(db);
    assert.deepEqual([row?.purpose, row?.account_id], ['register', accountId]);

    const refused = await grace.json('/account/passkeys', { credential: FORGED, name: 'Tablet' });
    assert.equal(refused.statusCode, 400);
    assert.equal((await db.kysely.selectFrom('passkeys').selectAll().execute()).length, 1);
  });

  test("removing a passkey: only one's own; the export lists them without keys; erasure deletes them", async (t) => {
    const { app, db } = await buildTestApp(t, NOW, { PUBLIC_URL });
    const ada = await createKey(db, { email: 'ada@example.org' });
    const bob = await createKey(db, { email: 'bob@example.org' });
    await withPasskey(db, ada.accountId, 'pk_ada', 'Laptop');
    await withPasskey(db, bob.accountId, 'pk_bob', 'Phone');

    const bobBrowser = browser(app, (await signedInAs(db.kysely, bob.accountId, NOW)).cookie);
    await bobBrowser.get('/account');
    const foreign = await bobBrowser.form('/account/passkeys/remove', { passkey: 'pk_ada' });
    assert.equal(foreign.statusCode, 303);
    assert.equal((await db.kysely.selectFrom('passkeys').selectAll().execute()).length, 2, "Ada's passkey stays");
    // Without the token the form does nothing.
    const tokenless = await bobBrowser.bare('/account/passkeys/remove', { passkey: 'pk_bob' });
    assert.equal(tokenless.statusCode, 403);
    await bobBrowser.get('/account');
    assert.equal(
      (await bobBrowser.form('/account/passkeys/remove', { passkey: 'pk_bob' })).headers.location,
      '/account',
    );
    assert.deepEqual(
      (await db.kysely.selectFrom('passkeys').select('id').execute()).map((r) => r.id),
      ['pk_ada'],
    );

    const exported = await clientFor(app, ada.key).get('/v1/me/export');
    assert.equal(exported.status, 200);
    assert.deepEqual(exported.body.passkeys, [
      { id: 'pk_ada', name: 'Laptop', backed_up: true, created_at: NOW.toISOString(), last_used_at: null },
    ]);
    assert.ok(!JSON.stringify(exported.body).includes('cHVibGljLWtleQ'), 'no public key in the export');

    const adaBrowser = browser(app, (await signedInAs(db.kysely, ada.accountId, NOW)).cookie);
    await adaBrowser.get('/account');
    await adaBrowser.json('/account/passkeys/options');
    const erased = await clientFor(app, ada.key).delete('/v1/me', { confirm: 'ada@example.org' });
    assert.ok(erased.status < 300, JSON.stringify(erased.body));
    assert.equal((await db.kysely.selectFrom('passkeys').selectAll().execute()).length, 0);
    assert.equal((await challengeRows(db)).length, 0, 'the registration in flight went too');
  });

  test('a client may start 60 passkey ceremonies an hour', async (t) => {
    const { app } = await buildTestApp(t, NOW, { PUBLIC_URL });
    const person = browser(app);
    await person.get('/signin');
    for (let i = 0; i < 60; i++) assert.equal((await person.json('/signin/passkey/options')).statusCode, 200);
    const over = await person.json('/signin/passkey/options');
    assert.equal(over.statusCode, 429);
    assert.equal(over.json().error, 'passkey_tooMany');
    assert.ok(Number(over.headers['retry-after']) > 0);
  });
});
