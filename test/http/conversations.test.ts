/**
 * Conversations (issue 17): two accounts write about a job, listing, application or booking. Over
 * HTTP on the run's engine: the story with the contact-data shield (masked for the other party
 * until the application is accepted or the confirmed booking has begun), 200 for a second opening, paging,
 * read marks, 404 for everyone else, the hourly limits, message.created as a private event, and
 * the private live stream over real HTTP (the app listening in this process).
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { describe, type TestContext, test } from 'node:test';
import { MASK } from '../../src/domain/contact-shield.js';
import { buildTestApp, clientFor, createKey, NOW } from '../helpers/app.js';
import { helperBody, JOB_BODY, LISTING_BODY } from '../helpers/bodies.js';
import { insert, jobFixture } from '../helpers/fixtures.js';
import { openStream } from '../helpers/sse.js';

type Method = 'GET' | 'POST';

const PHONE = 'Ruf mich an: 0171 2345678 oder schreib an anna at web dot de';

/** A job owner with an open job, a helper account that applied to it, a stranger, a lender with a listing. */
async function setup(t: TestContext, config: Record<string, string> = {}) {
  const { app, db } = await buildTestApp(t, NOW, config);
  const keys = {
    owner: await createKey(db, { email: 'owner@example.org' }),
    helper: await createKey(db, { email: 'helper@example.org' }),
    stranger: await createKey(db, { email: 'stranger@example.org' }),
  };
  const owner = clientFor(app, keys.owner.key);
  const helper = clientFor(app, keys.helper.key);
  const stranger = clientFor(app, keys.stranger.key);
  const job = await owner.post('/v1/jobs', JOB_BODY);
  assert.equal(job.status, 201, JSON.stringify(job.body));
  const profile = await helper.post('/v1/helpers', helperBody('Jonas W.'));
  assert.equal(profile.status, 201, JSON.stringify(profile.body));
  const application = await helper.post(`/v1/jobs/${job.body.id}/applications`, { helper_id: profile.body.id });
  assert.equal(application.status, 201, JSON.stringify(application.body));
  return {
    app,
    db,
    keys,
    owner,
    helper,
    stranger,
    anonymous: clientFor(app, null),
    jobId: job.body.id as string,
    applicationId: application.body.id as string,
  };
}

const MESSAGE_KEYS = ['contact_data_hidden', 'conversation_id', 'created_at', 'from', 'id', 'read_at', 'text'];

describe('conversations', () => {
  test('the story: a question before acceptance arrives masked, the same number is readable after', async (t) => {
    const { owner, helper, jobId, applicationId } = await setup(t);
    const opened = await helper.post('/v1/conversations', {
      about: { type: 'application', id: applicationId },
      text: PHONE,
    });
    assert.equal(opened.status, 201, JSON.stringify(opened.body));
    const id = opened.body.id as string;
    assert.match(id, /^cnv_[0-9a-f]{16}$/);
    assert.equal(opened.headers.location, `/v1/conversations/${id}`);
    // The sender reads what they wrote.
    assert.equal(opened.body.last_message.text, PHONE);
    assert.equal(opened.body.last_message.from, 'me');
    assert.equal(opened.body.last_message.contact_data_hidden, false);
    assert.deepEqual(Object.keys(opened.body.last_message).sort(), MESSAGE_KEYS);
    assert.equal(opened.body.started_by, 'me');
    assert.equal(opened.body.contact_shield, true);
    assert.deepEqual(opened.body.about, { type: 'application', id: applicationId });
    assert.deepEqual(opened.body.with, { name: 'Test D.' });

    // The owner reads it masked, in the list and in the messages.
    const list = await owner.get('/v1/conversations');
    assert.equal(list.status, 200);
    assert.equal(list.body.total, 1);
    const [seen] = list.body.data;
    assert.equal(seen.id, id);
    assert.equal(seen.unread_count, 1);
    assert.equal(seen.started_by, 'them');
    assert.equal(seen.last_message.from, 'them');
    assert.equal(seen.last_message.text, `Ruf mich an: ${MASK} oder schreib an ${MASK}`);
    assert.equal(seen.last_message.contact_data_hidden, true);
    const before = await owner.get(`/v1/conversations/${id}/messages`);
    assert.equal(before.status, 200);
    assert.doesNotMatch(JSON.stringify(before.body), /2345678|web dot de/);

    // The owner answers; asking again about the application adds to the same conversation (200).
    const reply = await owner.post(`/v1/conversations/${id}/messages`, { text: 'Gern, wann passt es dir?' });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    assert.equal(reply.headers.location, `/v1/conversations/${id}/messages`);
    assert.equal(reply.body.from, 'me');
    const again = await owner.post('/v1/conversations', {
      about: { type: 'application', id: applicationId },
      text: 'Noch eine Frage: hast du eine Leiter?',
    });
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.equal(again.body.id, id);
    assert.equal(again.body.last_message.text, 'Noch eine Frage: hast du eine Leiter?');

    // Accepted: the stored text is shown in full to both.
    const accepted = await owner.post(`/v1/jobs/${jobId}/applications/${applicationId}/accept`);
    assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
    const after = await owner.get(`/v1/conversations/${id}/messages`);
    assert.equal(after.body.data[0].text, PHONE);
    assert.equal(after.body.data[0].contact_data_hidden, false);
    assert.equal((await owner.get(`/v1/conversations/${id}`)).body.contact_shield, false);

    // Read marks: the owner reads, the helper sees when.
    assert.equal((await helper.get('/v1/conversations')).body.data[0].unread_count, 2);
    const read = await helper.post(`/v1/conversations/${id}/read`);
    assert.equal(read.status, 200, JSON.stringify(read.body));
    assert.equal(read.body.unread_count, 0);
    const owners = await owner.get(`/v1/conversations/${id}/messages`);
    assert.deepEqual(
      owners.body.data.map((m: any) => [m.from, m.read_at !== null]),
      [
        ['them', false],
        ['me', true],
        ['me', true],
      ],
    );
  });

  test('paging: oldest first, after a message id, has_more; an unknown after is a 400', async (t) => {
    const { owner, helper, applicationId } = await setup(t);
    const opened = await helper.post('/v1/conversations', {
      about: { type: 'application', id: applicationId },
      text: 'm0',
    });
    const id = opened.body.id;
    for (let i = 1; i < 5; i++) {
      const client = i % 2 ? owner : helper;
      assert.equal((await client.post(`/v1/conversations/${id}/messages`, { text: `m${i}` })).status, 201);
    }
    const first = await owner.get(`/v1/conversations/${id}/messages?limit=2`);
    assert.deepEqual(
      first.body.data.map((m: any) => m.text),
      ['m0', 'm1'],
    );
    assert.equal(first.body.has_more, true);
    const next = await owner.get(`/v1/conversations/${id}/messages?limit=2&after=${first.body.data[1].id}`);
    assert.deepEqual(
      next.body.data.map((m: any) => m.text),
      ['m2', 'm3'],
    );
    const last = await owner.get(`/v1/conversations/${id}/messages?limit=2&after=${next.body.data[1].id}`);
    assert.deepEqual(
      last.body.data.map((m: any) => m.text),
      ['m4'],
    );
    assert.equal(last.body.has_more, false);
    const bad = await owner.get(`/v1/conversations/${id}/messages?after=msg_0000000000000000`);
    assert.equal(bad.status, 400);
    assert.equal(bad.body.param, 'after');
  });

  test('anyone not in the conversation gets 404 for all of it; anonymous gets 401', async (t) => {
    const { helper, stranger, anonymous, applicationId } = await setup(t);
    const opened = await helper.post('/v1/conversations', {
      about: { type: 'application', id: applicationId },
      text: 'Hallo',
    });
    const id = opened.body.id;
    for (const [method, url, body] of [
      ['GET', `/v1/conversations/${id}`],
      ['GET', `/v1/conversations/${id}/messages`],
      ['POST', `/v1/conversations/${id}/messages`, { text: 'Ich mische mich ein' }],
      ['POST', `/v1/conversations/${id}/read`],
      ['POST', '/v1/conversations', { about: { type: 'application', id: applicationId }, text: 'Hallo' }],
    ] as [Method, string, object?][]) {
      const response = method === 'GET' ? await stranger.get(url) : await stranger.post(url, body);
      assert.equal(response.status, 404, `${method} ${url}: ${JSON.stringify(response.body)}`);
      assert.equal(response.body.error, 'not_found');
      const unknown = method === 'GET' ? await anonymous.get(url) : await anonymous.post(url, body);
      assert.equal(unknown.status, 401, `${method} ${url}`);
    }
    assert.deepEqual((await stranger.get('/v1/conversations')).body.data, []);
  });

  test('about a job: not with yourself (400), not with a seeded job (409), and the pair is one conversation', async (t) => {
    const { db, owner, helper, jobId } = await setup(t);
    const self = await owner.post('/v1/conversations', { about: { type: 'job', id: jobId }, text: 'Hallo ich' });
    assert.equal(self.status, 400);
    assert.equal(self.body.param, 'about');
    const seeded = jobFixture({ owner_account_id: null, deadline: null, desired_at: null, desired_date: null });
    await insert(db.kysely, { jobs: [seeded] });
    const none = await helper.post('/v1/conversations', { about: { type: 'job', id: seeded.id }, text: 'Hallo' });
    assert.equal(none.status, 409);
    assert.equal(none.body.error, 'no_counterpart');
    const missing = await helper.post('/v1/conversations', {
      about: { type: 'job', id: 'job_0000000000000000' },
      text: 'x',
    });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.param, 'about.id');
    const question = await helper.post('/v1/conversations', {
      about: { type: 'job', id: jobId },
      text: 'Wie hoch ist die Hecke?',
    });
    assert.equal(question.status, 201);
    // The owner asking about the same job with the helper would be about their own job: 400; the
    // owner answers in the conversation instead.
    const answer = await owner.post(`/v1/conversations/${question.body.id}/messages`, { text: 'Zwei Meter.' });
    assert.equal(answer.status, 201);
    assert.equal((await helper.get(`/v1/conversations/${question.body.id}/messages`)).body.data.length, 2);
  });

  test('about a listing and its booking: masked until the confirmed booking has begun', async (t) => {
    // A clock that moves: the list is ordered by the latest message; `days` moves it on by whole days.
    let tick = 0;
    let days = 0;
    const { app, db } = await buildTestApp(t, () => new Date(NOW.getTime() + days * 86_400_000 + 1000 * tick++));
    const lender = clientFor(app, (await createKey(db, { email: 'lender@example.org' })).key);
    const renter = clientFor(app, (await createKey(db, { email: 'renter@example.org' })).key);
    const listing = await lender.post('/v1/listings', { ...LISTING_BODY, instant_booking: false });
    assert.equal(listing.status, 201, JSON.stringify(listing.body));
    const opened = await renter.post('/v1/conversations', {
      about: { type: 'listing', id: listing.body.id },
      text: 'WhatsApp? wa.me/491712345678',
    });
    assert.equal(opened.status, 201, JSON.stringify(opened.body));
    const masked = await lender.get(`/v1/conversations/${opened.body.id}/messages`);
    assert.equal(masked.body.data[0].text, `WhatsApp? ${MASK}`);
    const booking = await renter.post(`/v1/listings/${listing.body.id}/bookings`, {
      start_date: '2026-11-23',
      end_date: '2026-11-24',
    });
    assert.equal(booking.status, 201, JSON.stringify(booking.body));
    const aboutBooking = await lender.post('/v1/conversations', {
      about: { type: 'booking', id: booking.body.id },
      text: 'Abholung ab 17 Uhr, Tel. +49 721 123456',
    });
    assert.equal(aboutBooking.status, 201);
    assert.equal(
      (await renter.get(`/v1/conversations/${aboutBooking.body.id}/messages`)).body.data[0].text,
      `Abholung ab 17 Uhr, Tel. ${MASK}`,
    );
    assert.equal((await lender.post(`/v1/bookings/${booking.body.id}/confirm`)).status, 200);
    // Confirmed, but free to cancel until it begins: book, read, cancel must not work (issue 30, 4).
    assert.equal(
      (await renter.get(`/v1/conversations/${aboutBooking.body.id}/messages`)).body.data[0].text,
      `Abholung ab 17 Uhr, Tel. ${MASK}`,
    );
    assert.equal(
      (await lender.get(`/v1/conversations/${opened.body.id}/messages`)).body.data[0].text,
      `WhatsApp? ${MASK}`,
    );
    days = 3; // 2026-11-23, the booking's first day.
    assert.equal(
      (await renter.get(`/v1/conversations/${aboutBooking.body.id}/messages`)).body.data[0].text,
      'Abholung ab 17 Uhr, Tel. +49 721 123456',
    );
    // The listing conversation opens with the confirmed booking of the same renter too.
    assert.equal(
      (await lender.get(`/v1/conversations/${opened.body.id}/messages`)).body.data[0].text,
      'WhatsApp? wa.me/491712345678',
    );
    const list = await renter.get('/v1/conversations');
    assert.deepEqual(
      list.body.data.map((c: any) => c.about.type),
      ['booking', 'listing'],
    );
  });

  test('text: 1 to 4,000 visible characters; unknown fields and about types are 400s', async (t) => {
    const { helper, applicationId } = await setup(t);
    const about = { type: 'application', id: applicationId };
    for (const [body, param] of [
      [{ about, text: '' }, 'text'],
      [{ about, text: '   ' }, 'text'],
      [{ about, text: 'x'.repeat(4001) }, 'text'],
      [{ about: { type: 'helper', id: 'hlp_1' }, text: 'x' }, 'about.type'],
      [{ about, text: 'x', to: 'acc_1' }, 'to'],
      [{ text: 'x' }, 'about'],
    ] as [object, string][]) {
      const response = await helper.post('/v1/conversations', body);
      assert.equal(response.status, 400, JSON.stringify(body));
      assert.equal(response.body.param, param, JSON.stringify(response.body));
    }
    assert.equal((await helper.post('/v1/conversations', { about, text: 'x'.repeat(4000) })).status, 201);
  });

  test('limits: messages and new conversations per account and hour, 429 with Retry-After', async (t) => {
    const { owner, helper, jobId, applicationId } = await setup(t, {
      MESSAGES_PER_ACCOUNT_PER_HOUR: '3',
      NEW_CONVERSATIONS_PER_ACCOUNT_PER_HOUR: '1',
    });
    const first = await helper.post('/v1/conversations', {
      about: { type: 'application', id: applicationId },
      text: '1',
    });
    assert.equal(first.status, 201);
    const second = await helper.post('/v1/conversations', { about: { type: 'job', id: jobId }, text: '2' });
    assert.equal(second.status, 429, JSON.stringify(second.body));
    assert.equal(second.body.error, 'account_limit_reached');
    assert.match(second.body.message, /new conversations/);
    assert.equal(second.headers['retry-after'], '3600');
    assert.equal((await helper.post(`/v1/conversations/${first.body.id}/messages`, { text: '2' })).status, 201);
    assert.equal((await helper.post(`/v1/conversations/${first.body.id}/messages`, { text: '3' })).status, 201);
    const fourth = await helper.post(`/v1/conversations/${first.body.id}/messages`, { text: '4' });
    assert.equal(fourth.status, 429);
    assert.match(fourth.body.message, /3 messages/);
    // The other account has its own count; nothing refused was stored.
    assert.equal((await owner.post(`/v1/conversations/${first.body.id}/messages`, { text: 'ok' })).status, 201);
    assert.equal((await owner.get(`/v1/conversations/${first.body.id}/messages`)).body.data.length, 4);
  });

  test('an Idempotency-Key replays the first answer: one conversation, one message', async (t) => {
    const { helper, applicationId } = await setup(t);
    const body = { about: { type: 'application', id: applicationId }, text: 'Einmal bitte' };
    const headers = { 'idempotency-key': 'conv-1' };
    const a = await helper.post('/v1/conversations', body, headers);
    const b = await helper.post('/v1/conversations', body, headers);
    assert.equal(a.status, 201);
    assert.equal(b.status, 201);
    assert.equal(b.body.id, a.body.id);
    assert.equal((await helper.get(`/v1/conversations/${a.body.id}/messages`)).body.data.length, 1);
  });

  test('a first reply is an answer time: the helper’s avg_response_minutes moves in the next read', async (t) => {
    let now = NOW.getTime();
    const { app, db } = await buildTestApp(t, () => new Date(now));
    const owner = clientFor(app, (await createKey(db, { email: 'owner@example.org' })).key);
    const helper = clientFor(app, (await createKey(db, { email: 'helper@example.org' })).key);
    const job = await owner.post('/v1/jobs', JOB_BODY);
    const profile = await helper.post('/v1/helpers', helperBody('Jonas W.'));
    const application = await helper.post(`/v1/jobs/${job.body.id}/applications`, { helper_id: profile.body.id });
    const figures = async () => (await helper.get(`/v1/helpers/${profile.body.id}`)).body.reliability;
    // Applied at once: one answer of 0 minutes.
    assert.equal((await figures()).avg_response_minutes, 0);
    const opened = await owner.post('/v1/conversations', {
      about: { type: 'application', id: application.body.id },
      text: 'Können Sie auch am Sonntag?',
    });
    now += 40 * 60_000;
    assert.equal((await helper.post(`/v1/conversations/${opened.body.id}/messages`, { text: 'Ja.' })).status, 201);
    assert.equal((await figures()).avg_response_minutes, 20);
    // Only the first reply counts; later messages are not answers.
    now += 600 * 60_000;
    assert.equal(
      (await helper.post(`/v1/conversations/${opened.body.id}/messages`, { text: 'Ab 10 Uhr.' })).status,
      201,
    );
    assert.equal((await figures()).avg_response_minutes, 20);
  });

  // Issue 30.2: a number split over three consecutive messages got through.
  test('a number split over three messages of the sender is masked in all three, in the list and the events', async (t) => {
    const { db, owner, helper, applicationId } = await setup(t);
    const opened = await helper.post('/v1/conversations', {
      about: { type: 'application', id: applicationId },
      text: 'Ruf mich an: 0171',
    });
    assert.equal(opened.status, 201, JSON.stringify(opened.body));
    const id = opened.body.id as string;
    assert.equal((await owner.post(`/v1/conversations/${id}/messages`, { text: 'Gern, wann?' })).status, 201);
    for (const text of ['234', '5678']) {
      const sent = await helper.post(`/v1/conversations/${id}/messages`, { text });
      assert.equal(sent.status, 201, JSON.stringify(sent.body));
      assert.equal(sent.body.text, text); // the sender reads what they wrote
    }
    const read = await owner.get(`/v1/conversations/${id}/messages`);
    assert.deepEqual(
      read.body.data.map((m: any) => [m.text, m.contact_data_hidden]),
      [
        [`Ruf mich an: ${MASK}`, true],
        ['Gern, wann?', false],
        [MASK, true],
        [MASK, true],
      ],
    );
    // Page by page: the parts are masked on every page, read with the messages around them.
    const first = await owner.get(`/v1/conversations/${id}/messages?limit=1`);
    assert.equal(first.body.data[0].text, `Ruf mich an: ${MASK}`);
    const third = await owner.get(`/v1/conversations/${id}/messages?limit=1&after=${read.body.data[1].id}`);
    assert.equal(third.body.data[0].text, MASK);
    assert.equal((await owner.get('/v1/conversations')).body.data[0].last_message.text, MASK);
    const events = await db.kysely.selectFrom('events').selectAll().where('type', '=', 'message.created').execute();
    const last = events
      .map((event) => JSON.parse(event.payload))
      .find((payload) => payload.id === read.body.data[3].id);
    assert.equal(last.text, MASK);
    // The helper reads their own messages as written.
    const own = await helper.get(`/v1/conversations/${id}/messages`);
    assert.deepEqual(
      own.body.data.map((m: any) => m.text),
      ['Ruf mich an: 0171', 'Gern, wann?', '234', '5678'],
    );
  });

  test('message.created is private: the recipient’s event, masked as they read it', async (t) => {
    const { db, keys, helper, applicationId } = await setup(t);
    await helper.post('/v1/conversations', { about: { type: 'application', id: applicationId }, text: PHONE });
    const events = await db.kysely.selectFrom('events').selectAll().where('type', '=', 'message.created').execute();
    assert.equal(events.length, 1);
    const [event] = events;
    assert.deepEqual(JSON.parse(event?.audience ?? 'null'), [keys.owner.accountId]);
    const payload = JSON.parse(event?.payload ?? '{}');
    assert.equal(payload.from, 'them');
    assert.equal(payload.contact_data_hidden, true);
    assert.doesNotMatch(event?.payload ?? '', /2345678/);
  });
});

describe('GET /v1/me/events/stream (the private stream)', () => {
  async function listening(t: TestContext) {
    const setupResult = await setup(t);
    await setupResult.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = setupResult.app.server.address() as AddressInfo;
    return { ...setupResult, baseUrl: `http://127.0.0.1:${port}` };
  }

  test('the recipient gets message.created, the sender and a stranger do not; resumable; public stream refuses it', async (t) => {
    const { baseUrl, keys, helper, owner, applicationId } = await listening(t);
    const ownerStream = await openStream(baseUrl, '/v1/me/events/stream', { 'x-api-key': keys.owner.key });
    t.after(() => ownerStream.close());
    assert.equal(ownerStream.status, 200);
    const strangerStream = await openStream(baseUrl, '/v1/me/events/stream', { 'x-api-key': keys.stranger.key });
    t.after(() => strangerStream.close());
    const helperStream = await openStream(baseUrl, '/v1/me/events/stream?types=message.created', {
      'x-api-key': keys.helper.key,
    });
    t.after(() => helperStream.close());
    const opened = await helper.post('/v1/conversations', {
      about: { type: 'application', id: applicationId },
      text: PHONE,
    });
    const [message] = await ownerStream.waitFor((m) => m.event === 'message.created');
    const event = JSON.parse(message?.data ?? '{}');
    assert.equal(event.data.object.conversation_id, opened.body.id);
    assert.equal(event.data.object.contact_data_hidden, true);
    // The owner answers: the helper's stream gets it; the owner's own message is not the owner's event.
    await owner.post(`/v1/conversations/${opened.body.id}/messages`, { text: 'Antwort' });
    const [answer] = await helperStream.waitFor((m) => m.event === 'message.created');
    assert.equal(JSON.parse(answer?.data ?? '{}').data.object.text, 'Antwort');
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual(
      strangerStream.messages.map((m) => m.event),
      [],
    );
    assert.equal(ownerStream.messages.filter((m) => m.event === 'message.created').length, 1);

    // Resuming from before the first event gives it again, then live ones.
    const resumed = await openStream(baseUrl, '/v1/me/events/stream', {
      'x-api-key': keys.owner.key,
      'last-event-id': '0',
    });
    t.after(() => resumed.close());
    const replayed = await resumed.waitFor((m) => m.event === 'message.created');
    assert.equal(replayed[0]?.id, message?.id);

    const anonymous = await openStream(baseUrl, '/v1/me/events/stream');
    assert.equal(anonymous.status, 401);
    const publicStream = await openStream(baseUrl, '/v1/events/stream?types=message.created');
    assert.equal(publicStream.status, 400);
    assert.match(publicStream.json().message, /\/v1\/me\/events\/stream/);
  });
});
