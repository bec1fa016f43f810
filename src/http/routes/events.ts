import type { ServerResponse } from 'node:http';
import { PassThrough } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { type Static, Type } from 'typebox';
import type { Config } from '../../config.js';
import type { EventType } from '../../db/schema.js';
import type { EventFilter } from '../../domain/events.js';
import { PUBLIC_EVENT_TYPES } from '../../domain/events.js';
import { EventHub, type StreamEvent, StreamSlots, type Subscriber, sseMessage } from '../../events/stream.js';
import { JobSearchQuery } from '../../schemas/job.js';
import { ApiError, badRequest } from '../../services/errors.js';
import { clientKey } from '../budget.js';
import { urlForLog } from '../plugins/observability.js';
import { type Api, errorResponses, ok, type RouteDeps } from './route-kit.js';

/** What a client waits before it reconnects after the stream ends (the SSE retry field). */
export const RETRY_MS = 5_000;

/** Bytes a stream may have waiting for a slow client; beyond them the connection is dropped. */
export const MAX_BUFFERED_BYTES = 1024 * 1024;

/** The search filters, exactly as GET /v1/jobs defines and validates them. */
const { category, lat, lng, radius } = JobSearchQuery.properties;

const TYPES_LIST = PUBLIC_EVENT_TYPES.join(', ');

export const StreamQuery = Type.Object(
  {
    category,
    lat,
    lng,
    radius,
    types: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 256,
        description: `Comma-separated event types to receive (case-insensitive), any of ${TYPES_LIST}. All of them when not given.`,
      }),
    ),
    last_event_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 32,
        description:
          'Resume after this event (evt_123 or 123): the query alternative to the Last-Event-ID header, for clients that cannot set headers. The header wins when both are sent.',
      }),
    ),
  },
  { additionalProperties: false },
);
type StreamQuery = Static<typeof StreamQuery>;

const StreamHeaders = Type.Object({
  'last-event-id': Type.Optional(
    Type.String({
      description:
        'Resume after this event (evt_123 or 123): every matching event after it is sent first, then the live ones. EventSource sends it by itself when it reconnects.',
    }),
  ),
});

const DESCRIPTION = `Server-Sent Events (text/event-stream) of public jobs and listings as they are created and changed, here or on any other instance: \`${TYPES_LIST}\`. Events about applications and bookings are private and never streamed.

**Messages.** The stream starts with \`retry: ${RETRY_MS}\`. Each event is one message:

\`\`\`
id: evt_1234
event: job.created
data: {"id":"evt_1234","type":"job.created","created_at":"2026-11-20T12:00:00.000Z","data":{"object":{...the job as GET /v1/jobs/{id} showed it...}}}
\`\`\`

\`data\` is the same JSON a webhook receives. Ids grow in commit order. Comment lines (\`: heartbeat 2026-11-20T12:00:15.000Z\`) come every 15 s by default (STREAM_HEARTBEAT_MS), so proxies keep the connection and clients notice a dead one.

**Filters.** \`category\`, \`lat\`, \`lng\` and \`radius\` mean what they mean in GET /v1/jobs, with the same defaults (the centre of Karlsruhe, 50 km): an event is sent when its job or listing lies in the area and has the category. \`types\` narrows the event types.

**Resuming.** Without Last-Event-ID the stream starts now: only events committed after it opened are sent. With the \`Last-Event-ID\` header (EventSource sends it when it reconnects) or \`last_event_id\`, every matching event after that one is sent first, in order, then the live ones, without gaps or repeats. Events are kept for 30 days by default (EVENTS_RETENTION_DAYS).

**Limits.** Opening a stream is one request against the caller's rate limit (a 429 is a JSON ApiError, not a stream). A caller (a developer account, or an anonymous address) may hold 5 streams at once per instance by default (STREAMS_PER_CALLER); one more is a 429 \`too_many_streams\`. A stream ends after an hour by default (STREAM_MAX_SECONDS) and when the server restarts; reconnect with Last-Event-ID (EventSource does by itself) and it is counted again. A client that reads too slowly (more than 1 MiB waiting) is disconnected.

\`\`\`sh
curl -N 'https://api.example.org/v1/events/stream?category=GARDENING&types=job.created'
curl -N -H 'Last-Event-ID: evt_1234' https://api.example.org/v1/events/stream
\`\`\`

\`\`\`js
const events = new EventSource('https://api.example.org/v1/events/stream?category=GARDENING');
events.addEventListener('job.created', (message) => {
  const job = JSON.parse(message.data).data.object;
  console.log(message.lastEventId, job.title);
});
// Reconnects by itself and resumes with Last-Event-ID. A fresh EventSource can resume too:
// new EventSource('https://api.example.org/v1/events/stream?last_event_id=evt_1234')
\`\`\``;

const EVENT_ID = /^(?:evt_)?(\d{1,15})$/;

/** The id after which a stream resumes: the Last-Event-ID header, else last_event_id, else null (start now). */
function resumeAfter(request: FastifyRequest, query: StreamQuery): number | null {
  const header = request.headers['last-event-id'];
  const [param, given] = header !== undefined ? ['Last-Event-ID', header] : ['last_event_id', query.last_event_id];
  if (given === undefined) return null;
  const match = typeof given === 'string' ? EVENT_ID.exec(given.trim()) : null;
  if (!match) {
    throw badRequest(
      'invalid_parameter',
      param,
      `${param} must be an event id such as evt_1234 (or 1234); got ${JSON.stringify(given).slice(0, 100)}.`,
      `Send the id of the last event you received, or leave ${param} out to start with the events from now on.`,
    );
  }
  return Number(match[1]);
}

/** The event types asked for: all public ones without `types`; unknown or private ones are a 400. */
function typesOf(query: StreamQuery): Set<EventType> {
  if (query.types === undefined) return new Set(PUBLIC_EVENT_TYPES);
  const wanted = new Set<EventType>();
  for (const given of query.types.split(',')) {
    const name = given.trim().toLowerCase();
    const type = PUBLIC_EVENT_TYPES.find((t) => t === name);
    if (!type) {
      const reason = /^(application|booking)\./.test(name)
        ? `'${given.trim()}' events are private to the accounts involved and never streamed`
        : `'${given.trim()}' is not an event type of the stream`;
      throw badRequest(
        'invalid_enum_value',
        'types',
        `types must list event types of the stream, comma-separated; ${reason}.`,
        `Use any of ${TYPES_LIST}, or leave types out to receive them all.`,
        [...PUBLIC_EVENT_TYPES],
      );
    }
    wanted.add(type);
  }
  return wanted;
}

function shuttingDown(): ApiError {
  return new ApiError(503, 'service_unavailable', 'This instance is shutting down.', {
    suggestion: 'Reconnect in a moment (to another instance).',
    headers: { 'retry-after': '5' },
  });
}

/** The request's log line, as plugins/observability.ts writes it, for a stream the client closed. */
function requestLine(request: FastifyRequest, ms: number, closedBy: 'client' | 'slow_client') {
  return {
    method: request.method,
    route: request.routeOptions.url ?? null,
    url: urlForLog(request.url),
    status: 200,
    duration_ms: Math.round(ms * 1000) / 1000,
    tier: request.access?.tier ?? null,
    ip: request.ip,
    user_agent: request.headers['user-agent'] ?? null,
    closed_by: closedBy,
  };
}

/** Whose streams are counted together: a developer's account (all its keys), else the client address. */
function callerOf(request: FastifyRequest): string {
  const { tier, key } = request.access;
  return tier === 'developer' && key ? `account:${key.account_id}` : `${tier}:${clientKey(request.ip)}`;
}

/** One open stream: its filter, the body Fastify pipes to the client, heart-beats and its time limit. */
class EventStream implements Subscriber {
  readonly body = new PassThrough();
  /** Set when the client was too slow and its connection was dropped. */
  dropped = false;
  private readonly timers: NodeJS.Timeout[] = [];

  constructor(
    readonly filter: EventFilter,
    readonly types: ReadonlySet<EventType>,
    private readonly raw: ServerResponse,
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

export type StreamConfig = Pick<
  Config,
  'EVENTS_POLL_MS' | 'STREAM_HEARTBEAT_MS' | 'STREAM_MAX_SECONDS' | 'STREAMS_PER_CALLER'
>;

/**
 * GET /v1/events/stream: Server-Sent Events of public job and listing events, fed by one shared
 * poller of the outbox (events/stream.ts). Not hijacked: the stream is the reply's body, so the
 * headers of earlier hooks (request id, security, RateLimit) go out with it and the request's log
 * line is written when it ends. Every stream is ended before the server closes (preClose), so
 * app.close() and SIGTERM are not held up by open streams.
 */
export function eventRoutes(app: Api, { db }: RouteDeps, config: StreamConfig): void {
  const hub = new EventHub(db, {
    pollMs: config.EVENTS_POLL_MS,
    onError: (err) => app.log.error({ err }, 'event stream: reading the outbox failed; retrying'),
    onRecovered: (failures) => app.log.info({ failures }, 'event stream: reading the outbox again'),
  });
  const slots = new StreamSlots(config.STREAMS_PER_CALLER);
  const open = new Set<EventStream>();
  let closing = false;

  app.addHook('preClose', async () => {
    closing = true;
    hub.close();
    for (const stream of open) stream.end('the server is restarting; reconnect with Last-Event-ID');
  });

  app.get(
    '/v1/events/stream',
    {
      // A HEAD would open a stream nobody reads.
      exposeHeadRoute: false,
      schema: {
        operationId: 'streamEvents',
        summary: 'Stream job and listing events (Server-Sent Events)',
        description: DESCRIPTION,
        tags: ['Events'],
        querystring: StreamQuery,
        headers: StreamHeaders,
        response: {
          200: ok(
            { content: { 'text/event-stream': { schema: { type: 'string' } } } },
            'An endless text/event-stream: retry, then one message per matching event (id, event, data) and heart-beat comments. Carries the budget headers of the request that opened it.',
          ),
          ...errorResponses(400),
        },
      },
    },
    async (request, reply) => {
      const query = request.query;
      const types = typesOf(query);
      const after = resumeAfter(request, query);
      const filter: EventFilter = { category: query.category, lat: query.lat, lng: query.lng, radius: query.radius };
      const caller = callerOf(request);
      if (closing) {
        throw shuttingDown();
      }
      if (!slots.take(caller)) {
        const who = caller.startsWith('account:') ? 'A developer account' : 'An address';
        throw new ApiError(
          429,
          'too_many_streams',
          `${who} may hold ${config.STREAMS_PER_CALLER} event streams at once; this would be one more.`,
          {
            param: null,
            suggestion:
              'Close a stream you no longer read, or open one stream without filters and filter on your side. Each stream ends by itself after STREAM_MAX_SECONDS.',
            headers: { 'retry-after': '10' },
          },
        );
      }
      let start: number;
      try {
        // Errors here (the database is down) still answer JSON: 503 with Retry-After.
        await hub.start();
        // A Last-Event-ID beyond the newest event (of a database since reset) resumes from the newest.
        const latest = await hub.latestId();
        start = after === null ? latest : Math.min(after, latest);
      } catch (error) {
        slots.release(caller);
        hub.stopIfIdle();
        throw error;
      }
      if (closing) {
        slots.release(caller);
        hub.stopIfIdle();
        throw shuttingDown();
      }
      const stream = new EventStream(filter, types, reply.raw);
      open.add(stream);
      stream.start(config.STREAM_HEARTBEAT_MS, config.STREAM_MAX_SECONDS, () => {
        open.delete(stream);
        hub.leave(stream);
        slots.release(caller);
      });
      // A client that goes away ends the response without 'finish', which is when Fastify runs the
      // onResponse hooks: the request's log line (plugins/observability.ts) is written here then.
      reply.raw.once('close', () => {
        if (!reply.raw.writableFinished) {
          request.log.info(
            requestLine(request, reply.elapsedTime, stream.dropped ? 'slow_client' : 'client'),
            'request',
          );
        }
      });
      hub.join(stream, start).catch((err: unknown) => {
        request.log.warn({ err }, 'event stream: catching up failed; ending the stream');
        stream.end('catching up failed; reconnect with Last-Event-ID');
      });
      return (
        reply
          .code(200)
          .header('content-type', 'text/event-stream; charset=utf-8')
          .header('cache-control', 'no-store')
          .header('x-accel-buffering', 'no')
          // The connection ends with the stream (a shutdown is not held up by an idle kept-alive one).
          .header('connection', 'close')
          // The schema's 200 is text (for the OpenAPI document); Fastify pipes a stream body as it comes.
          .send(stream.body as unknown as string)
      );
    },
  );
}
