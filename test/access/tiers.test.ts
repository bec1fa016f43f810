import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, test } from 'node:test';
import { buildApp } from '../../src/app.js';
import { testConfig } from '../../src/config.js';
import { generateApiKey } from '../../src/domain/api-keys.js';
import { revokeKey, rotateKey } from '../../src/repositories/access.js';
import { buildTestApp, createKey, getJson, NOW } from '../helpers/app.js';

const LIMITS = {
  RATE_LIMIT_ANONYMOUS_PER_MIN: '20',
  RATE_LIMIT_DEVELOPER_PER_MIN: '100',
  RATE_LIMIT_SANDBOX_PER_MIN: '20',
};

const withKey = (key: string) => ({ 'x-api-key': key });

describe('keys and tiers', () => {
  test('no key: anonymous, read only, budget in /v1/me', async (t) => {
    const { app } = await buildTestApp(t, NOW, LIMITS);
    const { status, body, headers } = await getJson(app, '/v1/me');
    assert.equal(status, 200);
    assert.deepEqual(body, {
      tier: 'anonymous',
      access: 'read only',
      account: null,
      app: null,
      key: null,
      rate_limit: { limit: 20, remaining: 19, reset_seconds: 60, window_seconds: 60 },
    });
    assert.equal(headers['ratelimit-policy'], '"anonymous";q=20;w=60');
    assert.equal(headers.ratelimit, '"anonymous";r=19;t=60');
  });

  test('a valid key: developer tier with its account, 100 per minute', async (t) => {
    const { app, db } = await buildTestApp(t, NOW, LIMITS);
    const { key, id, accountId } = await createKey(db, { email: 'Ada@Example.org', account_type: 'commercial' });
    const response = await app.inject({ method: 'GET', url: '/v1/me', headers: withKey(key) });
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), {
      tier: 'developer',
      access: 'read and write',
      account: {
        id: accountId,
        name: 'Test Developer',
        email: 'ada@example.org',
        organisation: null,
        account_type: 'commercial',
      },
      app: null,
      key: { id, masked: `kmp_...${key.slice(-4)}`, created_at: NOW.toISOString(), expires_at: null },
      rate_limit: { limit: 100, remaining: 99, reset_seconds: 60, window_seconds: 60 },
    });
    assert.equal(response.headers['x-ratelimit-limit'], '100');
    assert.ok(!response.body.includes(key), 'the key itself is never echoed');
  });

  const invalid: [string, () => Record<string, string | string[]>, string][] = [
    ['a malformed key', () => withKey('kmp_123'), 'The X-API-Key is malformed.'],
    ['a key with a wrong checksum', () => withKey(`${generateApiKey().slice(0, -1)}!`), 'The X-API-Key is malformed.'],
    ['an empty key', () => withKey(''), 'The X-API-Key is malformed.'],
    ['a well-formed key nobody was given', () => withKey(generateApiKey()), 'The X-API-Key is not known.'],
  ];
  for (const [what, headers, message] of invalid) {
    test(`${what} is a 401, never quietly anonymous`, async (t) => {
      const { app } = await buildTestApp(t, NOW, LIMITS);
      const response = await app.inject({ method: 'GET', url: '/v1/jobs', headers: headers() });
      assert.equal(response.statusCode, 401);
      const body = response.json();
      assert.deepEqual(
        { ...body, suggestion: undefined },
        {
          error: 'invalid_api_key',
          message,
          param: 'X-API-Key',
          suggestion: undefined,
          alternatives: [],
          alternatives_count: 0,
        },
      );
      assert.match(body.suggestion, /\/developers/);
      // The attempt still counts against the caller's anonymous budget.
      assert.equal(response.headers['ratelimit-policy'], '"anonymous";q=20;w=60');
      assert.equal(response.headers['x-ratelimit-remaining'], '19');
    });
  }

  test('a revoked key is a 401 at once', async (t) => {
    const { app, db } = await buildTestApp(t, NOW, LIMITS);
    const { key, id } = await createKey(db);
    assert.equal((await app.inject({ url: '/v1/me', headers: withKey(key) })).statusCode, 200);
    assert.equal(await revokeKey(db.kysely, id, NOW), true);
    const response = await app.inject({ url: '/v1/me', headers: withKey(key) });
    assert.equal(response.statusCode, 401);
    assert.equal(response.json().message, 'The X-API-Key was revoked.');
  });

  test('rotation: old and new keys both work during the grace period, the old one fails after it', async (t) => {
    const { db } = await buildTestApp(t, NOW, LIMITS);
    const { key: oldKey, id } = await createKey(db);
    const rotated = await rotateKey(db.kysely, id, 24, NOW);
    assert.ok(rotated);
    assert.equal(await rotateKey(db.kysely, id, 24, NOW), undefined, 'a key is rotated once');

    // The same database seen by apps whose clocks run 23 and 25 hours later.
    const at = (hours: number) =>
      buildApp(testConfig(LIMITS), { db, now: () => new Date(NOW.getTime() + hours * 3_600_000) });
    const in23h = await at(23);
    t.after(() => in23h.close());
    const oldMe = await in23h.inject({ url: '/v1/me', headers: withKey(oldKey) });
    assert.equal(oldMe.statusCode, 200);
    assert.equal(oldMe.json().key.expires_at, new Date(NOW.getTime() + 24 * 3_600_000).toISOString());
    assert.equal((await in23h.inject({ url: '/v1/me', headers: withKey(rotated.key) })).statusCode, 200);

    const in25h = await at(25);
    t.after(() => in25h.close());
    const expired = await in25h.inject({ url: '/v1/me', headers: withKey(oldKey) });
    assert.equal(expired.statusCode, 401);
    assert.equal(expired.json().message, 'The X-API-Key expired after it was rotated; use its successor.');
    assert.equal((await in25h.inject({ url: '/v1/me', headers: withKey(rotated.key) })).statusCode, 200);
  });
});

describe('keys never appear in logs', () => {
  test('request logs of valid, invalid and failing requests hold no key', async (t) => {
    const lines: string[] = [];
    const logStream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const { app, db } = await buildTestApp(t, NOW, { ...LIMITS, LOG_LEVEL: 'trace' }, { logStream });
    const { key } = await createKey(db);
    const unknown = generateApiKey();
    await app.inject({ url: '/v1/me', headers: withKey(key) });
    await app.inject({ url: '/v1/jobs?limit=0', headers: withKey(key) });
    await app.inject({ url: '/v1/me', headers: withKey(unknown) });
    await app.inject({ method: 'POST', url: '/v1/me', headers: withKey(key) });
    const log = lines.join('');
    assert.ok(lines.length >= 4, 'requests were logged');
    assert.ok(!log.includes(key), 'a valid key was logged');
    assert.ok(!log.includes(unknown), 'an unknown key was logged');
    assert.ok(!log.includes(key.slice(4, 20)), 'part of a key was logged');
  });
});
