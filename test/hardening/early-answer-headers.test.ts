/**
 * Answers given before any hook runs carry the same security headers as every other answer and an
 * X-Request-Id: 408, 431 and malformed-request 400 (written straight to the socket by the
 * clientError handler) and the router's 400 for malformed %-encoding.
 * Over real TCP, since a client library would hide or refuse to send these requests.
 */
import assert from 'node:assert/strict';
import { type TestContext, test } from 'node:test';
import { buildTestApp } from '../helpers/app.js';
import { parseRawAnswer, rawConnection } from '../helpers/raw-http.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The security headers every answer carries with CORS_ORIGINS=* and an https PUBLIC_URL. */
const SECURITY = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'cross-origin',
  'strict-transport-security': 'max-age=31536000',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
};

async function listening(t: TestContext) {
  const { app } = await buildTestApp(t, undefined, {
    HEADERS_TIMEOUT_MS: '1000',
    REQUEST_TIMEOUT_MS: '2000',
    PUBLIC_URL: 'https://api.example.org',
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return (app.server.address() as { port: number }).port;
}

/** The security headers of an answer and its request id, checked to be a UUID. */
function securityOf(headers: Record<string, string>) {
  assert.match(headers['x-request-id'] ?? '', UUID, JSON.stringify(headers));
  return Object.fromEntries(Object.keys(SECURITY).map((name) => [name, headers[name]]));
}

test('an ordinary answer carries exactly these headers (the reference for the rest)', async (t) => {
  const port = await listening(t);
  const exchange = await rawConnection(port, (socket) => {
    socket.write('GET /v1/categories HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
  });
  const answer = parseRawAnswer(exchange.received);
  assert.equal(answer.status, 200);
  assert.deepEqual(securityOf(answer.headers), SECURITY);
});

test('408, 431 and malformed-request 400 carry the security headers and an X-Request-Id', async (t) => {
  const port = await listening(t);
  const cases = [
    [431, 'headers_too_large', `GET /v1/categories HTTP/1.1\r\nHost: x\r\nX-Filler: ${'x'.repeat(17_000)}\r\n\r\n`],
    [408, 'request_timeout', 'GET /v1/categories HTTP/1.1\r\nHost: x\r\n'],
    [400, 'malformed_request', '\u0000\u0001 hello\r\n\r\n'],
  ] as const;
  const ids = new Set<string>();
  for (const [status, error, request] of cases) {
    const exchange = await rawConnection(port, (socket) => void socket.write(request));
    const answer = parseRawAnswer(exchange.received);
    assert.equal(answer.status, status, exchange.received.slice(0, 200));
    assert.deepEqual(securityOf(answer.headers), SECURITY, error);
    assert.equal(answer.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(answer.headers.connection, 'close');
    const body = JSON.parse(answer.body) as Record<string, unknown>;
    assert.deepEqual(body, { ...body, error, param: null, alternatives: [], alternatives_count: 0 });
    assert.deepEqual(Object.keys(body), [
      'error',
      'message',
      'param',
      'suggestion',
      'alternatives',
      'alternatives_count',
    ]);
    ids.add(answer.headers['x-request-id'] ?? '');
  }
  assert.equal(ids.size, cases.length, 'each answer has its own request id');
});

test("the router's 400 for a path that is not UTF-8 carries them too, with the caller's request id", async (t) => {
  const port = await listening(t);
  const exchange = await rawConnection(port, (socket) => {
    socket.write('GET /v1/jobs/%E0%A4%A HTTP/1.1\r\nHost: x\r\nX-Request-Id: trace-42\r\nConnection: close\r\n\r\n');
  });
  const answer = parseRawAnswer(exchange.received);
  assert.equal(answer.status, 400, exchange.received.slice(0, 300));
  assert.equal(answer.headers['x-request-id'], 'trace-42');
  const { 'x-request-id': _given, ...rest } = answer.headers;
  assert.deepEqual(securityOf({ ...rest, 'x-request-id': '00000000-0000-4000-8000-000000000000' }), SECURITY);
  assert.deepEqual(JSON.parse(answer.body), {
    error: 'invalid_parameter',
    message: 'The path is not valid percent-encoded UTF-8.',
    param: null,
    suggestion: 'Percent-encode reserved and non-ASCII characters of path parameters as UTF-8 (e.g. %2F for /).',
    alternatives: [],
    alternatives_count: 0,
  });
});
