/**
 * Issue 33: the operators' console in Debian's Chromium, no JavaScript at all. Signed in as each
 * role, an operator sees the queues the role allows (support: key requests and verifications;
 * admin: also reports, appeals, claims, and the audit log), and 403 for the rest, also by URL; an
 * account without a role gets 403, a signed-out browser the sign-in; a console session ends after
 * 30 idle minutes. The pages pass axe-core with no serious violation, speak German and English,
 * send a CSP without unsafe-inline, and work with the keyboard alone.
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { type TestContext, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { addOperatorCommand } from '../../src/cli/admin-operators.js';
import { adminContext } from '../helpers/admin-cli.js';
import { buildTestApp, createKey, NOW } from '../helpers/app.js';
import { KEY_REQUEST_BODY } from '../helpers/bodies.js';
import { launchChromium, seriousViolations } from '../helpers/browser.js';
import { signedInPage } from '../helpers/sessions.js';

async function serve(t: TestContext) {
  let at = NOW.getTime();
  const { app, db } = await buildTestApp(t, () => new Date(at));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const ada = await createKey(db, { email: 'ada@example.org' });
  const sam = await createKey(db, { email: 'sam@example.org' });
  const nora = await createKey(db, { email: 'nora@example.org' });
  await addOperatorCommand(adminContext(db.kysely, []), 'ada@example.org', { role: 'admin', reason: 'Gründerin' });
  await addOperatorCommand(adminContext(db.kysely, []), 'sam@example.org', { role: 'support' });
  // A key request waiting for a decision: the support queue is not empty.
  const requested = await app.inject({
    method: 'POST',
    url: '/v1/developer/key-requests',
    payload: KEY_REQUEST_BODY,
  });
  assert.ok(requested.statusCode < 300, requested.body);
  /** A browser page signed in as the account (the session cookie of this server). */
  const as = (browser: Browser, accountId: string | null, locale = 'en-GB', javaScriptEnabled = false) =>
    signedInPage(browser, db.kysely, origin, accountId, { now: new Date(at), locale, javaScriptEnabled });
  /**
   * axe-core's verdict on a page as the account sees it: axe runs as a script, so in a context with
   * JavaScript on (the console has none of its own: the page is the same).
   */
  const axe = async (browser: Browser, accountId: string, url: string): Promise<string[]> => {
    const page = await as(browser, accountId, 'en-GB', true);
    await page.goto(url);
    return seriousViolations(page);
  };
  return { origin, db, ada, sam, nora, as, axe, advance: (ms: number) => (at += ms) };
}

const heading = async (page: Page) => (await page.getByRole('heading', { level: 1 }).textContent())?.trim();
const rowHeaders = async (page: Page) =>
  (await page.locator('main > table tbody th[scope=row]').allTextContents()).map((text) => text.trim());

test('the console by role: queues, the audit log, 403 by URL, German and English, axe-clean, keyboard only', {
  timeout: 120_000,
}, async (t) => {
  const browser = await launchChromium(t);
  const s = await serve(t);

  // The admin: every queue, and the audit log.
  const admin = await s.as(browser, s.ada.accountId);
  const overview = await admin.goto(`${s.origin}/console`);
  assert.equal(overview?.status(), 200);
  const csp = overview?.headers()['content-security-policy'] ?? '';
  assert.match(csp, /style-src 'sha256-/);
  assert.doesNotMatch(csp, /unsafe-inline|script-src/);
  assert.equal(overview?.headers()['cache-control'], 'no-store');
  assert.equal(await heading(admin), 'Console');
  assert.deepEqual(await rowHeaders(admin), [
    'Key requests',
    'Verifications',
    'DSA reports',
    'Appeals',
    'Disputed damage claims',
  ]);
  const keyRow = await admin.locator('tbody tr').first().locator('th, td').allTextContents();
  assert.deepEqual(keyRow, ['Key requests', '1', '0 h']);
  assert.deepEqual(await s.axe(browser, s.ada.accountId, `${s.origin}/console`), []);

  // With the keyboard alone: Tab to the audit log's link and press Enter.
  let focused = '';
  for (let i = 0; i < 20 && focused !== 'Audit log'; i++) {
    await admin.keyboard.press('Tab');
    focused = ((await admin.locator(':focus').textContent({ timeout: 2_000 })) ?? '').trim();
  }
  assert.equal(focused, 'Audit log');
  await Promise.all([
    admin.waitForURL(`${s.origin}/console/audit`, { timeout: 10_000 }),
    admin.keyboard.press('Enter'),
  ]);
  assert.equal(await heading(admin), 'Audit log');
  const entries = (await admin.locator('tbody tr').allInnerTexts()).map((row) => row.split('\t'));
  assert.equal(entries.length, 2);
  assert.deepEqual(entries[0]?.slice(1, 4), ['cli', 'cli', 'operator.added']);
  assert.match(entries[0]?.[4] ?? '', /^account acc_\w+$/);
  assert.equal(entries[0]?.[5], 'Gründerin');
  assert.deepEqual(await s.axe(browser, s.ada.accountId, `${s.origin}/console/audit`), []);
  // The filter, by the form (GET) and by URL; a malformed day is a 400 page that says so.
  await admin.goto(`${s.origin}/console/audit?actor=cli&action=operator.added&from=2026-01-01&to=2099-01-01`);
  assert.equal(await admin.locator('tbody tr').count(), 2);
  const bad = await admin.goto(`${s.origin}/console/audit?from=gestern`);
  assert.equal(bad?.status(), 400);
  assert.match((await admin.getByRole('alert').textContent()) ?? '', /YYYY-MM-DD/);

  // In German.
  const deutsch = await s.as(browser, s.ada.accountId, 'de-DE');
  await deutsch.goto(`${s.origin}/console`);
  assert.equal(await heading(deutsch), 'Konsole');
  assert.equal(await deutsch.getAttribute('html', 'lang'), 'de');
  assert.deepEqual((await rowHeaders(deutsch)).slice(0, 2), ['Schlüsselanträge', 'Verifizierungen']);

  // Support: its two queues; the audit log is above the role (403, also by URL).
  const support = await s.as(browser, s.sam.accountId);
  await support.goto(`${s.origin}/console`);
  assert.deepEqual(await rowHeaders(support), ['Key requests', 'Verifications']);
  assert.equal(await support.getByRole('link', { name: 'Audit log' }).count(), 0);
  const above = await support.goto(`${s.origin}/console/audit`);
  assert.equal(above?.status(), 403);
  assert.match((await support.locator('main').textContent()) ?? '', /needs a higher role/);
  assert.deepEqual(await s.axe(browser, s.sam.accountId, `${s.origin}/console/audit`), []);

  // No role: 403. Signed out: to sign-in.
  const plain = await s.as(browser, s.nora.accountId);
  assert.equal((await plain.goto(`${s.origin}/console`))?.status(), 403);
  const nobody = await s.as(browser, null);
  await nobody.goto(`${s.origin}/console`);
  assert.equal(new URL(nobody.url()).pathname, '/signin');
});

test('a console session ends after 30 idle minutes', async (t) => {
  const browser = await launchChromium(t);
  const s = await serve(t);
  const admin = await s.as(browser, s.ada.accountId);
  assert.equal((await admin.goto(`${s.origin}/console`))?.status(), 200);
  s.advance(29 * 60_000);
  assert.equal((await admin.goto(`${s.origin}/console`))?.status(), 200, 'each request counts');
  s.advance(31 * 60_000);
  await admin.goto(`${s.origin}/console`);
  assert.equal(new URL(admin.url()).pathname, '/signin');
  const sessions = await s.db.kysely
    .selectFrom('sessions')
    .select('id')
    .where('account_id', '=', s.ada.accountId)
    .execute();
  assert.equal(sessions.length, 0, 'the session ended');
});
