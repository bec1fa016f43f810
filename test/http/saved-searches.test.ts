import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildTestApp, clientFor, createKey, NOW } from '../helpers/app.js';
import { JOB_BODY, LISTING_BODY } from '../helpers/bodies.js';

/** Gardening jobs of at least 50 EUR within 20 km of the centre of Karlsruhe (Durlach is inside). */
const SEARCH = {
  name: 'Gartenjobs',
  resource: 'jobs',
  query: { category: 'GARDENING', budget_min: 50, lat: 49.0069, lng: 8.4037, radius: 20 },
};

async function setUp(t: Parameters<typeof buildTestApp>[0], config: Record<string, string> = {}, now?: () => Date) {
  const { app, db } = await buildTestApp(t, now ?? NOW, { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', ...config });
  const keys = {
    searcher: await createKey(db, { email: 'searcher@example.org' }),
    poster: await createKey(db, { email: 'poster@example.org' }),
    stranger: await createKey(db, { email: 'stranger@example.org' }),
  };
  return {
    app,
    db,
    searcherAccount: keys.searcher.accountId,
    searcher: clientFor(app, keys.searcher.key),
    poster: clientFor(app, keys.poster.key),
    stranger: clientFor(app, keys.stranger.key),
    anonymous: clientFor(app, null),
  };
}

describe('saved searches: create, read, list, delete', () => {
  test('CRUD with object-level authorization; JSON and string values alike', async (t) => {
    const { searcher, stranger } = await setUp(t);
    const created = await searcher.post('/v1/saved-searches', { ...SEARCH, email_digest: true });
    assert.equal(created.status, 201, created.raw);
    const { id } = created.body;
    assert.match(id, /^svs_[0-9a-f]{16}$/);
    assert.deepEqual(created.body, {
      id,
      name: 'Gartenjobs',
      resource: 'jobs',
      query: { category: 'GARDENING', budget_min: 50, lat: 49.0069, lng: 8.4037, radius: 20 },
      email_digest: true,
      created_at: NOW.toISOString(),
    });
    assert.equal(created.headers.location, `/v1/saved-searches/${id}`);
    const asStrings = await searcher.post('/v1/saved-searches', {
      name: 'Als Text',
      resource: 'listings',
      query: { instant_booking: 'true', price_max: '10' },
    });
    assert.equal(asStrings.status, 201, asStrings.raw);
    assert.deepEqual(asStrings.body.query, { instant_booking: true, price_max: 10 });
    assert.equal(asStrings.body.email_digest, false);

    assert.deepEqual((await searcher.get(`/v1/saved-searches/${id}`)).body, created.body);
    const list = await searcher.get('/v1/saved-searches?limit=1');
    assert.deepEqual(
      { status: list.status, count: list.body.data.length, total: list.body.total, limit: list.body.limit },
      { status: 200, count: 1, total: 2, limit: 1 },
    );
    const all = (await searcher.get('/v1/saved-searches')).body.data.map((s: { id: string }) => s.id);
    assert.deepEqual(all.sort(), [id, asStrings.body.id].sort());

    for (const answer of [
      await stranger.get(`/v1/saved-searches/${id}`),
      await stranger.delete(`/v1/saved-searches/${id}`),
      await stranger.get(`/v1/saved-searches/${id}/matches`),
    ]) {
      assert.equal(answer.status, 404);
      assert.equal(answer.body.error, 'not_found');
      assert.equal(answer.body.param, 'id');
    }
    assert.equal((await stranger.get('/v1/saved-searches')).body.total, 0);
    const deleted = await searcher.delete(`/v1/saved-searches/${id}`);
    assert.equal(deleted.status, 204);
    assert.equal((await searcher.get(`/v1/saved-searches/${id}`)).status, 404);
  });

  test('a query is refused exactly as its search refuses it', async (t) => {
    const { searcher, anonymous } = await setUp(t);
    const cases: [string, Record<string, unknown>, string][] = [
      ['jobs', { budget_min: 80, budget_max: 20 }, 'budget_min=80&budget_max=20'],
      ['jobs', { radius: 500 }, 'radius=500'],
      ['jobs', { category: 'GARDNING' }, 'category=GARDNING'],
      ['jobs', { urgnt: true }, 'urgnt=true'],
      ['jobs', { urgent: 'maybe' }, 'urgent=maybe'],
      ['jobs', { date: '2026-13-40' }, 'date=2026-13-40'],
      ['listings', { condition: 'broken' }, 'condition=broken'],
      ['listings', { price_max: -1 }, 'price_max=-1'],
      ['listings', { near: 'Durlak' }, 'near=Durlak'],
      ['listings', { near: '76228' }, 'near=76228'],
      ['jobs', { near: 'Durlach', lat: 49 }, 'near=Durlach&lat=49'],
      [
        'jobs',
        { q: Array.from({ length: 13 }, (_, i) => `wort${i}`).join(' ') },
        `q=${Array.from({ length: 13 }, (_, i) => `wort${i}`).join('+')}`,
      ],
    ];
    for (const [resource, query, queryString] of cases) {
      const search = await anonymous.get(`/v1/${resource}?${queryString}`);
      assert.equal(search.status, 400, queryString);
      const saved = await searcher.post('/v1/saved-searches', { name: 'x', resource, query });
      assert.deepEqual({ status: saved.status, body: saved.body }, { status: 400, body: search.body }, queryString);
    }
    const paging = await searcher.post('/v1/saved-searches', { name: 'x', resource: 'jobs', query: { limit: 5 } });
    assert.deepEqual(
      { status: paging.status, error: paging.body.error, param: paging.body.param },
      { status: 400, error: 'invalid_parameter', param: 'limit' },
    );
    const nested = await searcher.post('/v1/saved-searches', { name: 'x', resource: 'jobs', query: { lat: null } });
    assert.deepEqual(
      { status: nested.status, error: nested.body.error, param: nested.body.param },
      { status: 400, error: 'invalid_parameter', param: 'lat' },
    );
    const notAnObject = await searcher.post('/v1/saved-searches', { name: 'x', resource: 'jobs', query: 'q=1' });
    assert.equal(notAnObject.status, 400);
    assert.equal(notAnObject.body.param, 'query');
    assert.equal((await anonymous.post('/v1/saved-searches', SEARCH)).status, 401);
  });

  test('at most SAVED_SEARCHES_PER_ACCOUNT per account: 409 limit_reached with a suggestion', async (t) => {
    const { searcher, stranger } = await setUp(t, { SAVED_SEARCHES_PER_ACCOUNT: '2' });
    assert.equal((await searcher.post('/v1/saved-searches', SEARCH)).status, 201);
    assert.equal((await searcher.post('/v1/saved-searches', SEARCH)).status, 201);
    const third = await searcher.post('/v1/saved-searches', SEARCH);
    assert.deepEqual(third.body, {
      error: 'limit_reached',
      message: 'The account has 2 saved searches, the most it may have.',
      param: null,
      suggestion: 'Delete one you no longer need (DELETE /v1/saved-searches/{id}), then save again.',
      alternatives: [],
      alternatives_count: 0,
    });
    assert.equal(third.status, 409);
    assert.equal((await stranger.post('/v1/saved-searches', SEARCH)).status, 201, 'per account');
  });
});

describe('matching new and changed jobs and listings', () => {
  test('a new match: event for the owner only, listed once; changes that start to match; non-matches', async (t) => {
    const { searcher, poster, stranger, db, searcherAccount } = await setUp(t);
    const hook = async (client: typeof searcher) =>
      (
        await client.post('/v1/webhooks', {
          url: 'http://127.0.0.1:9/hook',
          events: ['saved_search.matched'],
        })
      ).body.id as string;
    const searcherHook = await hook(searcher);
    const strangerHook = await hook(stranger);
    const saved = (await searcher.post('/v1/saved-searches', SEARCH)).body;
    // The poster's own search would match too, but nobody is told about their own job.
    const own = (await poster.post('/v1/saved-searches', SEARCH)).body;

    const matching = await poster.post('/v1/jobs', JOB_BODY);
    assert.equal(matching.status, 201, matching.raw);
    await poster.post('/v1/jobs', { ...JOB_BODY, price_eur: 20 }); // below budget_min
    await poster.post('/v1/jobs', { ...JOB_BODY, category: 'CLEANING' }); // another category
    const cheap = (await poster.post('/v1/jobs', { ...JOB_BODY, title: 'Rasen', price_eur: 30 })).body;
    // Changed to start matching, then changed again: one match, not two.
    assert.equal((await poster.patch(`/v1/jobs/${cheap.id}`, { price_eur: 70 })).status, 200);
    assert.equal((await poster.patch(`/v1/jobs/${cheap.id}`, { price_eur: 75 })).status, 200);
    assert.equal((await poster.patch(`/v1/jobs/${matching.body.id}`, { title: 'Hecke, 25 m' })).status, 200);

    const matches = await searcher.get(`/v1/saved-searches/${saved.id}/matches`);
    assert.equal(matches.status, 200);
    assert.deepEqual(
      matches.body.data.map((m: { job: { id: string } }) => m.job.id).sort(),
      [matching.body.id, cheap.id].sort(),
    );
    assert.equal(matches.body.total, 2);
    assert.deepEqual(Object.keys(matches.body.data[0]).sort(), ['job', 'matched_at']);
    assert.equal(matches.body.data[0].job.price_eur !== undefined, true);
    assert.equal((await poster.get(`/v1/saved-searches/${own.id}/matches`)).body.total, 0);

    const events = await db.kysely
      .selectFrom('events')
      .select(['type', 'subject_id', 'audience', 'payload'])
      .where('type', '=', 'saved_search.matched')
      .orderBy('id')
      .execute();
    assert.deepEqual(
      events.map((e) => ({ subject: e.subject_id, audience: e.audience, match: JSON.parse(e.payload).match.id })),
      [
        { subject: saved.id, audience: JSON.stringify([searcherAccount]), match: matching.body.id },
        { subject: saved.id, audience: JSON.stringify([searcherAccount]), match: cheap.id },
      ],
    );
    const payload = JSON.parse(events[0]?.payload ?? '{}');
    assert.deepEqual(payload.saved_search, { id: saved.id, name: 'Gartenjobs', resource: 'jobs' });

    const deliveries = async (client: typeof searcher, id: string) =>
      (await client.get(`/v1/webhooks/${id}/deliveries`)).body.data.map((d: { event_type: string }) => d.event_type);
    assert.deepEqual(await deliveries(searcher, searcherHook), ['saved_search.matched', 'saved_search.matched']);
    assert.deepEqual(await deliveries(stranger, strangerHook), []);
  });

  test('listings: a paused listing made available again starts to match', async (t) => {
    const { searcher, poster } = await setUp(t);
    const saved = (
      await searcher.post('/v1/saved-searches', {
        name: 'Bänke',
        resource: 'listings',
        query: { category: 'EVENTS', price_max: 10, condition: 'good' },
      })
    ).body;
    const listing = (await poster.post('/v1/listings', { ...LISTING_BODY, price_per_day_eur: 12 })).body;
    assert.equal((await searcher.get(`/v1/saved-searches/${saved.id}/matches`)).body.total, 0);
    assert.equal((await poster.post(`/v1/listings/${listing.id}/pause`)).status, 200);
    assert.equal((await poster.patch(`/v1/listings/${listing.id}`, { price_per_day_eur: 9 })).status, 200);
    assert.equal((await searcher.get(`/v1/saved-searches/${saved.id}/matches`)).body.total, 0, 'paused: not yet');
    assert.equal((await poster.post(`/v1/listings/${listing.id}/resume`)).status, 200);
    const matches = (await searcher.get(`/v1/saved-searches/${saved.id}/matches`)).body;
    assert.deepEqual(
      matches.data.map((m: { listing: { id: string } }) => m.listing.id),
      [listing.id],
    );
  });
});

describe('the daily digest e-mail', () => {
  test('sent once per day per account to its e-mail, with a key-less unsubscribe link', async (t) => {
    const outbox = mkdtempSync(join(tmpdir(), 'digest-'));
    t.after(() => rmSync(outbox, { recursive: true, force: true }));
    let now = NOW;
    const { searcher, poster, anonymous } = await setUp(t, { OUTBOX_DIR: outbox, DIGEST_SWEEP_MS: '20' }, () => now);
    const saved = (await searcher.post('/v1/saved-searches', { ...SEARCH, email_digest: true })).body;
    await searcher.post('/v1/saved-searches', { ...SEARCH, name: 'Ohne Mail' });
    const files = () =>
      readdirSync(outbox)
        .filter((name) => name.endsWith('.eml'))
        .sort();
    const waitForFiles = async (count: number) => {
      for (let i = 0; i < 200 && files().length < count; i++) await sleep(20);
      await sleep(100); // a few more rounds: nothing else may come
      return files();
    };
    const read = (name: string) =>
      readFileSync(join(outbox, name), 'utf8')
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));

    const first = (await poster.post('/v1/jobs', JOB_BODY)).body;
    const sent = await waitForFiles(1);
    assert.equal(sent.length, 1);
    const mail = read(sent[0] as string);
    assert.match(mail, /^To: searcher@example\.org/m);
    assert.ok(mail.includes(first.title) && mail.includes(`/v1/jobs/${first.id}`), mail);
    assert.ok(!mail.includes('Ohne Mail'), 'only searches with email_digest');
    const link = /List-Unsubscribe:\s*<([^>]+)>/.exec(mail)?.[1];
    assert.ok(link, mail);
    assert.match(mail, /List-Unsubscribe-Post: List-Unsubscribe=One-Click/);

    // Another match the same day waits for tomorrow's digest.
    now = new Date(NOW.getTime() + 60_000);
    const second = (await poster.post('/v1/jobs', { ...JOB_BODY, title: 'Laub rechen' })).body;
    assert.equal((await waitForFiles(2)).length, 1);
    now = new Date(NOW.getTime() + 25 * 3600_000);
    const twoDays = await waitForFiles(2);
    assert.equal(twoDays.length, 2);
    const next = read(twoDays[1] as string);
    assert.ok(next.includes(second.title) && !next.includes(first.title), next);

    const path = new URL(link).pathname + new URL(link).search;
    const unsubscribed = await anonymous.get(path);
    assert.deepEqual(
      { status: unsubscribed.status, body: unsubscribed.body },
      {
        status: 200,
        body: {
          unsubscribed: true,
          saved_search_id: saved.id,
          message: "No more digest e-mails for the saved search 'Gartenjobs'.",
        },
      },
    );
    assert.equal(
      (await anonymous.post(path)).body.message,
      "The digest of the saved search 'Gartenjobs' was off already.",
    );
    assert.equal((await searcher.get(`/v1/saved-searches/${saved.id}`)).body.email_digest, false);
    const forged = await anonymous.get(`/v1/saved-searches/unsubscribe?token=${saved.id}.${'A'.repeat(43)}`);
    assert.equal(forged.status, 404);

    now = new Date(NOW.getTime() + 50 * 3600_000);
    await poster.post('/v1/jobs', { ...JOB_BODY, title: 'Beet umgraben' });
    assert.equal((await waitForFiles(3)).length, 2, 'no digest after unsubscribing');
  });

  test('q and near: words as the search folds them, a place by name resolved when saved', async (t) => {
    const { searcher, poster } = await setUp(t);
    // Bierzeltgarnitur (LISTING_BODY) is in Durlach (76227): "Bänke" in its description, "zelt" in a compound.
    const words = (
      await searcher.post('/v1/saved-searches', {
        name: 'Bänke in Durlach',
        resource: 'listings',
        query: { q: 'baenke', near: 'Durlach', radius: 2 },
      })
    ).body;
    assert.equal(words.query.near, 'Durlach');
    const elsewhere = (
      await searcher.post('/v1/saved-searches', {
        name: 'Bänke in Ettlingen',
        resource: 'listings',
        query: { q: 'Bänke', near: 'Ettlingen', radius: 2 },
      })
    ).body;
    const otherWords = (
      await searcher.post('/v1/saved-searches', {
        name: 'Bohrmaschine',
        resource: 'listings',
        query: { q: 'Bohrmaschine', near: '76227' },
      })
    ).body;
    const listing = (await poster.post('/v1/listings', LISTING_BODY)).body;
    const matched = async (id: string) =>
      (await searcher.get(`/v1/saved-searches/${id}/matches`)).body.data.map(
        (m: { listing: { id: string } }) => m.listing.id,
      );
    assert.deepEqual(await matched(words.id), [listing.id]);
    assert.deepEqual(await matched(elsewhere.id), []);
    assert.deepEqual(await matched(otherWords.id), []);
    // The search itself finds it with the same query.
    const search = await poster.get('/v1/listings?q=baenke&near=Durlach&radius=2');
    assert.deepEqual(
      search.body.data.map((l: { id: string }) => l.id),
      [listing.id],
    );
  });
});
