import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildTestApp, createKey } from '../helpers/app.js';

/** An app with two test-only POST routes: one that counts its runs, one that waits to be released. */
async function appWithProbes(t: Parameters<typeof buildTestApp>[0]) {
  const built = await buildTestApp(t);
  let runs = 0;
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  built.app.post('/test/count', async (request, reply) => {
    runs++;
    const fail = (request.body as { fail?: boolean } | undefined)?.fail;
    if (fail) throw new Error('boom');
    return reply.code(201).send({ run: runs, echo: request.body });
  });
  built.app.post('/test/slow', async (_request, reply) => {
    await released;
    return reply.code(201).send({ done: true });
  });
  return { ...built, runs: () => runs, release };
}

const json = (key: string, idempotencyKey?: string) => ({
  'content-type': 'application/json',
  'x-api-key': key,
  ...(idempotencyKey !== undefined ? { 'idempotency-key': idempotencyKey } : {}),
});

describe('Idempotency-Key on POST', () => {
  test('a retry with the same key and body replays the first response without running again', async (t) => {
    const { app, db, runs } = await appWithProbes(t);
    const { key } = await createKey(db);
    const first = await app.inject({
      method: 'POST',
      url: '/test/count',
      headers: json(key, 'k-1'),
      payload: { a: 1 },
    });
    const retry = await app.inject({
      method: 'POST',
      url: '/test/count',
      headers: json(key, 'k-1'),
      payload: { a: 1 },
    });
    assert.equal(first.statusCode, 201);
    assert.equal(retry.statusCode, 201);
    assert.equal(retry.body, first.body);
    assert.equal(retry.headers['idempotent-replayed'], 'true');
    assert.equal(first.headers['idempotent-replayed'], undefined);
    assert.equal(runs(), 1);
  });

  test('the same key with another body is a 422; without a key every POST runs', async (t) => {
    const { app, db, runs } = await appWithProbes(t);
    const { key } = await createKey(db);
    await app.inject({ method: 'POST', url: '/test/count', headers: json(key, 'k-2'), payload: { a: 1 } });
    const other = await app.inject({
      method: 'POST',
      url: '/test/count',
      headers: json(key, 'k-2'),
      payload: { a: 2 },
    });
    assert.equal(other.statusCode, 422);
    assert.deepEqual(other.json(), {
      error: 'idempotency_key_reused',
      message: 'This Idempotency-Key was used for a different request.',
      param: 'Idempotency-Key',
      suggestion: 'Use a new key for a new operation; a key stays bound to its first request for 48 hours.',
      alternatives: [],
      alternatives_count: 0,
    });
    await app.inject({ method: 'POST', url: '/test/count', headers: json(key), payload: { a: 1 } });
    await app.inject({ method: 'POST', url: '/test/count', headers: json(key), payload: { a: 1 } });
    assert.equal(runs(), 3);
  });

  test('a retry while the first request still runs is a 409; afterwards it replays', async (t) => {
    const { app, db, release } = await appWithProbes(t);
    const { key } = await createKey(db);
    const first = app.inject({ method: 'POST', url: '/test/slow', headers: json(key, 'k-3'), payload: {} });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const during = await app.inject({ method: 'POST', url: '/test/slow', headers: json(key, 'k-3'), payload: {} });
    assert.equal(during.statusCode, 409);
    assert.equal(during.json().error, 'idempotency_in_progress');
    assert.equal(during.headers['retry-after'], '1');
    release();
    assert.equal((await first).statusCode, 201);
    const after = await app.inject({ method: 'POST', url: '/test/slow', headers: json(key, 'k-3'), payload: {} });
    assert.equal(after.statusCode, 201);
    assert.equal(after.headers['idempotent-replayed'], 'true');
  });

  test('a server failure is not kept: the retry does the work', async (t) => {
    const { app, db, runs } = await appWithProbes(t);
    const { key } = await createKey(db);
    const failed = await app.inject({
      method: 'POST',
      url: '/test/count',
      headers: json(key, 'k-4'),
      payload: { fail: true },
    });
    assert.equal(failed.statusCode, 500);
    const retry = await app.inject({
      method: 'POST',
      url: '/test/count',
      headers: json(key, 'k-4'),
      payload: { fail: true },
    });
    assert.equal(retry.statusCode, 500);
    assert.equal(retry.headers['idempotent-replayed'], undefined);
    assert.equal(runs(), 2);
  });

  test('keys belong to an account: another account may use the same key', async (t) => {
    const { app, db, runs } = await appWithProbes(t);
    const a = await createKey(db, { email: 'a@example.org' });
    const b = await createKey(db, { email: 'b@example.org' });
    await app.inject({ method: 'POST', url: '/test/count', headers: json(a.key, 'shared'), payload: { x: 1 } });
    const other = await app.inject({
      method: 'POST',
      url: '/test/count',
      headers: json(b.key, 'shared'),
      payload: { x: 2 },
    });
    assert.equal(other.statusCode, 201);
    assert.equal(other.headers['idempotent-replayed'], undefined);
    assert.equal(runs(), 2);
  });

  test('a malformed key is a 400 naming the header', async (t) => {
    const { app, db } = await appWithProbes(t);
    const { key } = await createKey(db);
    for (const bad of ['', 'x'.repeat(256), 'with space']) {
      const response = await app.inject({ method: 'POST', url: '/test/count', headers: json(key, bad), payload: {} });
      assert.equal(response.statusCode, 400, JSON.stringify(bad));
      assert.equal(response.json().param, 'Idempotency-Key');
    }
  });
});
