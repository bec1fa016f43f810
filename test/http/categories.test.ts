import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CATEGORIES } from '../../src/domain/categories.js';
import { buildTestApp, getJson } from '../helpers/app.js';
import { insert, jobFixture, listingFixture, ownerFixture } from '../helpers/fixtures.js';

async function withPrices(t: Parameters<typeof buildTestApp>[0]) {
  const built = await buildTestApp(t);
  const owner = ownerFixture();
  await insert(built.db.kysely, {
    jobs: [
      // Per helper-hour: 15, 20, 25 (open) and 25 (completed).
      jobFixture({ price_cents: 3000, duration_hours: 2, helpers_needed: 1 }),
      jobFixture({ price_cents: 6000, duration_hours: 3, helpers_needed: 1 }),
      jobFixture({ price_cents: 10000, duration_hours: 2, helpers_needed: 2 }),
      jobFixture({ price_cents: 5000, duration_hours: 2, helpers_needed: 1, status: 'completed' }),
      jobFixture({ price_cents: 99900, status: 'cancelled' }),
    ],
    owners: [owner],
    listings: [
      listingFixture(owner.id, {
        category: 'GARDENING',
        price_per_day_cents: 500,
        price_per_week_cents: 2500,
        deposit_cents: 5000,
      }),
      listingFixture(owner.id, {
        category: 'GARDENING',
        price_per_day_cents: 1000,
        price_per_week_cents: null,
        deposit_cents: 10000,
      }),
      listingFixture(owner.id, {
        category: 'GARDENING',
        price_per_day_cents: 2000,
        price_per_week_cents: 8000,
        deposit_cents: 15000,
      }),
      listingFixture(owner.id, { category: 'GARDENING', price_per_day_cents: 99900, status: 'paused' }),
    ],
  });
  return built;
}

const gardeningService = {
  open_jobs: 3,
  completed_jobs: 1,
  price_per_hour_eur: { low: 15, median: 20, high: 25 },
  price_per_job_eur: { low: 30, median: 60, high: 100 },
};
const gardeningBorrowing = {
  listings: 3,
  price_per_day_eur: { low: 5, median: 10, high: 20 },
  price_per_week_eur: { low: 25, median: 25, high: 80 },
  deposit_eur: { low: 50, median: 100, high: 150 },
};

describe('GET /v1/categories', () => {
  test('every category, English by default, with service and borrowing price bands from live data', async (t) => {
    const { app } = await withPrices(t);
    const { status, body } = await getJson(app, '/v1/categories');
    assert.equal(status, 200);
    assert.deepEqual(Object.keys(body), ['data', 'total', 'lang', 'type', 'currency']);
    assert.equal(body.total, 10);
    assert.equal(body.lang, 'en');
    assert.equal(body.type, null);
    assert.equal(body.currency, 'EUR');
    assert.deepEqual(
      body.data.map((c: any) => c.id),
      [...CATEGORIES],
    );
    assert.deepEqual(body.data[0], {
      id: 'GARDENING',
      name: 'Gardening',
      description: 'Mowing, hedge trimming, raking leaves, bed care; garden tools to borrow.',
      service: gardeningService,
      borrowing: gardeningBorrowing,
    });
    assert.deepEqual(body.data[1], {
      id: 'CLEANING',
      name: 'Cleaning',
      description: 'Flat and window cleaning, move-out cleaning; cleaning machines to borrow.',
      service: { open_jobs: 0, completed_jobs: 0, price_per_hour_eur: null, price_per_job_eur: null },
      borrowing: { listings: 0, price_per_day_eur: null, price_per_week_eur: null, deposit_eur: null },
    });
  });

  test('lang=de and type=service keep German names and only service figures', async (t) => {
    const { app } = await withPrices(t);
    const { body } = await getJson(app, '/v1/categories?lang=de&type=service');
    assert.equal(body.lang, 'de');
    assert.equal(body.type, 'service');
    assert.deepEqual(body.data[0], {
      id: 'GARDENING',
      name: 'Gartenarbeit',
      description: 'Rasen mähen, Hecken schneiden, Laub rechen, Beete pflegen; Gartengeräte zum Ausleihen.',
      service: gardeningService,
    });
    assert.ok(body.data.every((c: any) => c.borrowing === undefined));
  });

  test('without lang, Accept-Language chooses; each language kept apart, said again when reused', async (t) => {
    const { app } = await buildTestApp(t);
    const ask = (language?: string) =>
      app.inject({ method: 'GET', url: '/v1/categories', headers: language ? { 'accept-language': language } : {} });
    // Three rounds: computed, kept (the second asking), and from the earliest hook (the fast path).
    const seen: Record<string, string[]> = {};
    for (let round = 0; round < 3; round++) {
      for (const [language, expected, name] of [
        ['de-DE,de;q=0.9,en;q=0.5', 'de', 'Gartenarbeit'],
        ['en-GB', 'en', 'Gardening'],
        ['fr', 'en', 'Gardening'],
        [undefined, 'en', 'Gardening'],
      ] as const) {
        const response = await ask(language);
        assert.equal(response.statusCode, 200);
        const body = response.json() as { lang: string; data: { id: string; name: string }[] };
        assert.equal(body.lang, expected, `${language}, round ${round}`);
        assert.equal(body.data.find((item) => item.id === 'GARDENING')?.name, name);
        assert.equal(response.headers['content-language'], expected);
        assert.match(String(response.headers.vary), /Accept-Language/);
        const headers = Object.keys(response.headers).filter((header) => !['date', 'x-request-id'].includes(header));
        const rounds = seen[String(language)] ?? [];
        rounds.push(`${headers.join(',')} ${response.headers.vary} ${response.headers.etag}`);
        seen[String(language)] = rounds;
      }
    }
    // The same headers, in the same order, and the same tag whichever path answered.
    for (const [language, rounds] of Object.entries(seen))
      assert.equal(new Set(rounds).size, 1, `${language}: ${rounds}`);
    // lang wins over Accept-Language.
    const asked = await app.inject({
      method: 'GET',
      url: '/v1/categories?lang=en',
      headers: { 'accept-language': 'de' },
    });
    assert.equal((asked.json() as { lang: string }).lang, 'en');
    assert.equal(asked.headers['content-language'], 'en');
  });

  test('type=borrowing keeps only the lending figures; values are case-insensitive', async (t) => {
    const { app } = await withPrices(t);
    const { body } = await getJson(app, '/v1/categories?type=BORROWING&lang=DE');
    assert.equal(body.type, 'borrowing');
    assert.deepEqual(body.data[0], {
      id: 'GARDENING',
      name: 'Gartenarbeit',
      description: 'Rasen mähen, Hecken schneiden, Laub rechen, Beete pflegen; Gartengeräte zum Ausleihen.',
      borrowing: gardeningBorrowing,
    });
  });

  test('bad lang or type is a 400 listing the valid values', async (t) => {
    const { app } = await buildTestApp(t);
    const lang = await getJson(app, '/v1/categories?lang=fr');
    assert.equal(lang.status, 400);
    assert.deepEqual(lang.body, {
      error: 'invalid_enum_value',
      message: "lang must be one of de, en; got 'fr'.",
      param: 'lang',
      suggestion: 'Use one of the values listed in alternatives.',
      alternatives: ['de', 'en'],
      alternatives_count: 2,
    });
    const type = await getJson(app, '/v1/categories?type=services');
    assert.equal(type.status, 400);
    assert.equal(type.body.suggestion, 'Did you mean type=service?');
  });
});
