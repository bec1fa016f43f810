import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, type TestContext, test } from 'node:test';
import type { Page, Response } from 'playwright-core';
import { buildTestApp, NOW } from '../helpers/app.js';
import { launchChromium } from '../helpers/browser.js';

/** Clicks the submit button and waits for the page the server answered with. */
async function submit(page: Page): Promise<Response> {
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/developers'),
    page.waitForEvent('load'),
    page.getByRole('button', { name: 'Request key' }).click(),
  ]);
  return response;
}

/** A temporary directory for screenshots, removed when the test ends. */
function screenshotDir(t: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'developers-page-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The error shown inside the same field group as the input with this id, or null without one. */
async function errorNextTo(page: Page, id: string): Promise<string | null> {
  const group = page.locator('.field', { has: page.locator(`#${id}`) });
  const errors = group.locator('p.error');
  return (await errors.count()) === 0 ? null : errors.textContent();
}

for (const javaScriptEnabled of [true, false]) {
  describe(`/developers in Chromium, JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
    test('register: field errors, a filed request, then the same confirmation for the same address', async (t) => {
      const browser = await launchChromium(t);
      const { app, db } = await buildTestApp(t, undefined, {
        RATE_LIMIT_ANONYMOUS_PER_MIN: '20',
        RATE_LIMIT_DEVELOPER_PER_MIN: '100',
      });
      await app.listen({ port: 0, host: '127.0.0.1' });
      const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
      const context = await browser.newContext({ javaScriptEnabled, viewport: { width: 900, height: 1000 } });
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('console', (message) => {
        // The 400 answers are meant; so is the 404 for /favicon.ico.
        const expected = message.text().startsWith('Failed to load resource');
        if ((message.type() === 'error' || message.type() === 'warning') && !expected) problems.push(message.text());
      });
      const shots = javaScriptEnabled ? screenshotDir(t) : undefined;

      // The page: every field by its label, and the way to the reference.
      const first = await page.goto(`${origin}/developers`);
      assert.equal(first?.status(), 200);
      assert.equal(await page.title(), 'Request a developer key – Karlsruhe Marketplace API');
      await page.getByLabel('Your name').fill('Ada Lovelace');
      await page.getByLabel('Email address').fill('ada.example.org');
      await page.getByLabel('Organisation (optional)').fill('Analytical <Engines> GmbH');
      await page.getByLabel('Commercial – for a business').check();
      assert.equal(await page.getByLabel('Private – for yourself').isChecked(), false);
      await page.getByLabel('Intended use').fill('maps');
      assert.equal(await page.getByRole('link', { name: 'API reference' }).first().getAttribute('href'), '/docs');
      // Inline styles apply under the Content-Security-Policy: the button has the accent colour.
      assert.equal(
        await page
          .getByRole('button', { name: 'Request key' })
          .evaluate((b) => (globalThis as any).getComputedStyle(b).backgroundColor),
        'rgb(11, 92, 173)',
      );
      if (shots) await page.screenshot({ path: join(shots, 'filled-form.png'), fullPage: true });

      // Errors next to their fields, values kept.
      assert.equal((await submit(page)).status(), 400);
      assert.equal(await errorNextTo(page, 'email'), 'Error: Enter an email address in the form name@example.org.');
      assert.equal(
        await errorNextTo(page, 'intended_use'),
        'Error: The intended use needs at least 10 characters; this one has 4. Tell us a little more.',
      );
      assert.equal(await errorNextTo(page, 'name'), null);
      assert.equal(await errorNextTo(page, 'organisation'), null);
      const email = page.getByLabel('Email address');
      assert.equal(await email.getAttribute('aria-invalid'), 'true');
      assert.equal(await email.getAttribute('aria-describedby'), 'email-hint email-error');
      assert.equal(await page.getByLabel('Your name').inputValue(), 'Ada Lovelace');
      assert.equal(await page.getByLabel('Organisation (optional)').inputValue(), 'Analytical <Engines> GmbH');
      assert.equal(await page.getByLabel('Commercial – for a business').isChecked(), true);
      assert.equal(await page.getByLabel('Intended use').inputValue(), 'maps');
      assert.equal(await page.getByRole('alert').getByRole('link').count(), 2);
      if (shots) await page.screenshot({ path: join(shots, 'errors.png'), fullPage: true });

      // Corrected: filed as pending, the id shown with the 24-hour promise.
      await email.fill('Ada@Example.org');
      await page.getByLabel('Intended use').fill('A map of open gardening jobs in Durlach.');
      const filed = await submit(page);
      assert.equal(filed.status(), 202);
      // What Chromium says about the submission, which the cross-site check lets through.
      const sent = await filed.request().allHeaders();
      assert.equal(sent['sec-fetch-site'], 'same-origin');
      assert.equal(sent.origin, origin);
      assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Request received');
      const id = (await page.locator('#request-id').textContent()) ?? '';
      assert.match(id, /^kr_[0-9a-f]{16}$/);
      assert.match(
        (await page.locator('main').textContent())?.replace(/\s+/g, ' ') ?? '',
        /We review every request within 24 hours and send the key to ada@example\.org\./,
      );
      // From the form to the database: the row as filed.
      assert.deepEqual(await db.kysely.selectFrom('key_requests').selectAll().execute(), [
        {
          id,
          name: 'Ada Lovelace',
          email: 'ada@example.org',
          organisation: 'Analytical <Engines> GmbH',
          account_type: 'commercial',
          intended_use: 'A map of open gardening jobs in Durlach.',
          status: 'pending',
          created_at: NOW.toISOString(),
          decided_at: null,
          reason: null,
          key_id: null,
        },
      ]);
      if (shots) await page.screenshot({ path: join(shots, 'confirmation.png'), fullPage: true });

      // The same address again, while the first request waits.
      await page.goto(`${origin}/developers`);
      await page.getByLabel('Your name').fill('Ada L.');
      await page.getByLabel('Email address').fill('ada@example.org');
      await page.getByLabel('Private – for yourself').check();
      await page.getByLabel('Intended use').fill('A second try at the same thing.');
      // The same confirmation, with an id of its own: the page never tells that a request waits.
      assert.equal((await submit(page)).status(), 202);
      assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Request received');
      const second = (await page.locator('#request-id').textContent()) ?? '';
      assert.match(second, /^kr_[0-9a-f]{16}$/);
      assert.notEqual(second, id);
      assert.deepEqual(await db.kysely.selectFrom('key_requests').select('id').execute(), [{ id }], 'nothing filed');

      assert.deepEqual(problems, [], 'no console errors (a CSP violation would show here)');
    });
  });
}

describe('/developers in Chromium, posted from another site', () => {
  test('a form on another site that posts to /developers gets the 403 page; nothing is filed', async (t) => {
    const browser = await launchChromium(t);
    const { app, db } = await buildTestApp(t);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const target = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/developers`;
    // Another site (localhost is not 127.0.0.1) with a page that posts the form to this one.
    const fields = Object.entries({
      name: 'Mallory',
      email: 'mallory@example.org',
      account_type: 'private',
      intended_use: 'Requests in the name of whoever visits.',
    }).map(([name, value]) => `<input type="hidden" name="${name}" value="${value}">`);
    const elsewhere = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(
        `<!doctype html><title>Win</title><form method="post" action="${target}">${fields.join('')}<button type="submit">Request key</button></form>`,
      );
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
    t.after(() => new Promise((resolve) => elsewhere.close(resolve)));
    const other = `http://localhost:${(elsewhere.address() as AddressInfo).port}`;
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${other}/free-prize`);

    const response = await submit(page);
    assert.equal(response.status(), 403);
    const sent = await response.request().allHeaders();
    assert.equal(sent['sec-fetch-site'], 'cross-site');
    assert.equal(sent.origin, other);
    assert.equal(await page.title(), 'Error: Request a developer key – Karlsruhe Marketplace API');
    assert.match(
      (await page.getByRole('alert').textContent())?.replace(/\s+/g, ' ') ?? '',
      /Your request was not filed ?The form was sent from another website, so we did not file it\./,
    );
    assert.equal(await page.getByLabel('Your name').inputValue(), '');
    assert.deepEqual(await db.kysely.selectFrom('key_requests').selectAll().execute(), []);
  });
});
