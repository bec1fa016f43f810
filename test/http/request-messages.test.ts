/**
 * Messages that say what is wrong: a URL that is no URL is not told about its length, an http://
 * photo is told to use https, a __proto__ key is named as not allowed (not "not valid JSON"), and
 * an empty JSON body on an operation without a body is no body at all.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildTestApp, createKey, NOW } from '../helpers/app.js';
import { helperBody, JOB_BODY, LISTING_BODY } from '../helpers/bodies.js';
import { TEST_ENGINE } from '../helpers/database.js';

function apiError(error: string, param: string | null, message: string, suggestion: string) {
  return { error, message, param, suggestion, alternatives: [], alternatives_count: 0 };
}

test(`URLs, photos and prototype keys are refused with what is wrong (${TEST_ENGINE})`, async (t) => {
  const { app, db } = await buildTestApp(t, NOW, { WEBHOOK_DELIVERY: 'false' });
  const { key } = await createKey(db, { email: 'messages@example.org' });
  const post = (url: string, payload: string) =>
    app.inject({ method: 'POST', url, headers: { 'x-api-key': key, 'content-type': 'application/json' }, payload });

  const cases: [string, unknown, object][] = [
    [
      '/v1/webhooks',
      { url: 'not a url', events: ['job.created'] },
      apiError(
        'invalid_parameter',
        'url',
        "url must be an absolute URL such as https://example.org/hooks/marketplace; got 'not a url'.",
        'Send url as an absolute URL such as https://example.org/hooks/marketplace.',
      ),
    ],
    [
      '/v1/jobs',
      { ...JOB_BODY, photos: ['https://example.org/a.jpg', 'http://example.org/b.jpg'] },
      apiError(
        'invalid_parameter',
        'photos.1',
        "photos.1 must be an https URL such as https://example.org/photo.jpg; got 'http://example.org/b.jpg'.",
        'Send photos.1 as an https URL such as https://example.org/photo.jpg.',
      ),
    ],
  ];
  for (const [url, body, expected] of cases) {
    const answer = await post(url, JSON.stringify(body));
    assert.equal(answer.statusCode, 400, answer.body);
    assert.deepEqual(answer.json(), expected);
  }

  for (const [text, path, key] of [
    ['{"title":"Hecke","__proto__":{"admin":true}}', '__proto__', '__proto__'],
    ['{"location":{"plz":"76227","__proto__":{"x":1}}}', 'location.__proto__', '__proto__'],
    ['{"photos":[{"constructor":{"prototype":{"x":1}}}]}', 'photos.0.constructor', 'constructor'],
  ] as const) {
    const answer = await post('/v1/jobs', text);
    assert.equal(answer.statusCode, 400, answer.body);
    assert.deepEqual(
      answer.json(),
      apiError(
        'invalid_parameter',
        path,
        `The key '${key}' (at ${path}) is not allowed in a request body.`,
        `Remove '${key}': keys that could change the prototype of objects are refused everywhere.`,
      ),
    );
  }
  // JSON that is not valid is invalid_json, saying where.
  const broken = await post('/v1/jobs', '{"title":');
  assert.equal(broken.statusCode, 400);
  assert.deepEqual(
    broken.json(),
    apiError(
      'invalid_json',
      'body',
      'The body is not valid JSON at line 1, column 10: expected a value (an object, array, string, number, true, false or null), found the end of the body.',
      'Correct the JSON at line 1, column 10 (names and strings in double quotes, no trailing commas, no comments), e.g. by writing it with JSON.stringify or a JSON library.',
    ),
  );
});

test(`malformed JSON is a 400 invalid_json naming line, column and what was expected (${TEST_ENGINE})`, async (t) => {
  const { app, db } = await buildTestApp(t, NOW, { WEBHOOK_DELIVERY: 'false' });
  const { key } = await createKey(db, { email: 'json@example.org' });
  const post = (payload: string) =>
    app.inject({
      method: 'POST',
      url: '/v1/jobs',
      headers: { 'x-api-key': key, 'content-type': 'application/json', 'idempotency-key': 'broken-json' },
      payload,
    });
  const cases: [string, string][] = [
    ['{"title": "Hecke",}', "line 1, column 19: expected a member name in double quotes, found '}'"],
    ["{'title': 'Hecke'}", `line 1, column 2: expected a member name in double quotes, found "'"`],
    [
      '{\n  "title": "Hecke"\n  "price_eur": 60\n}',
      "line 3, column 3: expected ',' or '}' after a member of the object, found '\"'",
    ],
    ['{"photos": [1 2]}', "line 1, column 15: expected ',' or ']' after an item of the array, found '2'"],
    [
      '{"title": "Straße \u00fc\n"}',
      'line 1, column 20: expected a character of the string (control characters must be escaped, e.g. \\n), found U+000A',
    ],
    ['{"title": "x"} {}', "line 1, column 16: expected the end of the body after the JSON value, found '{'"],
    ['{"title": "Hecke', `line 1, column 17: expected the closing '"' of the string, found the end of the body`],
    [
      'title=Hecke',
      "line 1, column 1: expected a value (an object, array, string, number, true, false or null), found 't'",
    ],
  ];
  for (const [payload, where] of cases) {
    const answer = await post(payload);
    assert.equal(answer.statusCode, 400, payload);
    const body = answer.json();
    assert.deepEqual(Object.keys(body).sort(), [
      'alternatives',
      'alternatives_count',
      'error',
      'message',
      'param',
      'suggestion',
    ]);
    assert.equal(body.error, 'invalid_json', payload);
    assert.equal(body.param, 'body');
    assert.equal(body.message, `The body is not valid JSON at ${where}.`, payload);
    assert.match(body.suggestion, /^Correct the JSON at line \d+, column \d+ /);
  }
  // Refused before anything ran: no Idempotency-Key was kept, no job made.
  assert.deepEqual(await db.kysely.selectFrom('idempotency_keys').select('key').execute(), []);
  assert.equal((await post(JSON.stringify(JOB_BODY))).statusCode, 201);
});

test(`an empty JSON body is no body: actions succeed, creations are told a body is needed (${TEST_ENGINE})`, async (t) => {
  const { app, db } = await buildTestApp(t, NOW);
  const owner = await createKey(db, { email: 'owner@example.org' });
  const other = await createKey(db, { email: 'other@example.org' });
  const send = (key: string, url: string, body?: object) =>
    app.inject({
      method: 'POST',
      url,
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      payload: body === undefined ? '' : JSON.stringify(body),
    });

  // Application accept (owner) and job cancel.
  const job = (await send(owner.key, '/v1/jobs', JOB_BODY)).json();
  const helper = (await send(other.key, '/v1/helpers', helperBody('Jonas W.'))).json();
  const application = await send(other.key, `/v1/jobs/${job.id}/applications`, { helper_id: helper.id });
  assert.equal(application.statusCode, 201, application.body);
  const accepted = await send(owner.key, `/v1/jobs/${job.id}/applications/${application.json().id}/accept`);
  assert.equal(accepted.statusCode, 200, accepted.body);
  assert.equal(accepted.json().status, 'accepted');
  const second = (await send(owner.key, '/v1/jobs', JOB_BODY)).json();
  const cancelled = await send(owner.key, `/v1/jobs/${second.id}/cancel`);
  assert.equal(cancelled.statusCode, 200, cancelled.body);
  assert.equal(cancelled.json().status, 'cancelled');

  // Booking confirm.
  const listing = (await send(owner.key, '/v1/listings', { ...LISTING_BODY, instant_booking: false })).json();
  const booking = await send(other.key, `/v1/listings/${listing.id}/bookings`, {
    start_date: '2026-12-01',
    end_date: '2026-12-03',
  });
  assert.equal(booking.statusCode, 201, booking.body);
  const confirmed = await send(owner.key, `/v1/bookings/${booking.json().id}/confirm`);
  assert.equal(confirmed.statusCode, 200, confirmed.body);
  assert.equal(confirmed.json().status, 'confirmed');

  // An operation that needs a body says so.
  const empty = await send(owner.key, '/v1/jobs');
  assert.equal(empty.statusCode, 400);
  assert.deepEqual(
    empty.json(),
    apiError(
      'invalid_body',
      null,
      'The body must be a JSON object.',
      'Send a JSON object with the fields title, description, category, price_eur, location, desired_at, deadline, time_preference, urgent, express, remote_task, requires_license, cancellation_policy, helpers_needed, photos, duration_hours.',
    ),
  );
});
