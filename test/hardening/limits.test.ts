/**
 * Oversized and slow requests over real TCP: cut off with the right status (an ApiError) and in
 * bounded time, while other clients keep being served.
 */
import assert from 'node:assert/strict';
import type { Socket } from 'node:net';
import { Writable } from 'node:stream';
import { describe, type TestContext, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildTestApp, createKey } from '../helpers/app.js';
import { rawConnection } from '../helpers/raw-http.js';

const HEADERS_TIMEOUT_MS = 1_000;
const REQUEST_TIMEOUT_MS = 2_000;

async function listening(t: TestContext, config: Record<string, string> = {}) {
  const { app, db } = await buildTestApp(t, undefined, {
    HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
    REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
    ...config,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  // Writes are refused before their body is read unless a developer key comes with them.
  const { key } = await createKey(db);
  return { app, port, key, base: `http://127.0.0.1:${port}` };
}

/** Writes `text` one byte at a time, `gapMs` apart, until the socket closes. */
async function trickle(socket: Socket, text: string, gapMs: number): Promise<void> {
  for (const byte of text) {
    if (socket.destroyed || !socket.writable) return;
    socket.write(byte);
    await sleep(gapMs);
  }
}

function apiErrorOf(raw: string): { status: number; body: Record<string, unknown> } {
  const [head = '', body = ''] = raw.split('\r\n\r\n');
  const status = Number(head.split(' ')[1]);
  assert.match(head, /content-type: application\/json/i, raw.slice(0, 300));
  return { status, body: JSON.parse(body) as Record<string, unknown> };
}

describe('oversized requests', () => {
  test('a URL over 16 KiB: 431 ApiError', async (t) => {
    const { base } = await listening(t);
    const response = await fetch(`${base}/v1/jobs?category=${'G'.repeat(17_000)}`);
    assert.equal(response.status, 431);
    const body = (await response.json()) as { error: string; suggestion: string };
    assert.equal(body.error, 'headers_too_large');
    assert.match(body.suggestion, /Shorten the URL/);
  });

  test('headers over 16 KiB: 431 ApiError', async (t) => {
    const { base } = await listening(t);
    const response = await fetch(`${base}/v1/categories`, { headers: { 'x-filler': 'x'.repeat(17_000) } });
    assert.equal(response.status, 431);
    assert.equal(((await response.json()) as { error: string }).error, 'headers_too_large');
  });

  test('a long query string under the header cap: 400 naming the parameter', async (t) => {
    const { base } = await listening(t);
    const response = await fetch(`${base}/v1/jobs?category=${'G'.repeat(12_000)}`);
    assert.equal(response.status, 400);
    const body = (await response.json()) as { param: string };
    assert.equal(body.param, 'category');
  });

  test('a JSON body over 64 KiB: 413 ApiError, before the handler', async (t) => {
    const { base, key } = await listening(t);
    const huge = JSON.stringify({ title: 'x'.repeat(70_000) });
    const response = await fetch(`${base}/v1/jobs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      body: huge,
    });
    assert.equal(response.status, 413);
    assert.equal(((await response.json()) as { error: string }).error, 'payload_too_large');
  });

  test('a Content-Length over the limit is refused without reading the body', async (t) => {
    const { port, key } = await listening(t);
    const exchange = await rawConnection(port, (socket) => {
      socket.write(
        `POST /v1/jobs HTTP/1.1\r\nHost: x\r\nX-API-Key: ${key}\r\nContent-Type: application/json\r\nContent-Length: 10000000\r\n\r\n{"a":`,
      );
    });
    const { status, body } = apiErrorOf(exchange.received);
    assert.equal(status, 413);
    assert.equal(body.error, 'payload_too_large');
  });

  test('bytes that are no HTTP: 400 ApiError and the connection closed', async (t) => {
    const { port } = await listening(t);
    const exchange = await rawConnection(port, (socket) => {
      socket.write('\u0000\u0001 hello\r\n\r\n');
    });
    const { status, body } = apiErrorOf(exchange.received);
    assert.equal(status, 400);
    assert.equal(body.error, 'malformed_request');
  });
});

describe('requests cut off before they formed', () => {
  test('each writes one log line with its status and the reason', async (t) => {
    const lines: string[] = [];
    const logStream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        done();
      },
    });
    const { app } = await buildTestApp(
      t,
      undefined,
      { LOG_LEVEL: 'info', HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS) },
      { logStream },
    );
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    await fetch(`http://127.0.0.1:${port}/v1/categories`, { headers: { 'x-filler': 'x'.repeat(17_000) } });
    await rawConnection(port, (socket) => void socket.write('GET / HTTP/1.1\r\nHost: x\r\n'));
    const cut = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.msg === 'request');
    assert.deepEqual(
      cut.map((l) => [l.status, l.error, l.ip]),
      [
        [431, 'headers_too_large', '127.0.0.1'],
        [408, 'request_timeout', '127.0.0.1'],
      ],
    );
  });
});

describe('slow clients', () => {
  test('headers trickled byte by byte: 408 ApiError once HEADERS_TIMEOUT_MS has passed', async (t) => {
    const { port } = await listening(t);
    const exchange = await rawConnection(port, (socket) =>
      trickle(socket, `GET /v1/categories HTTP/1.1\r\nHost: x\r\nX-Slow: ${'y'.repeat(200)}\r\n\r\n`, 50),
    );
    const { status, body } = apiErrorOf(exchange.received);
    assert.equal(status, 408);
    assert.equal(body.error, 'request_timeout');
    // Cut within the timeout plus the 1 s check interval (and slack for a loaded machine), long
    // before the 200+ bytes at 50 ms each would have arrived (> 10 s).
    assert.ok(exchange.closedAfterMs < 8_000, `closed after ${exchange.closedAfterMs} ms`);
  });

  test('a body trickled byte by byte: 408 once REQUEST_TIMEOUT_MS has passed', async (t) => {
    const { port, key } = await listening(t);
    const body = JSON.stringify({ title: 'x'.repeat(300) });
    const exchange = await rawConnection(port, async (socket) => {
      socket.write(
        `POST /v1/jobs HTTP/1.1\r\nHost: x\r\nX-API-Key: ${key}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
      );
      await trickle(socket, body, 50);
    });
    assert.match(exchange.received, /^HTTP\/1\.1 408 /);
    assert.ok(exchange.closedAfterMs < 10_000, `closed after ${exchange.closedAfterMs} ms`);
  });

  test('200 slow connections at once do not keep others from being served, and are all cut', async (t) => {
    const { port, base } = await listening(t);
    const slow = Array.from({ length: 200 }, () =>
      rawConnection(port, (socket) =>
        trickle(socket, `GET /v1/categories HTTP/1.1\r\nHost: x\r\n${'X-A: b\r\n'.repeat(40)}`, 100),
      ),
    );
    await sleep(200);
    // While they hang on, ordinary requests are answered.
    for (let i = 0; i < 10; i++) {
      const response = await fetch(`${base}/v1/categories`);
      assert.equal(response.status, 200);
      await response.arrayBuffer();
    }
    const exchanges = await Promise.all(slow);
    const statuses = exchanges.map((e) => e.received.slice(0, 12));
    assert.deepEqual(new Set(statuses), new Set(['HTTP/1.1 408']));
  });

  test('MAX_CONNECTIONS bounds open connections; the server serves again once they go', async (t) => {
    const { port, base } = await listening(t, { MAX_CONNECTIONS: '20' });
    const idle = Array.from({ length: 20 }, () =>
      rawConnection(port, (socket) => void socket.write('GET / HTTP/1.1\r\n')),
    );
    await sleep(200);
    const refused = await rawConnection(
      port,
      (socket) => void socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n'),
    );
    assert.equal(refused.received, '', 'a connection over the bound is closed unanswered');
    await Promise.all(idle); // cut by the headers timeout
    const response = await fetch(`${base}/healthz`);
    assert.equal(response.status, 200);
  });
});
