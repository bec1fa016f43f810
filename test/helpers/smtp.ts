import { once } from 'node:events';
import { SMTPServer } from 'smtp-server';

/** A message as the SMTP server received it, with its headers and decoded plain-text body. */
export interface ReceivedMail {
  envelope: { from: string; to: string[] };
  raw: string;
  /** Header names in lower case; folded values unfolded and encoded words decoded. */
  headers: Record<string, string>;
  /** The plain-text body (of a multipart/alternative message, its text/plain part). */
  text: string;
  /** The text/html part of a multipart/alternative message, if it has one. */
  html?: string;
}

export interface TestSmtpServer {
  url: string;
  received: ReceivedMail[];
  /** The next message to arrive (or the first not yet taken). */
  next(ms?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

/** Quoted-printable to bytes: soft line breaks dropped, =XX decoded (RFC 2045 6.7). */
function decodeQuotedPrintable(body: string): Buffer {
  const bytes: number[] = [];
  const text = body.replace(/=\r?\n/g, '');
  for (let i = 0; i < text.length; i++) {
    const hex = text.slice(i + 1, i + 3);
    if (text[i] === '=' && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(text.charCodeAt(i));
    }
  }
  return Buffer.from(bytes);
}

/** RFC 2047 encoded words (=?utf-8?Q?...?= and =?utf-8?B?...?=) in a header value. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([QB])\?([^?]*)\?=/gi, (_, _charset: string, encoding: string, data: string) =>
      encoding.toUpperCase() === 'B'
        ? Buffer.from(data, 'base64').toString('utf8')
        : decodeQuotedPrintable(data.replace(/_/g, ' ')).toString('utf8'),
    );
}

/** Splits a raw RFC 5322 message into headers and a decoded body; a multipart/alternative one into its text and HTML. */
export function parseMail(raw: string): Pick<ReceivedMail, 'headers' | 'text' | 'html'> {
  const part = parsePart(raw);
  const boundary = /boundary="?([^";]+)"?/i.exec(part.headers['content-type'] ?? '')?.[1];
  if (!boundary || !/^multipart\//i.test(part.headers['content-type'] ?? '')) return part;
  const body = raw.slice(raw.indexOf('\r\n\r\n') + 4);
  const parts = body
    .split(`--${boundary}`)
    .slice(1)
    .filter((chunk) => !chunk.startsWith('--'))
    .map((chunk) => parsePart(chunk.replace(/^\r\n/, '')));
  const typed = (type: string) => parts.find((p) => (p.headers['content-type'] ?? '').startsWith(type))?.text;
  const html = typed('text/html');
  return { headers: part.headers, text: typed('text/plain') ?? '', ...(html !== undefined && { html }) };
}

function parsePart(raw: string): Pick<ReceivedMail, 'headers' | 'text'> {
  const split = raw.indexOf('\r\n\r\n');
  const head = split === -1 ? raw : raw.slice(0, split);
  const body = split === -1 ? '' : raw.slice(split + 4);
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = decodeWords(line.slice(colon + 1).trim());
  }
  const encoding = (headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  const bytes =
    encoding === 'quoted-printable'
      ? decodeQuotedPrintable(body)
      : encoding === 'base64'
        ? Buffer.from(body, 'base64')
        : Buffer.from(body, 'binary');
  return { headers, text: bytes.toString('utf8').replace(/\r\n/g, '\n') };
}

/** A real SMTP server on 127.0.0.1 (any port), without TLS or authentication, keeping what it receives. */
export async function startSmtpServer(): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const waiting: (() => void)[] = [];
  let taken = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('binary');
        const envelope = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
        };
        received.push({ envelope, raw, ...parseMail(raw) });
        for (const wake of waiting.splice(0)) wake();
        callback();
      });
    },
  });
  server.listen(0, '127.0.0.1');
  await once(server.server, 'listening');
  const address = server.server.address();
  if (address === null || typeof address !== 'object') throw new Error('the SMTP server has no port');

  async function next(ms = 10_000): Promise<ReceivedMail> {
    const deadline = Date.now() + ms;
    while (received.length <= taken) {
      if (Date.now() > deadline) throw new Error(`no email arrived within ${ms} ms`);
      await new Promise<void>((resolve) => {
        waiting.push(resolve);
        setTimeout(resolve, 100).unref();
      });
    }
    return received[taken++] as ReceivedMail;
  }

  return {
    url: `smtp://127.0.0.1:${address.port}`,
    received,
    next,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
