import { type Static, Type } from 'typebox';
import { LANGUAGES, NOTIFICATION_KINDS } from '../domain/notifications.js';
import { Nullable, StringEnum } from './common.js';

const Clock = (description: string) =>
  Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', maxLength: 5, description });

const Channels = Type.Object(
  {
    email: Type.Boolean({ description: 'An e-mail at once (after quiet hours).' }),
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
        'Per kind the channels: messages (a new message; several of one conversation in a row fold into one e-mail), applications (one received; yours accepted or rejected), bookings (requested; confirmed, declined, expired, cancelled by the other side), reminders (a booking’s pick-up tomorrow, its return tomorrow, its return overdue).',
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
  'Notifications: what happens to you is e-mailed to your account’s address in your language, per kind and channel as you choose (defaults: messages, applications and bookings by e-mail at once, no digest). A new message waits 5 minutes, so several in a row come as one e-mail; quiet hours (local time) hold e-mails until they end; the digest folds a day’s notifications into one e-mail at digest_time. Every e-mail has a one-click unsubscribe link (RFC 8058) that stops its kind only, without signing in. Each is sent once, also with several instances, and retried when the mail server fails.';
