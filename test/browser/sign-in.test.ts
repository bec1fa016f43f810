/**
 * Issue 31 in a real browser: sign up, enter the e-mailed code, see /account, sign out, in Debian's
 * headless Chromium, without JavaScript (the pages need none: passkeys are test/browser/passkeys.test.ts) and with axe-core over each page: no
 * serious or critical accessibility violation, in German and English.
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { buildTestApp } from '../helpers/app.js';
import { launchChromium, seriousViolations } from '../helpers/browser.js';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp.js';

let smtp: TestSmtpServer;
before(async () => {
  smtp = await startSmtpServer();
});
after(() => smtp.close());

const heading = async (page: Page) => (await page.getByRole('heading', { level: 1 }).textContent())?.trim();

describe('sign-up and sign-in in Chromium', () => {
  test('sign up, enter the code, /account, sign out; every page passes axe-core', async (t) => {
    const browser = await launchChromium(t);
    const { app } = await buildTestApp(t, new Date(), { SMTP_URL: smtp.url });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    // Scripts off for the person, as the pages need none; axe runs through the DevTools protocol.
    const context = await browser.newContext({ javaScriptEnabled: false, locale: 'de-DE' });
    const page = await context.newPage();
    const axePage = await (await browser.newContext({ bypassCSP: true })).newPage();
    const checked = async (url: string) => {
      await axePage.context().clearCookies();
      await axePage.context().addCookies(await context.cookies());
      await axePage.goto(url);
      assert.deepEqual(await seriousViolations(axePage), [], `axe-core on ${url}`);
    };

    assert.equal((await page.goto(`${origin}/signup`))?.status(), 200);
    assert.equal(await heading(page), 'Konto anlegen');
    await checked(`${origin}/signup`);
    // An empty form: the errors are listed and named next to their fields.
    await page.getByRole('button', { name: 'Code senden' }).click();
    assert.match((await page.getByRole('alert').textContent()) ?? '', /Geben Sie Ihren Namen ein\./);

    await page.getByLabel('Ihr Name').fill('Grace Hopper');
    await page.getByLabel('E-Mail-Adresse').fill('grace@example.org');
    await page.getByLabel('Privat – für mich selbst').check();
    await page.getByRole('button', { name: 'Code senden' }).click();
    assert.equal(new URL(page.url()).pathname, '/signin/code');
    assert.equal(await heading(page), 'Code eingeben');
    await checked(`${origin}/signin/code`);
    const mail = await smtp.next();
    const code = /^ {4}(\d{6})$/m.exec(mail.text)?.[1] as string;

    await page.getByLabel('Code aus der E-Mail (6 Ziffern)').fill(code);
    await page.getByRole('button', { name: 'Weiter' }).click();
    assert.equal(new URL(page.url()).pathname, '/account');
    assert.equal(await heading(page), 'Ihr Konto');
    assert.match((await page.locator('dl').textContent()) ?? '', /Grace Hopper/);
    const cookies = await context.cookies();
    const session = cookies.find((c) => c.name === 'kmp_session');
    assert.deepEqual([session?.httpOnly, session?.sameSite], [true, 'Lax']);
    await checked(`${origin}/account?lang=en`);

    await page.getByRole('button', { name: 'Abmelden' }).click();
    assert.equal(new URL(page.url()).pathname, '/signin');
    assert.equal(await heading(page), 'Anmelden');
    await checked(`${origin}/signin`);
    assert.equal(
      (await context.cookies()).find((c) => c.name === 'kmp_session'),
      undefined,
    );
  });
});
