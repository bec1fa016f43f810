import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { RESOURCES, translate } from '../../src/i18n/index.js';
import { ERROR_CODES } from '../../src/schemas/error.js';
import { buildTestApp, createKey } from '../helpers/app.js';

/** Every key of a resource tree, as dotted paths. */
function keysOf(tree: object, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'object' && value !== null ? keysOf(value, `${prefix}${key}.`) : [`${prefix}${key}`],
  );
}

describe('languages: one resource file per language, every text in both', () => {
  test('German and English have the same keys, and no text is empty', () => {
    const de = keysOf(RESOURCES.de).sort();
    const en = keysOf(RESOURCES.en).sort();
    assert.deepEqual(
      de.filter((key) => !en.includes(key)),
      [],
      'in German only',
    );
    assert.deepEqual(
      en.filter((key) => !de.includes(key)),
      [],
      'in English only',
    );
    for (const key of en) {
      for (const language of ['de', 'en'] as const) {
        const text = translate(language, key, { count: 1 });
        assert.ok(text.trim().length > 0 && text !== key, `${language} ${key}`);
      }
    }
  });

  test('every error code has a message and a suggestion in both languages', () => {
    for (const code of ERROR_CODES) {
      for (const language of ['de', 'en'] as const) {
        for (const part of ['message', 'suggestion']) {
          const key = `errors.${code}.${part}`;
          const text = translate(language, key, { param: '„x“' });
          assert.notEqual(text, key, `${language}: ${key} has no text`);
        }
      }
      assert.notEqual(
        translate('de', `errors.${code}.message`, { param: 'x' }),
        translate('en', `errors.${code}.message`, { param: 'x' }),
        `${code} is German in German`,
      );
    }
  });
});

describe('languages: Accept-Language chooses German or English for every ApiError', () => {
  test('the same error in German and English; codes and field names stay English', async (t) => {
    const { app, db } = await buildTestApp(t);
    const ask = (url: string, language?: string) =>
      app.inject({ method: 'GET', url, headers: language ? { 'accept-language': language } : {} });

    const english = await ask('/v1/jobs?radiuss=5');
    const german = await ask('/v1/jobs?radiuss=5', 'de-DE,de;q=0.9,en;q=0.8');
    assert.equal(english.statusCode, 400);
    assert.equal(german.statusCode, 400);
    assert.equal(english.headers['content-language'], 'en', 'no Accept-Language: English, the API’s own');
    assert.equal(german.headers['content-language'], 'de');
    assert.match(String(german.headers.vary), /Accept-Language/);
    const [en, de] = [english.json(), german.json()];
    assert.equal(de.error, en.error, 'the code stays');
    assert.equal(de.param, 'radiuss', 'the field name stays');
    assert.deepEqual(de.alternatives, en.alternatives);
    assert.equal(en.message, "Unknown query parameter 'radiuss'.");
    assert.equal(de.message, 'Unbekannter Query-Parameter „radiuss“.');
    assert.equal(de.suggestion, 'Meinten Sie „radius“?');

    // An error said only in English words gets its code's German text, the English details after it.
    const missing = await ask('/v1/jobs/job_0000000000000000', 'de');
    assert.equal(missing.statusCode, 404);
    const body = missing.json();
    assert.equal(body.error, 'not_found');
    assert.equal(body.message, 'Zu „id“ wurde nichts gefunden.');
    assert.match(body.suggestion, /^Prüfen Sie die Kennung; .* Einzelheiten \(englisch\): No job /);
    assert.equal((await ask('/v1/jobs/job_0000000000000000', 'fr')).headers['content-language'], 'en');
    // fetch sends Accept-Language: * by default: English, the API's own.
    assert.equal((await ask('/v1/jobs/job_0000000000000000', '*')).headers['content-language'], 'en');

    // A write's body: its code's German text, with the English details (the values, the list) after it.
    const key = await createKey(db, { email: 'writer@example.org' });
    const write = await app.inject({
      method: 'POST',
      url: '/v1/jobs',
      headers: { 'x-api-key': key.key, 'accept-language': 'de', 'content-type': 'application/json' },
      payload: { title: 'Hecke schneiden', description: 'Zwanzig Meter Thuja.', category: 'GARTEN', price_eur: 50 },
    });
    assert.equal(write.statusCode, 400, write.body);
    assert.equal(write.json().message, 'Der Parameter „category“ kennt diesen Wert nicht.');
    assert.match(write.json().suggestion, /Einzelheiten \(englisch\): category must be one of GARDENING, /);

    // Several problems at once: each in German.
    const many = await ask('/v1/jobs?radius=500&category=GARTEN&sortt=price', 'de');
    assert.equal(many.statusCode, 400, many.body);
    const problems = many.json().errors as { error: string; message: string }[];
    assert.ok(problems.length >= 2, many.body);
    for (const problem of problems)
      assert.doesNotMatch(problem.message, /^(Unknown|The |[a-z_]+ must be)/, problem.message);
  });

  test("without Accept-Language: the language the key's person chose, else English; the header still wins", async (t) => {
    const { app, db } = await buildTestApp(t);
    const { key } = await createKey(db, { email: 'leser@example.org' });
    const ask = (headers: Record<string, string>) =>
      app.inject({ method: 'GET', url: '/v1/jobs?radiuss=5', headers: { 'x-api-key': key, ...headers } });
    assert.equal((await ask({})).headers['content-language'], 'en', 'nothing chosen: English');
    // A change that names no language (quiet hours) chooses none: the stored default stays the e-mails' only.
    const quiet = await app.inject({
      method: 'PUT',
      url: '/v1/me/notification-settings',
      headers: { 'x-api-key': key },
      payload: { quiet_hours: { start: '22:00', end: '07:00' } },
    });
    assert.equal(quiet.statusCode, 200, quiet.body);
    assert.equal((await ask({})).headers['content-language'], 'en', 'the default language was not chosen');
    const chosen = await app.inject({
      method: 'PUT',
      url: '/v1/me/notification-settings',
      headers: { 'x-api-key': key },
      payload: { language: 'de' },
    });
    assert.equal(chosen.statusCode, 200, chosen.body);
    const german = await ask({});
    assert.equal(german.headers['content-language'], 'de');
    assert.equal(german.json().message, 'Unbekannter Query-Parameter „radiuss“.');
    assert.equal((await ask({ 'accept-language': 'en' })).headers['content-language'], 'en', 'the header wins');
    // Another caller, without a key, is not touched by it.
    const anonymous = await app.inject({ method: 'GET', url: '/v1/jobs?radiuss=5' });
    assert.equal(anonymous.headers['content-language'], 'en');
    // The categories follow it too, each language kept apart by the response cache.
    const categories = await app.inject({ method: 'GET', url: '/v1/categories', headers: { 'x-api-key': key } });
    assert.equal(categories.json().lang, 'de');
    assert.equal((await app.inject({ method: 'GET', url: '/v1/categories' })).json().lang, 'en');
  });
});
