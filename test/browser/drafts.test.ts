import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, type TestContext, test } from 'node:test';
import type { Browser, BrowserContext, Page, Response } from 'playwright-core';
import { buildTestApp, clientFor, createKey, NOW } from '../helpers/app.js';
import { JOB_BODY } from '../helpers/bodies.js';
import { launchChromium } from '../helpers/browser.js';
import { signedInAs } from '../helpers/sessions.js';

const HOUR = 3_600_000;
const JOB = { ...JOB_BODY, desired_at: '2026-11-25T09:00:00Z', deadline: '2026-11-26T17:00:00Z' };

/** The app listening on a port, a clock the test moves, and an agent's key. */
async function serve(t: TestContext) {
  let at = NOW.getTime();
  const { app, db } = await buildTestApp(t, () => new Date(at));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const agentKey = await createKey(db, { email: 'person@example.org' });
  const agent = clientFor(app, agentKey.key);
  const jobsOfAgent = async () =>
    (await db.kysely.selectFrom('jobs').select('id').where('owner_account_id', '=', agentKey.accountId).execute())
      .length;
  /** A createJob draft; its page at this server (confirmation_url names PUBLIC_URL, not the test's port). */
  const draft = async () => {
    const created = await agent.post('/v1/drafts', { operation: 'createJob', body: JOB });
    assert.equal(created.status, 201, created.raw);
    return { id: created.body.id as string, url: `${origin}${new URL(created.body.confirmation_url).pathname}` };
  };
  const statusOf = async (id: string) => (await agent.get(`/v1/drafts/${id}`)).body.status as string;
  // The person the agent's drafts are for: only their signed-in browser sees and decides the page.
  const person = await signedInAs(db.kysely, agentKey.accountId, NOW);
  /** A browser context of that person, signed in (the session cookie of this server). */
  const signedIn = async (browser: Browser, options: { javaScriptEnabled: boolean }): Promise<BrowserContext> => {
    const context = await browser.newContext(options);
    // As the sign-in pages set it (sign-in-pages.ts cookieOptions): HttpOnly, SameSite=Lax.
    await context.addCookies([
      { name: person.name, value: person.token, url: origin, httpOnly: true, sameSite: 'Lax' },
    ]);
    return context;
  };
  return { origin, draft, statusOf, jobsOfAgent, signedIn, advance: (ms: number) => (at += ms) };
}

/** Console errors other than the meant non-2xx answers (a CSP violation would show here). */
function watchConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    const expected = message.text().startsWith('Failed to load resource');
    if ((message.type() === 'error' || message.type() === 'warning') && !expected) problems.push(message.text());
  });
  return problems;
}

/** Clicks a button of the page and waits for the page the server answered with. */
async function press(page: Page, name: RegExp): Promise<Response> {
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname.startsWith('/confirm/')),
    page.waitForEvent('load'),
    page.getByRole('button', { name }).click(),
  ]);
  return response;
}

const heading = async (page: Page) => (await page.getByRole('heading', { level: 1 }).textContent())?.trim();

for (const javaScriptEnabled of [false, true]) {
  describe(`/confirm/{token} in Chromium, JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
    test('open, confirm, reload, confirm again from a second tab: one job', async (t) => {
      const browser = await launchChromium(t);
      const { draft, statusOf, jobsOfAgent, signedIn } = await serve(t);
      const { id, url } = await draft();
      const context = await signedIn(browser, { javaScriptEnabled });
      const page = await context.newPage();
      const problems = watchConsole(page);
      const opened = await page.goto(url);
      assert.equal(opened?.status(), 200);
      assert.equal(opened?.headers()['referrer-policy'], 'same-origin');
      assert.equal(opened?.headers()['cache-control'], 'no-store');
      assert.equal(await heading(page), 'Auftrag veröffentlichen? / Post a job?');
      const text = (await page.locator('main').textContent())?.replace(/\s+/g, ' ') ?? '';
      assert.match(text, /Hecke schneiden/);
      assert.match(text, /Durlach \(76227 Karlsruhe\)/);
      assert.match(text, /60,00 € \/ €60\.00/);
      assert.match(text, /25\.11\.2026, 10:00/);
      // A second tab with the same page, still showing the buttons.
      const second = await context.newPage();
      await second.goto(url);

      const confirmed = await press(page, /Bestätigen/);
      assert.equal(confirmed.status(), 200);
      assert.equal(await heading(page), 'Bestätigt / Confirmed');
      assert.equal(await statusOf(id), 'confirmed');
      assert.equal(await jobsOfAgent(), 1);

      const reloaded = await page.reload();
      assert.equal(reloaded?.status(), 200);
      assert.equal(await heading(page), 'Bestätigt / Confirmed');
      assert.equal(await page.getByRole('button').count(), 0);

      const again = await press(second, /Bestätigen/);
      assert.equal(again.status(), 200);
      assert.equal(await heading(second), 'Bestätigt / Confirmed');
      assert.equal(await jobsOfAgent(), 1);
      assert.deepEqual(problems, [], 'no console errors (a CSP violation would show here)');
    });
  });
}

describe('/confirm/{token} in Chromium: decline, expiry, another site', () => {
  test('Decline, then an expired link: nothing is done', async (t) => {
    const browser = await launchChromium(t);
    const { draft, statusOf, jobsOfAgent, advance, signedIn } = await serve(t);
    const page = await (await signedIn(browser, { javaScriptEnabled: false })).newPage();
    const declined = await draft();
    await page.goto(declined.url);
    assert.equal((await press(page, /Ablehnen/)).status(), 200);
    assert.equal(await heading(page), 'Abgelehnt / Declined');
    assert.equal(await statusOf(declined.id), 'declined');

    const late = await draft();
    const stale = await (await signedIn(browser, { javaScriptEnabled: false })).newPage();
    await stale.goto(late.url);
    advance(25 * HOUR);
    const expired = await page.goto(late.url);
    assert.equal(expired?.status(), 410);
    assert.equal(await heading(page), 'Abgelaufen / Expired');
    assert.equal(await page.getByRole('button').count(), 0);
    // The tab opened before the link expired: its Confirm does nothing either.
    const pressed = await press(stale, /Bestätigen/);
    assert.equal(pressed.status(), 410);
    assert.equal(await statusOf(late.id), 'expired');
    assert.equal(await jobsOfAgent(), 0);
  });

  test('a form on another site that posts Confirm gets the 403 page; nothing is done', async (t) => {
    const browser = await launchChromium(t);
    const { draft, statusOf, jobsOfAgent, signedIn } = await serve(t);
    const { id, url } = await draft();
    // Another site (localhost is not 127.0.0.1) that knows the link and posts the button for the visitor.
    const elsewhere = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(
        `<!doctype html><title>Win</title><form method="post" action="${url}"><button type="submit" name="decision" value="confirm">Bestätigen</button></form>`,
      );
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
    t.after(() => new Promise((resolve) => elsewhere.close(resolve)));
    const other = `http://localhost:${(elsewhere.address() as AddressInfo).port}`;
    // The person is signed in here; the other site's post carries no session (SameSite=Lax).
    const page = await (await signedIn(browser, { javaScriptEnabled: false })).newPage();
    await page.goto(`${other}/free-prize`);
    const response = await press(page, /Bestätigen/);
    assert.equal(response.status(), 403);
    const sent = await response.request().allHeaders();
    assert.equal(sent['sec-fetch-site'], 'cross-site');
    assert.equal(sent.cookie, undefined, 'no session cookie on a cross-site post');
    assert.match((await page.getByRole('alert').textContent()) ?? '', /another website/);
    assert.doesNotMatch((await page.locator('main').textContent()) ?? '', /Hecke/, 'nothing of the draft');
    assert.equal(await statusOf(id), 'pending');
    assert.equal(await jobsOfAgent(), 0);
  });

  test('the link alone, in a browser not signed in, leads to the sign-in and shows nothing of the draft', async (t) => {
    const browser = await launchChromium(t);
    const { draft, statusOf } = await serve(t);
    const { id, url } = await draft();
    const page = await (await browser.newContext({ javaScriptEnabled: false })).newPage();
    const opened = await page.goto(url);
    assert.equal(opened?.status(), 200);
    assert.equal(new URL(page.url()).pathname, '/signin');
    assert.equal(new URL(page.url()).searchParams.get('next'), new URL(url).pathname);
    assert.doesNotMatch((await page.locator('main').textContent()) ?? '', /Hecke/);
    assert.equal(await statusOf(id), 'pending');
  });
});
