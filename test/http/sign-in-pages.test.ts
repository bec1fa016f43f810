/**
 * Issue 31, first part: people sign up and sign in with a code e-mailed to them (a real SMTP
 * server), get a server-side session in a cookie, see and end their sessions on /account, and
 * sign out; codes are limited in time, tries and number; no page tells whether an address has an
 * account; every form refuses a post without its CSRF token or from another site.
 */
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import type { Db } from '../../src/db/create-db.js';
import type { Api } from '../../src/http/route-deps.js';
import { buildTestApp, clientFor, createKey, NOW } from '../helpers/app.js';
import { JOB_BODY } from '../helpers/bodies.js';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp.js';

let smtp: TestSmtpServer;
before(async () => {
  smtp = await startSmtpServer();
});
after(() => smtp.close());

/** An app whose clock the test moves, mailing to the test's SMTP server, with its log lines kept. */
async function serve(t: Parameters<typeof buildTestApp>[0], config: Record<string, string> = {}) {
  let at = NOW.getTime();
  const log = new PassThrough();
  const lines: string[] = [];
  log.on('data', (chunk: Buffer) => lines.push(chunk.toString()));
  const { app, db } = await buildTestApp(
    t,
    () => new Date(at),
    { SMTP_URL: smtp.url, LOG_LEVEL: 'info', ...config },
    { logStream: log },
  );
  return { app, db, log: () => lines.join(''), advance: (ms: number) => (at += ms) };
}

/** A browser over app.inject: its cookies, and the CSRF token of the last page it was shown. */
function browser(app: Api, headers: Record<string, string> = {}) {
  const jar = new Map<string, string>();
  let csrf = '';
  const send = async (method: 'GET' | 'POST', url: string, form?: Record<string, string>, extra = {}) => {
    const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await app.inject({
      method,
      url,
      headers: {
        ...headers,
        ...(cookie && { cookie }),
        ...(form && { 'content-type': 'application/x-www-form-urlencoded' }),
        ...extra,
      },
      ...(form && { payload: new URLSearchParams(form).toString() }),
    });
    for (const set of response.cookies as { name: string; value: string; maxAge?: number; expires?: Date }[]) {
      if (set.value === '' || set.maxAge === 0 || (set.expires && set.expires.getTime() < Date.now())) {
        jar.delete(set.name);
      } else jar.set(set.name, set.value);
    }
    csrf = /name="_csrf" value="([^"]+)"/.exec(response.body)?.[1] ?? csrf;
    return { status: response.statusCode, headers: response.headers, html: response.body, cookies: response.cookies };
  };
  return {
    jar,
    get: (url: string) => send('GET', url),
    /** Posts the form with the token of the page shown last (unless the fields bring their own). */
    post: (url: string, fields: Record<string, string>, extra: Record<string, string> = {}) =>
      send('POST', url, { _csrf: csrf, ...fields }, extra),
  };
}

const codeOf = (text: string) => /^ {4}(\d{6})$/m.exec(text)?.[1];
const textOf = (html: string) =>
  html
    .replace(/<style>[\s\S]*?<\/style>/, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ');

/** The next e-mail to `email` (earlier tests' leftovers skipped). */
async function mailTo(email: string) {
  for (;;) {
    const mail = await smtp.next();
    if (mail.envelope.to.includes(email)) return mail;
  }
}

async function signUp(person: ReturnType<typeof browser>, fields: Record<string, string>) {
  await person.get('/signup');
  const posted = await person.post('/signup', fields);
  assert.equal(posted.status, 303, posted.html);
  assert.equal(posted.headers.location, '/signin/code');
  return mailTo(fields.email?.trim().toLowerCase() ?? '');
}

async function signIn(person: ReturnType<typeof browser>, email: string) {
  await person.get('/signin');
  const posted = await person.post('/signin', { email });
  assert.equal(posted.status, 303, posted.html);
  return mailTo(email.toLowerCase());
}

const sessionsOf = (db: Db, accountId: string) =>
  db.kysely.selectFrom('sessions').selectAll().where('account_id', '=', accountId).execute();

describe('sign-up and sign-in pages', () => {
  test('sign up with the e-mailed code: the account exists at once, signed in, shown on /account', async (t) => {
    const { app, db, log } = await serve(t);
    const ada = browser(app, { 'accept-language': 'de-DE,de;q=0.9,en;q=0.5', 'user-agent': 'Firefox Test' });
    const form = await ada.get('/signup');
    assert.equal(form.status, 200);
    assert.match(form.html, /^<!doctype html>\n<html lang="de">/);
    // Scripts from this site only (the passkey script), none inline.
    assert.match(String(form.headers['content-security-policy']), /script-src 'self'; connect-src 'self';/);
    assert.equal(form.headers['cache-control'], 'no-store');
    assert.match(form.html, /<a href="\/signup\?lang=en" hreflang="en" lang="en">English<\/a>/);
    assert.ok(ada.jar.has('kmp_csrf'), 'the CSRF secret is set');

    const mail = await signUp(ada, { name: 'Ada Lovelace', email: ' Ada@Example.org ', account_type: 'commercial' });
    assert.deepEqual(mail.envelope.to, ['ada@example.org']);
    assert.match(mail.headers.subject ?? '', /^Ihr Anmeldecode: \d{6} - Karlsruhe Marketplace$/);
    const code = codeOf(mail.text) as string;
    assert.match(code, /^\d{6}$/);
    const challenge = ada.jar.get('kmp_sign_in') as string;
    assert.match(challenge, /^[0-9A-Za-z]{43}$/);

    const page = await ada.get('/signin/code');
    assert.equal(page.status, 200);
    assert.match(textOf(page.html), /an ada@example\.org einen Code gesendet\. Er gilt 10 Minuten\./);
    const wrong = await ada.post('/signin/code', { code: code === '000000' ? '111111' : '000000' });
    assert.equal(wrong.status, 400);
    assert.match(textOf(wrong.html), /Dieser Code stimmt nicht\. Noch 4 Versuche\./);

    const entered = await ada.post('/signin/code', { code: `${code.slice(0, 3)} ${code.slice(3)}` });
    assert.equal(entered.status, 303, entered.html);
    assert.equal(entered.headers.location, '/account');
    const session = entered.cookies.find((c: { name: string }) => c.name === 'kmp_session') as Record<string, unknown>;
    assert.deepEqual(
      { httpOnly: session.httpOnly, sameSite: session.sameSite, path: session.path, secure: session.secure },
      { httpOnly: true, sameSite: 'Lax', path: '/', secure: undefined },
    );
    assert.equal(session.maxAge, 30 * 86_400);
    assert.ok(!ada.jar.has('kmp_sign_in'), 'the challenge cookie is cleared');

    const account = await db.kysely.selectFrom('accounts').selectAll().where('email', '=', 'ada@example.org').execute();
    assert.equal(account.length, 1);
    assert.deepEqual(
      { name: account[0]?.name, type: account[0]?.account_type },
      { name: 'Ada Lovelace', type: 'commercial' },
    );
    const rows = await sessionsOf(db, account[0]?.id as string);
    assert.equal(rows.length, 1);
    assert.notEqual(rows[0]?.token_hash, session.value, 'only a hash of the token is stored');
    assert.equal(rows[0]?.user_agent, 'Firefox Test');
    assert.equal((await db.kysely.selectFrom('sign_in_codes').selectAll().execute()).length, 0, 'the code is used up');

    const shown = await ada.get('/account');
    assert.equal(shown.status, 200);
    const text = textOf(shown.html);
    assert.match(text, /Ihr Konto Name Ada Lovelace E-Mail-Adresse ada@example\.org Art des Kontos Gewerblich/);
    assert.match(text, /Firefox Test \(dieser Browser\)/);
    assert.equal((shown.html.match(/action="\/account\/sessions\/revoke"/g) ?? []).length, 1);
    // Signed in, the forms send to the account.
    assert.equal((await ada.get('/signin')).headers.location, '/account');

    // Logged: the attempts, never the code or the address.
    assert.match(log(), /"sign_in":"code_requested","purpose":"signup","mailed":"code"/);
    assert.match(log(), /"sign_in":"wrong"/);
    assert.match(log(), /"sign_in":"signed-in"/);
    assert.ok(!log().includes(code), 'no code in the log');
    assert.ok(!log().includes('ada@example.org'), 'no address in the log');
  });

  test('an account from a key request signs in; sessions listed, one revoked, then sign-out', async (t) => {
    const { app, db } = await serve(t);
    const { accountId } = await createKey(db, { email: 'dev@example.org' });
    const laptop = browser(app, { 'accept-language': 'en', 'user-agent': 'Laptop' });
    const phone = browser(app, { 'accept-language': 'en', 'user-agent': 'Phone' });
    for (const person of [laptop, phone]) {
      const mail = await signIn(person, 'DEV@example.org');
      assert.match(mail.headers.subject ?? '', /^Your sign-in code: \d{6}/);
      await person.get('/signin/code');
      assert.equal((await person.post('/signin/code', { code: codeOf(mail.text) as string })).status, 303);
    }
    const shown = await laptop.get('/account');
    assert.match(textOf(shown.html), /Name Test Developer Email address dev@example\.org Account type Private/);
    const [newest, oldest] = await sessionsOf(db, accountId).then((rows) => rows.reverse());
    assert.equal((await sessionsOf(db, accountId)).length, 2);
    assert.match(textOf(shown.html), /Laptop \(this browser\)/);

    // The laptop ends the phone's session: the phone is signed out.
    const phoneSession = (await sessionsOf(db, accountId)).find((row) => row.user_agent === 'Phone');
    const revoked = await laptop.post('/account/sessions/revoke', { session: phoneSession?.id as string });
    assert.equal(revoked.status, 303);
    assert.equal(revoked.headers.location, '/account');
    assert.deepEqual(
      (await sessionsOf(db, accountId)).map((row) => row.user_agent),
      ['Laptop'],
    );
    const phoneNow = await phone.get('/account');
    assert.deepEqual([phoneNow.status, phoneNow.headers.location], [303, '/signin']);
    assert.ok(newest && oldest);

    // Another account's session id ends nothing.
    const other = await createKey(db, { email: 'other@example.org' });
    await db.kysely
      .insertInto('sessions')
      .values({
        id: 'ses_other',
        token_hash: 'x'.repeat(64),
        account_id: other.accountId,
        user_agent: null,
        created_at: NOW.toISOString(),
        last_seen_at: NOW.toISOString(),
        expires_at: new Date(NOW.getTime() + 86_400_000).toISOString(),
      })
      .execute();
    await laptop.get('/account');
    await laptop.post('/account/sessions/revoke', { session: 'ses_other' });
    assert.equal((await sessionsOf(db, other.accountId)).length, 1);

    const out = await laptop.post('/signout', {});
    assert.deepEqual([out.status, out.headers.location], [303, '/signin']);
    assert.equal((await sessionsOf(db, accountId)).length, 0);
    assert.equal((await laptop.get('/account')).headers.location, '/signin');
  });

  test('notification settings on /account: the form is the whole choice; a bad span comes back as a notice', async (t) => {
    const { app, db } = await serve(t);
    const { key } = await createKey(db, { email: 'notes@example.org' });
    const person = browser(app, { 'accept-language': 'de' });
    const mail = await signIn(person, 'notes@example.org');
    await person.get('/signin/code');
    assert.equal((await person.post('/signin/code', { code: codeOf(mail.text) as string })).status, 303);
    const shown = await person.get('/account');
    assert.match(shown.html, /<h2 id="notifications">Benachrichtigungen<\/h2>/);
    assert.match(shown.html, /id="messages-email" name="messages.email" value="on" checked/, 'the defaults: on');
    assert.match(shown.html, /id="language-de" name="language" value="de" checked/);
    // English, messages only in the digest, quiet hours at night, the digest at 18:00.
    const fields: Record<string, string> = {
      language: 'en',
      quiet_start: '22:00',
      quiet_end: '07:00',
      digest_time: '18:00',
    };
    for (const kind of ['applications', 'bookings', 'payments', 'reminders']) fields[`${kind}.email`] = 'on';
    fields['messages.digest'] = 'on';
    const saved = await person.post('/account/notifications', fields);
    assert.equal(saved.status, 303, saved.html);
    assert.equal(saved.headers.location, '/account?saved=notifications#notifications');
    const api = await app.inject({ method: 'GET', url: '/v1/me/notification-settings', headers: { 'x-api-key': key } });
    assert.deepEqual(api.json(), {
      language: 'en',
      quiet_hours: { start: '22:00', end: '07:00' },
      digest_time: '18:00',
      kinds: {
        messages: { email: false, push: false, digest: true },
        applications: { email: true, push: false, digest: false },
        bookings: { email: true, push: false, digest: false },
        payments: { email: true, push: false, digest: false },
        reminders: { email: true, push: false, digest: false },
      },
    });
    const again = await person.get('/account?saved=notifications');
    assert.match(textOf(again.html), /Ihre Benachrichtigungen sind gespeichert\./);
    assert.doesNotMatch(again.html, /id="messages-email"[^>]*checked/);
    assert.match(again.html, /id="quiet_start" name="quiet_start" value="22:00"/);
    // Quiet hours with one end only: said next to them, with what was posted; nothing changes.
    const bad = await person.post('/account/notifications', { ...fields, quiet_end: '', 'messages.push': 'on' });
    assert.equal(bad.status, 400);
    assert.match(
      bad.html,
      /<p class="error" id="quiet-error">Geben Sie Beginn und Ende der Ruhezeit an, oder lassen Sie beide Felder leer\.<\/p>/,
    );
    assert.match(
      bad.html,
      /id="quiet_start" name="quiet_start" value="22:00" aria-describedby="quiet-hint quiet-error" aria-invalid="true"/,
    );
    assert.match(
      bad.html,
      /id="messages-push" name="messages.push" value="on" checked/,
      'what was posted, shown again',
    );
    // An empty span: the service's own words (as the API says them), next to the fields.
    const empty = await person.post('/account/notifications', { ...fields, quiet_start: '07:00', quiet_end: '07:00' });
    assert.equal(empty.status, 400);
    assert.match(
      empty.html,
      /<p class="error" id="quiet-error">Eine Ruhezeit, die zur selben Zeit beginnt und endet, ist leer\.<\/p>/,
    );
    const viaApi = await app.inject({
      method: 'PUT',
      url: '/v1/me/notification-settings',
      headers: { 'x-api-key': key, 'accept-language': 'de' },
      payload: { quiet_hours: { start: '07:00', end: '07:00' } },
    });
    assert.equal(viaApi.statusCode, 400);
    assert.deepEqual(
      { param: viaApi.json().param, message: viaApi.json().message },
      { param: 'quiet_hours.end', message: 'Eine Ruhezeit, die zur selben Zeit beginnt und endet, ist leer.' },
    );
    const after = await app.inject({
      method: 'GET',
      url: '/v1/me/notification-settings',
      headers: { 'x-api-key': key },
    });
    assert.deepEqual(after.json().quiet_hours, { start: '22:00', end: '07:00' });
    // Without a session: to the sign-in page.
    const stranger = browser(app);
    await stranger.get('/signin');
    const refused = await stranger.post('/account/notifications', fields);
    assert.deepEqual([refused.status, refused.headers.location], [303, '/signin']);
  });

  test('saving the account form without changing the language chooses none: API answers stay English', async (t) => {
    const { app, db } = await serve(t);
    const { key } = await createKey(db, { email: 'still@example.org' });
    const person = browser(app, { 'accept-language': 'de' });
    const mail = await signIn(person, 'still@example.org');
    await person.get('/signin/code');
    assert.equal((await person.post('/signin/code', { code: codeOf(mail.text) as string })).status, 303);
    await person.get('/account');
    const errorLanguage = async () =>
      (await app.inject({ method: 'GET', url: '/v1/jobs?radiuss=5', headers: { 'x-api-key': key } })).headers[
        'content-language'
      ];
    // The language shown (German, the e-mails' default) posted back unchanged, one box ticked off.
    const saved = await person.post('/account/notifications', {
      language: 'de',
      'messages.email': 'on',
      digest_time: '08:00',
    });
    assert.equal(saved.status, 303, saved.html);
    assert.equal(await errorLanguage(), 'en', 'not chosen: the API stays English');
    await person.get('/account');
    await person.post('/account/notifications', { language: 'en', digest_time: '08:00' });
    await person.get('/account');
    assert.equal((await person.post('/account/notifications', { language: 'de', digest_time: '08:00' })).status, 303);
    assert.equal(await errorLanguage(), 'de', 'changed to German: chosen');
  });

  test("a draft's page sends the person to sign in and back; only the draft's account decides it", async (t) => {
    const { app, db } = await serve(t);
    const { accountId, key } = await createKey(db, { email: 'person@example.org' });
    const made = await clientFor(app, key).post('/v1/drafts', { operation: 'createJob', body: JOB_BODY });
    assert.equal(made.status, 201, made.raw);
    const path = new URL(made.body.confirmation_url).pathname;
    const person = browser(app, { 'accept-language': 'en', 'sec-fetch-site': 'same-origin' });

    // Not signed in: to the sign-in, which remembers the page, nothing of the draft shown.
    const first = await person.get(path);
    assert.deepEqual([first.status, first.headers.location], [303, `/signin?next=${encodeURIComponent(path)}`]);
    await person.get(first.headers.location as string);
    assert.equal(person.jar.get('kmp_next'), path);
    const posted = await person.post('/signin', { email: 'person@example.org' });
    assert.equal(posted.status, 303, posted.html);
    const mail = await mailTo('person@example.org');
    await person.get('/signin/code');
    const entered = await person.post('/signin/code', { code: codeOf(mail.text) as string });
    assert.deepEqual([entered.status, entered.headers.location], [303, path], 'back to the draft');
    assert.equal(person.jar.has('kmp_next'), false, 'used once');
    const page = await person.get(path);
    assert.equal(page.status, 200);
    assert.match(page.html, /Hecke schneiden/);
    const confirmed = await person.post(path, { decision: 'confirm' });
    assert.equal(confirmed.status, 200, confirmed.html);
    assert.equal((await clientFor(app, key).get(`/v1/drafts/${made.body.id}`)).body.status, 'confirmed');
    assert.ok((await sessionsOf(db, accountId)).length === 1);

    // ?next= leads only to a draft's page of this site; signed in, /signin goes there at once.
    const again = await person.get(`/signin?next=${encodeURIComponent(path)}`);
    assert.deepEqual([again.status, again.headers.location], [303, path]);
    for (const next of ['https://evil.example/', '//evil.example/confirm/x', '/account', '/confirm/../v1/me']) {
      const other = browser(app);
      await other.get(`/signin?next=${encodeURIComponent(next)}`);
      assert.equal(other.jar.has('kmp_next'), false, next);
    }
  });

  test('a session ends after 7 days unused or 30 days in all; cookies are Secure behind a TLS proxy', async (t) => {
    const { app, db, advance } = await serve(t, { TRUST_PROXY: '127.0.0.1' });
    const { accountId } = await createKey(db, { email: 'tim@example.org' });
    const person = browser(app, { 'accept-language': 'en', 'x-forwarded-proto': 'https' });
    const mail = await signIn(person, 'tim@example.org');
    await person.get('/signin/code');
    const entered = await person.post('/signin/code', { code: codeOf(mail.text) as string });
    const cookie = entered.cookies.find((c: { name: string }) => c.name === 'kmp_session') as { secure?: boolean };
    assert.equal(cookie.secure, true);
    // Used every six days, it lives until its thirtieth day, not a moment longer.
    for (let day = 6; day < 30; day += 6) {
      advance(6 * 86_400_000);
      assert.equal((await person.get('/account')).status, 200, `day ${day}`);
    }
    advance(6 * 86_400_000);
    assert.equal((await person.get('/account')).headers.location, '/signin', 'day 30');
    // A new one, then seven days unused.
    const again = await signIn(person, 'tim@example.org');
    await person.get('/signin/code');
    await person.post('/signin/code', { code: codeOf(again.text) as string });
    assert.equal((await sessionsOf(db, accountId)).length, 1, 'the expired session went at this sign-in');
    advance(7 * 86_400_000);
    assert.equal((await person.get('/account')).headers.location, '/signin', '7 days unused');
  });

  test('no page tells whether an address has an account; an address without one gets no code', async (t) => {
    const { app, db } = await serve(t);
    await createKey(db, { email: 'known@example.org' });
    const answers = [];
    for (const email of ['known@example.org', 'nobody@example.org']) {
      const person = browser(app, { 'accept-language': 'en' });
      await person.get('/signin');
      const posted = await person.post('/signin', { email });
      const page = await person.get('/signin/code');
      const mail = await mailTo(email);
      answers.push({
        status: posted.status,
        location: posted.headers.location,
        cookies: posted.cookies.map((c: { name: string }) => c.name).sort(),
        page: textOf(page.html).replace(email, 'ADDRESS'),
        code: codeOf(mail.text) !== undefined,
      });
      if (email === 'nobody@example.org') {
        assert.match(mail.text, /no account uses it\. To create one: http:\/\/127\.0\.0\.1:3000\/signup/);
        const guessed = await person.post('/signin/code', { code: '123456' });
        assert.equal(guessed.status, 400);
      }
    }
    const [known, unknown] = answers;
    assert.deepEqual({ ...known, code: undefined }, { ...unknown, code: undefined });
    assert.deepEqual([known?.code, unknown?.code], [true, false]);
  });

  test('five wrong tries end the code; an expired code is refused; a code needs its own browser', async (t) => {
    const { app, advance } = await serve(t);
    const person = browser(app, { 'accept-language': 'en' });
    const mail = await signUp(person, { name: 'Bea', email: 'bea@example.org', account_type: 'private' });
    const code = codeOf(mail.text) as string;
    const wrongCode = code === '999999' ? '999998' : '999999';
    // Another browser with the right code but without the challenge cookie gets nowhere.
    const thief = browser(app);
    await thief.get('/signin');
    assert.equal((await thief.post('/signin/code', { code })).status, 404);
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await person.post('/signin/code', { code: wrongCode })).status);
    assert.deepEqual(statuses, [400, 400, 400, 400, 429]);
    const late = await person.post('/signin/code', { code });
    assert.equal(late.status, 429);
    assert.match(textOf(late.html), /entered wrongly too often\. Ask for a new one\./);
    assert.equal((await person.get('/signin/code')).status, 404);

    const again = await signUp(person, { name: 'Bea', email: 'bea@example.org', account_type: 'private' });
    advance(10 * 60_000 + 1);
    const expired = await person.post('/signin/code', { code: codeOf(again.text) as string });
    assert.equal(expired.status, 410);
  });

  test('codes per address and per client address are limited per hour', async (t) => {
    const { app, advance } = await serve(t, { SIGN_IN_CODES_PER_CLIENT_PER_HOUR: '7' });
    const person = browser(app, { 'accept-language': 'en' });
    await person.get('/signin');
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await person.post('/signin', { email: 'flood@example.org' })).status);
    assert.deepEqual(statuses, [303, 303, 303, 303, 303, 429]);
    const refused = await person.post('/signin', { email: 'flood@example.org' });
    assert.match(textOf(refused.html), /Too many codes in the last hour\. Try again in \d+ minutes\./);
    assert.match(String(refused.headers['retry-after']), /^\d+$/);
    for (let i = 0; i < 5; i++) await mailTo('flood@example.org');
    // The client's budget: 7 an hour, whatever the addresses (the refused ones count too).
    assert.equal((await person.post('/signin', { email: 'one@example.org' })).status, 429);
    advance(3_600_000);
    assert.ok(smtp.received.length > 0);
  });

  test('every form refuses a post without its CSRF token or from another site, and sends nothing', async (t) => {
    const { app, db } = await serve(t);
    const mails = smtp.received.length;
    const person = browser(app, { 'accept-language': 'en' });
    await person.get('/signup');
    const forged = { name: 'Eve', email: 'eve@example.org', account_type: 'private' };
    const noToken = await person.post('/signup', { ...forged, _csrf: '' });
    assert.equal(noToken.status, 403);
    assert.match(textOf(noToken.html), /came from another website or an outdated form/);
    const crossSite = await person.post('/signup', forged, { origin: 'https://evil.example' });
    assert.equal(crossSite.status, 403);
    const noCookie = browser(app);
    assert.equal((await noCookie.post('/signin', { email: 'eve@example.org', _csrf: 'abc' })).status, 403);
    assert.equal(smtp.received.length, mails, 'no e-mail was sent');
    assert.equal((await db.kysely.selectFrom('sign_in_codes').selectAll().execute()).length, 0);

    // Signed in, sign-out and revoke need the token too.
    const mail = await signUp(person, forged);
    await person.get('/signin/code');
    await person.post('/signin/code', { code: codeOf(mail.text) as string });
    await person.get('/account');
    assert.equal((await person.post('/signout', { _csrf: 'wrong' })).status, 403);
    assert.equal((await person.get('/account')).status, 200, 'still signed in');
    // The notification settings' form too: a forged post changes nothing.
    const settings = () => db.kysely.selectFrom('notification_settings').selectAll().execute();
    const before = await settings();
    const off = { language: 'en', digest_time: '08:00' };
    assert.equal((await person.post('/account/notifications', { ...off, _csrf: 'wrong' })).status, 403);
    assert.equal((await person.post('/account/notifications', off, { origin: 'https://evil.example' })).status, 403);
    assert.deepEqual(await settings(), before, 'the settings are as they were');
  });

  test('a suspended account cannot sign in; erasure ends its sessions; the export lists them', async (t) => {
    const { app, db } = await serve(t);
    const { key, accountId } = await createKey(db, { email: 'sam@example.org' });
    const person = browser(app, { 'accept-language': 'en', 'user-agent': 'Sam Browser' });
    const mail = await signIn(person, 'sam@example.org');
    await person.get('/signin/code');
    await person.post('/signin/code', { code: codeOf(mail.text) as string });
    assert.equal((await person.get('/account')).status, 200);

    const exported = await clientFor(app, key).get('/v1/me/export');
    assert.equal(exported.status, 200);
    const [row] = exported.body.sessions;
    assert.deepEqual(Object.keys(row).sort(), ['created_at', 'expires_at', 'id', 'last_seen_at', 'user_agent']);
    assert.equal(row.user_agent, 'Sam Browser');

    const suspend = (at: string | null) =>
      db.kysely.updateTable('accounts').set({ suspended_at: at }).where('id', '=', accountId).execute();
    await suspend(NOW.toISOString());
    assert.equal((await person.get('/account')).headers.location, '/signin', 'its session stops working');
    const other = browser(app, { 'accept-language': 'en' });
    const refusal = await signIn(other, 'sam@example.org');
    assert.equal(codeOf(refusal.text), undefined);
    assert.match(refusal.text, /The account is suspended/);
    // A code sent before the suspension does not sign in after it.
    await suspend(null);
    const late = browser(app, { 'accept-language': 'en' });
    const sent = await signIn(late, 'sam@example.org');
    await suspend(NOW.toISOString());
    await late.get('/signin/code');
    const refused = await late.post('/signin/code', { code: codeOf(sent.text) as string });
    assert.equal(refused.status, 403);
    assert.match(textOf(refused.html), /This account cannot sign in/);

    await suspend(null);
    const pending = browser(app);
    await signIn(pending, 'sam@example.org');
    assert.ok((await sessionsOf(db, accountId)).length > 0);
    const erased = await clientFor(app, key).delete('/v1/me', { confirm: 'sam@example.org' });
    assert.equal(erased.status, 202, erased.raw);
    assert.equal((await sessionsOf(db, accountId)).length, 0);
    const codes = await db.kysely.selectFrom('sign_in_codes').selectAll().where('account_id', '=', accountId).execute();
    assert.equal(codes.length, 0);
    assert.equal((await person.get('/account')).headers.location, '/signin');
  });

  test('?lang= switches the language and is remembered; bad input is a page, never a 500', async (t) => {
    const { app } = await serve(t);
    const person = browser(app, { 'accept-language': 'de' });
    const english = await person.get('/signin?lang=en');
    assert.match(english.html, /<html lang="en">/);
    assert.equal(person.jar.get('kmp_lang'), 'en');
    assert.match((await person.get('/signup')).html, /<html lang="en">[\s\S]*Create an account/);
    const invalid = await person.post('/signup', { name: '', email: 'no-at-sign', account_type: 'boss' });
    assert.equal(invalid.status, 400);
    assert.match(invalid.html, /<title>Error: Create an account/);
    assert.match(
      textOf(invalid.html),
      /Enter your name\. Enter an email address in the form name@example\.org\. Choose private or commercial\./,
    );
    const twice = await person.post('/signin', {}, {});
    assert.equal(twice.status, 400);
    const noCode = await person.get('/signin/code');
    assert.equal(noCode.status, 404);
    assert.match((await person.get('/signin?lang=de')).html, /<html lang="de">/);
    const huge = await person.post('/signin', { email: `${'a'.repeat(5000)}@example.org` });
    assert.equal(huge.status, 413);
    assert.match(huge.headers['content-type'] as string, /^text\/html/);
  });

  test('a mail server that does not answer is a 503 page, not a 500', async (t) => {
    const { app } = await serve(t, { SMTP_URL: 'smtp://127.0.0.1:1' });
    const person = browser(app, { 'accept-language': 'en' });
    await person.get('/signin');
    const failed = await person.post('/signin', { email: 'late@example.org' });
    assert.equal(failed.status, 503);
    assert.match(textOf(failed.html), /Something went wrong on our side\. Try again in a moment\./);
  });
});
