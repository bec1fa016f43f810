import { berlinClock, berlinWallClock, nextDate } from './berlin-time.js';

/**
 * Notifications (issue 36): what reaches a person of what happens to them, by kind of event and
 * by channel, at the times they chose. Pure rules; services/notifications.ts applies them.
 *
 * - Kinds group the events a person thinks of together: a new message, their applications (one
 *   received, theirs accepted or rejected, a standing helper excused from an occurrence of a
 *   series) and bookings (requested, confirmed, declined, cancelled, expired, an extension asked
 *   for or decided), money that needs them (a payment to confirm or to pay at Stripe, a damage
 *   claim to answer), and reminders (a booking's pick-up tomorrow, its return
 *   tomorrow, its return overdue, a review window closing in two days). Saved searches keep their
 *   own daily digest (each search's email_digest).
 * - Channels per kind: `email` (sent at once, or after quiet hours), `push` (a web push to the
 *   browsers the person subscribed, at the same times) and `digest` (folded into one e-mail a day
 *   at `digest_time`). A kind may use any of them; none silences it.
 * - Quiet hours (local time, Europe/Berlin): nothing is sent at once inside them; what falls in
 *   them is sent when they end. A span may cross midnight (22:00-07:00).
 */
export const NOTIFICATION_KINDS = ['messages', 'applications', 'bookings', 'payments', 'reminders'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export const NOTIFICATION_CHANNELS = ['email', 'push', 'digest'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

export const LANGUAGES = ['de', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];

export type KindChannels = Record<NotificationChannel, boolean>;

export interface NotificationPreferences {
  language: Language;
  /** Local times HH:MM; null: none. */
  quiet_hours: { start: string; end: string } | null;
  /** The local time the daily digest goes out, HH:MM. */
  digest_time: string;
  kinds: Record<NotificationKind, KindChannels>;
}

/** Every kind by e-mail and push at once (push reaches only browsers subscribed); nothing by digest until chosen. */
export const DEFAULT_PREFERENCES: NotificationPreferences = {
  language: 'de',
  quiet_hours: null,
  digest_time: '08:00',
  kinds: {
    messages: { email: true, push: true, digest: false },
    applications: { email: true, push: true, digest: false },
    bookings: { email: true, push: true, digest: false },
    payments: { email: true, push: true, digest: false },
    reminders: { email: true, push: true, digest: false },
  },
};

/** What a reminder is about: a booking's pick-up tomorrow, its return tomorrow, its return overdue, a review window closing. */
export const REMINDERS = ['pickup', 'return', 'overdue', 'review'] as const;

/** A side that has not reviewed yet is reminded this long before the review window closes. */
export const REVIEW_REMINDER_HOURS = 48;
export type Reminder = (typeof REMINDERS)[number];

/** How often the reminders are looked for (each is recorded once, whoever looks first). */
export const REMINDER_SCAN_MS = 5 * 60_000;

/** A new message waits this long before it is mailed, so a few in a row arrive as one e-mail. */
export const MESSAGE_FOLD_MINUTES = 5;

/** Attempts at sending one notification before it is given up (failed); the wait doubles from a minute. */
export const MAX_SEND_ATTEMPTS = 6;
export const RETRY_BASE_MS = 60_000;

const CLOCK = /^([01]\d|2[0-3]):[0-5]\d$/;

/** Whether a string is a local time of day HH:MM (00:00 to 23:59). */
export const isClock = (value: string): boolean => CLOCK.test(value);

const minutesOf = (clock: string): number => Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3, 5));

/** Whether local minutes since midnight fall in quiet hours [start, end) (crossing midnight when start > end). */
function inQuiet(minutes: number, quiet: { start: string; end: string }): boolean {
  const start = minutesOf(quiet.start);
  const end = minutesOf(quiet.end);
  if (start === end) return false;
  return start < end ? minutes >= start && minutes < end : minutes >= start || minutes < end;
}

/**
 * When something due at `at` may be sent at once: `at` itself, or, inside quiet hours, the end
 * of them (the next local `end` time, right across the clock changes: berlinWallClock).
 */
export function afterQuietHours(at: Date, quiet: NotificationPreferences['quiet_hours']): Date {
  if (!quiet) return at;
  const clock = berlinClock(at);
  if (!inQuiet(clock.minutes, quiet)) return at;
  const end = minutesOf(quiet.end);
  const date = clock.minutes < end ? clock.date : nextDate(clock.date);
  return berlinWallClock(date, Math.floor(end / 60), end % 60);
}

/** The next digest time after `at` (local digest_time, today or tomorrow). */
export function nextDigestAt(at: Date, digestTime: string): Date {
  const clock = berlinClock(at);
  const minutes = minutesOf(digestTime);
  const date = clock.minutes < minutes ? clock.date : nextDate(clock.date);
  return berlinWallClock(date, Math.floor(minutes / 60), minutes % 60);
}

/** The kind of an event type a person is notified of; null: none (public events, or ones they caused). */
export function kindOfEvent(type: string): NotificationKind | null {
  if (type === 'message.created') return 'messages';
  if (type.startsWith('application.') || type === 'job_series.helper_excused') return 'applications';
  if (type.startsWith('booking.')) return 'bookings';
  if (type.startsWith('payment.') || type.startsWith('claim.')) return 'payments';
  return null;
}

/** The event types the planner reads (kindOfEvent names a kind for each). */
export const NOTIFIED_EVENT_TYPES = [
  'message.created',
  'application.created',
  'application.status_changed',
  'job_series.helper_excused',
  'booking.created',
  'booking.status_changed',
  'booking.extension_requested',
  'booking.extension_decided',
  'payment.created',
  'payment.status_changed',
  'claim.created',
  'claim.status_changed',
] as const;

/** The wait before attempt `attempts + 1` after `attempts` failed ones. */
export const retryDelay = (attempts: number): number => RETRY_BASE_MS * 2 ** Math.max(0, attempts - 1);
