/**
 * Issue 19, § 5 DDG: a commercial account gives its legal details before it posts; its jobs and
 * listings show the public part (legal name, address, register), never e-mail or phone; private
 * accounts have none and show none. Through HTTP on the run's engine.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildTestApp, clientFor, createKey } from '../helpers/app.js';
import { JOB_BODY, LISTING_BODY, PROVIDER_BODY as PROVIDER } from '../helpers/bodies.js';

test('a commercial account: 409 until its details are given, then its jobs and listings show the public part', async (t) => {
  const { app, db } = await buildTestApp(t);
  const business = clientFor(app, (await createKey(db, { email: 'b@example.org', account_type: 'commercial' })).key);
  const anonymous = clientFor(app, null);

  for (const [path, body] of [
    ['/v1/jobs', JOB_BODY],
    ['/v1/listings', LISTING_BODY],
  ] as const) {
    const refused = await business.post(path, body);
    assert.equal(refused.status, 409, refused.raw);
    assert.equal(refused.body.error, 'provider_details_required');
    assert.deepEqual(refused.body.alternatives, ['legal_name', 'address', 'email', 'phone', 'self_certification']);
    assert.match(refused.body.suggestion, /PUT \/v1\/me\/provider/);
  }
  assert.equal((await business.get('/v1/me/provider')).status, 404);

  // Bad bodies say what is wrong and store nothing.
  const notCertified = await business.put('/v1/me/provider', { ...PROVIDER, self_certification: false });
  assert.equal(notCertified.status, 400, notCertified.raw);
  assert.equal(notCertified.body.param, 'self_certification');
  const { address: _, ...noAddress } = PROVIDER;
  const missing = await business.put('/v1/me/provider', noAddress);
  assert.equal(missing.status, 400);
  assert.equal(missing.body.param, 'address');
  const badCountry = await business.put('/v1/me/provider', {
    ...PROVIDER,
    address: { ...PROVIDER.address, country: 'Deutschland' },
  });
  assert.equal(badCountry.status, 400);
  assert.equal(badCountry.body.param, 'address.country');
  assert.equal((await business.get('/v1/me/provider')).status, 404);

  const stored = await business.put('/v1/me/provider', PROVIDER);
  assert.equal(stored.status, 200, stored.raw);
  const { self_certification: __, ...given } = PROVIDER;
  assert.deepEqual(
    { ...stored.body, self_certified_at: null, created_at: null, updated_at: null },
    {
      ...given,
      self_certified_at: null,
      created_at: null,
      updated_at: null,
    },
  );
  assert.deepEqual((await business.get('/v1/me/provider')).body, stored.body);
  // A replacement: without register and VAT id they are gone.
  const { register: ___, vat_id: ____, ...sole } = PROVIDER;
  const replaced = await business.put('/v1/me/provider', { ...sole, legal_name: 'Gartenbau Grün e.K.' });
  assert.equal(replaced.status, 200);
  assert.deepEqual(
    [replaced.body.register, replaced.body.vat_id, replaced.body.created_at],
    [null, null, stored.body.created_at],
  );
  await business.put('/v1/me/provider', PROVIDER);

  const job = await business.post('/v1/jobs', { ...JOB_BODY, title: 'Hecke für Firmenkunden' });
  assert.equal(job.status, 201, job.raw);
  const listing = await business.post('/v1/listings', LISTING_BODY);
  assert.equal(listing.status, 201, listing.raw);
  const shown = { legal_name: PROVIDER.legal_name, address: PROVIDER.address, register: PROVIDER.register };
  assert.deepEqual(job.body.provider, shown);
  assert.deepEqual(listing.body.provider, shown);
  const reads = [
    await anonymous.get(`/v1/jobs/${job.body.id}`),
    await anonymous.get(`/v1/listings/${listing.body.id}`),
    await anonymous.get('/v1/jobs?q=Firmenkunden'),
    await anonymous.get(`/v1/listings?category=EVENTS&limit=100`),
  ];
  assert.deepEqual(reads[0]?.body.provider, shown);
  assert.deepEqual(reads[1]?.body.provider, shown);
  assert.deepEqual(reads[2]?.body.data[0].provider, shown);
  assert.deepEqual(reads[3]?.body.data.find((l: { id: string }) => l.id === listing.body.id).provider, shown);
  for (const read of reads) {
    assert.ok(!read.raw.includes(PROVIDER.email), 'the provider e-mail is public');
    assert.ok(!read.raw.includes(PROVIDER.phone), 'the provider phone is public');
    assert.ok(!read.raw.includes(PROVIDER.vat_id), 'the VAT id is public');
  }
  const exported = await business.get('/v1/me/export');
  assert.equal(exported.body.provider_details[0].email, PROVIDER.email);
});

test('a private account gives no provider details (403) and its jobs and listings show provider null', async (t) => {
  const { app, db } = await buildTestApp(t);
  const person = clientFor(app, (await createKey(db, { email: 'p@example.org' })).key);
  const refused = await person.put('/v1/me/provider', PROVIDER);
  assert.equal(refused.status, 403, refused.raw);
  assert.equal(refused.body.error, 'forbidden');
  const job = await person.post('/v1/jobs', JOB_BODY);
  assert.equal(job.status, 201, job.raw);
  assert.equal(job.body.provider, null);
  const listing = await person.post('/v1/listings', LISTING_BODY);
  assert.equal(listing.body.provider, null);
  assert.equal((await person.get('/v1/me/provider')).status, 404);
  assert.equal((await clientFor(app, null).put('/v1/me/provider', PROVIDER)).status, 401);
});
