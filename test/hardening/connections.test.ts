/**
 * Connections over real TCP to a real server process: one client address cannot hold the
 * connections every client shares (MAX_CONNECTIONS_PER_ADDRESS), a connection that sends
 * nothing is closed (CONNECTION_FIRST_BYTE_TIMEOUT_MS), and a kept-alive connection is kept as long
 * as its `Keep-Alive: timeout` says. Other addresses on the loopback network
 * (127.0.0.2) stand for other clients.
 */
import assert from 'node:assert/strict';
import { Agent, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { describe, type TestContext, test } from 'node:test';
import { type ServerProcess, spawnServer, until } from '../helpers/server-process.js';

interface HeldSocket {
  socket: Socket;
  /** Everything the server sent so far. */
  received: () => string;
  closed: () => boolean;
}

/** A TCP connection from `localAddress`, resolved once connected (the kernel accepts before the server sees it). */
function openSocket(port: number, localAddress = '127.0.0.1'): Promise<HeldSocket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress });
    let received = '';
    let closed = false;
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    socket.on('error', () => {}); // a reset is a close too
    socket.on('close', () => {
      closed = true;
    });
    socket.once('connect', () => resolve({ socket, received: () => received, closed: () => closed }));
    socket.once('error', reject);
  });
}

/** GET /healthz on a fresh connection from `localAddress`: the status and body, or the error when refused. */
function healthFrom(port: number, localAddress: string): Promise<{ status: number; body: unknown } | Error> {
  return new Promise((resolve) => {
    const req = request({ port, host: '127.0.0.1', localAddress, path: '/healthz', agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(body) }));
    });
    req.on('error', resolve);
    req.end();
  });
}

/**
 * A server process, healthy: asked from 127.0.0.2 on connections that close after the answer, so
 * no kept-alive connection from 127.0.0.1 (as fetch would leave) counts against that address.
 */
async function started(t: TestContext, config: Record<string, string>): Promise<ServerProcess> {
  const server = await spawnServer(t, { DATABASE_URL: 'sqlite::memory:', ...config });
  await until(
    'the server is healthy',
    async () => {
      const answer = await healthFrom(server.port, '127.0.0.2');
      return !(answer instanceof Error) && answer.status === 200;
    },
    60_000,
  );
  return server;
}

describe('connections per client address', () => {
  test('one address holding idle sockets cannot take every connection: another address is still served', {
    timeout: 60_000,
  }, async (t) => {
    const server = await started(t, {
      MAX_CONNECTIONS: '60',
      MAX_CONNECTIONS_PER_ADDRESS: '50',
      // Idle sockets stay until the test closes them: only the limits under test close connections.
      CONNECTION_FIRST_BYTE_TIMEOUT_MS: '120000',
      HEADERS_TIMEOUT_MS: '120000',
      REQUEST_TIMEOUT_MS: '120000',
    });
    t.after(() => {
      for (const held of idle) held.socket.destroy();
    });
    const idle: HeldSocket[] = [];
    for (let i = 0; i < 80; i++) idle.push(await openSocket(server.port));

    // The 30 over the address's share are closed at once, unanswered; 50 stay (the global cap is 60).
    await until('the 30 connections over the share are closed', () => idle.filter((s) => s.closed()).length === 30);
    assert.equal(idle.filter((s) => !s.closed()).length, 50);
    assert.deepEqual(new Set(idle.filter((s) => s.closed()).map((s) => s.received())), new Set(['']));

    // Another client is served while they are held; the same address is refused.
    assert.deepEqual(await healthFrom(server.port, '127.0.0.2'), { status: 200, body: { status: 'ok' } });
    assert.ok((await healthFrom(server.port, '127.0.0.1')) instanceof Error, '127.0.0.1 is over its share');

    // Once its sockets go, the address is served again.
    for (const held of idle) held.socket.destroy();
    const served = await until('127.0.0.1 is served again', async () => {
      const answer = await healthFrom(server.port, '127.0.0.1');
      return answer instanceof Error ? false : answer;
    });
    assert.deepEqual(served, { status: 200, body: { status: 'ok' } });
  });

  test('a connection that sends nothing is closed unanswered after CONNECTION_FIRST_BYTE_TIMEOUT_MS; one that began is served', {
    timeout: 60_000,
  }, async (t) => {
    const server = await started(t, {
      CONNECTION_FIRST_BYTE_TIMEOUT_MS: '1000',
      // Far longer than the test may take: a close can only come from the first-byte timeout.
      HEADERS_TIMEOUT_MS: '120000',
      REQUEST_TIMEOUT_MS: '120000',
    });
    const silent = await openSocket(server.port);
    const begun = await openSocket(server.port);
    t.after(() => {
      silent.socket.destroy();
      begun.socket.destroy();
    });
    begun.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n');

    await until('the silent connection is closed', () => silent.closed(), 20_000);
    assert.equal(silent.received(), '', 'closed without an answer: there was no request to answer');

    // The connection that had begun its request outlived the timeout and finishes it.
    assert.equal(begun.closed(), false);
    begun.socket.write('\r\n');
    const answer = await until(
      'the begun request is answered',
      () => /\r\n\r\n.+/s.test(begun.received()) && begun.received(),
    );
    assert.match(answer, /^HTTP\/1\.1 200 /);
    assert.deepEqual(JSON.parse(answer.split('\r\n\r\n')[1] ?? ''), { status: 'ok' });
  });
});

/** One request on the agent's connection: status, the Keep-Alive header and the local port it went from. */
function onAgent(
  agent: Agent,
  port: number,
  method: string,
  path: string,
  body?: string,
): Promise<{ status: number; keepAlive: string | undefined; localPort: number | undefined }> {
  return new Promise((resolve, reject) => {
    const headers = body === undefined ? {} : { 'content-type': 'application/json' };
    const req = request({ port, host: '127.0.0.1', method, path, agent, headers }, (res) => {
      res.resume();
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          keepAlive: res.headers['keep-alive']?.toString(),
          localPort: req.socket?.localPort,
        }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('kept-alive connections', () => {
  test('a connection idle for 11 s between two requests is still open: the POST on it is answered, no socket error', {
    timeout: 60_000,
  }, async (t) => {
    // The defaults: 10 s for a request's headers and for a connection's first byte, 30 s for a
    // request, 72 s advertised and kept between requests. None of the shorter ones may close a
    // connection that is idle between requests.
    const server = await started(t, {});
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    t.after(() => agent.destroy());
    const first = await onAgent(agent, server.port, 'GET', '/v1/me');
    assert.equal(first.status, 200);
    assert.equal(first.keepAlive, 'timeout=72');
    await new Promise((resolve) => setTimeout(resolve, 11_000));
    const body = JSON.stringify({
      name: 'Ada Lovelace',
      email: 'ada@example.org',
      account_type: 'private',
      intended_use: 'A dashboard of open gardening jobs in Durlach.',
    });
    const second = await onAgent(agent, server.port, 'POST', '/v1/developer/key-requests', body);
    assert.equal(second.status, 202);
    assert.equal(second.localPort, first.localPort, 'the same connection, kept through the pause');
  });
});
