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
  // JSON that is not valid stays "not valid JSON".
  const broken = await post('/v1/jobs', '{"title":');
  assert.equal(broken.statusCode, 400);
  assert.equal(broken.json().error, 'invalid_body');
  assert.match(broken.json().message, /not valid JSON/);
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
      'Send a JSON object with the fields title, description, category, price_eur, location, desired_at, deadline, time_preference, urgent, express, remote_task, requires_license, helpers_needed, photos, duration_hours.',
    ),
  );
});
