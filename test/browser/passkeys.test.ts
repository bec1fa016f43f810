/**
 * Issue 31, passkeys in a real browser: Debian's headless Chromium with its DevTools WebAuthn
 * domain's virtual authenticator (a platform authenticator that keeps discoverable credentials and
 * verifies the user), against the app listening on localhost (WebAuthn needs a domain, not an IP
 * address, as the relying party; PUBLIC_URL is that origin). Sign up with the e-mailed code, add a
 * passkey on /account, sign out, sign in with the passkey alone, remove it, and see a sign-in with
 * the removed passkey refused; axe-core over the pages with the script's button shown.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { buildTestApp } from '../helpers/app.js';
import { launchChromium, seriousViolations } from '../helpers/browser.js';
import { freePort } from '../helpers/server-process.js';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp.js';

let smtp: TestSmtpServer;
before(async () => {
  smtp = await startSmtpServer();
});
after(() => smtp.close());

const heading = async (page: Page) => (await page.getByRole('heading', { level: 1 }).textContent())?.trim();

describe('passkeys in Chromium', () => {
  test('add a passkey, sign out, sign in with it alone, remove it; pages pass axe-core', async (t) => {
    const browser = await launchChromium(t);
    const port = await freePort();
    const origin = `http://localhost:${port}`;
    const { app, db } = await buildTestApp(t, new Date(), { SMTP_URL: smtp.url, PUBLIC_URL: origin });
    await app.listen({ port, host: '127.0.0.1' });
    const context = await browser.newContext({ locale: 'de-DE' });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });

    // Sign up with the code first: a passkey is added to an account that exists.
    await page.goto(`${origin}/signup`);
    await page.getByLabel('Ihr Name').fill('Katherine Johnson');
    await page.getByLabel('E-Mail-Adresse').fill('katherine@example.org');
    await page.getByLabel('Privat – für mich selbst').check();
    await page.getByRole('button', { name: 'Code senden' }).click();
    const mail = await smtp.next();
    await page.getByLabel('Code aus der E-Mail (6 Ziffern)').fill(/^ {4}(\d{6})$/m.exec(mail.text)?.[1] as string);
    await page.getByRole('button', { name: 'Weiter' }).click();
    assert.equal(new URL(page.url()).pathname, '/account');
    assert.match((await page.locator('main').textContent()) ?? '', /Noch keine Passkeys/);

    // The script shows the button; the virtual authenticator makes the credential.
    await page.getByLabel('Name des neuen Passkeys (optional)').fill('Laptop');
    await page.getByRole('button', { name: 'Passkey hinzufügen' }).click();
    await page.waitForURL(`${origin}/account?added=passkey`);
    assert.equal(await page.getByRole('cell', { name: 'Laptop', exact: true }).count(), 1);
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    assert.equal(credentials.length, 1);
    assert.equal(credentials[0]?.isResidentCredential, true);
    const [stored] = await db.kysely.selectFrom('passkeys').selectAll().execute();
    assert.equal(
      stored?.credential_id,
      credentials[0]?.credentialId.replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_'),
    );
    assert.deepEqual([stored?.name, stored?.last_used_at], ['Laptop', null]);
    assert.deepEqual(await seriousViolations(page), [], 'axe-core on /account with a passkey');

    await page.getByRole('button', { name: 'Abmelden' }).click();
    assert.equal(new URL(page.url()).pathname, '/signin');
    assert.deepEqual(await seriousViolations(page), [], 'axe-core on /signin with the passkey button');

    // The passkey alone signs in: no address typed, no code.
    await page.getByRole('button', { name: 'Mit Passkey anmelden' }).click();
    await page.waitForURL(`${origin}/account`);
    assert.equal(await heading(page), 'Ihr Konto');
    assert.match((await page.locator('dl').textContent()) ?? '', /katherine@example\.org/);
    const used = await db.kysely.selectFrom('passkeys').selectAll().executeTakeFirstOrThrow();
    assert.notEqual(used.last_used_at, null);
    assert.equal((await db.kysely.selectFrom('passkey_challenges').selectAll().execute()).length, 0);

    // Removed on /account (a plain form), the authenticator's copy no longer signs in.
    await page.getByRole('button', { name: 'Passkey entfernen Laptop' }).click();
    assert.match((await page.locator('main').textContent()) ?? '', /Noch keine Passkeys/);
    await page.getByRole('button', { name: 'Abmelden' }).click();
    await page.getByRole('button', { name: 'Mit Passkey anmelden' }).click();
    await page.getByText(/Dieser Passkey konnte nicht geprüft werden/).waitFor();
    assert.equal(new URL(page.url()).pathname, '/signin');
    assert.equal(
      (await context.cookies()).find((c) => c.name === 'kmp_session'),
      undefined,
    );
  });
});
