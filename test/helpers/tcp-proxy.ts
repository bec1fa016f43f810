/**
 * A TCP proxy in the test process between a server process and a real dependency (PostgreSQL,
 * Redis), so a test can make the dependency vanish for that server alone, while other tests keep
 * using it:
 * - `cut()` resets every connection and stops listening (new connections are refused), as when
 *   the dependency stops or restarts; `restore()` listens on the same port again;
 * - `freeze()` keeps connections open but forwards nothing, either way, and lets new connections
 *   wait (a network partition: the worst case, nothing ever fails by itself); `thaw()` delivers
 *   what was held and goes on.
 */
import { once } from 'node:events';
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { TestContext } from 'node:test';

export interface TcpProxy {
  port: number;
  cut(): Promise<void>;
  restore(): Promise<void>;
  freeze(): void;
  thaw(): void;
  close(): Promise<void>;
}

/** One direction of a connection: forwards, or holds while frozen. */
function forward(from: Socket, to: Socket, frozen: () => boolean, held: (() => void)[]): void {
  from.on('data', (chunk: Buffer) => {
    if (frozen()) held.push(() => to.write(chunk));
    else to.write(chunk);
  });
}

export async function tcpProxy(
  t: Pick<TestContext, 'after'>,
  target: { host: string; port: number },
): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let frozen = false;
  let held: (() => void)[] = [];
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const join = (client: Socket) => {
    const upstream = connect(target.port, target.host);
    track(upstream);
    forward(client, upstream, () => frozen, held);
    forward(upstream, client, () => frozen, held);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  };
  const make = (): Server =>
    createServer((client) => {
      track(client);
      if (frozen) held.push(() => join(client));
      else join(client);
    });
  let server: Server | null = make();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };

  const stop = async () => {
    const current = server;
    server = null;
    held = [];
    frozen = false;
    for (const socket of sockets) socket.resetAndDestroy();
    if (current) await new Promise<void>((resolve) => current.close(() => resolve()));
  };
  const proxy: TcpProxy = {
    port,
    cut: stop,
    async restore() {
      if (server) return;
      server = make();
      server.listen(port, '127.0.0.1');
      await once(server, 'listening');
    },
    freeze() {
      frozen = true;
    },
    thaw() {
      frozen = false;
      const waiting = held;
      held = [];
      for (const deliver of waiting) deliver();
    },
    close: stop,
  };
  t.after(() => proxy.close());
  return proxy;
}
