import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildTestApp, createKey } from '../helpers/app.js';
import { helperBody, JOB_BODY, LISTING_BODY } from '../helpers/bodies.js';

/**
 * Every 201 names what it created in Location, and a GET of that path shows it (an application,
 * which has no path of its own, is listed at its job's applications, for the job's owner).
 */
test('every 201 has a Location that GETs what was created', async (t) => {
  const { app, db } = await buildTestApp(t, undefined, { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
  const owner = await createKey(db, { email: 'owner@example.org' });
  const helper = await createKey(db, { email: 'helper@example.org' });
  /** POSTs as `key`, expects a 201 with a Location that `viewer` (the poster by default) can GET. */
  const created = async (url: string, key: string, body: object, viewer = key) => {
    const response = await app.inject({ method: 'POST', url, headers: { 'x-api-key': key }, payload: body });
    assert.equal(response.statusCode, 201, `${url}: ${response.body}`);
    const location = response.headers.location;
    assert.equal(typeof location, 'string', `${url}: Location`);
    const shown = await app.inject({ url: String(location), headers: { 'x-api-key': viewer } });
    assert.equal(shown.statusCode, 200, `${url}: GET ${location}`);
    return { id: (response.json() as { id: string }).id, location: String(location), shown: shown.json() as any };
  };

  const job = await created('/v1/jobs', owner.key, JOB_BODY);
  assert.equal(job.location, `/v1/jobs/${job.id}`);
  assert.equal(job.shown.id, job.id);
  const profile = await created('/v1/helpers', helper.key, helperBody('Jana'));
  assert.equal(profile.location, `/v1/helpers/${profile.id}`);
  assert.equal(profile.shown.id, profile.id);
  const application = await created(
    `/v1/jobs/${job.id}/applications`,
    helper.key,
    { helper_id: profile.id },
    owner.key,
  );
  assert.equal(application.location, `/v1/jobs/${job.id}/applications`);
  assert.ok(
    (application.shown as { data: { id: string }[] }).data.some((a) => a.id === application.id),
    "listed at its job's applications for the job's owner",
  );
  const listing = await created('/v1/listings', owner.key, LISTING_BODY);
  assert.equal(listing.location, `/v1/listings/${listing.id}`);
  assert.equal(listing.shown.id, listing.id);
  const booking = await created(`/v1/listings/${listing.id}/bookings`, helper.key, {
    start_date: '2026-12-01',
    end_date: '2026-12-02',
  });
  assert.equal(booking.location, `/v1/bookings/${booking.id}`);
  assert.equal(booking.shown.id, booking.id);
  const webhook = await created('/v1/webhooks', owner.key, {
    url: 'http://127.0.0.1:9/marketplace',
    events: ['job.created'],
  });
  assert.equal(webhook.location, `/v1/webhooks/${webhook.id}`);
  assert.equal(webhook.shown.id, webhook.id);
});

test('a body of any media type but JSON is a 415 naming the one accepted type', async (t) => {
  const { app, db } = await buildTestApp(t);
  const { key } = await createKey(db);
  for (const type of [
    'text/plain',
    'text/plain; charset=utf-8',
    'application/xml',
    'application/x-www-form-urlencoded',
  ]) {
    const response = await app.inject({
      method: 'POST',
      url: '/v1/jobs',
      headers: { 'x-api-key': key, 'content-type': type },
      payload: JSON.stringify(JOB_BODY),
    });
    assert.equal(response.statusCode, 415, type);
    assert.deepEqual(
      { error: response.json().error, alternatives: response.json().alternatives },
      { error: 'unsupported_media_type', alternatives: ['application/json'] },
      type,
    );
  }
});
