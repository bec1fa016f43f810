/**
 * A key sent where no key belongs (in the path, under a query name the redaction list does not
 * know, percent-encoded, without its prefix, truncated) reaches neither the log nor an error body:
 * it is known by its own form, the kmp_ prefix or the checksum.
 */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, test } from 'node:test';
import { redactApiKeys } from '../../src/domain/api-keys.js';
import { buildTestApp, createKey, NOW } from '../helpers/app.js';

describe('keys in URLs', () => {
  test('never reach the request log or an error body, wherever in the URL they were put', async (t) => {
    const lines: string[] = [];
    const logStream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        done();
      },
    });
    const { app, db } = await buildTestApp(t, NOW, { LOG_LEVEL: 'trace' }, { logStream });
    const { key } = await createKey(db);
    const bare = key.slice(4);
    const sent = [
      { url: `/v1/jobs/${key}`, status: 404 },
      { url: `/v1/${key}`, status: 404 },
      { url: `/v1/jobs?k=${key}`, status: 400 },
      { url: `/v1/jobs?${key}=1`, status: 400 },
      { url: `/v1/jobs?category=kmp%5F${bare}`, status: 400 },
      { url: `/v1/jobs/${bare}`, status: 404 },
      { url: `/v1/jobs?note=${key.slice(0, 30)}`, status: 400 },
    ];
    const bodies: string[] = [];
    for (const { url, status } of sent) {
      const response = await app.inject({ url });
      assert.equal(response.statusCode, status, `${url}: ${response.body}`);
      bodies.push(response.body);
    }
    const log = lines.join('\n');
    const logged = lines.map((line) => JSON.parse(line)).filter((line) => line.msg === 'request');
    assert.equal(logged.length, sent.length);
    for (const secret of [key, bare, key.slice(4, 30), bare.slice(0, 26)]) {
      assert.ok(!log.includes(secret), `'${secret.slice(0, 8)}...' reached the log`);
      for (const body of bodies) assert.ok(!body.includes(secret), `'${secret.slice(0, 8)}...' echoed: ${body}`);
    }
    assert.deepEqual(
      logged.map((line) => line.url),
      [
        '/v1/jobs/[redacted]',
        '/v1/[redacted]',
        '/v1/jobs?k=[redacted]',
        '/v1/jobs?[redacted]=1',
        '/v1/jobs?category=[redacted]',
        '/v1/jobs/[redacted]',
        '/v1/jobs?note=[redacted]',
      ],
    );
    const notFound = JSON.parse(bodies[1] ?? '{}');
    assert.deepEqual(
      { error: notFound.error, message: notFound.message },
      { error: 'route_not_found', message: 'There is no endpoint at GET /v1/[redacted].' },
    );
  });

  test('ids and ordinary text are left as they are', async (t) => {
    const { app } = await buildTestApp(t);
    const plain = '/v1/jobs?q=kmp&category=GARDENING&cursor=eyJpZCI6ImpvYl8wMTIzNDU2Nzg5YWJjZGVmIn0';
    assert.equal(redactApiKeys(plain), plain);
    assert.equal(
      redactApiKeys('it starts with kmp_ and has 53 characters'),
      'it starts with kmp_ and has 53 characters',
    );
    const response = await app.inject({ url: '/v1/jobs/job_0123456789abcdef' });
    assert.equal(response.json().error, 'not_found');
  });
});
