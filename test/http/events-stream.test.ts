/**
 * GET /v1/events/stream: Server-Sent Events of public job and listing events. Over real HTTP with
 * a small SSE parser (no EventSource, no mocks): a real server process for what the events say
 * (created, updated, status changes, filters, private events, resuming with Last-Event-ID,
 * heart-beats, SIGTERM), the app listening in this process for the limits (budget, concurrent
 * streams, the time limit), and the hub alone for the hand-over from catching up to live.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createDb, type Db } from '../../src/db/create-db.js';
import type { EventType } from '../../src/db/schema.js';
import { PUBLIC_EVENT_TYPES } from '../../src/domain/events.js';
import { EventHub, type StreamEvent, type Subscriber } from '../../src/events/stream.js';
import { recordEvent } from '../../src/repositories/outbox.js';
import { inWriteTransaction } from '../../src/repositories/write-transaction.js';
import { buildTestApp, createKey } from '../helpers/app.js';
import { helperBody, JOB_BODY, LISTING_BODY } from '../helpers/bodies.js';
import { createTestDb, freshDatabaseUrl } from '../helpers/database.js';
import { resolveShared } from '../helpers/openapi.js';
import { startServer, stopServer } from '../helpers/server-process.js';
import { openStream, type SseClient, type SseMessage, seen } from '../helpers/sse.js';

// ---------------------------------------------------------------------------------------------
// A small SSE client over node:http
// ---------------------------------------------------------------------------------------------

const body = (m: SseMessage) => JSON.parse(m.data) as { id: string; type: string; data: { object: any } };
const about = (id: string) => (m: SseMessage) => body(m).data.object.id === id;

/** A JSON request to a running server. */
async function call(baseUrl: string, method: string, path: string, key?: string, payload?: object) {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      ...(key ? { 'x-api-key': key } : {}),
      ...(payload ? { 'content-type': 'application/json' } : {}),
    },
    body: payload ? JSON.stringify(payload) : undefined,
    signal: AbortSignal.timeout(10_000),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as any };
}

async function created(baseUrl: string, path: string, key: string, payload: object): Promise<string> {
  const response = await call(baseUrl, 'POST', path, key, payload);
  assert.equal(response.status, 201, `${path}: ${JSON.stringify(response.body)}`);
  return response.body.id as string;
}

/** YYYY-MM-DD, `days` from today (UTC: far enough ahead that Berlin's day is the same or earlier). */
function daysAhead(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

async function listening(t: Parameters<typeof buildTestApp>[0], config: Parameters<typeof buildTestApp>[2]) {
  const { app, db } = await buildTestApp(t, undefined, { EVENTS_POLL_MS: '30', ...config });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  assert.ok(address !== null && typeof address === 'object');
  const streams: SseClient[] = [];
  t.after(() => {
    for (const client of streams) client.close();
  });
  const open = async (path = '/v1/events/stream', headers: Record<string, string> = {}) => {
    const client = await openStream(`http://127.0.0.1:${address.port}`, path, headers);
    streams.push(client);
    return client;
  };
  return { app, db, open };
}

// ---------------------------------------------------------------------------------------------
// A real server process
// ---------------------------------------------------------------------------------------------

// The tests are independent (each has its own database): run at once, the file takes as long as the longest.
describe('GET /v1/events/stream', { concurrency: true }, () => {
  test('a real server process: events over HTTP as the REST API writes', { timeout: 120_000 }, async (t) => {
    const url = await freshDatabaseUrl(t, { file: true });
    const server = await startServer(t, {
      DATABASE_URL: url,
      EVENTS_POLL_MS: '30',
      STREAM_HEARTBEAT_MS: '150',
      STREAMS_PER_CALLER: '50',
      RATE_LIMIT_ANONYMOUS_PER_MIN: '100000',
      RATE_LIMIT_DEVELOPER_PER_MIN: '100000',
    });
    const base = server.baseUrl;
    const db: Db = createDb(url);
    t.after(() => db.close());
    const owner = (await createKey(db, { email: 'owner@example.org' }, new Date())).key;
    const other = (await createKey(db, { email: 'other@example.org' }, new Date())).key;
    const streams: SseClient[] = [];
    const open = async (path: string, headers: Record<string, string> = {}) => {
      const client = await openStream(base, path, headers);
      streams.push(client);
      return client;
    };
    t.after(() => {
      for (const client of streams) client.close();
    });

    await t.test('job.created arrives with the job exactly as GET /v1/jobs/{id} shows it', async () => {
      const stream = await open('/v1/events/stream');
      assert.equal(stream.status, 200);
      assert.equal(stream.headers['content-type'], 'text/event-stream; charset=utf-8');
      assert.equal(stream.headers['cache-control'], 'no-store');
      assert.equal(stream.headers['x-accel-buffering'], 'no');
      assert.match(String(stream.headers['x-request-id']), /\S/);
      assert.match(String(stream.headers.ratelimit), /^"anonymous";r=\d+;t=\d+$/);
      assert.equal(stream.headers['x-content-type-options'], 'nosniff');
      const jobId = await created(base, '/v1/jobs', owner, JOB_BODY);
      const [message] = await stream.waitFor(about(jobId));
      assert.ok(message);
      assert.equal(stream.retry, 5000);
      const event = body(message);
      assert.equal(message.event, 'job.created');
      assert.equal(event.type, 'job.created');
      assert.match(event.id, /^evt_\d+$/);
      assert.equal(message.id, event.id);
      const shown = await call(base, 'GET', `/v1/jobs/${jobId}`);
      assert.deepEqual(event.data.object, shown.body);
    });

    await t.test('a stream without Last-Event-ID starts now: earlier events are not sent', async () => {
      const before = await created(base, '/v1/jobs', owner, { ...JOB_BODY, title: 'Vorher' });
      const stream = await open('/v1/events/stream');
      const afterId = await created(base, '/v1/jobs', owner, { ...JOB_BODY, title: 'Nachher' });
      await stream.waitFor(about(afterId));
      assert.equal(stream.messages.filter(about(before)).length, 0, seen(stream));
    });

    await t.test('filters: category, place and types as in search; a matching stream gets the event', async () => {
      const cleaning = await open('/v1/events/stream?category=cleaning');
      const berlin = await open('/v1/events/stream?lat=52.52&lng=13.405&radius=10');
      const listingsOnly = await open('/v1/events/stream?types=listing.created');
      const durlach = await open('/v1/events/stream?category=GARDENING&lat=48.99&lng=8.47&radius=3');
      const anywhere = await open('/v1/events/stream?types=job.created,job.updated');
      const jobId = await created(base, '/v1/jobs', owner, JOB_BODY);
      await durlach.waitFor(about(jobId));
      await anywhere.waitFor(about(jobId));
      // Later events prove the others have read past the job's event without taking it.
      const cleaningJob = await created(base, '/v1/jobs', owner, { ...JOB_BODY, category: 'CLEANING' });
      const listingId = await created(base, '/v1/listings', owner, LISTING_BODY);
      await cleaning.waitFor(about(cleaningJob));
      await listingsOnly.waitFor(about(listingId));
      const heartbeats = berlin.comments.length;
      await berlin.waitForComment(() => berlin.comments.length >= heartbeats + 2);
      for (const [name, stream] of Object.entries({ cleaning, berlin, listingsOnly })) {
        assert.equal(stream.messages.filter(about(jobId)).length, 0, `${name}: ${seen(stream)}`);
      }
      assert.deepEqual(
        cleaning.messages.map((m) => m.event),
        ['job.created'],
      );
      assert.deepEqual(berlin.messages, []);
      assert.deepEqual(
        listingsOnly.messages.map((m) => m.event),
        ['listing.created'],
      );
      assert.equal(durlach.messages.filter(about(cleaningJob)).length, 0, 'category GARDENING only');
    });

    await t.test('job.updated (PATCH) and job.status_changed (cancel) arrive, with the job as it is then', async () => {
      const stream = await open('/v1/events/stream?types=job.updated,job.status_changed');
      const jobId = await created(base, '/v1/jobs', owner, JOB_BODY);
      const patched = await call(base, 'PATCH', `/v1/jobs/${jobId}`, owner, { title: 'Hecke und Rasen' });
      assert.equal(patched.status, 200);
      const cancelled = await call(base, 'POST', `/v1/jobs/${jobId}/cancel`, owner);
      assert.equal(cancelled.status, 200);
      const [updated, changed] = await stream.waitFor(about(jobId), 2);
      assert.ok(updated && changed);
      assert.deepEqual([updated.event, changed.event], ['job.updated', 'job.status_changed']);
      assert.equal(body(updated).data.object.title, 'Hecke und Rasen');
      assert.equal(body(changed).data.object.status, 'cancelled');
      assert.ok(Number(updated.id?.slice(4)) < Number(changed.id?.slice(4)));
      assert.equal(stream.messages.filter((m) => m.event === 'job.created').length, 0, 'types narrows');
    });

    await t.test('application and booking events are private: never streamed', async () => {
      const stream = await open('/v1/events/stream');
      const jobId = await created(base, '/v1/jobs', owner, JOB_BODY);
      const helperId = await created(base, '/v1/helpers', other, helperBody('Mia'));
      await created(base, `/v1/jobs/${jobId}/applications`, other, { helper_id: helperId });
      const listingId = await created(base, '/v1/listings', owner, LISTING_BODY);
      await created(base, `/v1/listings/${listingId}/bookings`, other, {
        start_date: daysAhead(10),
        end_date: daysAhead(11),
      });
      const marker = await created(base, '/v1/jobs', owner, { ...JOB_BODY, title: 'Marker' });
      await stream.waitFor(about(marker));
      const written = await db.kysely.selectFrom('events').select('type').execute();
      const types = new Set(written.map((e) => e.type));
      assert.ok(types.has('application.created') && types.has('booking.created'), 'the private events were written');
      const seen = stream.messages.map((m) => m.event);
      assert.deepEqual(
        seen.filter((type) => !(PUBLIC_EVENT_TYPES as readonly string[]).includes(type)),
        [],
      );
      assert.deepEqual(seen, ['job.created', 'listing.created', 'job.created']);
    });

    await t.test('Last-Event-ID: after a disconnect, exactly the missed events in order, then live ones', async () => {
      const first = await open('/v1/events/stream');
      const seenJob = await created(base, '/v1/jobs', owner, JOB_BODY);
      const [last] = await first.waitFor(about(seenJob));
      assert.ok(last?.id);
      first.close();
      await first.ended;
      // Missed while disconnected: created, updated, changed, and a private event in between.
      const missedJob = await created(base, '/v1/jobs', owner, { ...JOB_BODY, title: 'Verpasst' });
      await call(base, 'PATCH', `/v1/jobs/${missedJob}`, owner, { price_eur: 75 });
      const helperId = await created(base, '/v1/helpers', other, helperBody('Ben'));
      await created(base, `/v1/jobs/${missedJob}/applications`, other, { helper_id: helperId });
      await call(base, 'POST', `/v1/jobs/${missedJob}/cancel`, owner);
      const missedListing = await created(base, '/v1/listings', owner, LISTING_BODY);
      const lastId = Number(last.id.slice(4));
      const expected = (
        await db.kysely
          .selectFrom('events')
          .select(['id', 'type'])
          .where('id', '>', lastId)
          .where('type', 'in', PUBLIC_EVENT_TYPES)
          .orderBy('id')
          .execute()
      ).map((e) => `evt_${e.id} ${e.type}`);
      assert.equal(expected.length, 4);

      for (const headers of [{ 'last-event-id': last.id }, { 'last-event-id': String(lastId) }]) {
        const missed: number = expected.length;
        const resumed = await open('/v1/events/stream', headers);
        assert.equal(resumed.status, 200);
        await resumed.waitFor(() => true, missed);
        const liveJob = await created(base, '/v1/jobs', owner, { ...JOB_BODY, title: 'Live' });
        const [live] = await resumed.waitFor(about(liveJob));
        await sleep(100);
        const got = resumed.messages.map((m) => `${m.id} ${m.event}`);
        assert.deepEqual(got.slice(0, missed), expected, 'the missed events, in order');
        assert.deepEqual(got.slice(missed), [`${live?.id} job.created`], 'then the live one, once');
        assert.ok(resumed.messages.slice(0, missed).some(about(missedListing)));
        expected.push(`${live?.id} job.created`);
        resumed.close();
      }

      // The query parameter, for clients that cannot set headers; the header wins over it.
      const byQuery = await open(`/v1/events/stream?last_event_id=${last.id}`);
      await byQuery.waitFor(() => true, expected.length);
      assert.deepEqual(
        byQuery.messages.map((m) => `${m.id} ${m.event}`),
        expected,
      );
      const headerWins = await open('/v1/events/stream?last_event_id=evt_0', { 'last-event-id': last.id });
      await headerWins.waitFor(() => true, expected.length);
      await sleep(100);
      assert.deepEqual(
        headerWins.messages.map((m) => `${m.id} ${m.event}`),
        expected,
      );
    });

    await t.test('a Last-Event-ID beyond the newest event resumes from the newest', async () => {
      const ahead = await open('/v1/events/stream', { 'last-event-id': 'evt_999999999' });
      assert.equal(ahead.status, 200);
      const jobId = await created(base, '/v1/jobs', owner, JOB_BODY);
      await ahead.waitFor(about(jobId));
      assert.equal(ahead.messages.length, 1, seen(ahead));
    });

    await t.test('heart-beat comments every STREAM_HEARTBEAT_MS', async () => {
      const stream = await open('/v1/events/stream?types=listing.updated');
      // Beats keep coming (every 150 ms here); no wall-clock bound, which a loaded CI machine missed
      // (one beat in 700 ms once): the test waits for three, the suite's timeout bounds a stream that has none.
      const beatsSoFar = () => stream.comments.filter((c) => c.startsWith('heartbeat '));
      while (beatsSoFar().length < 3) await sleep(50);
      const beats = beatsSoFar();
      assert.ok(beats.length >= 3, `${beats.length} heart-beats`);
      for (const beat of beats) {
        const at = beat.slice('heartbeat '.length);
        assert.equal(new Date(at).toISOString(), at);
      }
    });

    await t.test('SIGTERM with a stream open: the stream ends and the process exits 0 promptly', async () => {
      const stream = await open('/v1/events/stream');
      assert.equal(stream.status, 200);
      const started = Date.now();
      const exit = await stopServer(server, 5_000);
      assert.deepEqual(exit, { code: 0, signal: null }, server.output());
      assert.ok(Date.now() - started < 5_000);
      await stream.ended;
      assert.ok(
        stream.comments.some((c) => /restarting; reconnect with Last-Event-ID/.test(c)),
        stream.comments.join(' | '),
      );
    });
  });

  // ---------------------------------------------------------------------------------------------
  // Parameters and limits: the app in this process, listening
  // ---------------------------------------------------------------------------------------------

  test('bad parameters are 400 ApiErrors naming the parameter, as in search; documented in OpenAPI', async (t) => {
    const { app } = await buildTestApp(t);
    const inject = (url: string, headers: Record<string, string> = {}) => app.inject({ url, headers });
    const cases: [string, Record<string, string>, string, string][] = [
      ['?types=job.deleted', {}, 'types', 'invalid_enum_value'],
      ['?types=job.created,application.created', {}, 'types', 'invalid_enum_value'],
      ['?types=', {}, 'types', 'invalid_parameter'],
      ['?category=GARDEN', {}, 'category', 'invalid_enum_value'],
      ['?lat=100', {}, 'lat', 'parameter_out_of_range'],
      ['?lng=abc', {}, 'lng', 'invalid_parameter'],
      ['?radius=0', {}, 'radius', 'parameter_out_of_range'],
      ['?radius=51', {}, 'radius', 'parameter_out_of_range'],
      ['?last_event_id=evt_x', {}, 'last_event_id', 'invalid_parameter'],
      ['?catgory=GARDENING', {}, 'catgory', 'unknown_parameter'],
      ['', { 'last-event-id': 'abc' }, 'Last-Event-ID', 'invalid_parameter'],
      ['?last_event_id=1', { 'last-event-id': 'evt_-1' }, 'Last-Event-ID', 'invalid_parameter'],
    ];
    for (const [query, headers, param, code] of cases) {
      const response = await inject(`/v1/events/stream${query}`, headers);
      assert.equal(response.statusCode, 400, `${query}: ${response.body}`);
      assert.match(String(response.headers['content-type']), /^application\/json/);
      const error = response.json();
      assert.deepEqual(
        [error.param, error.error],
        [param, code],
        `${query} ${JSON.stringify(headers)}: ${response.body}`,
      );
      assert.match(error.suggestion, /\S/);
    }
    // The search filters answer exactly as in search.
    for (const query of ['?category=GARDEN', '?lat=100', '?radius=0', '?lng=', '?lat=1&lat=2']) {
      const search = (await inject(`/v1/jobs${query}`)).json();
      assert.deepEqual((await inject(`/v1/events/stream${query}`)).json(), search, query);
    }
    const hidden = (await inject('/v1/events/stream?types=booking.created')).json();
    assert.match(hidden.message, /private/);
    assert.deepEqual(hidden.alternatives, [...PUBLIC_EVENT_TYPES]);

    const doc = resolveShared((await inject('/v1/openapi.json')).json() as any);
    const operation = doc.paths['/v1/events/stream']?.get;
    assert.ok(operation, 'the path is documented');
    assert.equal(operation.operationId, 'streamEvents');
    assert.deepEqual(operation.tags, ['Events']);
    assert.ok(operation.responses['200'].content['text/event-stream']);
    assert.ok(operation.responses['429'] && operation.responses['400']);
    assert.match(operation.description, /curl -N/);
    assert.match(operation.description, /new EventSource/);
    assert.ok(doc.tags.some((tag: { name: string }) => tag.name === 'Events'));
    const names = operation.parameters.map((p: { name: string }) => p.name).sort();
    assert.deepEqual(names, ['category', 'last-event-id', 'last_event_id', 'lat', 'lng', 'near', 'radius', 'types']);
  });

  test('limits: a stream costs one request of the budget (429 JSON beyond); STREAMS_PER_CALLER at once (429 too_many_streams)', async (t) => {
    const { db, open } = await listening(t, { RATE_LIMIT_ANONYMOUS_PER_MIN: '3', STREAMS_PER_CALLER: '2' });
    const { key } = await createKey(db);
    const a = await open();
    const b = await open();
    assert.deepEqual([a.status, b.status], [200, 200]);
    assert.match(String(a.headers.ratelimit), /^"anonymous";r=2;t=\d+$/);
    assert.equal(b.headers['x-ratelimit-remaining'], '1');
    const tooMany = await open();
    await tooMany.ended;
    assert.equal(tooMany.status, 429);
    assert.match(String(tooMany.headers['content-type']), /^application\/json/);
    assert.equal(tooMany.headers['x-ratelimit-remaining'], '0', 'counted against the budget too');
    assert.ok(Number(tooMany.headers['retry-after']) > 0);
    const error = tooMany.json();
    assert.equal(error.error, 'too_many_streams');
    assert.match(error.message, /2 event streams at once/);
    assert.match(error.suggestion, /Close a stream/);
    // Over the budget: the rate limit's 429, as JSON, never a stream.
    const overBudget = await open();
    await overBudget.ended;
    assert.equal(overBudget.status, 429);
    assert.match(String(overBudget.headers['content-type']), /^application\/json/);
    assert.equal(overBudget.json().error, 'rate_limit_exceeded');
    assert.ok(Number(overBudget.headers['retry-after']) > 0);

    // A developer account is counted apart from the address it calls from; a closed stream frees its slot.
    const developer = { 'x-api-key': key };
    const d1 = await open('/v1/events/stream', developer);
    const d2 = await open('/v1/events/stream', developer);
    assert.deepEqual([d1.status, d2.status], [200, 200]);
    assert.match(String(d1.headers.ratelimit), /^"developer";/);
    const d3 = await open('/v1/events/stream', developer);
    await d3.ended;
    assert.equal(d3.json().error, 'too_many_streams');
    d1.close();
    await d1.ended;
    const deadline = Date.now() + 20_000;
    let again = await open('/v1/events/stream', developer);
    while (again.status === 429 && Date.now() < deadline) {
      await sleep(20);
      again = await open('/v1/events/stream', developer);
    }
    assert.equal(again.status, 200, 'the slot of the closed stream is free again');
  });

  test('a stream ends after STREAM_MAX_SECONDS; app.close() ends the open ones at once', async (t) => {
    const { open } = await listening(t, { STREAM_MAX_SECONDS: '1' });
    // From before the request: the server's second starts when it answers, and on a loaded machine
    // the answer's headers can reach the client a good part of that second later.
    const started = Date.now();
    const stream = await open();
    await stream.ended;
    const lasted = Date.now() - started;
    // Bounds that hold on a loaded machine: not before the second is up, and by itself (no hang).
    assert.ok(lasted >= 800 && lasted < 20_000, `${lasted} ms`);
    assert.match(stream.comments.at(-1) ?? '', /ends after 1 s; reconnect with Last-Event-ID/);

    // Streams that would last an hour end when the app closes, long before.
    const { app, open: openLong } = await listening(t, { STREAM_MAX_SECONDS: '3600' });
    const open_ = [await openLong(), await openLong('/v1/events/stream?last_event_id=0')];
    assert.deepEqual(
      open_.map((s) => s.status),
      [200, 200],
    );
    await app.close();
    await Promise.all(open_.map((s) => s.ended));
    for (const s of open_) assert.match(s.comments.at(-1) ?? '', /restarting; reconnect with Last-Event-ID/);
  });

  test('a revoked key, or an account suspended or erased, ends the streams open with it at once (issue 30, 5)', async (t) => {
    const { db, open } = await listening(t, { STREAM_MAX_SECONDS: '3600', STREAMS_PER_CALLER: '10' });
    const revoked = await createKey(db, { email: 'revoked@example.org' }, new Date());
    const suspended = await createKey(db, { email: 'suspended@example.org' }, new Date());
    const kept = await createKey(db, { email: 'kept@example.org' }, new Date());
    const streams = {
      revokedPrivate: await open('/v1/me/events/stream', { 'x-api-key': revoked.key }),
      revokedPublic: await open('/v1/events/stream', { 'x-api-key': revoked.key }),
      suspended: await open('/v1/me/events/stream', { 'x-api-key': suspended.key }),
      kept: await open('/v1/me/events/stream', { 'x-api-key': kept.key }),
      anonymous: await open('/v1/events/stream'),
    };
    for (const [name, stream] of Object.entries(streams)) assert.equal(stream.status, 200, name);
    // As `npm run admin -- keys revoke` and a moderation decision do: straight in the database.
    const at = new Date().toISOString();
    await db.kysely.updateTable('api_keys').set({ revoked_at: at }).where('id', '=', revoked.id).execute();
    await db.kysely.updateTable('accounts').set({ suspended_at: at }).where('id', '=', suspended.accountId).execute();
    const started = Date.now();
    const ended = Promise.all([streams.revokedPrivate.ended, streams.revokedPublic.ended, streams.suspended.ended]);
    const timeout = new AbortController();
    const late = sleep(10_000, undefined, { signal: timeout.signal }).then(
      () => assert.fail('the streams of the revoked key and the suspended account go on'),
      () => undefined,
    );
    await Promise.race([ended, late]);
    timeout.abort();
    const took = Date.now() - started;
    assert.ok(took < 10_000, `${took} ms`);
    for (const stream of [streams.revokedPrivate, streams.revokedPublic, streams.suspended]) {
      assert.match(stream.comments.at(-1) ?? '', /key of this stream was revoked, or its account suspended or erased/);
    }
    // The others go on: the stream of a good key, and the anonymous one.
    await sleep(1_500);
    let endedEarly = false;
    for (const stream of [streams.kept, streams.anonymous]) void stream.ended.then(() => (endedEarly = true));
    await sleep(50);
    assert.equal(endedEarly, false, 'a stream with a good key or none ended');
  });

  // ---------------------------------------------------------------------------------------------
  // The hub: catching up and going live without gaps or repeats
  // ---------------------------------------------------------------------------------------------

  test('hub: a slow subscriber catching up while events keep coming gets each event once, in order', async (t) => {
    const db = await createTestDb(t);
    const errors: unknown[] = [];
    const hub = new EventHub(db.kysely, { pollMs: 100, pageSize: 3, batchSize: 4, onError: (e) => errors.push(e) });
    t.after(() => hub.close());
    const write = async (i: number) => {
      const type: EventType = i % 5 === 4 ? 'application.created' : i % 2 === 0 ? 'job.created' : 'listing.updated';
      await inWriteTransaction({ db: db.kysely, now: new Date(), claim: null }, (trx) =>
        recordEvent(
          trx,
          {
            type,
            subjectId: `s_${i}`,
            place: { category: 'GARDENING', lat: 49, lng: 8.4 },
            audience: type === 'application.created' ? ['acc_x'] : null,
            data: { n: i },
          },
          new Date(),
        ),
      );
    };
    for (let i = 0; i < 20; i++) await write(i);
    // The poller starts at the newest event; 20 more come before its first read, so the subscriber
    // below, catching up from 0, must stop at the poller's cursor and leave the rest to it.
    await hub.start();
    for (let i = 20; i < 40; i++) await write(i);
    const received: StreamEvent[] = [];
    let full = false;
    const subscriber: Subscriber = {
      filter: {},
      types: new Set(PUBLIC_EVENT_TYPES),
      closed: false,
      send(event) {
        received.push(event);
        full = !full; // every other send asks the hub to wait
        return !full;
      },
      drained: () => sleep(3),
    };
    // Writes go on while the subscriber catches up and after it has gone live.
    const writing = (async () => {
      for (let i = 40; i < 100; i++) {
        await write(i);
        if (i % 7 === 0) await sleep(2);
      }
    })();
    await hub.join(subscriber, 0);
    await writing;
    const expected = (
      await db.kysely.selectFrom('events').select('id').where('type', 'in', PUBLIC_EVENT_TYPES).orderBy('id').execute()
    ).map((e) => Number(e.id));
    const deadline = Date.now() + 20_000;
    while (received.length < expected.length && Date.now() < deadline) await sleep(10);
    await sleep(50);
    assert.deepEqual(
      received.map((e) => e.id),
      expected,
    );
    assert.ok(received.every((e) => e.type !== 'application.created'));
    assert.deepEqual(errors, []);
    hub.leave(subscriber);
    assert.equal(hub.size, 0);
  });

  test('hub: a failing outbox read is reported once, retried, and nothing is lost', async (t) => {
    const db = await createTestDb(t);
    let failing = 0;
    // The database as the hub sees it: its next `failing` queries throw.
    const flaky = new Proxy(db.kysely, {
      get(target, property) {
        if (property === 'selectFrom' && failing > 0) {
          failing -= 1;
          throw new Error('the database is down');
        }
        const value = Reflect.get(target, property);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const errors: unknown[] = [];
    const recovered: number[] = [];
    const hub = new EventHub(flaky, {
      pollMs: 10,
      onError: (e) => errors.push(e),
      onRecovered: (n) => recovered.push(n),
    });
    t.after(() => hub.close());
    const received: number[] = [];
    const subscriber: Subscriber = {
      filter: { category: 'GARDENING' },
      types: new Set(PUBLIC_EVENT_TYPES),
      closed: false,
      send: (event) => received.push(event.id) > 0,
      drained: async () => {},
    };
    await hub.join(subscriber, 0);
    failing = 5;
    const place = { category: 'GARDENING', lat: 49, lng: 8.4 };
    await inWriteTransaction({ db: db.kysely, now: new Date(), claim: null }, (trx) =>
      recordEvent(trx, { type: 'job.created', subjectId: 'j', place, audience: null, data: {} }, new Date()),
    );
    const deadline = Date.now() + 20_000;
    while (received.length === 0 && Date.now() < deadline) await sleep(10);
    assert.deepEqual(
      { received: received.length, failing, errors: errors.length },
      { received: 1, failing: 0, errors: 1 },
    );
    assert.equal(errors.length, 1, 'one report per streak of failures');
    assert.match(String(errors[0]), /the database is down/);
    assert.deepEqual(recovered, [5]);
  });
});
