import type { ServerResponse } from 'node:http';
import { PassThrough } from 'node:stream';
import type { EventType } from '../domain/events.js';
import { type EventFilter, eventIdOf, eventJson } from '../domain/events.js';
import type { StreamEvent, Subscriber } from '../events/stream.js';
import { RETRY_MS } from '../schemas/events.js';

/** Bytes a stream may have waiting for a slow client; beyond them the connection is dropped. */
export const MAX_BUFFERED_BYTES = 1024 * 1024;

/** One Server-Sent Events message of an event: its id, its type as the event name, its JSON as data. */
export function sseMessage(event: StreamEvent): string {
  return `id: ${eventIdOf(event.id)}\nevent: ${event.type}\ndata: ${eventJson(event)}\n\n`;
}

/**
 * One open Server-Sent Events stream (GET /v1/events/stream): its filter, the body Fastify pipes
 * to the client, heart-beats and its time limit.
 */
export class EventStream implements Subscriber {
  readonly body = new PassThrough();
  /** Set when the client was too slow and its connection was dropped. */
  dropped = false;
  private readonly timers: NodeJS.Timeout[] = [];

  constructor(
    readonly filter: EventFilter,
    readonly types: ReadonlySet<EventType>,
    private readonly raw: ServerResponse,
    /** The account of a private stream (GET /v1/me/events/stream); none for the public one. */
    readonly account?: string,
  ) {}

  get closed(): boolean {
    return this.body.destroyed || this.body.writableEnded;
  }

  /** Starts the heart-beats and the time limit; `onClose` runs once the stream has closed, however. */
  start(heartbeatMs: number, maxSeconds: number, onClose: () => void): void {
    this.body.write(`retry: ${RETRY_MS}\n\n`);
    this.timers.push(setInterval(() => this.write(`: heartbeat ${new Date().toISOString()}\n\n`), heartbeatMs));
    this.timers.push(
      setTimeout(
        () => this.end(`stream ends after ${maxSeconds} s; reconnect with Last-Event-ID to go on`),
        maxSeconds * 1000,
      ),
    );
    this.body.once('close', () => {
      for (const timer of this.timers) clearTimeout(timer);
      onClose();
    });
  }

  send(event: StreamEvent): boolean {
    return this.write(sseMessage(event));
  }

  drained(): Promise<void> {
    if (this.closed || !this.body.writableNeedDrain) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        this.body.off('drain', done);
        this.body.off('close', done);
        resolve();
      };
      this.body.once('drain', done);
      this.body.once('close', done);
    });
  }

  /** Ends the stream with a last comment line saying why; the response finishes and its connection closes. */
  end(reason: string): void {
    if (!this.closed) this.body.end(`: ${reason}\n\n`);
  }

  private write(text: string): boolean {
    if (this.closed) return true;
    const room = this.body.write(text);
    // What waits for the client: in this stream and in the response (the socket) behind it.
    const waiting = this.body.writableLength + this.body.readableLength + this.raw.writableLength;
    if (waiting > MAX_BUFFERED_BYTES) {
      // Too slow to keep up: dropped rather than buffered without bound. It may resume with Last-Event-ID.
      this.dropped = true;
      this.raw.destroy();
      this.body.destroy();
      return true;
    }
    return room;
  }
}
