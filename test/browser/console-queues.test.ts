/**
 * Issue 33: every queue of the operators' console decided end to end in Debian's Chromium, with
 * JavaScript off (the console has none), on both engines: support approves a key request (the key
 * is e-mailed) and rejects a verification; a moderator decides a DSA report from its template,
 * reads a reported message's conversation (the read is recorded), cannot decide the appeal of their
 * own decision (four eyes) which an admin then reverses, and decides a disputed claim; support
 * suspends and restores an account (re-authentication when the sign-in is older than ten minutes);
 * an admin erases one. Each action is found in the audit log with its actor and reason; every page
 * passes axe-core; a queue item is decided with the keyboard alone.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type TestContext, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { addOperatorCommand } from '../../src/cli/admin-operators.js';
import { createMailer } from '../../src/mail/mailer.js';
import { adminContext } from '../helpers/admin-cli.js';
import { buildTestApp, clientFor, createKey, NOW } from '../helpers/app.js';
import { helperBody, JOB_BODY, KEY_REQUEST_BODY, LISTING_BODY } from '../helpers/bodies.js';
import { launchChromium, seriousViolations } from '../helpers/browser.js';
import { signedInPage } from '../helpers/sessions.js';

const HOUR = 3_600_000;

async function serve(t: TestContext) {
  let at = NOW.getTime();
  const outbox = mkdtempSync(join(tmpdir(), 'console-mail-'));
  const mailer = createMailer({ OUTBOX_DIR: outbox, MAIL_FROM: 'api@example.org', SMTP_URL: undefined });
  t.after(() => {
    mailer.close();
    rmSync(outbox, { recursive: true, force: true });
  });
  const { app, db } = await buildTestApp(t, () => new Date(at), { REPORTS_PER_HOUR: '1000' }, { mailer });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const client = async (email: string) => {
    const created = await createKey(db, { email });
    return { ...clientFor(app, created.key), accountId: created.accountId, email };
  };
  const ada = await client('ada@example.org');
  const mo = await client('mo@example.org');
  const sam = await client('sam@example.org');
  const olga = await client('olga@example.org');
  const rita = await client('rita@example.org');
  const nora = await client('nora@example.org');
  const cli = adminContext(db.kysely, []);
  await addOperatorCommand(cli, ada.email, { role: 'admin' });
  await addOperatorCommand(cli, mo.email, { role: 'moderator' });
  await addOperatorCommand(cli, sam.email, { role: 'support' });

  /** A browser page signed in as the account, JavaScript off unless asked. */
  const as = (browser: Browser, accountId: string, javaScriptEnabled = false) =>
    signedInPage(browser, db.kysely, origin, accountId, { now: new Date(at), javaScriptEnabled });
  /** axe-core's serious violations of the page at `url` as the account sees it (axe needs JavaScript; the page has none of its own). */
  const axe = async (page: Page, url: string) => {
    await page.goto(url);
    return seriousViolations(page);
  };
  return { app, db, origin, outbox, ada, mo, sam, olga, rita, nora, as, axe, advance: (ms: number) => (at += ms) };
}

/**
 * With CONSOLE_SCREENSHOTS=<dir>, the main screens are saved there as PNG (docs/images/console-*.png
 * are made so); without it nothing is written.
 */
const shot = async (page: Page, name: string) => {
  const dir = process.env.CONSOLE_SCREENSHOTS;
  if (dir) await page.screenshot({ path: join(dir, `console-${name}.png`), fullPage: true });
};

const heading = async (page: Page) => (await page.getByRole('heading', { level: 1 }).textContent())?.trim();
const status = async (page: Page) => ((await page.getByRole('status').first().textContent()) ?? '').trim();
const alert = async (page: Page) => ((await page.getByRole('alert').first().textContent()) ?? '').trim();

test('every queue decided in the console, each action in the audit log, axe-clean, keyboard only', {
  timeout: 240_000,
}, async (t) => {
  const browser = await launchChromium(t);
  const s = await serve(t);
  const checked: string[] = [];
  const axeAs = await s.as(browser, s.ada.accountId, true);
  const clean = async (path: string) => {
    assert.deepEqual(await s.axe(axeAs, `${s.origin}${path}`), [], path);
    checked.push(path);
  };

  // What waits: a key request, a verification, a report on a job, a report on a message, a disputed claim.
  const requested = await s.app.inject({
    method: 'POST',
    url: '/v1/developer/key-requests',
    payload: KEY_REQUEST_BODY,
  });
  assert.ok(requested.statusCode < 300, requested.body);
  const helper = (await s.rita.post('/v1/helpers', helperBody('Rita R.'))).body;
  const verification = await s.rita.post(`/v1/helpers/${helper.id}/verification-requests`, { method: 'phone' });
  assert.equal(verification.status, 202, verification.raw);
  const job = await s.olga.post('/v1/jobs', { ...JOB_BODY, title: 'Hecke gegen Gutschein schneiden' });
  assert.equal(job.status, 201, job.raw);
  const report = await s.rita.post('/v1/reports', {
    about: { type: 'job', id: job.body.id },
    reason: 'scam_or_fraud',
    explanation: 'Verlangt Vorkasse per Gutschein, bevor jemand kommt.',
    good_faith: true,
  });
  assert.equal(report.status, 201, report.raw);
  // The poster edits the job afterwards: the console shows what was reported.
  assert.equal((await s.olga.patch(`/v1/jobs/${job.body.id}`, { title: 'Hecke schneiden' })).status, 200);
  const listing = (await s.olga.post('/v1/listings', { ...LISTING_BODY, instant_booking: true })).body;
  const conversation = await s.rita.post('/v1/conversations', {
    about: { type: 'listing', id: listing.id },
    text: 'Ist das Zelt noch frei?',
  });
  assert.equal(conversation.status, 201, conversation.raw);
  const insult = await s.olga.post(`/v1/conversations/${conversation.body.id}/messages`, {
    text: 'Frag nicht so dumm.',
  });
  assert.equal(insult.status, 201, insult.raw);
  const messageReport = await s.rita.post('/v1/reports', {
    about: { type: 'message', id: insult.body.id },
    reason: 'discrimination_or_hate',
    explanation: 'Eine Beleidigung in einer privaten Nachricht.',
    good_faith: true,
  });
  assert.equal(messageReport.status, 201, messageReport.raw);
  const claimId = await disputedClaim(s, listing.id);

  // ---- support: key requests and verifications; the moderator's queues are above the role.
  const sam = await s.as(browser, s.sam.accountId);
  await sam.goto(`${s.origin}/console/key-requests`);
  assert.equal(await heading(sam), 'Key requests');
  assert.match((await sam.locator('article').first().textContent()) ?? '', /Nachbarschaftshilfe in Durlach/);
  await clean('/console/key-requests');
  await shot(sam, 'key-requests');
  // With the keyboard alone: Tab to the approve button and press Enter.
  let focused = '';
  for (let i = 0; i < 30 && focused !== 'Approve and send the key'; i++) {
    await sam.keyboard.press('Tab');
    focused = ((await sam.locator(':focus').textContent({ timeout: 2_000 })) ?? '').trim();
  }
  assert.equal(focused, 'Approve and send the key');
  await Promise.all([sam.waitForURL(/done=approved/, { timeout: 10_000 }), sam.keyboard.press('Enter')]);
  assert.match(await status(sam), /^Approved; the key is on its way: kr_/);
  assert.equal(await sam.locator('article').count(), 0);
  const mails = readdirSync(s.outbox).map((name) => readFileSync(join(s.outbox, name), 'utf8'));
  assert.ok(
    mails.some((mail) => /paula@example\.org/.test(mail) && /kmp_live_|X-API-Key/.test(mail)),
    'the key was e-mailed',
  );

  await sam.goto(`${s.origin}/console/verifications`);
  await clean('/console/verifications');
  await sam.getByRole('link', { name: 'Rita R.' }).click();
  assert.equal(await heading(sam), 'Verification');
  await shot(sam, 'verification');
  await clean(`/console/verifications/${verification.body.id}`);
  await sam.getByRole('button', { name: 'Reject' }).click();
  assert.equal(await heading(sam), 'Verification', 'a reason is required: the browser keeps the form (required)');
  await sam.getByLabel('Reason (stored and sent)').fill('Die Telefonnummer war nicht erreichbar.');
  await Promise.all([sam.waitForURL(/done=refused/), sam.getByRole('button', { name: 'Reject' }).click()]);
  assert.match(await status(sam), /Verification rejected: ver_/);

  for (const path of ['/console/reports', `/console/reports/${report.body.id}`, '/console/claims', '/console/audit']) {
    assert.equal((await sam.goto(`${s.origin}${path}`))?.status(), 403, path);
  }

  // ---- the moderator: the report as it was, a template to edit, the decision.
  const mo = await s.as(browser, s.mo.accountId);
  await mo.goto(`${s.origin}/console/reports`);
  await clean('/console/reports');
  await mo.getByRole('link', { name: report.body.id }).click();
  assert.equal(await heading(mo), 'DSA report');
  const main = (await mo.locator('main').textContent()) ?? '';
  assert.match(main, /Hecke gegen Gutschein schneiden/, 'the title as reported, not as edited');
  assert.match(main, /Verlangt Vorkasse per Gutschein/);
  await clean(`/console/reports/${report.body.id}`);
  const template = await mo.getByLabel(/Statement of reasons/).inputValue();
  assert.match(template, /§ 263 StGB/, 'the scam template');
  await shot(mo, 'report');
  await mo
    .getByLabel(/Statement of reasons/)
    .fill('Vorkasse per Gutschein ist Betrug (§ 263 StGB). Der Auftrag ist entfernt.');
  await mo.getByLabel('Action', { exact: true }).selectOption('remove');
  await mo.getByLabel('Ground', { exact: true }).selectOption('legal');
  await Promise.all([mo.waitForURL(/done=decided/), mo.getByRole('button', { name: 'Decide' }).click()]);
  assert.equal((await s.olga.get(`/v1/jobs/${job.body.id}`)).body.status, 'removed');

  // A reported message: its conversation only on asking, and the read is recorded.
  await mo.goto(`${s.origin}/console/reports/${messageReport.body.id}`);
  assert.doesNotMatch((await mo.locator('main').textContent()) ?? '', /Frag nicht so dumm/);
  await clean(`/console/reports/${messageReport.body.id}`);
  await mo.getByRole('button', { name: /Read the message/ }).click();
  const read = (await mo.locator('main').textContent()) ?? '';
  assert.match(read, /Frag nicht so dumm/);
  assert.match(read, /Ist das Zelt noch frei/);
  await shot(mo, 'private-read');

  // The poster appeals; the moderator who decided may not decide it (four eyes), the admin reverses it.
  const decisions = (await s.olga.get('/v1/me/moderation-decisions')).body.data as { id: string }[];
  assert.equal(decisions.length, 1);
  const appeal = await s.olga.post(`/v1/me/moderation-decisions/${decisions[0]?.id}/appeals`, {
    text: 'Das war ein Missverständnis, ich zahle bar nach der Arbeit.',
  });
  assert.equal(appeal.status, 201, appeal.raw);
  await mo.goto(`${s.origin}/console/appeals/${appeal.body.id}`);
  assert.match(await status(mo), /another operator decides the appeal \(four eyes\)/);
  assert.equal(await mo.getByRole('button', { name: 'Decide the appeal' }).count(), 0);
  await clean(`/console/appeals/${appeal.body.id}`);
  const ada = await s.as(browser, s.ada.accountId);
  await ada.goto(`${s.origin}/console/appeals`);
  await clean('/console/appeals');
  await ada.getByRole('link', { name: appeal.body.id }).click();
  await ada.getByLabel(/Reverse the decision/).check();
  await ada.getByLabel('Reason (stored and sent)').fill('Barzahlung nach der Arbeit ist erlaubt.');
  await Promise.all([ada.waitForURL(/done=decided/), ada.getByRole('button', { name: 'Decide the appeal' }).click()]);
  assert.equal((await s.olga.get(`/v1/jobs/${job.body.id}`)).body.status, 'open', 'reversed at once');

  // A disputed claim: both sides, the booking, an amount.
  await mo.goto(`${s.origin}/console/claims`);
  await clean('/console/claims');
  await mo.getByRole('link', { name: claimId }).click();
  const claimPage = (await mo.locator('main').textContent()) ?? '';
  assert.match(claimPage, /Riss im Sitzbrett/);
  assert.match(claimPage, /war schon vorher da/);
  await clean(`/console/claims/${claimId}`);
  await shot(mo, 'claim');
  assert.doesNotMatch(claimPage, /Ist das Zelt noch frei/, 'their conversation only on asking');
  await mo.getByRole('button', { name: /Read their conversation/ }).click();
  assert.match((await mo.locator('main').textContent()) ?? '', /Ist das Zelt noch frei/);
  await mo.getByLabel(/Amount the owner keeps/).fill('99');
  await mo.getByLabel('Reason (stored and sent)').fill('Beide Seiten glaubhaft; die Hälfte.');
  await mo.getByRole('button', { name: 'Decide the amount' }).click();
  assert.doesNotMatch(mo.url(), /done=/, 'more than claimed: the form’s max stops it');
  await mo.getByLabel(/Amount the owner keeps/).fill('6.25');
  await Promise.all([mo.waitForURL(/done=decided/), mo.getByRole('button', { name: 'Decide the amount' }).click()]);
  const claim = await s.db.kysely.selectFrom('claims').selectAll().where('id', '=', claimId).executeTakeFirstOrThrow();
  assert.deepEqual([claim.status, Number(claim.decided_cents)], ['decided', 625]);

  // ---- accounts: search, suspend and restore (with a recent sign-in), erase (admin).
  await sam.goto(`${s.origin}/console/accounts`);
  await sam.getByLabel('E-mail, name or account id').fill('OLGA@');
  await sam.getByRole('button', { name: 'Search' }).click();
  await clean('/console/accounts?q=olga');
  await sam.locator('tr', { hasText: 'olga@example.org' }).getByRole('link').click();
  assert.equal(await heading(sam), 'Account');
  await shot(sam, 'account');
  assert.match(
    (await sam.locator('main').textContent()) ?? '',
    new RegExp(report.body.id),
    'the reports about its content',
  );
  await clean(`/console/accounts/${s.olga.accountId}`);
  assert.equal(
    await sam.getByRole('button', { name: 'Suspend the account' }).count(),
    0,
    'support looks, moderators act',
  );
  await mo.goto(`${s.origin}/console/accounts/${s.olga.accountId}`);
  await mo.getByLabel(/Statement of reasons/).fill('Wiederholte Betrugsversuche (Nutzungsbedingungen Nr. 4).');
  await Promise.all([mo.waitForURL(/done=suspended/), mo.getByRole('button', { name: 'Suspend the account' }).click()]);
  assert.equal((await s.olga.get('/v1/jobs')).status, 403, 'a suspended account’s key is refused');
  const told = (await s.olga.get('/v1/me/moderation-decisions')).body.data as {
    action: string;
    about: { type: string };
  }[];
  assert.ok(told.some((decision) => decision.action === 'suspend_account' && decision.about.type === 'account'));
  // Eleven minutes later the sign-in is too old for a destructive action: sign in again first.
  s.advance(11 * 60_000);
  await mo.reload();
  assert.equal(await mo.getByRole('button', { name: 'Lift the suspension' }).count(), 0);
  await mo.getByRole('button', { name: 'Sign in again' }).click();
  assert.equal(new URL(mo.url()).pathname, '/signin');
  const fresh = await s.as(browser, s.mo.accountId);
  await fresh.goto(`${s.origin}/console/accounts/${s.olga.accountId}`);
  await fresh.getByLabel('Reason (stored and sent)').fill('Nach Rücksprache: Missverständnis geklärt.');
  await Promise.all([
    fresh.waitForURL(/done=restored/),
    fresh.getByRole('button', { name: 'Lift the suspension' }).click(),
  ]);
  assert.equal((await s.olga.get('/v1/jobs')).status, 200, 'restored');
  assert.equal(await fresh.getByRole('button', { name: 'Erase the account' }).count(), 0, 'erasure is the admin’s');
  // Nobody acts on their own case: here the moderator's own account.
  await fresh.goto(`${s.origin}/console/accounts/${s.mo.accountId}`);
  await fresh.getByLabel(/Statement of reasons/).fill('Ein Versuch, sich selbst zu sperren.');
  await fresh.getByRole('button', { name: 'Suspend the account' }).click();
  assert.match(await alert(fresh), /Not your own account/);

  const admin = await s.as(browser, s.ada.accountId);
  await admin.goto(`${s.origin}/console/accounts/${s.nora.accountId}`);
  await admin.getByLabel('To confirm, the account’s e-mail address').fill('wrong@example.org');
  await admin.getByLabel('Reason (e.g. letter of …)').fill('Brief vom 20. November 2026.');
  await admin.getByRole('button', { name: 'Erase the account' }).click();
  assert.match(await alert(admin), /confirm is not the e-mail address/);
  await admin.getByLabel('To confirm, the account’s e-mail address').fill(s.nora.email);
  await admin.getByLabel('Reason (e.g. letter of …)').fill('Brief vom 20. November 2026.');
  await Promise.all([
    admin.waitForURL(/done=erased/),
    admin.getByRole('button', { name: 'Erase the account' }).click(),
  ]);
  assert.doesNotMatch((await admin.locator('main').textContent()) ?? '', /nora@example\.org/);

  // ---- operators (admin): the page, and no one without a recent sign-in removes a role.
  await admin.goto(`${s.origin}/console/operators`);
  await clean('/console/operators');

  // ---- the audit log: every action above, with who and why.
  await admin.goto(`${s.origin}/console/audit`);
  await clean('/console/audit');
  await shot(admin, 'audit');
  await clean('/console');
  const rows = (await admin.locator('tbody tr').allInnerTexts()).map((row) => row.split('\t'));
  const entry = (action: string) => rows.find((row) => row[3] === action);
  const expected: [string, string, string | RegExp][] = [
    ['key_request.approved', s.sam.accountId, ''],
    ['verification.rejected', s.sam.accountId, /Telefonnummer/],
    ['report.decided', s.mo.accountId, /Betrug/],
    ['private.read', s.mo.accountId, /private message|two parties/],
    ['appeal.decided', s.ada.accountId, /Barzahlung/],
    ['claim.decided', s.mo.accountId, /die Hälfte/],
    ['account.suspended', s.mo.accountId, /Betrugsversuche/],
    ['account.restored', s.mo.accountId, /Missverständnis/],
    ['account.erased', s.ada.accountId, /Brief vom/],
  ];
  assert.deepEqual(
    rows
      .filter((row) => row[3] === 'private.read')
      .map((row) => row[4]?.split(' ')[0])
      .sort(),
    ['claim', 'report'],
    'both private reads are recorded, each with what pointed at it',
  );
  for (const [action, actor, reason] of expected) {
    const row = entry(action);
    assert.ok(row, `${action} is in the audit log`);
    assert.equal(row[1], actor, action);
    if (reason instanceof RegExp) assert.match(row[5] ?? '', reason, action);
  }
  assert.equal(checked.length, 15, 'every kind of console page was checked by axe-core');
  await admin.goto(`${s.origin}/console`);
  await shot(admin, 'overview');
});

/** A returned booking of the listing whose owner claims part of the deposit and whose renter disputes it. */
async function disputedClaim(s: Awaited<ReturnType<typeof serve>>, listingId: string): Promise<string> {
  const booked = await s.rita.post(`/v1/listings/${listingId}/bookings`, {
    start_date: '2026-11-20',
    end_date: '2026-11-22',
  });
  assert.equal(booked.status, 201, booked.raw);
  const mine = (await s.rita.get('/v1/payments?role=payer')).body.data as { id: string; booking_id: string }[];
  for (const payment of mine.filter((p) => p.booking_id === booked.body.id)) {
    assert.equal((await s.rita.post(`/v1/payments/${payment.id}/paid`)).status, 200);
    assert.equal((await s.olga.post(`/v1/payments/${payment.id}/received`)).status, 200);
  }
  assert.equal((await s.olga.post(`/v1/bookings/${booked.body.id}/pick-up`)).status, 200);
  s.advance(48 * HOUR);
  assert.equal((await s.olga.post(`/v1/bookings/${booked.body.id}/return`)).status, 200);
  const filed = await s.olga.post(`/v1/bookings/${booked.body.id}/claims`, {
    amount_eur: 12.5,
    text: 'Eine Bank hat einen Riss im Sitzbrett.',
    photos: ['https://example.org/riss.jpg'],
  });
  assert.equal(filed.status, 201, filed.raw);
  const disputed = await s.rita.post(`/v1/claims/${filed.body.id}/dispute`, { text: 'Der Riss war schon vorher da.' });
  assert.equal(disputed.status, 200, disputed.raw);
  return filed.body.id as string;
}
