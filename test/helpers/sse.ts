/** A small Server-Sent Events client over node:http (no EventSource, no mocks), for the stream tests. */
import assert from 'node:assert/strict';
import { get, type IncomingHttpHeaders } from 'node:http';

export interface SseMessage {
  id: string | null;
  event: string;
  data: string;
}

export interface SseClient {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body of a response that is not a stream (an ApiError). */
  json: () => any;
  messages: SseMessage[];
  comments: string[];
  retry: number | null;
  /** Resolves when the server ends the response (or the connection closes). */
  ended: Promise<void>;
  /** Waits until `count` messages matching `match` have arrived; returns them. */
  waitFor(match: (m: SseMessage) => boolean, count?: number, ms?: number): Promise<SseMessage[]>;
  waitForComment(match: (c: string) => boolean, ms?: number): Promise<string>;
  close(): void;
}

/** Opens a stream (or gets the error answer); parses the SSE format as it arrives. */
export function openStream(baseUrl: string, path: string, headers: Record<string, string> = {}): Promise<SseClient> {
  return new Promise((resolve, reject) => {
    const request = get(`${baseUrl}${path}`, { headers: { accept: 'text/event-stream', ...headers } }, (response) => {
      let buffer = '';
      let raw = '';
      let waiters: (() => void)[] = [];
      const notify = () => {
        const current = waiters;
        waiters = [];
        for (const waiter of current) waiter();
      };
      let endedFlag = false;
      const client: SseClient = {
        status: response.statusCode ?? 0,
        headers: response.headers,
        json: () => JSON.parse(raw),
        messages: [],
        comments: [],
        retry: null,
        ended: new Promise((done) => {
          const finish = () => {
            endedFlag = true;
            notify();
            done();
          };
          response.once('end', finish);
          response.once('close', finish);
        }),
        async waitFor(match, count = 1, ms = 20_000) {
          const deadline = Date.now() + ms;
          for (;;) {
            const found = client.messages.filter(match);
            if (found.length >= count) return found;
            if (endedFlag) assert.fail(`the stream ended with ${found.length} of ${count} awaited messages`);
            if (Date.now() > deadline) {
              assert.fail(`${found.length} of ${count} awaited messages within ${ms} ms; got ${seen(client)}`);
            }
            await new Promise<void>((wake) => {
              waiters.push(wake);
              setTimeout(wake, 50);
            });
          }
        },
        async waitForComment(match, ms = 20_000) {
          const deadline = Date.now() + ms;
          for (;;) {
            const found = client.comments.find(match);
            if (found !== undefined) return found;
            if (endedFlag || Date.now() > deadline) assert.fail(`no such comment; got ${client.comments.join(' | ')}`);
            await new Promise<void>((wake) => {
              waiters.push(wake);
              setTimeout(wake, 50);
            });
          }
        },
        close: () => request.destroy(),
      };
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        raw += chunk;
        buffer += chunk;
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const message: SseMessage = { id: null, event: 'message', data: '' };
          const data: string[] = [];
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) {
              client.comments.push(line.slice(1).trim());
              continue;
            }
            const colon = line.indexOf(':');
            const field = colon < 0 ? line : line.slice(0, colon);
            const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
            if (field === 'id') message.id = value;
            else if (field === 'event') message.event = value;
            else if (field === 'data') data.push(value);
            else if (field === 'retry') client.retry = Number(value);
          }
          if (data.length > 0) client.messages.push({ ...message, data: data.join('\n') });
        }
        notify();
      });
      resolve(client);
    });
    request.once('error', reject);
  });
}

/** The messages of a stream, for failure messages. */
export function seen(client: SseClient): string {
  return JSON.stringify(client.messages.map((m) => `${m.id} ${m.event}`));
}
