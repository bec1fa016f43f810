/**
 * Issue 19, GDPR: the export of an account (GET /v1/me/export) holds every row of it and nothing
 * of another account's personal data; the erasure (DELETE /v1/me) leaves no name or text of the
 * erased account in any read, export, search or stored row, keeps the counts, and ends the
 * account's commitments with their events. Through HTTP on the run's engine.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { COPIED_TABLES } from '../../src/db/copy-data.js';
import type { Db } from '../../src/db/create-db.js';
import { ERASED_TEXT } from '../../src/domain/erasure.js';
import type { Api } from '../../src/http/route-deps.js';
import { AccountExportSchema, EXPORT_SECTIONS } from '../../src/schemas/account-export.js';
import { buildTestApp, type Client, clientFor, createKey, NOW } from '../helpers/app.js';
import { helperBody, JOB_BODY, LISTING_BODY } from '../helpers/bodies.js';
import { insert, jobFixture } from '../helpers/fixtures.js';

const ALICE = { name: 'Alice Ahlbrecht', email: 'alice.ahlbrecht@example.org' };
const BRUNO = { name: 'Bruno Brennecke', email: 'bruno.brennecke@example.org' };
/** Words only Alice writes, and only Bruno writes: found anywhere, they came from that account. */
const ALICE_WORDS = ['Zitronenbaum', 'Apfelkuchenrezept', 'Alices Nachricht', 'Alice schreibt', 'Alices Bewerbung'];
const BRUNO_WORDS = ['Brunos Bohrmaschine', 'Bruno fragt', 'Brunos Bewerbung', 'Bruno Helferprofil'];

async function account(db: Db, who: { name: string; email: string }) {
  const key = await createKey(db, { email: who.email });
  await db.kysely.updateTable('accounts').set({ name: who.name }).where('id', '=', key.accountId).execute();
  return key;
}

const ok = async (response: Promise<{ status: number; raw: string; body: any }>, status = 201) => {
  const answer = await response;
  assert.equal(answer.status, status, answer.raw);
  return answer.body;
};

/**
 * Alice and Bruno do business both ways: each posts a job and a listing, has a helper profile,
 * applies to the other's job, books the other's item, and they write to each other.
 */
async function market(t: Parameters<typeof buildTestApp>[0]) {
  const { app, db } = await buildTestApp(t, NOW, { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
  const aliceKey = await account(db, ALICE);
  const brunoKey = await account(db, BRUNO);
  const alice = clientFor(app, aliceKey.key);
  const bruno = clientFor(app, brunoKey.key);

  const aliceJob = await ok(alice.post('/v1/jobs', { ...JOB_BODY, title: 'Zitronenbaum umtopfen' }));
  const aliceListing = await ok(
    alice.post('/v1/listings', { ...LISTING_BODY, description: 'Apfelkuchenrezept liegt bei.' }),
  );
  const brunoJob = await ok(bruno.post('/v1/jobs', { ...JOB_BODY, title: 'Hecke am Haus schneiden' }));
  const brunoListing = await ok(bruno.post('/v1/listings', { ...LISTING_BODY, title: 'Brunos Bohrmaschine' }));
  const aliceHelper = await ok(alice.post('/v1/helpers', helperBody('Alice A.')));
  const brunoHelper = await ok(bruno.post('/v1/helpers', { ...helperBody('Bruno B.'), bio: 'Bruno Helferprofil' }));

  const aliceApplies = await ok(
    alice.post(`/v1/jobs/${brunoJob.id}/applications`, { helper_id: aliceHelper.id, message: 'Alices Bewerbung' }),
  );
  const brunoApplies = await ok(
    bruno.post(`/v1/jobs/${aliceJob.id}/applications`, { helper_id: brunoHelper.id, message: 'Brunos Bewerbung' }),
  );
  const aliceBooks = await ok(
    alice.post(`/v1/listings/${brunoListing.id}/bookings`, { start_date: '2026-11-25', end_date: '2026-11-27' }),
  );
  const brunoBooks = await ok(
    bruno.post(`/v1/listings/${aliceListing.id}/bookings`, { start_date: '2026-11-28', end_date: '2026-11-29' }),
  );
  const conversation = await ok(
    bruno.post('/v1/conversations', {
      about: { type: 'listing', id: aliceListing.id },
      text: 'Bruno fragt: noch frei?',
    }),
  );
  await ok(alice.post(`/v1/conversations/${conversation.id}/messages`, { text: 'Alices Nachricht: ja, frei.' }));
  await ok(alice.post('/v1/saved-searches', { name: 'Alice schreibt Suchen', resource: 'jobs', query: {} }));
  await ok(alice.post('/v1/webhooks', { url: 'http://127.0.0.1:9/alice-hook', events: ['job.created'] }));
  await ok(alice.post('/v1/me/calendar-feed'));
  await ok(alice.post('/v1/drafts', { operation: 'createJob', body: { ...JOB_BODY, title: 'Alices Entwurf' } }));
  return {
    app,
    db,
    aliceKey,
    brunoKey,
    alice,
    bruno,
    ids: {
      aliceJob,
      aliceListing,
      brunoJob,
      brunoListing,
      aliceHelper,
      aliceApplies,
      brunoApplies,
      aliceBooks,
      brunoBooks,
      conversation,
    },
  };
}

async function exportOf(client: Client) {
  const answer = await client.get('/v1/me/export');
  assert.equal(answer.status, 200, answer.raw);
  assert.match(String(answer.headers['content-type']), /^application\/json/);
  assert.match(String(answer.headers['content-disposition']), /^attachment; filename="export-acc_/);
  assert.equal(answer.headers['cache-control'], 'private, no-store');
  return { body: answer.body, raw: answer.raw };
}

/** Every stored row, as text: what no read may show is not stored at all. */
async function everyStoredText(db: Db): Promise<string> {
  const parts: string[] = [];
  for (const table of COPIED_TABLES) {
    parts.push(JSON.stringify(await db.kysely.selectFrom(table).selectAll().execute()));
  }
  return parts.join('\n');
}

const validateExport = (() => {
  const ajv = new Ajv2020.default({ strict: false, allErrors: true });
  addFormats.default(ajv);
  const validate = ajv.compile(AccountExportSchema);
  return (value: unknown): string | null => (validate(value) ? null : ajv.errorsText(validate.errors));
})();

test('the export holds every row of the account, as documented, and nothing personal of anyone else', async (t) => {
  const { db, alice, aliceKey, ids } = await market(t);
  const { body, raw }: { body: any; raw: string } = await exportOf(alice);
  assert.equal(validateExport(body), null);
  assert.equal(body.format, 'karlsruhe-marketplace-account-export');
  assert.deepEqual(
    Object.keys(body).slice(3),
    EXPORT_SECTIONS.map((section) => section.key),
  );
  assert.equal(body.account.email, ALICE.email);
  assert.equal(body.account.name, ALICE.name);

  // Every row of Alice's, counted straight in the database.
  const me = aliceKey.accountId;
  const k = db.kysely;
  const idsOf = async (query: Promise<{ id: string }[]>) => (await query).map((row) => row.id).sort();
  const exported = (key: string) => (body[key] as { id: string }[]).map((row) => row.id).sort();
  const owners = k.selectFrom('owners').select('id').where('account_id', '=', me);
  const expected: Record<string, Promise<{ id: string }[]>> = {
    api_keys: k.selectFrom('api_keys').select('id').where('account_id', '=', me).execute(),
    jobs: k.selectFrom('jobs').select('id').where('owner_account_id', '=', me).execute(),
    owner_profiles: owners.execute(),
    listings: k.selectFrom('listings').select('id').where('owner_id', 'in', owners).execute(),
    helper_profiles: k.selectFrom('helpers').select('id').where('account_id', '=', me).execute(),
    applications: k.selectFrom('applications').select('id').where('account_id', '=', me).execute(),
    bookings: k.selectFrom('bookings').select('id').where('renter_account_id', '=', me).execute(),
    messages_sent: k.selectFrom('messages').select('id').where('sender_account_id', '=', me).execute(),
    messages_received: k.selectFrom('messages').select('id').where('recipient_account_id', '=', me).execute(),
    saved_searches: k.selectFrom('saved_searches').select('id').where('account_id', '=', me).execute(),
    webhooks: k.selectFrom('webhooks').select('id').where('account_id', '=', me).execute(),
    drafts: k.selectFrom('drafts').select('id').where('account_id', '=', me).execute(),
  };
  for (const [section, query] of Object.entries(expected)) {
    const want = await idsOf(query);
    assert.ok(want.length > 0, `${section}: the market gives Alice at least one`);
    assert.deepEqual(exported(section), want, section);
  }
  assert.deepEqual(exported('applications_received'), [ids.brunoApplies.id]);
  assert.deepEqual(exported('bookings_received'), [ids.brunoBooks.id]);
  assert.deepEqual(exported('conversations'), [ids.conversation.id]);
  assert.equal(body.calendar_feeds.length, 1);
  assert.equal(body.jobs[0].title, 'Zitronenbaum umtopfen');
  assert.equal(typeof body.jobs[0].exact_lat, 'number');
  assert.equal(body.helper_profiles[0].categories[0], 'GARDENING');
  assert.equal(body.messages_sent[0].text, 'Alices Nachricht: ja, frei.');
  assert.equal(body.applications[0].message, 'Alices Bewerbung');
  assert.equal(body.drafts[0].body.title, 'Alices Entwurf');
  assert.equal(body.drafts[0].status, 'pending');
  assert.equal(typeof body.drafts[0].summary.summary.de, 'string');
  assert.ok(!('token_hash' in body.drafts[0]), 'no token hash');

  // Nothing of Bruno's: no name, e-mail, texts; no secret of Alice's either.
  for (const word of [BRUNO.name, BRUNO.email, ...BRUNO_WORDS]) assert.ok(!raw.includes(word), `export shows ${word}`);
  const secrets = await k.selectFrom('api_keys').select('key_hash').where('account_id', '=', me).execute();
  const hooks = await k.selectFrom('webhooks').select('secret').where('account_id', '=', me).execute();
  const searches = await k
    .selectFrom('saved_searches')
    .select('unsubscribe_key')
    .where('account_id', '=', me)
    .execute();
  const feeds = await k.selectFrom('calendar_feeds').select('token_hash').where('account_id', '=', me).execute();
  const drafts = await k.selectFrom('drafts').select('token_hash').where('account_id', '=', me).execute();
  for (const secret of [
    ...secrets.map((r) => r.key_hash),
    ...hooks.map((r) => r.secret),
    ...searches.map((r) => r.unsubscribe_key),
    ...feeds.map((r) => r.token_hash),
    ...drafts.map((r) => r.token_hash),
  ]) {
    assert.ok(!raw.includes(secret), 'a secret or hash is in the export');
  }
  assert.doesNotMatch(raw, /whsec_|cal_[A-Za-z0-9]{10}|kmp_/);
});

test('the export streams gzip when accepted, the same document; anonymous callers get 401', async (t) => {
  const { app, alice, aliceKey } = await market(t);
  const plain = await exportOf(alice);
  const zipped = await (app as Api).inject({
    method: 'GET',
    url: '/v1/me/export',
    headers: { 'x-api-key': aliceKey.key, 'accept-encoding': 'br;q=1, gzip;q=0.5' },
  });
  assert.equal(zipped.statusCode, 200);
  assert.equal(zipped.headers['content-encoding'], 'gzip');
  const unzipped = JSON.parse(gunzipSync(zipped.rawPayload).toString('utf8'));
  assert.deepEqual({ ...unzipped, exported_at: null }, { ...plain.body, exported_at: null });
  const anonymous = await clientFor(app, null).get('/v1/me/export');
  assert.equal(anonymous.status, 401);
  assert.equal(anonymous.body.error, 'authentication_required');
});

test('erasure: a wrong or missing confirm erases nothing; the right one ends everything and leaves no trace', async (t) => {
  const { app, db, alice, bruno, aliceKey, ids } = await market(t);
  const anonymous = clientFor(app, null);
  const statsBefore = (await anonymous.get('/v1/stats')).body;
  const brunoListingBefore = (await anonymous.get(`/v1/listings/${ids.brunoListing.id}`)).body;

  for (const body of [{ confirm: BRUNO.email }, { confirm: 'nobody@example.org' }]) {
    const refused = await alice.delete('/v1/me', body);
    assert.equal(refused.status, 400, refused.raw);
    assert.equal(refused.body.error, 'confirmation_mismatch');
    assert.equal(refused.body.param, 'confirm');
  }
  const missing = await alice.delete('/v1/me', {});
  assert.equal(missing.status, 400);
  assert.equal(missing.body.param, 'confirm');
  assert.equal((await alice.get('/v1/me')).body.account.email, ALICE.email, 'nothing was erased');

  // A job series whose occurrences are not posted yet: its template (words, exact place) goes too.
  const series = await alice.post('/v1/job-series', {
    title: 'Fensterputzplan',
    description: 'Alle Fenster putzen, einmal im Monat.',
    category: 'CLEANING',
    price_eur: 30,
    location: { lat: 49.0101, lng: 8.4102 },
    rrule: 'FREQ=MONTHLY;COUNT=2',
    starts_on: '2027-01-04',
    local_time: '10:00',
  });
  assert.equal(series.status, 201, series.raw);

  const erased = await alice.delete('/v1/me', { confirm: ALICE.email.toUpperCase() });
  assert.equal(erased.status, 202, erased.raw);
  assert.equal(erased.body.account_id, aliceKey.accountId);
  assert.deepEqual(
    {
      jobs: erased.body.done.jobs_cancelled,
      listings: erased.body.done.listings_archived,
      applications: erased.body.done.applications_withdrawn,
      bookings: erased.body.done.bookings_cancelled,
      keys: erased.body.done.keys_revoked,
      messages: erased.body.done.messages_erased,
      webhooks: erased.body.done.webhooks_deleted,
      searches: erased.body.done.saved_searches_deleted,
    },
    { jobs: 1, listings: 1, applications: 1, bookings: 2, keys: 1, messages: 1, webhooks: 1, searches: 1 },
  );
  assert.ok(erased.body.kept.some((k: { record: string }) => k.record === 'bookings'));

  // The key is dead.
  const after = await alice.get('/v1/me');
  assert.equal(after.status, 401, after.raw);
  assert.equal((await alice.get('/v1/me/export')).status, 401);

  // Commitments ended the usual way, with their events.
  assert.equal((await bruno.get(`/v1/jobs/${ids.aliceJob.id}`)).body.status, 'cancelled');
  assert.equal((await bruno.get(`/v1/listings/${ids.aliceListing.id}`)).body.status, 'archived');
  assert.equal((await bruno.get(`/v1/bookings/${ids.brunoBooks.id}`)).body.status, 'cancelled');
  assert.equal((await bruno.get(`/v1/bookings/${ids.aliceBooks.id}`)).body.status, 'cancelled');
  const applications = (await bruno.get(`/v1/jobs/${ids.brunoJob.id}/applications`)).body.data;
  assert.deepEqual(
    applications.map((a: { status: string; message: string | null }) => [a.status, a.message]),
    [['withdrawn', null]],
  );
  const events = await db.kysely.selectFrom('events').select(['type', 'subject_id']).execute();
  assert.ok(events.some((e) => e.type === 'job.status_changed' && e.subject_id === ids.aliceJob.id));
  assert.ok(events.some((e) => e.type === 'booking.status_changed' && e.subject_id === ids.brunoBooks.id));

  // Bruno still reads the conversation: his words as written, Alice's erased.
  const messages = (await bruno.get(`/v1/conversations/${ids.conversation.id}/messages`)).body.data;
  assert.deepEqual(
    messages.map((m: { text: string }) => m.text),
    ['Bruno fragt: noch frei?', ERASED_TEXT],
  );

  // No read, search, export or stored row shows Alice's name, e-mail or words.
  const reads = [
    await anonymous.get('/v1/jobs?q=Zitronenbaum'),
    await anonymous.get(`/v1/jobs/${ids.aliceJob.id}`),
    await anonymous.get(`/v1/listings/${ids.aliceListing.id}`),
    await anonymous.get('/v1/listings?q=Apfelkuchenrezept'),
    await anonymous.get(`/v1/helpers/${ids.aliceHelper.id}`),
    await bruno.get(`/v1/conversations/${ids.conversation.id}`),
    await bruno.get(`/v1/jobs/${ids.brunoJob.id}/applications`),
    await bruno.get('/v1/me/export'),
  ];
  assert.equal(reads[0]?.body.total, 0);
  assert.equal(reads[3]?.body.total, 0);
  assert.equal((await anonymous.get(`/v1/job-series/${series.body.id}`)).status, 404);
  const stored = await everyStoredText(db);
  assert.ok(!stored.includes('Fensterputzplan'), "the series' template is gone");
  for (const word of [ALICE.name, ALICE.email, ...ALICE_WORDS]) {
    for (const read of reads) assert.ok(!read.raw.includes(word), `a read shows ${word}`);
    assert.ok(!stored.includes(word), `a stored row holds ${word}`);
  }
  // Bruno's own data is untouched.
  for (const word of [BRUNO.name, BRUNO.email, 'Brunos Bohrmaschine', 'Bruno fragt']) {
    assert.ok(stored.includes(word), `Bruno's ${word} is gone`);
  }

  // The counts stay: the jobs and listings are there (cancelled, archived), ratings and figures too.
  const before = statsBefore.totals;
  const totals = (await anonymous.get('/v1/stats')).body.totals;
  assert.deepEqual(
    [totals.open_jobs, totals.available_listings, totals.helpers, totals.completed_jobs],
    [before.open_jobs - 1, before.available_listings - 1, before.helpers, before.completed_jobs],
  );
  const brunoListingAfter = (await anonymous.get(`/v1/listings/${ids.brunoListing.id}`)).body;
  assert.equal(typeof brunoListingAfter.owner_reliability.rating_count, 'number');
  assert.deepEqual(brunoListingAfter.owner_reliability, brunoListingBefore.owner_reliability);

  // Erased once: the email can start a new account; nothing is done twice.
  const again = await createKey(db, { email: ALICE.email });
  assert.notEqual(again.accountId, aliceKey.accountId);
});

test('the export pages through large sections: every row once, in key order (a composite key too)', async (t) => {
  const { app, db } = await buildTestApp(t, NOW, { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
  const me = await account(db, ALICE);
  const alice = clientFor(app, me.key);
  const search = await ok(alice.post('/v1/saved-searches', { name: 'Alles', resource: 'jobs', query: {} }));
  const jobs = Array.from({ length: 1_203 }, (_, i) =>
    jobFixture({ id: `job_${String(i).padStart(16, '0')}`, owner_account_id: me.accountId }),
  );
  await insert(db.kysely, { jobs });
  const matches = jobs.slice(0, 1_001).map((job) => ({
    saved_search_id: search.id as string,
    subject_id: job.id,
    matched_at: NOW.toISOString(),
  }));
  await db.kysely.insertInto('saved_search_matches').values(matches).execute();
  const { body } = await exportOf(alice);
  assert.deepEqual(
    body.jobs.map((job: { id: string }) => job.id),
    jobs.map((job) => job.id),
  );
  assert.deepEqual(
    body.saved_search_matches.map((m: { subject_id: string }) => m.subject_id),
    matches.map((m) => m.subject_id),
  );
});
