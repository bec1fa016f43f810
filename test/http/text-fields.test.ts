/**
 * Text fields: names and titles must show something (not only zero-width, filler or other invisible
 * characters), and no text field takes direction controls (U+202A..U+202E, U+2066..U+2069): they
 * are refused with a 400 naming the field, not stripped. Ordinary German, emoji and right-to-left
 * text stay accepted. Through the API, the key request endpoint and the /developers form.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildTestApp, createKey, NOW } from '../helpers/app.js';
import { helperBody, JOB_BODY, LISTING_BODY } from '../helpers/bodies.js';
import { TEST_ENGINE } from '../helpers/database.js';

function apiError(param: string, message: string, suggestion: string) {
  return { error: 'invalid_parameter', message, param, suggestion, alternatives: [], alternatives_count: 0 };
}

const controlError = (param: string, control: string) =>
  apiError(
    param,
    `${param} contains ${control}, a character that changes the direction text is displayed in.`,
    `Remove direction controls (U+202A to U+202E, U+2066 to U+2069) from ${param}; right-to-left text displays correctly without them.`,
  );

const invisibleError = (param: string, expected: string) =>
  apiError(
    param,
    `${param} must contain visible text; it has only invisible characters (such as zero-width spaces).`,
    `Send ${param} as ${expected} with at least one visible letter, digit or symbol.`,
  );

test(`names and titles need visible text; no field takes direction controls (${TEST_ENGINE})`, async (t) => {
  const { app, db } = await buildTestApp(t, NOW);
  const { key } = await createKey(db, { email: 'text@example.org' });
  const post = (url: string, payload: object) =>
    app.inject({ method: 'POST', url, headers: { 'x-api-key': key }, payload });

  const refused: [string, object, object][] = [
    ['/v1/helpers', helperBody('\u200b\u200b'), invisibleError('display_name', 'a text of 2 to 60 characters')],
    ['/v1/helpers', helperBody('\u3164\u3164'), invisibleError('display_name', 'a text of 2 to 60 characters')],
    ['/v1/helpers', helperBody('\u2066\u2069'), controlError('display_name', 'U+2066')],
    ['/v1/helpers', { ...helperBody('Jonas W.'), bio: 'Gärtner \u202egnp.exe' }, controlError('bio', 'U+202E')],
    ['/v1/jobs', { ...JOB_BODY, title: 'Hecke \u202Eschneiden' }, controlError('title', 'U+202E')],
    [
      '/v1/jobs',
      { ...JOB_BODY, description: '\u200d\u200c\u2060\u00ad\ufe0f\u0301\u2800\u200b\u200b\u200b' },
      invisibleError('description', 'a text of 10 to 5000 characters'),
    ],
    ['/v1/listings', { ...LISTING_BODY, title: '\u202aBierzeltgarnitur' }, controlError('title', 'U+202A')],
  ];
  for (const [url, body, expected] of refused) {
    const answer = await post(url, body);
    assert.equal(answer.statusCode, 400, `${url} ${JSON.stringify(body)}: ${answer.body}`);
    assert.deepEqual(answer.json(), expected, JSON.stringify(body));
  }

  // Spaces alone keep their own message.
  const blank = await post('/v1/jobs', { ...JOB_BODY, title: '    ' });
  assert.deepEqual(
    blank.json(),
    apiError(
      'title',
      'title must not be blank.',
      'Send title as a text of 3 to 120 characters that is not only spaces.',
    ),
  );

  // Ordinary text of every kind is stored as sent: umlauts, ß, emoji (with joiners), right-to-left
  // script, and an invisible character inside visible text.
  const helper = await post('/v1/helpers', {
    ...helperBody('Jürgen ß. 👩‍🌾'),
    bio: 'Grüße aus Durlach! مرحبا — Zero\u200bwidth inside is fine.',
  });
  assert.equal(helper.statusCode, 201, helper.body);
  assert.equal(helper.json().display_name, 'Jürgen ß. 👩‍🌾');
  assert.equal(helper.json().bio, 'Grüße aus Durlach! مرحبا — Zero\u200bwidth inside is fine.');
  const job = await post('/v1/jobs', {
    ...JOB_BODY,
    title: 'Straßenfest-Aufbau 🎪',
    description: 'שלום, Bänke tragen.',
  });
  assert.equal(job.statusCode, 201, job.body);
  assert.equal(job.json().title, 'Straßenfest-Aufbau 🎪');
});

test(`key requests: the JSON endpoint and the /developers form apply the same rules (${TEST_ENGINE})`, async (t) => {
  const { app } = await buildTestApp(t, NOW);
  const valid = {
    name: 'Ada Lovelace',
    email: 'ada@example.org',
    account_type: 'private',
    intended_use: 'A dashboard of open gardening jobs in Durlach.',
  };
  for (const [body, expected] of [
    [{ ...valid, name: '\u200b' }, invisibleError('name', 'a text of 1 to 100 characters')],
    [{ ...valid, organisation: 'Engines \u202eHbmG' }, controlError('organisation', 'U+202E')],
  ] as const) {
    const answer = await app.inject({ method: 'POST', url: '/v1/developer/key-requests', payload: body });
    assert.equal(answer.statusCode, 400, answer.body);
    assert.deepEqual(answer.json(), expected);
  }

  const form = await app.inject({
    method: 'POST',
    url: '/developers',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ ...valid, name: 'Ada \u202eecalevoL' }).toString(),
  });
  assert.equal(form.statusCode, 400);
  assert.equal(
    /<p class="error" id="name-error">(.*?)<\/p>/.exec(form.body)?.[1]?.replace(/<[^>]+>/g, ''),
    'Error: Your name contains U+202E, a character that changes the text direction. Please remove it.',
  );
});

// Issue 30.2: public text carried contact data to everyone (titles, descriptions, a helper's name and bio).
test(`public text refuses contact data with a 400 naming the field; ordinary text stays accepted (${TEST_ENGINE})`, async (t) => {
  const { app, db } = await buildTestApp(t, NOW);
  const { key } = await createKey(db, { email: 'public@example.org' });
  const send = (method: 'POST' | 'PATCH', url: string, payload: object) =>
    app.inject({ method, url, headers: { 'x-api-key': key }, payload });
  const job = await send('POST', '/v1/jobs', JOB_BODY);
  assert.equal(job.statusCode, 201, job.body);
  const listing = await send('POST', '/v1/listings', LISTING_BODY);
  assert.equal(listing.statusCode, 201, listing.body);
  const helper = await send('POST', '/v1/helpers', helperBody('Jonas W.'));
  assert.equal(helper.statusCode, 201, helper.body);

  const refused: [string, 'POST' | 'PATCH', string, object][] = [
    ['title', 'POST', '/v1/jobs', { ...JOB_BODY, title: 'Hecke, Tel. 0171 2345678' }],
    ['description', 'POST', '/v1/jobs', { ...JOB_BODY, description: 'Zwanzig Meter Thuja. Mail: gina@gmx.de' }],
    ['description', 'PATCH', `/v1/jobs/${job.json().id}`, { description: 'Bitte per WhatsApp: wa.me/491712345678' }],
    ['title', 'POST', '/v1/listings', { ...LISTING_BODY, title: 'Bierzeltgarnitur t.me/anna_ka' }],
    [
      'description',
      'PATCH',
      `/v1/listings/${listing.json().id}`,
      { description: 'Anfragen an anna -at- web -dot- de' },
    ],
    ['display_name', 'POST', '/v1/helpers', helperBody('Anna @anna_schmidt')],
    ['bio', 'PATCH', `/v1/helpers/${helper.json().id}`, { bio: 'Zahlung an IBAN DE89 3704 0044 0532 0130 00' }],
    [
      'bio',
      'POST',
      '/v1/helpers',
      { ...helperBody('Anna S.'), bio: 'null eins sieben eins zwei drei vier fünf sechs' },
    ],
  ];
  for (const [param, method, url, body] of refused) {
    const answer = await send(method, url, body);
    assert.equal(answer.statusCode, 400, `${method} ${url} ${JSON.stringify(body)}: ${answer.body}`);
    assert.equal(answer.json().param, param, answer.body);
    assert.equal(answer.json().error, 'invalid_parameter');
  }
  const phone = await send('POST', '/v1/jobs', { ...JOB_BODY, title: 'Hecke, Tel. 0171 2345678' });
  assert.deepEqual(
    phone.json(),
    apiError(
      'title',
      'title contains contact data (a phone number); title is public, and public text takes none.',
      'Remove it from title. Contact data can be shared in the conversation (POST /v1/conversations) once the application is accepted or the booking confirmed; until then the platform masks it there as well.',
    ),
  );
  // A draft's body is checked as the operation checks it.
  const draft = await send('POST', '/v1/drafts', {
    operation: 'createJob',
    body: { ...JOB_BODY, description: 'Ruf an: 0721 123456, danke!' },
  });
  assert.equal(draft.statusCode, 400, draft.body);
  assert.equal(draft.json().param, 'description');

  // Ordinary public text with times, prices, an address, sizes and dates is accepted.
  const ordinary = await send('POST', '/v1/jobs', {
    ...JOB_BODY,
    title: 'Hecke schneiden am 14.06.2026 ab 9:30 Uhr',
    description:
      'Treffpunkt Kaiserstraße 112, 76133 Karlsruhe. Hecke 25 m lang, 1,80 m hoch; 60 € für 3 Stunden. Werkzeug ist da, Leiter 3 m.',
  });
  assert.equal(ordinary.statusCode, 201, ordinary.body);
  const bio = await send('PATCH', `/v1/helpers/${helper.json().id}`, {
    bio: 'Gärtner seit 2012, 2 Akku-Heckenscheren (18 V), erreichbar Mo.-Fr. 8-18 Uhr über die Plattform.',
  });
  assert.equal(bio.statusCode, 200, bio.body);
});
