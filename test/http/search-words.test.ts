/**
 * Search by words and places (issue 18): q as people type German, relevance order, near by name,
 * GET /v1/places; the same answers whether the in-memory index or SQL serves them (both engines).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildApp } from '../../src/app.js';
import { testConfig } from '../../src/config.js';
import type { Api } from '../../src/http/route-deps.js';
import { SearchIndexes } from '../../src/search/search-indexes.js';
import { buildTestApp, NOW } from '../helpers/app.js';
import { AT, insert, jobFixture, listingFixture, ownerFixture } from '../helpers/fixtures.js';

const PLAIN = { RATE_LIMIT_ANONYMOUS_PER_MIN: '1000000', RESPONSE_CACHE_MS: '0' };

const owner = ownerFixture();
const L = {
  drill: listingFixture(owner.id, {
    title: 'Bohrmaschine Bosch PSB 750 zu verleihen',
    description: 'Schlagbohrmaschine mit Koffer.',
    created_at: '2026-11-01T10:00:00.000Z',
  }),
  cordless: listingFixture(owner.id, {
    title: 'Akku-Bohrer Makita',
    description: 'Zwei Akkus, Ladegerät.',
    created_at: '2026-11-02T10:00:00.000Z',
    ...AT.durlach,
  }),
  mower: listingFixture(owner.id, {
    title: 'Rasenmäher Bosch Rotak 37',
    description: 'Elektro, mit Fangkorb.',
    category: 'GARDENING',
    created_at: '2026-11-03T10:00:00.000Z',
  }),
  bikes: listingFixture(owner.id, {
    title: 'Zwei Fahrräder für Kinder',
    description: 'Gut erhalten.',
    category: 'OTHER',
    created_at: '2026-11-04T10:00:00.000Z',
  }),
  washer: listingFixture(owner.id, {
    title: 'Waschmaschine, gebraucht',
    description: 'Keine Bohrmaschine! Nur zum Waschen.',
    category: 'CLEANING',
    created_at: '2026-11-05T10:00:00.000Z',
  }),
  street: listingFixture(owner.id, {
    title: 'Straßenkreide für Kinderfeste',
    description: 'Bunte Kreide.',
    category: 'EVENTS',
    created_at: '2026-11-06T10:00:00.000Z',
    ...AT.ettlingen,
  }),
};
const J = {
  move: jobFixture({
    title: 'Hilfe beim Umzug',
    description: 'Drei Umzüge im Haus, Kisten tragen.',
    category: 'MOVING',
  }),
  mow: jobFixture({ title: 'Rasen mähen', description: 'Kleiner Garten.', ...AT.durlach }),
  hedge: jobFixture({ title: 'Hecke schneiden', description: 'Danach den Rasen mähen.', ...AT.ettlingen }),
};

async function apps(t: Parameters<typeof buildTestApp>[0]): Promise<{ sql: Api; indexed: Api }> {
  const { app: sql, db } = await buildTestApp(t, NOW, { ...PLAIN, SEARCH_INDEX: 'false' });
  await insert(db.kysely, { owners: [owner], listings: Object.values(L), jobs: Object.values(J) });
  const indexes = new SearchIndexes(db, { minGapMs: 3_600_000 });
  t.after(() => indexes.close());
  await indexes.refresh();
  const indexed = await buildApp(testConfig(PLAIN), { db, now: () => NOW, searchIndexes: indexes });
  t.after(() => indexed.close());
  return { sql, indexed };
}

/** The answer both paths give (asserted equal byte for byte). */
async function get(both: { sql: Api; indexed: Api }, url: string) {
  const [a, b] = await Promise.all([both.indexed.inject({ url }), both.sql.inject({ url })]);
  assert.equal(a.statusCode, b.statusCode, url);
  assert.equal(a.body, b.body, `${url}: the index and SQL agree`);
  return { status: a.statusCode, body: a.json() };
}

const ids = (body: { data: { id: string }[] }) => body.data.map((d) => d.id);

describe('q: words as people type them', () => {
  test('folding, inflections, compounds, one typo, a prefix; all words must match', async (t) => {
    const both = await apps(t);
    const cases: [string, string[]][] = [
      ['bohrmaschine', [L.drill.id, L.washer.id]],
      ['BOHRMASCHINE', [L.drill.id, L.washer.id]],
      ['Bohrmaschiene', [L.drill.id, L.washer.id]],
      ['Bohrm', [L.drill.id, L.washer.id]],
      // The stem 'bohr' starts 'bohrmaschine': someone after a Bohrer may want a drill too.
      ['Bohrer', [L.cordless.id, L.drill.id, L.washer.id]],
      ['Mäher', [L.mower.id]],
      ['Maeher', [L.mower.id]],
      ['MÄHER', [L.mower.id]],
      ['Fahrrad', [L.bikes.id]],
      ['Strasse', [L.street.id]],
      ['Straßenkreide', [L.street.id]],
      ['Strassenkreide', [L.street.id]],
      ['bosch rasenmäher', [L.mower.id]],
      ['bosch zelt', []],
      ['Gartenarbeit', [L.mower.id]],
      ['gardening', [L.mower.id]],
      ['Bohrer Ettlingen', []],
      ['Kreide Ettlingen', [L.street.id]],
    ];
    for (const [q, expected] of cases) {
      const { status, body } = await get(both, `/v1/listings?q=${encodeURIComponent(q)}`);
      assert.equal(status, 200, q);
      assert.deepEqual(ids(body).sort(), [...expected].sort(), `q=${q}`);
      assert.equal(body.total, expected.length, `q=${q}: total`);
    }
    const umzug = await get(both, `/v1/jobs?q=${encodeURIComponent('Umzüge')}`);
    assert.deepEqual(ids(umzug.body), [J.move.id]);
  });

  test('relevance: title before description, whole words before parts, exact before a typo; other sorts still work', async (t) => {
    const both = await apps(t);
    // The drill has the word in its title; the washer only in its description.
    const drill = await get(both, '/v1/listings?q=bohrmaschine');
    assert.deepEqual(ids(drill.body), [L.drill.id, L.washer.id]);
    const mow = await get(both, `/v1/jobs?q=${encodeURIComponent('Rasen mähen')}`);
    assert.deepEqual(ids(mow.body), [J.mow.id, J.hedge.id]);
    // Newest first when asked, whatever the relevance.
    const newest = await get(both, '/v1/listings?q=bohrmaschine&sort=newest');
    assert.deepEqual(ids(newest.body), [L.washer.id, L.drill.id]);
    const cheap = await get(both, '/v1/listings?q=bohrmaschine&sort=price_desc&limit=1');
    assert.equal(cheap.body.data.length, 1);
    assert.equal(cheap.body.has_more, true);
  });

  test('bad q and sort=relevance without q are 400s that say why', async (t) => {
    const both = await apps(t);
    const long = await get(both, `/v1/listings?q=${'a'.repeat(201)}`);
    assert.equal(long.status, 400);
    assert.equal(long.body.param, 'q');
    const many = await get(both, `/v1/jobs?q=${Array.from({ length: 13 }, (_, i) => `wort${i}`).join('+')}`);
    assert.equal(many.status, 400);
    assert.equal(many.body.error, 'parameter_out_of_range');
    assert.equal(many.body.param, 'q');
    const relevance = await get(both, '/v1/jobs?sort=relevance');
    assert.equal(relevance.status, 400);
    assert.equal(relevance.body.param, 'sort');
    // Only small words: nothing to match, every open job in its newest order.
    const small = await get(both, '/v1/jobs?q=in+der');
    assert.equal(small.status, 200);
    assert.equal(small.body.total, 3);
  });
});

describe('near: the centre by name', () => {
  test('a district, a town, a postal code, Karlsruhe-Mühlburg; the answer carries the place', async (t) => {
    const both = await apps(t);
    const durlach = await get(both, '/v1/listings?q=bohrer&near=Durlach&radius=1');
    assert.equal(durlach.status, 200);
    assert.deepEqual(ids(durlach.body), [L.cordless.id]);
    assert.deepEqual(durlach.body.near, {
      name: 'Durlach',
      city: 'Karlsruhe',
      district: 'Durlach',
      plz: '76227',
      lat: 48.9921,
      lng: 8.4684,
    });
    const byPlz = await get(both, '/v1/jobs?near=76227&radius=1');
    assert.deepEqual(ids(byPlz.body).sort(), [J.move.id, J.mow.id].sort());
    assert.equal(byPlz.body.near.name, 'Durlach');
    const folded = await get(both, '/v1/jobs?near=karlsruhe-muehlburg');
    assert.equal(folded.body.near.name, 'Mühlburg');
    const town = await get(both, '/v1/listings?near=Ettlingen&radius=2');
    assert.deepEqual(ids(town.body), [L.street.id]);
    const plain = await get(both, '/v1/jobs?lat=48.9921&lng=8.4684&radius=1');
    assert.equal('near' in plain.body, false, 'no near without near');
  });

  test('unknown, ambiguous, and together with lat/lng: 400s with what to send instead', async (t) => {
    const both = await apps(t);
    const typo = await get(both, '/v1/jobs?near=Durlak');
    assert.equal(typo.status, 400);
    assert.equal(typo.body.error, 'unknown_place');
    assert.equal(typo.body.param, 'near');
    assert.deepEqual(typo.body.alternatives, ['Durlach']);
    const shared = await get(both, '/v1/listings?near=76228');
    assert.equal(shared.status, 400);
    assert.equal(shared.body.error, 'ambiguous_place');
    assert.ok(shared.body.alternatives.includes('Stupferich') && shared.body.alternatives.includes('Palmbach'));
    const both2 = await get(both, '/v1/jobs?near=Durlach&lat=49&lng=8.4');
    assert.equal(both2.status, 400);
    assert.equal(both2.body.error, 'conflicting_parameters');
    const nowhere = await get(both, '/v1/jobs?near=Berlin');
    assert.equal(nowhere.status, 400);
    assert.equal(nowhere.body.error, 'unknown_place');
  });

  test('availability and estimate take near too', async (t) => {
    const both = await apps(t);
    const availability = await both.sql.inject({ url: '/v1/helpers/availability?near=Durlach&radius=3' });
    assert.equal(availability.statusCode, 200, availability.body);
    assert.deepEqual(availability.json().location, { lat: 48.9921, lng: 8.4684 });
    const estimate = await both.sql.inject({ url: '/v1/estimate?category=gardening&near=Durlak' });
    assert.equal(estimate.statusCode, 400);
    assert.equal(estimate.json().param, 'near');
    const fine = await both.sql.inject({ url: '/v1/estimate?category=gardening&near=Ettlingen' });
    assert.equal(fine.statusCode, 200, fine.body);
  });
});

describe('GET /v1/places', () => {
  test('typeahead by the start of a name or postal code, at most limit; near takes each', async (t) => {
    const { app } = await buildTestApp(t, NOW, PLAIN);
    const dur = await app.inject({ url: '/v1/places?q=dur' });
    assert.equal(dur.statusCode, 200);
    assert.deepEqual(
      dur.json().data.map((p: { name: string }) => p.name),
      ['Durlach', 'Durmersheim'],
    );
    const plz = await app.inject({ url: '/v1/places?q=7622&limit=20' });
    assert.ok(plz.json().data.every((p: { plz: string }) => p.plz.startsWith('7622')));
    const all = await app.inject({ url: '/v1/places?limit=20' });
    assert.equal(all.json().data.length, 20);
    const tooMany = await app.inject({ url: '/v1/places?limit=21' });
    assert.equal(tooMany.statusCode, 400);
    for (const place of all.json().data as { name: string }[]) {
      const resolved = await app.inject({ url: `/v1/jobs?near=${encodeURIComponent(place.name)}&limit=1` });
      assert.equal(resolved.statusCode, 200, `${place.name}: ${resolved.body}`);
      assert.equal(resolved.json().near.name, place.name);
    }
  });
});
