/** Raw HTTP over TCP, for answers a client library would hide or could not provoke. */
import { connect, type Socket } from 'node:net';

export interface RawExchange {
  /** Everything the server sent before it closed the connection. */
  received: string;
  /** Milliseconds from connecting to the close. */
  closedAfterMs: number;
}

/** A raw connection: `drive` writes to it as it likes; resolves when the server closes it. */
export function rawConnection(port: number, drive: (socket: Socket) => Promise<void> | void): Promise<RawExchange> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => {
      received += chunk;
    });
    socket.on('error', () => {}); // a reset after the answer is a close too
    socket.on('close', () => resolve({ received, closedAfterMs: performance.now() - started }));
    socket.on('connect', () => {
      Promise.resolve(drive(socket)).catch(reject);
    });
  });
}

/** A raw answer's status line, headers (names in lower case) and body. */
export function parseRawAnswer(raw: string): { status: number; headers: Record<string, string>; body: string } {
  const [head = '', body = ''] = raw.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}
