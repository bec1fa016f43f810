import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import type { EventFilter, EventType } from '../../domain/events.js';
import { PRIVATE_EVENT_TYPES, PUBLIC_EVENT_TYPES } from '../../domain/events.js';
import { EventHub, StreamSlots } from '../../events/stream.js';
import {
  PRIVATE_STREAM_DESCRIPTION,
  PrivateStreamQuery,
  STREAM_DESCRIPTION,
  StreamHeaders,
  StreamQuery,
} from '../../schemas/events.js';
import { ApiError, badRequest } from '../../services/errors.js';
import { refusedKeys } from '../../services/keys.js';
import { filterArea } from '../../services/search.js';
import { clientKey } from '../budget.js';
import { errorResponses } from '../error-catalogue.js';
import { requestLogLine } from '../plugins/observability.js';
import { ok } from '../responses.js';
import type { Api, RouteDeps } from '../route-deps.js';
import { EventStream } from '../sse.js';
import { WRITE_HOOKS, WRITE_SECURITY } from '../write-body.js';
import { requireAccount } from '../write-kit.js';

const EVENT_ID = /^(?:evt_)?(\d{1,15})$/;

/** The id after which a stream resumes: the Last-Event-ID header, else last_event_id, else null (start now). */
function resumeAfter(request: FastifyRequest, lastEventId: string | undefined): number | null {
  const header = request.headers['last-event-id'];
  const [param, given] = header !== undefined ? ['Last-Event-ID', header] : ['last_event_id', lastEventId];
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

/**
 * The event types asked for, of the stream's own (`allowed`): all of them without `types`; an unknown
 * type, or one of the other stream, is a 400 that says where it is.
 */
function typesOf(given: string | undefined, allowed: readonly EventType[]): Set<EventType> {
  if (given === undefined) return new Set(allowed);
  const wanted = new Set<EventType>();
  for (const part of given.split(',')) {
    const name = part.trim().toLowerCase();
    const type = allowed.find((t) => t === name);
    if (!type) {
      const isPrivate = PRIVATE_EVENT_TYPES.some((t) => t === name);
      const isPublic = PUBLIC_EVENT_TYPES.some((t) => t === name);
      const reason = isPrivate
        ? `'${part.trim()}' events are private to the accounts involved: GET /v1/me/events/stream (developer key) streams them`
        : isPublic
          ? `'${part.trim()}' events are public: GET /v1/events/stream streams them`
          : `'${part.trim()}' is not an event type of this stream`;
      throw badRequest(
        'invalid_enum_value',
        'types',
        `types must list event types of this stream, comma-separated; ${reason}.`,
        `Use any of ${allowed.join(', ')}, or leave types out to receive them all.`,
        [...allowed],
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

/** Whose streams are counted together: a developer's account (all its keys), else the client address. */
function callerOf(request: FastifyRequest): string {
  const { tier, key } = request.access;
  return tier === 'developer' && key ? `account:${key.account_id}` : `${tier}:${clientKey(request.ip)}`;
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
/** 429 for a caller that holds as many streams as it may. */
function tooManyStreams(caller: string, limit: number): ApiError {
  const who = caller.startsWith('account:') ? 'A developer account' : 'An address';
  return new ApiError(
    429,
    'too_many_streams',
    `${who} may hold ${limit} event streams at once; this would be one more.`,
    {
      param: null,
      suggestion:
        'Close a stream you no longer read, or open one stream without filters and filter on your side. Each stream ends by itself after STREAM_MAX_SECONDS.',
      headers: { 'retry-after': '10' },
    },
  );
}

/** How often the keys of open streams are checked: a revoked key's streams end within this. */
export const STREAM_KEY_CHECK_MS = 1_000;

/**
 * The streams opened with a key, and a check every STREAM_KEY_CHECK_MS while there are any: a
 * stream whose key was revoked or expired, or whose account was suspended or erased since it
 * opened (by this instance, another or the admin command), ends at once with a comment saying so.
 */
function keyedStreams(db: RouteDeps['db'], now: () => Date, onError: (err: unknown) => void) {
  const keys = new Map<EventStream, string>();
  let timer: NodeJS.Timeout | null = null;
  const check = async () => {
    const refused = await refusedKeys(db, [...new Set(keys.values())], now());
    for (const [stream, key] of keys) {
      if (refused.has(key)) stream.end('the key of this stream was revoked, or its account suspended or erased');
    }
  };
  const stop = () => {
    if (timer !== null) clearInterval(timer);
    timer = null;
  };
  return {
    add(stream: EventStream, key: string) {
      keys.set(stream, key);
      timer ??= setInterval(() => check().catch(onError), STREAM_KEY_CHECK_MS).unref();
    },
    delete(stream: EventStream) {
      keys.delete(stream);
      if (keys.size === 0) stop();
    },
    stop,
  };
}

export function eventRoutes(app: Api, { db, now }: RouteDeps, config: StreamConfig): void {
  const hubOf = (name: string, types: readonly EventType[]) =>
    new EventHub(db, {
      pollMs: config.EVENTS_POLL_MS,
      types,
      onError: (err) => app.log.error({ err, stream: name }, 'event stream: reading the outbox failed; retrying'),
      onRecovered: (failures) => app.log.info({ failures, stream: name }, 'event stream: reading the outbox again'),
    });
  const publicHub = hubOf('public', PUBLIC_EVENT_TYPES);
  const privateHub = hubOf('private', PRIVATE_EVENT_TYPES);
  // One count for both streams: a caller holds STREAMS_PER_CALLER streams in all.
  const slots = new StreamSlots(config.STREAMS_PER_CALLER);
  const open = new Set<EventStream>();
  let closing = false;
  const keyed = keyedStreams(db, now, (err) => app.log.warn({ err }, 'event stream: checking the keys failed'));

  app.addHook('preClose', async () => {
    closing = true;
    keyed.stop();
    publicHub.close();
    privateHub.close();
    for (const stream of open) stream.end('the server is restarting; reconnect with Last-Event-ID');
  });

  /** Opens a stream for the request on `hub`: the reply's body, fed from `after` (null: from now). */
  async function openStream(
    request: FastifyRequest,
    reply: FastifyReply,
    hub: EventHub,
    subscribe: { filter: EventFilter; types: Set<EventType>; after: number | null; account?: string },
  ): Promise<FastifyReply> {
    const caller = callerOf(request);
    if (closing) throw shuttingDown();
    if (!slots.take(caller)) throw tooManyStreams(caller, config.STREAMS_PER_CALLER);
    let start: number;
    try {
      // Errors here (the database is down) still answer JSON: 503 with Retry-After.
      await hub.start();
      // A Last-Event-ID beyond the newest event (of a database since reset) resumes from the newest.
      const latest = await hub.latestId();
      start = subscribe.after === null ? latest : Math.min(subscribe.after, latest);
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
    const stream = new EventStream(subscribe.filter, subscribe.types, reply.raw, subscribe.account);
    open.add(stream);
    const keyId = request.access?.key?.id;
    if (keyId !== undefined) keyed.add(stream, keyId);
    stream.start(config.STREAM_HEARTBEAT_MS, config.STREAM_MAX_SECONDS, () => {
      open.delete(stream);
      keyed.delete(stream);
      hub.leave(stream);
      slots.release(caller);
    });
    // A client that goes away ends the response without 'finish', which is when Fastify runs the
    // onResponse hooks: the request's log line (plugins/observability.ts) is written here then.
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) {
        const closedBy = stream.dropped ? 'slow_client' : 'client';
        request.log.info({ ...requestLogLine(request, 200, reply.elapsedTime), closed_by: closedBy }, 'request');
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
  }

  const streamResponse = (what: string) =>
    ok(
      { content: { 'text/event-stream': { schema: { type: 'string' } } } },
      `An endless text/event-stream: retry, then one message per ${what} (id, event, data) and heart-beat comments. Carries the budget headers of the request that opened it.`,
    );

  app.get(
    '/v1/events/stream',
    {
      // A HEAD would open a stream nobody reads.
      exposeHeadRoute: false,
      schema: {
        operationId: 'streamEvents',
        summary: 'Stream job and listing events (Server-Sent Events)',
        description: STREAM_DESCRIPTION,
        tags: ['Events'],
        querystring: StreamQuery,
        headers: StreamHeaders,
        response: { 200: streamResponse('matching event'), ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      const query = request.query;
      const types = typesOf(query.types, PUBLIC_EVENT_TYPES);
      const after = resumeAfter(request, query.last_event_id);
      const filter: EventFilter = { category: query.category, ...filterArea(query) };
      return openStream(request, reply, publicHub, { filter, types, after });
    },
  );

  app.get(
    '/v1/me/events/stream',
    {
      exposeHeadRoute: false,
      onRequest: WRITE_HOOKS.onRequest,
      schema: {
        operationId: 'streamMyEvents',
        summary: 'Stream your private events (Server-Sent Events)',
        description: PRIVATE_STREAM_DESCRIPTION,
        tags: ['Events'],
        security: WRITE_SECURITY,
        querystring: PrivateStreamQuery,
        headers: StreamHeaders,
        response: { 200: streamResponse('private event of your account'), ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      const account = requireAccount(request);
      const types = typesOf(request.query.types, PRIVATE_EVENT_TYPES);
      const after = resumeAfter(request, request.query.last_event_id);
      return openStream(request, reply, privateHub, { filter: {}, types, after, account: account.id });
    },
  );
}
