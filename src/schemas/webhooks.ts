import { type Static, Type } from 'typebox';
import { EVENT_TYPES } from '../domain/events.js';
import { CategoryParam, HasMore, Nullable, PageFields, PagingQuery, RefTo, StringEnum } from './common.js';
import { NearParam } from './search-words.js';

export const EventTypeSchema = StringEnum(EVENT_TYPES, {
  description:
    "job.* and listing.* are public (any webhook may subscribe); application.created, application.status_changed (accepted or rejected) and completion.* (a job's completion asked of an accepted helper, confirmed, objected to) go to the job owner and the applicant, booking.* to the listing owner and the renter, review.published to both sides of the review, verification.decided to the helper's account, saved_search.matched to the search's account, draft.* to the draft's.",
});

const Filters = Type.Object(
  {
    category: Type.Optional(CategoryParam),
    near: NearParam,
    lat: Type.Optional(Type.Number({ minimum: -90, maximum: 90, description: 'Latitude of the area centre.' })),
    lng: Type.Optional(Type.Number({ minimum: -180, maximum: 180, description: 'Longitude of the area centre.' })),
    radius: Type.Optional(
      Type.Number({ exclusiveMinimum: 0, maximum: 50, description: 'Kilometres around lat/lng; 50 when not given.' }),
    ),
  },
  {
    additionalProperties: false,
    description:
      'Only events whose job or listing is of this category and within radius km of lat/lng or of the place near names (the search filters; lat and lng come together; near is stored as its lat/lng). Empty: every event of the subscribed types.',
  },
);

export const WebhookSchema = Type.Object(
  {
    id: Type.String({ description: 'Webhook id (wh_...).' }),
    url: Type.String({ description: 'Where deliveries are POSTed.' }),
    events: Type.Array(EventTypeSchema, { description: 'The subscribed event types.' }),
    filters: Type.Object(
      {
        category: Nullable(Type.String()),
        lat: Nullable(Type.Number()),
        lng: Nullable(Type.Number()),
        radius: Nullable(Type.Number()),
      },
      { additionalProperties: false, description: 'The filters; null where none is set.' },
    ),
    created_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'Webhook', additionalProperties: false },
);
export type Webhook = Static<typeof WebhookSchema>;

export const WebhookWithSecret = Type.Object(
  {
    ...WebhookSchema.properties,
    secret: Type.String({
      description:
        'The signing secret (whsec_...): shown in this answer only. Keep it on the receiving server; it verifies the Marketplace-Signature header of each delivery.',
    }),
  },
  { additionalProperties: false },
);

export const WebhookCreateBody = Type.Object(
  {
    url: Type.String({
      format: 'uri',
      minLength: 1,
      maxLength: 2048,
      description:
        'An http(s) URL on the public internet (loopback, private, link-local and reserved addresses are refused unless the operator allows them). No credentials in the URL.',
    }),
    events: Type.Array(EventTypeSchema, { minItems: 1, maxItems: EVENT_TYPES.length, uniqueItems: true }),
    filters: Type.Optional(Filters),
  },
  { additionalProperties: false },
);
export type WebhookCreateBody = Static<typeof WebhookCreateBody>;

export const WebhookList = Type.Object({ data: Type.Array(RefTo(WebhookSchema)) }, { additionalProperties: false });

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

export const DeliverySchema = Type.Object(
  {
    id: Type.String({ description: 'Delivery id (whd_...); sent to the receiver as Marketplace-Delivery-Id.' }),
    event_id: Type.String({
      description: 'The event (evt_...); the same in every delivery of it, the id a receiver deduplicates on.',
    }),
    event_type: EventTypeSchema,
    status: StringEnum(DELIVERY_STATUSES, {
      description:
        'pending: will be tried at next_attempt_at; delivered: the receiver answered 2xx; failed: every attempt failed.',
    }),
    attempts: Type.Integer({ minimum: 0 }),
    next_attempt_at: Nullable(Type.String({ format: 'date-time' })),
    last_attempt_at: Nullable(Type.String({ format: 'date-time' })),
    response_status: Nullable(Type.Integer({ description: 'The HTTP status of the last answer; null without one.' })),
    last_error: Nullable(Type.String({ description: 'Why the last attempt failed; null when it did not.' })),
    delivered_at: Nullable(Type.String({ format: 'date-time' })),
    redelivery_of: Nullable(Type.String({ description: 'The delivery this one repeats (POST .../redeliver).' })),
    created_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'WebhookDelivery', additionalProperties: false },
);
export type Delivery = Static<typeof DeliverySchema>;

export const DeliveryPage = Type.Object(
  { data: Type.Array(RefTo(DeliverySchema), { description: 'Newest first.' }), ...PageFields, has_more: HasMore },
  { additionalProperties: false },
);

export const DeliveryQuery = Type.Object(
  {
    status: Type.Optional(StringEnum(DELIVERY_STATUSES, { description: 'Only deliveries in this state.' })),
    limit: PagingQuery.limit,
    offset: PagingQuery.offset,
  },
  { additionalProperties: false },
);

const WebhookId = Type.String({ minLength: 1, maxLength: 64, description: 'Webhook id, e.g. wh_4f9c2a7b1d3e5f60.' });

export const WebhookIdParams = Type.Object({ id: WebhookId }, { additionalProperties: false });

export const DeliveryParams = Type.Object(
  {
    id: WebhookId,
    delivery_id: Type.String({ minLength: 1, maxLength: 64, description: 'Delivery id, e.g. whd_0a1b2c3d4e5f6a7b.' }),
  },
  { additionalProperties: false },
);

/** What the webhook documentation says of the operator's settings. */
export interface WebhookDocSettings {
  perAccount: number;
  retryBaseMs: number;
  maxAttempts: number;
  timeoutMs: number;
  /** The whole time deliveries of an event are tried, in words ("about 21 hours"). */
  retryWindow: string;
}

/** The webhooks chapter of the OpenAPI document (on GET /v1/webhooks and POST /v1/webhooks). */
export function webhookDocs(settings: WebhookDocSettings): string {
  return `Webhooks tell a developer account's server about changes as they happen, instead of it polling.

**Events.** job.created, job.updated, job.status_changed, listing.created, listing.updated and listing.status_changed are public: any webhook may subscribe to them, optionally filtered by category and area (lat, lng, radius in km: the search filters). application.created and application.status_changed (accepted or rejected) reach only the job's owner and the applicant; booking.created and booking.status_changed only the listing's owner and the renter; review.published (a review became visible: both sides reviewed, or the window closed) only the two sides of the review; verification.decided (the platform approved, rejected or revoked a helper's verification) only the helper's account; saved_search.matched (a job or listing started to match a saved search) only the search's account. Each change is written to an outbox in the same database transaction as the change itself, so no acknowledged change goes without its event, also across a crash or a restart.

**Delivery.** A POST to the webhook's url with the JSON body \`{"id": "evt_…", "type": "job.created", "created_at": "…", "data": {"object": {…the job, listing, application or booking as the API showed it…}}}\` and the headers Marketplace-Event-Id, Marketplace-Event-Type, Marketplace-Delivery-Id and Marketplace-Signature. Any 2xx answer within ${settings.timeoutMs / 1000} s counts as delivered; anything else (other statuses, redirects, timeouts, refused connections) is retried with exponential backoff: ${settings.retryBaseMs / 1000} s after the first failure, doubling each time (±10 % jitter, at most a day between attempts), ${settings.maxAttempts} attempts over ${settings.retryWindow}, then the delivery is failed. Deliveries are at least once and not ordered: deduplicate on the event id.

**Signatures** (as Stripe does): \`Marketplace-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256>\`, the HMAC keyed with the webhook's secret over \`<t>.<raw body>\`. Recompute it over the raw bytes, compare in constant time, and refuse timestamps more than 5 minutes old. The secret (whsec_…) is shown once, in the answer to POST /v1/webhooks.

**Where to.** Only http(s) URLs whose host resolves to public addresses: loopback, private (10/8, 172.16/12, 192.168/16, fc00::/7), link-local (169.254/16 with cloud metadata, fe80::/10), carrier-grade NAT and reserved ranges, also inside IPv6 forms that carry an IPv4 address (IPv4-mapped and -compatible, SIIT, NAT64, 6to4, Teredo), are refused when the webhook is created and again when each delivery connects (so DNS rebinding does not help), unless the operator sets WEBHOOK_ALLOW_PRIVATE_NETWORKS=true. Redirects are not followed. At most ${settings.perAccount} webhooks per account.`;
}
