import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Api } from '../../src/http/route-deps.js';
import { buildTestApp, NOW } from '../helpers/app.js';

const VALID = {
  name: 'Ada Lovelace',
  email: 'ada@example.org',
  organisation: 'Analytical Engines GmbH',
  account_type: 'commercial',
  intended_use: 'A dashboard of open gardening jobs in Durlach.',
};

async function postForm(
  app: Api,
  fields: Record<string, string> | [string, string][],
  headers: Record<string, string> = {},
) {
  const response = await app.inject({
    method: 'POST',
    url: '/developers',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: new URLSearchParams(fields).toString(),
  });
  return { status: response.statusCode, headers: response.headers, html: response.body };
}

/** The error paragraph next to a field, or undefined when the field has none. */
function errorOf(html: string, field: string): string | undefined {
  return new RegExp(`<p class="error" id="${field}-error">(.*?)</p>`).exec(html)?.[1]?.replace(/<[^>]+>/g, '');
}

function assertHtmlHeaders(headers: Record<string, unknown>) {
  assert.equal(headers['content-type'], 'text/html; charset=utf-8');
  assert.match(
    String(headers['content-security-policy']),
    /default-src 'self'; script-src 'none'; style-src 'self' 'unsafe-inline'/,
  );
  assert.equal(headers['x-content-type-options'], 'nosniff');
}

describe('the developer key form at /developers', () => {
  test('GET renders the form with every field, no script and a link to /docs', async (t) => {
    const { app } = await buildTestApp(t, NOW, { RATE_LIMIT_DEVELOPER_PER_MIN: '100' });
    const response = await app.inject({ method: 'GET', url: '/developers' });
    assert.equal(response.statusCode, 200);
    assertHtmlHeaders(response.headers);
    const html = response.body;
    assert.match(html, /^<!doctype html>\n<html lang="en">/);
    assert.match(html, /<form method="post" action="\/developers\?lang=en" novalidate>/);
    assert.match(html, /<input id="name" name="name" value="" type="text" autocomplete="name" required>/);
    assert.match(html, /<input id="email" name="email" value="" type="email"/);
    assert.match(html, /<input id="organisation" name="organisation" value="" type="text"/);
    assert.match(html, /<input type="radio" id="account_type" name="account_type" value="private"/);
    assert.match(html, /<input type="radio" id="account_type-commercial" name="account_type" value="commercial"/);
    assert.match(html, /<textarea id="intended_use" name="intended_use"/);
    assert.match(html, /<a href="\/docs">/);
    assert.match(html, /100 requests per minute/);
    assert.doesNotMatch(html, /<script|class="error"|aria-invalid/);
  });

  test('German by Accept-Language or ?lang=de: the page, its errors and the confirmation; ?lang= wins', async (t) => {
    const { app } = await buildTestApp(t, NOW, { RATE_LIMIT_DEVELOPER_PER_MIN: '100' });
    const german = await app.inject({
      method: 'GET',
      url: '/developers',
      headers: { 'accept-language': 'de-DE,de;q=0.9' },
    });
    assert.equal(german.statusCode, 200);
    assert.equal(german.headers['content-language'], 'de');
    assert.match(String(german.headers.vary), /Accept-Language/);
    assert.match(german.body, /^<!doctype html>\n<html lang="de">/);
    assert.match(german.body, /<h1>Einen Entwicklerschlüssel anfragen<\/h1>/);
    assert.match(german.body, /100 Anfragen pro Minute/);
    assert.match(german.body, /<a href="\/developers\?lang=en" hreflang="en" lang="en">English<\/a>/);
    assert.match(german.body, /<form method="post" action="\/developers\?lang=de" novalidate>/);
    const english = await app.inject({
      method: 'GET',
      url: '/developers?lang=en',
      headers: { 'accept-language': 'de' },
    });
    assert.match(english.body, /<html lang="en">/);
    const response = await app.inject({
      method: 'POST',
      url: '/developers?lang=de',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ ...VALID, email: 'ada.example.org', intended_use: 'Karte' }).toString(),
    });
    assert.equal(response.statusCode, 400);
    assert.equal(
      errorOf(response.body, 'email'),
      'Fehler: Geben Sie eine E-Mail-Adresse in der Form name@example.org ein.',
    );
    assert.equal(
      errorOf(response.body, 'intended_use'),
      'Fehler: Der Verwendungszweck braucht mindestens 10 Zeichen; hier sind es 5. Schreiben Sie etwas mehr.',
    );
    assert.match(response.body, /<title>Fehler: Einen Entwicklerschlüssel anfragen/);
    const filed = await app.inject({
      method: 'POST',
      url: '/developers?lang=de',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(VALID).toString(),
    });
    assert.equal(filed.statusCode, 202, filed.body);
    assert.match(filed.body, /<h1>Anfrage erhalten<\/h1>/);
  });

  test('an invalid email and a short intended use are named next to their fields; other values stay', async (t) => {
    const { app, db } = await buildTestApp(t);
    const { status, headers, html } = await postForm(app, { ...VALID, email: 'ada.example.org', intended_use: 'maps' });
    assert.equal(status, 400);
    assertHtmlHeaders(headers);
    assert.equal(errorOf(html, 'email'), 'Error: Enter an email address in the form name@example.org.');
    assert.equal(
      errorOf(html, 'intended_use'),
      'Error: The intended use needs at least 10 characters; this one has 4. Tell us a little more.',
    );
    for (const field of ['name', 'organisation', 'account_type']) assert.equal(errorOf(html, field), undefined);
    assert.match(
      html,
      /<input id="email" name="email" value="ada.example.org" [^>]*aria-describedby="email-hint email-error" aria-invalid="true">/,
    );
    assert.match(
      html,
      /<textarea [^>]*aria-describedby="intended_use-hint intended_use-error" aria-invalid="true">maps<\/textarea>/,
    );
    assert.match(html, /<input id="name" name="name" value="Ada Lovelace" [^>]*>/);
    assert.doesNotMatch(/<input id="name"[^>]*>/.exec(html)?.[0] ?? '', /aria-invalid/);
    assert.match(html, /value="Analytical Engines GmbH"/);
    assert.match(html, /value="commercial" checked/);
    assert.match(html, /<title>Error: Request a developer key/);
    assert.match(html, /<li><a href="#email">Enter an email address/);
    assert.deepEqual(await db.kysely.selectFrom('key_requests').selectAll().execute(), []);
  });

  test('an empty form names every required field and not the optional organisation', async (t) => {
    const { app } = await buildTestApp(t);
    const { status, html } = await postForm(app, { name: ' ', email: '', organisation: '', intended_use: '' });
    assert.equal(status, 400);
    assert.deepEqual(
      ['name', 'email', 'organisation', 'account_type', 'intended_use'].map((field) => errorOf(html, field)),
      [
        'Error: Enter your name.',
        'Error: Enter your email address.',
        undefined,
        'Error: Choose private or commercial.',
        'Error: Tell us what you want to build.',
      ],
    );
  });

  test('oversized fields say the limit and the length', async (t) => {
    const { app } = await buildTestApp(t);
    const { status, html } = await postForm(app, {
      ...VALID,
      name: 'N'.repeat(101),
      organisation: 'Ö'.repeat(201),
      intended_use: 'x'.repeat(2001),
    });
    assert.equal(status, 400);
    assert.equal(
      errorOf(html, 'name'),
      'Error: Your name can have at most 100 characters; this one has 101. Please shorten it.',
    );
    assert.equal(
      errorOf(html, 'organisation'),
      'Error: The organisation can have at most 200 characters; this one has 201. Please shorten it.',
    );
    assert.equal(
      errorOf(html, 'intended_use'),
      'Error: The intended use can have at most 2,000 characters; this one has 2,001. Please shorten it.',
    );
  });

  test('a field sent twice is refused and unknown fields are ignored', async (t) => {
    const { app } = await buildTestApp(t);
    const twice = await postForm(app, [...Object.entries(VALID), ['email', 'other@example.org']]);
    assert.equal(twice.status, 400);
    assert.equal(errorOf(twice.html, 'email'), 'Error: The email address was sent more than once; send it once.');
    const extra = await postForm(app, { ...VALID, utm_source: 'newsletter', name: '  Ada  ' });
    assert.equal(extra.status, 202);
  });

  test('every user value is escaped, in text and in attributes', async (t) => {
    const { app } = await buildTestApp(t);
    const { status, html } = await postForm(app, {
      ...VALID,
      name: '<script>alert(1)</script>',
      email: '"><img src=x onerror=alert(2)>',
      intended_use: '</textarea><script>alert(3)</script>',
    });
    assert.equal(status, 400);
    assert.doesNotMatch(html, /<script|<img|<\/textarea><script/);
    assert.match(html, /value="&lt;script&gt;alert\(1\)&lt;\/script&gt;"/);
    assert.match(html, /value="&quot;&gt;&lt;img src=x onerror=alert\(2\)&gt;"/);
    assert.match(html, />&lt;\/textarea&gt;&lt;script&gt;alert\(3\)&lt;\/script&gt;<\/textarea>/);
  });

  test('a valid request is filed as pending and confirmed with its id and the 24-hour promise', async (t) => {
    const { app, db } = await buildTestApp(t);
    const { status, headers, html } = await postForm(app, { ...VALID, email: ' Ada@Example.org ', organisation: '' });
    assert.equal(status, 202);
    assertHtmlHeaders(headers);
    assert.equal(headers['cache-control'], 'no-store');
    const id = /<code id="request-id">(kr_[0-9a-f]{16})<\/code>/.exec(html)?.[1];
    assert.ok(id, 'the confirmation shows a kr_ id');
    assert.match(html, /within <strong>24 hours<\/strong> and send the key to <strong>ada@example.org<\/strong>/);
    assert.match(html, /<a href="\/docs">/);
    const rows = await db.kysely.selectFrom('key_requests').selectAll().execute();
    assert.deepEqual(rows, [
      {
        id,
        name: VALID.name,
        email: 'ada@example.org',
        organisation: null,
        account_type: 'commercial',
        intended_use: VALID.intended_use,
        status: 'pending',
        created_at: NOW.toISOString(),
        decided_at: null,
        reason: null,
        key_id: null,
      },
    ]);
  });

  test('a second request for a waiting email gets the same confirmation; nothing is filed', async (t) => {
    const { app, db } = await buildTestApp(t);
    const first = await postForm(app, VALID);
    assert.equal(first.status, 202);
    const { status, html } = await postForm(app, { ...VALID, email: 'ADA@example.org', name: 'Ada <again>' });
    assert.equal(status, 202);
    const ids = [first.html, html].map((page) => /<code id="request-id">(kr_[0-9a-f]{16})<\/code>/.exec(page)?.[1]);
    assert.ok(ids[0] && ids[1] && ids[0] !== ids[1], 'each page shows an id of its own');
    assert.equal(html.replace(ids[1] as string, 'kr_'), first.html.replace(ids[0] as string, 'kr_'), 'the same page');
    assert.doesNotMatch(html, /already|waiting for review/);
    const rows = await db.kysely.selectFrom('key_requests').select(['id', 'name']).execute();
    assert.deepEqual(rows, [{ id: ids[0], name: VALID.name }]);
  });

  test('the form and the JSON endpoint accept and refuse the same bodies', async (t) => {
    const { app } = await buildTestApp(t);
    const cases = [
      { ...VALID, email: 'one@example.org' },
      { ...VALID, email: 'two@example.org', account_type: 'private', intended_use: '0123456789' },
      { ...VALID, email: 'no-at-sign.example.org' },
      { ...VALID, email: 'three@example.org', account_type: 'business' },
      { ...VALID, email: 'four@example.org', intended_use: 'too short' },
      { ...VALID, email: 'five@example.org', name: 'n'.repeat(101) },
      // Judged after trimming, in both: blank is blank, padding is no length.
      { ...VALID, email: 'six@example.org', name: '   ' },
      { ...VALID, email: 'seven@example.org', intended_use: 'hi          ' },
      { ...VALID, email: 'Eight@Example.org', name: ' Ada ', organisation: ' ' },
    ];
    for (const [i, body] of cases.entries()) {
      const json = await app.inject({ method: 'POST', url: '/v1/developer/key-requests', payload: body });
      const form = await postForm(app, { ...body, email: `form.${body.email}` });
      assert.equal(form.status, json.statusCode, `case ${i}: ${JSON.stringify(body)}`);
    }
  });

  test('a submission from another site is refused with 403 before its body is read; nothing is filed', async (t) => {
    const { app, db } = await buildTestApp(t);
    const crossSite: Record<string, string>[] = [
      { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' },
      { 'sec-fetch-site': 'same-site', origin: 'http://shop.localhost' },
      { origin: 'https://evil.example' }, // a browser without Sec-Fetch-*
      { origin: 'http://localhost:8080' }, // another port is another origin
      { origin: 'null' }, // a sandboxed frame
      { referer: 'http://evil.example/' }, // a Referer of another site, alone
      { origin: 'http://localhost', referer: 'https://evil.example/form' },
    ];
    for (const headers of crossSite) {
      const { status, headers: sent, html } = await postForm(app, VALID, headers);
      assert.equal(status, 403, JSON.stringify(headers));
      assertHtmlHeaders(sent);
      assert.match(html, /<title>Error: Request a developer key/);
      assert.match(
        html,
        /<h2 id="summary-title">Your request was not filed<\/h2>\n<p>The form was sent from another website, so we did not file it\. If you want a developer key, fill in the form below and send it from this page\.<\/p>/,
      );
      // An empty form: nothing the other site sent is shown.
      assert.match(html, /<input id="name" name="name" value=""/);
      assert.doesNotMatch(html, /Ada Lovelace|class="error"/);
    }
    const huge = await postForm(
      app,
      { ...VALID, intended_use: 'x'.repeat(40_000) },
      { origin: 'https://evil.example' },
    );
    assert.equal(huge.status, 403);
    assert.deepEqual(await db.kysely.selectFrom('key_requests').selectAll().execute(), []);
  });

  test('a submission from the page itself, or from no browser at all, is accepted', async (t) => {
    const { app, db } = await buildTestApp(t);
    // app.inject sends Host: localhost:80.
    const sameSite: Record<string, string>[] = [
      { 'sec-fetch-site': 'same-origin', origin: 'http://localhost' },
      { 'sec-fetch-site': 'same-origin', origin: 'http://LOCALHOST:80' },
      { 'sec-fetch-site': 'none' }, // typed or bookmarked, no page involved
      { origin: 'http://localhost:80' },
      { referer: 'http://localhost/developers' }, // the page itself, in a browser without Origin
      {}, // curl
    ];
    for (const [i, headers] of sameSite.entries()) {
      const { status } = await postForm(app, { ...VALID, email: `ada${i}@example.org` }, headers);
      assert.equal(status, 202, JSON.stringify(headers));
    }
    assert.equal((await db.kysely.selectFrom('key_requests').select('id').execute()).length, sameSite.length);
  });
});
