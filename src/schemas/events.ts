import { type Static, Type } from 'typebox';
import { PRIVATE_EVENT_TYPES, PUBLIC_EVENT_TYPES } from '../domain/events.js';
import { JobSearchQuery } from './jobs.js';

/** What a client waits before it reconnects after the stream ends (the SSE retry field the stream starts with). */
export const RETRY_MS = 5_000;

/** The search filters, exactly as GET /v1/jobs defines and validates them. */
const { category, near, lat, lng, radius } = JobSearchQuery.properties;

/** The event types a stream may carry, as the docs and error messages list them. */
export const STREAM_TYPES_LIST = PUBLIC_EVENT_TYPES.join(', ');

export const StreamQuery = Type.Object(
  {
    category,
    near,
    lat,
    lng,
    radius,
    types: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 256,
        description: `Comma-separated event types to receive (case-insensitive), any of ${STREAM_TYPES_LIST}. All of them when not given.`,
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
export type StreamQuery = Static<typeof StreamQuery>;

/** The private stream's types, as the docs and error messages list them. */
export const PRIVATE_TYPES_LIST = PRIVATE_EVENT_TYPES.join(', ');

export const PrivateStreamQuery = Type.Object(
  {
    types: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 256,
        description: `Comma-separated event types to receive (case-insensitive), any of ${PRIVATE_TYPES_LIST}. All of them when not given.`,
      }),
    ),
    last_event_id: StreamQuery.properties.last_event_id,
  },
  { additionalProperties: false },
);

/** GET /v1/me/events/stream in the OpenAPI document. */
export const PRIVATE_STREAM_DESCRIPTION = `Server-Sent Events of every private event of the calling account (developer key), as they happen on any instance: \`${PRIVATE_TYPES_LIST}\`, those whose audience is this account (an application to your job or by your helper, a booking of your listing or by you and its changes, a message to you, a review of yours published, your helper's verification decided, a match of your saved search). The same messages, heart-beats, resuming (Last-Event-ID or last_event_id, every event of yours after it first) and limits as GET /v1/events/stream; streams of both kinds count together against STREAMS_PER_CALLER. \`data\` is what your webhooks receive: a message as you read it (contact data masked while the shield is on). A stream opened with one key serves the account: it ends when the key is revoked only at its time limit, so revoke and let streams lapse (STREAM_MAX_SECONDS).

\`\`\`sh
curl -N -H 'X-API-Key: kmp_...' https://api.example.org/v1/me/events/stream?types=message.created
\`\`\``;

export const StreamHeaders = Type.Object({
  'last-event-id': Type.Optional(
    Type.String({
      maxLength: 32,
      description:
        'Resume after this event (evt_123 or 123): every matching event after it is sent first, then the live ones. EventSource sends it by itself when it reconnects.',
    }),
  ),
});

/** The operation's description in the OpenAPI document: the stream's messages, filters, resuming and limits. */
export const STREAM_DESCRIPTION = `Server-Sent Events (text/event-stream) of public jobs and listings as they are created and changed, here or on any other instance: \`${STREAM_TYPES_LIST}\`. Events about applications, bookings, messages, reviews and verifications are private: GET /v1/me/events/stream streams them to the accounts they concern.

**Messages.** The stream starts with \`retry: ${RETRY_MS}\`. Each event is one message:

\`\`\`
id: evt_1234
event: job.created
data: {"id":"evt_1234","type":"job.created","created_at":"2026-11-20T12:00:00.000Z","data":{"object":{...the job as GET /v1/jobs/{id} showed it...}}}
\`\`\`

\`data\` is the same JSON a webhook receives. Ids grow in commit order. Comment lines (\`: heartbeat 2026-11-20T12:00:15.000Z\`) come every 15 s by default (STREAM_HEARTBEAT_MS), so proxies keep the connection and clients notice a dead one.

**Filters.** \`category\`, \`near\`, \`lat\`, \`lng\` and \`radius\` mean what they mean in GET /v1/jobs, with the same defaults (the centre of Karlsruhe, 50 km): an event is sent when its job or listing lies in the area and has the category. \`types\` narrows the event types.

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
