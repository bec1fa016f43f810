/**
 * Issue 30, 1: erasure leaves nothing behind. One person (Alice) writes a marker word into every
 * write path the API has that takes her words (her name, e-mail, jobs, listings, helper profile,
 * applications and an objection to a job's completion, bookings, conversations, reviews and replies, saved searches, webhooks, drafts,
 * reports, key requests); another (Bruno) is her counterpart everywhere, reports each of her things
 * (the reports keep snapshots of them) and keeps copies the
 * platform made of her words for him: saved_search.matched events in his private stream and on his
 * webhook, stored idempotent answers (an accepted application names her message and e-mail, a
 * conversation her name). After `DELETE /v1/me`, the marker is in no table, no replayable event,
 * no redeliverable payload and no replayed answer. Through HTTP, on the run's engine.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { COPIED_TABLES, DERIVED_TABLES } from '../../src/db/copy-data.js';
import type { Db } from '../../src/db/create-db.js';
import { EVENT_TYPES } from '../../src/domain/events.js';
import { streamEventsAfter } from '../../src/repositories/event-reads.js';
import { buildTestApp, clientFor, createKey, NOW } from '../helpers/app.js';
import { helperBody, JOB_BODY, LISTING_BODY } from '../helpers/bodies.js';

/** A word nobody else writes: found anywhere after the erasure, it came from Alice. */
const MARKER = 'Quokkamarke';
const ALICE = { name: `${MARKER} Alice`, email: `${MARKER.toLowerCase()}@example.org` };

/** Every stored row of every table, as lower-case text. */
async function everyStoredText(db: Db): Promise<string> {
  const parts: string[] = [];
  for (const table of [...COPIED_TABLES, ...DERIVED_TABLES]) {
    parts.push(JSON.stringify(await db.kysely.selectFrom(table).selectAll().execute()));
  }
  return parts.join('\n').toLowerCase();
}

const has = (text: string) => text.toLowerCase().includes(MARKER.toLowerCase());

test('erasure: a marker written through every write path is found nowhere afterwards, also not in what others keep', async (t) => {
  let now = NOW.getTime();
  const { app, db } = await buildTestApp(t, () => new Date(now), {
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    REPORTS_PER_HOUR: '100',
  });
  const advance = (ms: number) => {
    now += ms;
  };
  const aliceKey = await createKey(db, { email: ALICE.email });
  await db.kysely.updateTable('accounts').set({ name: ALICE.name }).where('id', '=', aliceKey.accountId).execute();
  const brunoKey = await createKey(db, { email: 'bruno@example.org' });
  const alice = clientFor(app, aliceKey.key);
  const bruno = clientFor(app, brunoKey.key);
  const anonymous = clientFor(app, null);
  const ok = async (answer: Promise<{ status: number; raw: string; body: any }>, status = 201) => {
    const done = await answer;
    assert.equal(done.status, status, done.raw);
    return done.body;
  };

  // Bruno is told of new jobs by his saved search and of everything addressed to him by his webhook.
  await ok(bruno.post('/v1/saved-searches', { name: 'Alles in Karlsruhe', resource: 'jobs', query: {} }));
  const hook = await ok(
    bruno.post('/v1/webhooks', {
      url: 'http://127.0.0.1:9/bruno',
      events: [
        'saved_search.matched',
        'application.created',
        'completion.objected',
        'job.created',
        'listing.created',
        'booking.created',
      ],
    }),
  );
  const brunoJob = await ok(bruno.post('/v1/jobs', { ...JOB_BODY, title: 'Hecke schneiden' }));
  const disputedJob = await ok(bruno.post('/v1/jobs', { ...JOB_BODY, title: 'Rasen mähen' }));
  const brunoListing = await ok(bruno.post('/v1/listings', { ...LISTING_BODY, title: 'Leiter' }));
  const brunoHelper = await ok(bruno.post('/v1/helpers', helperBody('Bruno B.')));

  // Alice writes the marker everywhere she can.
  const aliceJob = await ok(
    alice.post('/v1/jobs', { ...JOB_BODY, title: `${MARKER} umtopfen`, description: `Der ${MARKER} braucht Erde.` }),
  );
  const aliceListing = await ok(
    alice.post('/v1/listings', { ...LISTING_BODY, title: `${MARKER} Schubkarre`, description: `Von ${MARKER}.` }),
  );
  const aliceHelper = await ok(
    alice.post('/v1/helpers', { ...helperBody(`${MARKER} A.`), bio: `Ich bin ${MARKER} und helfe gern.` }),
  );
  advance(30 * 60_000);
  const application = await ok(
    alice.post(`/v1/jobs/${brunoJob.id}/applications`, {
      helper_id: aliceHelper.id,
      message: `Hallo, hier ${MARKER}.`,
    }),
  );
  await ok(bruno.post(`/v1/jobs/${aliceJob.id}/applications`, { helper_id: brunoHelper.id }));
  const disputed = await ok(alice.post(`/v1/jobs/${disputedJob.id}/applications`, { helper_id: aliceHelper.id }));
  await ok(bruno.post(`/v1/jobs/${disputedJob.id}/applications/${disputed.id}/accept`), 200);
  await ok(
    alice.post(`/v1/listings/${brunoListing.id}/bookings`, { start_date: '2026-11-25', end_date: '2026-11-26' }),
  );
  await ok(
    bruno.post(`/v1/listings/${aliceListing.id}/bookings`, { start_date: '2026-11-27', end_date: '2026-11-28' }),
  );

  // Bruno's stored answers: the accepted application (her message, her e-mail once accepted) and a conversation with her.
  const accept = `/v1/jobs/${brunoJob.id}/applications/${application.id}/accept`;
  const accepted = await ok(bruno.post(accept, undefined, { 'idempotency-key': 'accept-alice' }), 200);
  assert.ok(has(JSON.stringify(accepted)), 'the accepted application shows her words');
  const conversationBody = { about: { type: 'listing', id: aliceListing.id }, text: 'Ist die Schubkarre frei?' };
  const conversation = await ok(
    bruno.post('/v1/conversations', conversationBody, { 'idempotency-key': 'conversation-alice' }),
  );
  assert.ok(has(JSON.stringify(conversation)), `the conversation names her: ${JSON.stringify(conversation)}`);
  const aliceMessage = await ok(
    alice.post(`/v1/conversations/${conversation.id}/messages`, { text: `Ja, frei. ${MARKER}` }),
  );
  const reply = `/v1/conversations/${conversation.id}/messages`;
  await ok(bruno.post(reply, { text: 'Danke!' }, { 'idempotency-key': 'reply-alice' }));

  // Reviews both ways, and her reply to his.
  advance(24 * 3_600_000);
  assert.equal((await bruno.post(`/v1/jobs/${brunoJob.id}/complete`)).status, 200);
  await ok(alice.post(`/v1/jobs/${brunoJob.id}/applications/${application.id}/confirm-completion`), 200);
  // Her objection to the other job's completion: its reason is hers (the job is assigned again).
  assert.equal((await bruno.post(`/v1/jobs/${disputedJob.id}/complete`)).status, 200);
  const objection = `/v1/jobs/${disputedJob.id}/applications/${disputed.id}/object-to-completion`;
  await ok(alice.post(objection, { reason: `Nicht gemacht, sagt ${MARKER}.` }), 200);
  const reviews = `/v1/jobs/${brunoJob.id}/applications/${application.id}/reviews`;
  const brunoReview = await ok(bruno.post(reviews, { rating: 5, text: 'Sehr gut.' }));
  const aliceReview = await ok(alice.post(reviews, { rating: 4, text: `Gern wieder, ${MARKER}.` }));
  await ok(alice.post(`/v1/reviews/${brunoReview.id}/reply`, { text: `Danke von ${MARKER}.` }));

  // Her own things: a saved search, a webhook, a calendar feed, a draft, a report and a key request.
  await ok(alice.post('/v1/saved-searches', { name: `${MARKER} Suche`, resource: 'listings', query: {} }));
  await ok(alice.post('/v1/webhooks', { url: `http://127.0.0.1:9/${MARKER}`, events: ['job.created'] }));
  await ok(alice.post('/v1/me/calendar-feed'));
  await ok(alice.post('/v1/drafts', { operation: 'createJob', body: { ...JOB_BODY, title: `${MARKER} Entwurf` } }));
  await ok(
    alice.post('/v1/reports', {
      about: { type: 'job', id: brunoJob.id },
      reason: 'other',
      explanation: `Gemeldet von ${MARKER}, weil es doppelt ist.`,
      good_faith: true,
    }),
  );
  // Bruno reports each of her things: the reports keep what they said (their snapshots) until she is erased.
  for (const about of [
    { type: 'job', id: aliceJob.id },
    { type: 'listing', id: aliceListing.id },
    { type: 'helper', id: aliceHelper.id },
    { type: 'review', id: aliceReview.id },
    { type: 'message', id: aliceMessage.id },
  ]) {
    await ok(bruno.post('/v1/reports', { about, reason: 'other', explanation: 'Bitte prüfen.', good_faith: true }));
  }
  const snapshots = await db.kysely.selectFrom('reports').select('snapshot').execute();
  assert.equal(snapshots.filter((row) => has(String(row.snapshot))).length, 5, 'the reports keep her words');
  const requested = await anonymous.post('/v1/developer/key-requests', {
    name: ALICE.name,
    email: ALICE.email,
    intended_use: `Eine App von ${MARKER} für den Garten.`,
    account_type: 'private',
  });
  assert.ok([202, 409].includes(requested.status), requested.raw);

  // Before: the copies the platform keeps for Bruno hold her words (so the checks below can fail).
  const brunoEvents = async () =>
    streamEventsAfter(db.kysely, { after: 0, types: EVENT_TYPES, audience: brunoKey.accountId, limit: 10_000 });
  const copies = JSON.stringify(await brunoEvents());
  assert.ok(has(copies), 'a saved_search.matched event of Bruno names her job');
  const storedAnswers = await db.kysely
    .selectFrom('idempotency_keys')
    .select('response_body')
    .where('account_id', '=', brunoKey.accountId)
    .execute();
  assert.ok(has(JSON.stringify(storedAnswers)), 'a stored answer of Bruno names her');
  const deliveries = async () => (await bruno.get(`/v1/webhooks/${hook.id}/deliveries?limit=100`)).body.data as any[];
  assert.ok((await deliveries()).length > 0, 'Bruno’s webhook has deliveries');

  const erased = await alice.delete('/v1/me', { confirm: ALICE.email });
  assert.equal(erased.status, 202, erased.raw);

  // No table holds the marker: not the events (any audience), deliveries, stored answers or caches.
  const stored = await everyStoredText(db);
  const at = stored.indexOf(MARKER.toLowerCase());
  assert.equal(at, -1, `a stored row holds the marker: …${stored.slice(Math.max(0, at - 300), at + 60)}`);
  // Bruno's private stream replays nothing of hers from the first event on.
  assert.ok(!has(JSON.stringify(await brunoEvents())), 'Bruno’s stream replays her words');
  // His webhook's deliveries, and what redelivering each would send.
  for (const delivery of await deliveries()) {
    assert.ok(!has(JSON.stringify(delivery)), 'a delivery shows her words');
    const again = await bruno.post(`/v1/webhooks/${hook.id}/deliveries/${delivery.id}/redeliver`);
    assert.ok(!has(again.raw), `a redelivery answers her words: ${again.raw}`);
  }
  assert.ok(!has(await everyStoredText(db)), 'a redelivery stored her words');
  // His repeated requests with the same keys do not replay her words.
  for (const [url, body, key] of [
    [accept, undefined, 'accept-alice'],
    ['/v1/conversations', conversationBody, 'conversation-alice'],
    [reply, { text: 'Danke!' }, 'reply-alice'],
  ] as const) {
    const repeated = await bruno.post(url, body, { 'idempotency-key': key });
    assert.ok(!has(repeated.raw), `${url} again: ${repeated.raw}`);
  }
  // Searches and reads.
  for (const url of [`/v1/jobs?q=${MARKER}`, `/v1/listings?q=${MARKER}`, `/v1/helpers?q=${MARKER}`]) {
    const found = await anonymous.get(url);
    assert.ok(!has(found.raw), `${url}: ${found.raw}`);
  }
  for (const url of [
    `/v1/jobs/${aliceJob.id}`,
    `/v1/listings/${aliceListing.id}`,
    `/v1/helpers/${aliceHelper.id}`,
    `/v1/helpers/${aliceHelper.id}/reviews`,
    `/v1/conversations/${conversation.id}/messages`,
    `/v1/jobs/${brunoJob.id}/applications`,
    '/v1/me/export',
  ]) {
    const read = await bruno.get(url);
    assert.ok(!has(read.raw), `${url}: ${read.raw}`);
  }
});
