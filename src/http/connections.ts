import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { clientKey } from './budget.js';

export interface ConnectionLimits {
  /** Open connections one client address (an IPv6 /64, like the budgets) may hold at once. */
  perAddress: number;
  /** How long a connection may stay open without sending its first byte. */
  firstByteTimeoutMs: number;
}

/**
 * Keeps one client from holding the connections every client shares (server.maxConnections): a
 * connection over its address's share is closed at once, unanswered, as the global cap does (an
 * answer would spend bytes on the client that is flooding, and there is no request yet to answer),
 * and a connection that has sent nothing within `firstByteTimeoutMs` is closed without an answer
 * (HEADERS_TIMEOUT_MS would otherwise hold it until its 408).
 *
 * The address is the TCP peer's, never X-Forwarded-For: that header arrives only after the
 * connection is accepted, and a client writes it. Behind a reverse proxy every connection comes
 * from the proxy, so the share must then be at least the proxy's connections to this instance.
 */
export function limitConnections(server: Server, limits: ConnectionLimits): void {
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    // Reset by the client before it was seen: nothing to count.
    if (address === undefined) return void socket.destroy();
    const key = clientKey(address);
    const count = (open.get(key) ?? 0) + 1;
    if (count > limits.perAddress) return void socket.destroy();
    open.set(key, count);
    // bytesRead counts what the HTTP parser consumed too (it reads the socket without 'data' events).
    const timer = setTimeout(() => {
      if (socket.bytesRead === 0) socket.destroy();
    }, limits.firstByteTimeoutMs);
    timer.unref();
    socket.once('close', () => {
      clearTimeout(timer);
      const left = (open.get(key) ?? 1) - 1;
      if (left > 0) open.set(key, left);
      else open.delete(key);
    });
  });
}
