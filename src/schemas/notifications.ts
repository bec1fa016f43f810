import { type Static, Type } from 'typebox';
import { LANGUAGES, NOTIFICATION_KINDS } from '../domain/notifications.js';
import { Nullable, RefTo, StringEnum } from './common.js';

const Clock = (description: string) =>
  Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', maxLength: 5, description });

const Channels = Type.Object(
  {
    email: Type.Boolean({ description: 'An e-mail at once (after quiet hours).' }),
    push: Type.Boolean({ description: 'A web push to your subscribed browsers at once (after quiet hours).' }),
    digest: Type.Boolean({ description: 'A line in the daily digest e-mail at digest_time.' }),
  },
  { additionalProperties: false },
);

const ChannelsChange = Type.Partial(Channels, { additionalProperties: false });

const QuietHours = Type.Object(
  {
    start: Clock('Local time (Europe/Berlin) they begin, HH:MM.'),
    end: Clock('Local time they end, HH:MM; before start: they cross midnight (22:00 to 07:00).'),
  },
  { additionalProperties: false },
);

const kindsOf = <T extends typeof Channels | typeof ChannelsChange>(channels: T) =>
  Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, channels])) as Record<
    (typeof NOTIFICATION_KINDS)[number],
    T
  >;

export const NotificationSettingsSchema = Type.Object(
  {
    language: StringEnum(LANGUAGES, { description: 'The language of the e-mails (de or en).' }),
    quiet_hours: Nullable(QuietHours, { description: 'Nothing is e-mailed at once in them; it goes when they end.' }),
    digest_time: Clock('Local time the daily digest goes out, HH:MM.'),
    kinds: Type.Object(kindsOf(Channels), {
      additionalProperties: false,
      description:
        'Per kind the channels: messages (a new message; several of one conversation in a row fold into one e-mail), applications (one received; yours accepted or rejected, also when the job was staffed or cancelled; a standing helper excused from a series date), bookings (requested; confirmed, declined, expired, cancelled by the other side; an extension asked for, accepted or declined), payments (a payment marked paid to confirm, one to pay at Stripe, a damage claim to answer), reminders (a booking’s pick-up tomorrow, its return tomorrow, its return overdue; two days before a review window closes, to a side that has not reviewed).',
    }),
  },
  { $id: 'NotificationSettings', additionalProperties: false },
);
export type NotificationSettings = Static<typeof NotificationSettingsSchema>;

export const NotificationSettingsBody = Type.Object(
  {
    language: Type.Optional(NotificationSettingsSchema.properties.language),
    quiet_hours: Type.Optional(Nullable(QuietHours)),
    digest_time: Type.Optional(NotificationSettingsSchema.properties.digest_time),
    kinds: Type.Optional(Type.Partial(Type.Object(kindsOf(ChannelsChange)), { additionalProperties: false })),
  },
  { additionalProperties: false, description: 'What to change; what is left out stays.' },
);
export type NotificationSettingsBody = Static<typeof NotificationSettingsBody>;

/** The notifications' rules, for the OpenAPI descriptions. */
export const NOTIFICATION_RULES =
  'Notifications: what happens to you is e-mailed to your account’s address and pushed to the browsers you subscribed (POST /v1/me/push-subscriptions), in your language, per kind and channel as you choose (defaults: every kind by e-mail and push at once, no digest). A new message waits 5 minutes, so several in a row come as one e-mail; quiet hours (local time) hold e-mails until they end; the digest folds a day’s notifications into one e-mail at digest_time. Every e-mail has a one-click unsubscribe link (RFC 8058) that stops its kind only, without signing in. Each is sent once, also with several instances, and retried when the mail server fails.';

export const PushSubscriptionCreateBody = Type.Object(
  {
    endpoint: Type.String({
      format: 'uri',
      maxLength: 2000,
      description: 'The push service address the browser gave (https).',
    }),
    expirationTime: Type.Optional(Nullable(Type.Number({ description: 'As the browser gives it; not used.' }))),
    keys: Type.Object(
      {
        p256dh: Type.String({ minLength: 80, maxLength: 100, pattern: '^[A-Za-z0-9_-]+=*$' }),
        auth: Type.String({ minLength: 16, maxLength: 32, pattern: '^[A-Za-z0-9_-]+=*$' }),
      },
      { additionalProperties: false },
    ),
  },
  {
    additionalProperties: false,
    description: "The browser's PushSubscription as JSON (pushManager.subscribe(...).toJSON()).",
  },
);
export type PushSubscriptionCreateBody = Static<typeof PushSubscriptionCreateBody>;

export const PushSubscriptionSchema = Type.Object(
  {
    id: Type.String({ description: 'Push subscription id, prefixed `psub_`.' }),
    endpoint_host: Type.String({ description: 'The push service (the address itself is not shown again).' }),
    created_at: Type.String({ format: 'date-time' }),
    last_sent_at: Nullable(Type.String({ format: 'date-time' })),
    last_error: Nullable(Type.String({ description: 'The last failed push, until one succeeds.' })),
  },
  { $id: 'PushSubscription', additionalProperties: false },
);
export type PushSubscriptionView = Static<typeof PushSubscriptionSchema>;

export const PushSubscriptionList = Type.Object(
  {
    data: Type.Array(RefTo(PushSubscriptionSchema)),
    application_server_key: Type.String({
      description: "The server's VAPID public key (base64url): the browser's applicationServerKey to subscribe with.",
    }),
  },
  { additionalProperties: false },
);

export const PushSubscriptionParams = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 64, description: 'Push subscription id, e.g. psub_8a1b2c3d4e5f6a7b.' }),
  },
  { additionalProperties: false },
);

/** Web push's rules, for the OpenAPI descriptions. */
export const PUSH_RULES =
  'Web push: the kinds whose push channel is on (the default) are pushed to every browser you subscribed, at the times e-mails go (after quiet hours), encrypted for that browser (RFC 8291) and signed with the server’s VAPID key (RFC 8292). The payload is JSON: {title, body, url, kind}, in your language. A browser whose push service answers 404 or 410 (it unsubscribed) is dropped; other failures are retried with the notification. Subscribing is the person’s own act: apps acting for a person (OAuth) cannot.';
