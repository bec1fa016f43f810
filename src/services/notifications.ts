import type { Kysely } from 'kysely';
import type { Queryable } from '../db/queryable.js';
import type { AccountRow, Database, NotificationRow, NotificationSettingsRow } from '../db/schema.js';
import { berlinDate, nextDate } from '../domain/berlin-time.js';
import {
  afterQuietHours,
  DEFAULT_PREFERENCES,
  isClock,
  kindOfEvent,
  type Language,
  MAX_SEND_ATTEMPTS,
  MESSAGE_FOLD_MINUTES,
  NOTIFICATION_KINDS,
  type NotificationKind,
  type NotificationPreferences,
  nextDigestAt,
  REVIEW_REMINDER_HOURS,
  type Reminder,
  retryDelay,
} from '../domain/notifications.js';
import {
  newUnsubscribeKey,
  notificationToken,
  notificationTokenParts,
  notificationTokenValid,
} from '../domain/unsubscribe.js';
import { translate } from '../i18n/index.js';
import type { Mailer } from '../mail/mailer.js';
import { type NotificationLine, notificationEmail } from '../mail/notification-email.js';
import { findSeriesRow } from '../repositories/job-series.js';
import {
  accountsWithPush,
  applicationParties,
  bookingParties,
  bookingsToRemind,
  claimFolded,
  claimNextDue,
  claimTitle,
  conversationTitle,
  dropPending,
  eventsMayWait,
  excusalOf,
  extensionTimes,
  finalApplicationsBetween,
  findNotificationSettings,
  insertNotifications,
  markSent,
  markUnsent,
  type NewNotification,
  type NotifiedEvent,
  notificationSettingsOf,
  paymentTitle,
  recipientOf,
  returnedBookingsBetween,
  reviewAuthorsOf,
  saveNotificationSettings,
  takeEventBatch,
} from '../repositories/notifications.js';
import { inWriteTransaction, type WriteContext } from '../repositories/write-transaction.js';
import { ApiError } from './errors.js';
import { type PushSettings, pushToAccount } from './push-subscriptions.js';

/** Events the planner reads per round, and notifications the sender claims per round. */
const PLAN_BATCH = 200;
const SEND_BATCH = 50;
/** An event read later than this after it happened is not sent to anyone. */
const STALE_AFTER_MS = 24 * 3_600_000;

/** The settings as stored, or the defaults (and a fresh key for the links) for an account without. */
function preferencesOf(row: NotificationSettingsRow | undefined): NotificationPreferences {
  if (!row) return DEFAULT_PREFERENCES;
  const stored = JSON.parse(row.kinds) as Partial<NotificationPreferences['kinds']>;
  return {
    language: row.language,
    quiet_hours: row.quiet_start && row.quiet_end ? { start: row.quiet_start, end: row.quiet_end } : null,
    digest_time: row.digest_time,
    // A kind added after the account chose keeps its default until chosen.
    kinds: Object.fromEntries(
      NOTIFICATION_KINDS.map((kind) => [kind, { ...DEFAULT_PREFERENCES.kinds[kind], ...stored[kind] }]),
    ) as NotificationPreferences['kinds'],
  };
}

/** The row of an account's settings; `chosenAt`: when the person chose the language, or null. */
function rowOf(
  accountId: string,
  preferences: NotificationPreferences,
  key: string,
  now: Date,
  chosenAt: string | null = null,
): NotificationSettingsRow {
  return {
    language_chosen_at: chosenAt,
    account_id: accountId,
    language: preferences.language,
    quiet_start: preferences.quiet_hours?.start ?? null,
    quiet_end: preferences.quiet_hours?.end ?? null,
    digest_time: preferences.digest_time,
    kinds: JSON.stringify(preferences.kinds),
    unsubscribe_key: key,
    updated_at: now.toISOString(),
  };
}

/** GET /v1/me/notification-settings: the account's choices, or the defaults. */
export async function notificationSettings(db: Queryable, account: AccountRow): Promise<NotificationPreferences> {
  return preferencesOf(await findNotificationSettings(db, account.id));
}

/** The body of PUT /v1/me/notification-settings: each part optional, the rest stays. */
export interface NotificationSettingsInput {
  language?: Language | undefined;
  quiet_hours?: { start: string; end: string } | null | undefined;
  digest_time?: string | undefined;
  kinds?: Partial<Record<NotificationKind, Partial<Record<'email' | 'push' | 'digest', boolean>>>> | undefined;
}

/** PUT /v1/me/notification-settings: changes what is sent; 400 names a time that is no HH:MM or an empty span. */
export async function updateNotificationSettings(
  context: WriteContext,
  account: AccountRow,
  body: NotificationSettingsInput,
): Promise<NotificationPreferences> {
  const { now } = context;
  const row = await findNotificationSettings(context.db, account.id);
  const current = preferencesOf(row);
  for (const [param, value] of [
    ['quiet_hours.start', body.quiet_hours?.start],
    ['quiet_hours.end', body.quiet_hours?.end],
    ['digest_time', body.digest_time],
  ] as const) {
    if (value !== undefined && !isClock(value)) {
      throw new ApiError(400, 'invalid_parameter', `'${value}' is no time of day.`, {
        param,
        suggestion: 'Send a local time as HH:MM, 00:00 to 23:59.',
        de: {
          message: `„${value}“ ist keine Uhrzeit.`,
          suggestion: 'Geben Sie eine Ortszeit als HH:MM an, 00:00 bis 23:59.',
        },
      });
    }
  }
  if (body.quiet_hours && body.quiet_hours.start === body.quiet_hours.end) {
    // Also the account page's words next to its quiet-hour fields (http/routes/sign-in-pages.ts).
    throw new ApiError(400, 'invalid_parameter', 'Quiet hours that start and end at the same time are empty.', {
      param: 'quiet_hours.end',
      suggestion: 'Send a span such as {"start":"22:00","end":"07:00"}, or null for none.',
      de: {
        message: 'Eine Ruhezeit, die zur selben Zeit beginnt und endet, ist leer.',
        suggestion: 'Senden Sie eine Spanne wie {"start":"22:00","end":"07:00"}, oder null für keine.',
      },
    });
  }
  const kinds = { ...current.kinds };
  for (const kind of NOTIFICATION_KINDS) kinds[kind] = { ...kinds[kind], ...body.kinds?.[kind] };
  const next: NotificationPreferences = {
    language: body.language ?? current.language,
    quiet_hours: body.quiet_hours === undefined ? current.quiet_hours : body.quiet_hours,
    digest_time: body.digest_time ?? current.digest_time,
    kinds,
  };
  const key = row?.unsubscribe_key ?? newUnsubscribeKey();
  // A language named is the person's choice: also the default of their API answers (http/language.ts).
  const chosenAt = body.language !== undefined ? now.toISOString() : (row?.language_chosen_at ?? null);
  await inWriteTransaction(context, (trx) =>
    saveNotificationSettings(trx, rowOf(account.id, next, key, now, chosenAt)),
  );
  return next;
}

/** Who of an event's parties is told, what kind it is and what the e-mail needs. */
interface Planned {
  accountId: string;
  kind: NotificationKind;
  foldKey: string | null;
  payload: Record<string, unknown>;
  /** When it may go at the earliest (a message waits for the ones after it). */
  notBefore: Date;
}

/** The people an event is told to, by its type: never the one who caused it. */
async function plannedFor(db: Queryable, event: NotifiedEvent, now: Date): Promise<Planned[]> {
  const kind = kindOfEvent(event.type);
  // Read a day late (notifications were off, or every instance was down): news no more.
  if (!kind || now.getTime() - Date.parse(event.created_at) > STALE_AFTER_MS) return [];
  const data = JSON.parse(event.payload) as Record<string, unknown>;
  const at = new Date(event.created_at);
  const audience = JSON.parse(event.audience ?? '[]') as string[];
  if (event.type === 'message.created') {
    // Its audience is the recipient alone; the messages of one conversation fold into one e-mail.
    const conversation = String(data.conversation_id);
    const notBefore = new Date(at.getTime() + MESSAGE_FOLD_MINUTES * 60_000);
    return audience.map((accountId) => ({
      accountId,
      kind,
      foldKey: conversation,
      payload: { conversation },
      notBefore,
    }));
  }
  if (event.type.startsWith('application.')) {
    const parties = await applicationParties(db, event.subject_id);
    if (!parties) return [];
    const created = event.type === 'application.created';
    const to = created ? parties.owner : parties.helper;
    if (!to) return [];
    const status = created ? 'created' : String(data.status);
    if (!['created', 'accepted', 'rejected'].includes(status)) return [];
    return [{ accountId: to, kind, foldKey: null, payload: { status, job_id: data.job_id }, notBefore: at }];
  }
  if (event.type === 'job_series.helper_excused') {
    // The side that did not excuse: the owner of the helper's excuse, the helper of the owner's.
    const excusal = await excusalOf(db, event.subject_id, event.created_at);
    if (!excusal) return [];
    const to = excusal.excused_by === 'helper' ? excusal.owner : excusal.helper;
    const payload = {
      status: `excused_by_${excusal.excused_by}`,
      date: excusal.occurrence_date,
      series_id: excusal.series_id,
    };
    return [{ accountId: to, kind, foldKey: null, payload, notBefore: at }];
  }
  if (kind === 'payments') {
    // Each party has an event of its own (audience: one account), with its own next step.
    const [accountId] = audience;
    const step = event.type.startsWith('payment.')
      ? paymentStep(event.type, data)
      : // A claim to answer (accept or dispute); its decision is e-mailed by the operator's command already.
        ((data.next_actions as string[] | undefined)?.length ?? 0) > 0
        ? 'answer_claim'
        : null;
    if (!accountId || !step) return [];
    const payload = { step, amount_eur: data.amount_eur, about: event.type.split('.')[0] };
    return [{ accountId, kind, foldKey: null, payload, notBefore: at }];
  }
  const parties = await bookingParties(db, event.subject_id);
  if (!parties) return [];
  if (event.type.startsWith('booking.extension_')) {
    // Asked: the owner decides. Decided: the renter learns it; accepted as it was asked (instant
    // booking), only the owner is told, that the booking is longer now.
    const times = await extensionTimes(db, String(data.id));
    const instant = times?.decided_at != null && times.decided_at === times.created_at;
    const requested = event.type === 'booking.extension_requested';
    if (requested && instant) return [];
    const status = requested ? 'extension_requested' : instant ? 'extended' : `extension_${String(data.status)}`;
    const to = requested || instant ? parties.owner : parties.renter;
    if (!to || !['extension_requested', 'extended', 'extension_accepted', 'extension_declined'].includes(status))
      return [];
    return [{ accountId: to, kind, foldKey: null, payload: { status, until: data.until }, notBefore: at }];
  }
  // A booking made (booking.created) is a request, or, with instant booking, booked at once.
  const made = data.status === 'confirmed' ? 'booked' : 'requested';
  const status = event.type === 'booking.created' ? made : String(data.status);
  const when = { start_date: data.start_date, end_date: data.end_date, start_at: data.start_at, end_at: data.end_at };
  const to =
    status === 'requested' || status === 'booked'
      ? [parties.owner]
      : ['confirmed', 'declined', 'expired'].includes(status)
        ? [parties.renter]
        : status === 'cancelled'
          ? [parties.cancelled_by === 'owner' ? parties.renter : parties.owner]
          : [];
  return to.flatMap((accountId) =>
    accountId ? [{ accountId, kind, foldKey: null, payload: { status, ...when }, notBefore: at }] : [],
  );
}

/** Whether the account has reviewed the application or booking. */
const hasReviewed = async (db: Queryable, aboutId: string, accountId: string) =>
  (await reviewAuthorsOf(db, [aboutId])).has(`${aboutId} ${accountId}`);

/**
 * Whether a payment's event asks something of its reader: its status changed and now waits for
 * them (the payer marked it paid: the payee confirms; Stripe failed: the payer pays again), or it
 * was created to be paid at Stripe, which only the person can do. A manual payment's first steps
 * (mark paid, confirm) are known to both sides from the job or booking and are not mailed; nor is
 * a deposit's release, which is due at the return, not when the deposit arrives.
 */
function paymentStep(type: string, data: Record<string, unknown>): string | null {
  const next = (data.next_action as { type?: string } | null | undefined)?.type;
  if (!next || next === 'release_deposit') return null; // a deposit is released after the return, not when it arrives
  if (type === 'payment.status_changed' || next === 'pay_at_stripe') return next;
  return null;
}

/**
 * The planning sweep (every instance, every EVENTS_POLL_MS): reads the events after the shared
 * cursor (each batch taken by one instance, in a transaction with what it plans) and records
 * per person and chosen channel what to send and when: at once, after quiet hours or at the next
 * digest. Returns how many it recorded.
 */
export async function planNotifications(db: Kysely<Database>, now: Date): Promise<number> {
  // Idle (nothing new): no write transaction, so the sweep holds no lock every round.
  if (!(await eventsMayWait(db))) return 0;
  return inWriteTransaction({ db, now, claim: null }, async (trx) => {
    const events = await takeEventBatch(trx, PLAN_BATCH, new Date(now.getTime() - STALE_AFTER_MS).toISOString());
    if (events.length === 0) return 0;
    const planned = (
      await Promise.all(events.map(async (event) => ({ event, for: await plannedFor(trx, event, now) })))
    ).flatMap(({ event, for: people }) =>
      people.map((person) => ({
        person,
        source: String(event.id),
        eventType: event.type,
        subjectId: event.subject_id,
        at: new Date(event.created_at),
      })),
    );
    return recordPlanned(trx, planned, now);
  });
}

/** Something to tell one person, with where it came from. */
interface ToTell {
  person: Planned;
  /** With the account and the channel, what makes it once: the event's id, or the reminder's name. */
  source: string;
  eventType: string;
  subjectId: string;
  /** When it happened (a digest collects it for the next digest time after). */
  at: Date;
}

/** Records what to tell whom on each channel the person chose for its kind, at the time they chose. */
async function recordPlanned(trx: Queryable, planned: readonly ToTell[], now: Date): Promise<number> {
  const rows: NewNotification[] = [];
  const accounts = [...new Set(planned.map(({ person }) => person.accountId))];
  const [settings, pushable] = await Promise.all([
    notificationSettingsOf(trx, accounts),
    accountsWithPush(trx, accounts),
  ]);
  for (const { person, source, eventType, subjectId, at } of planned) {
    const row = settings.get(person.accountId);
    const preferences = preferencesOf(row);
    if (!row) {
      // The key of the links goes with the first notification.
      await saveNotificationSettings(trx, rowOf(person.accountId, preferences, newUnsubscribeKey(), now));
      settings.set(person.accountId, rowOf(person.accountId, preferences, '', now));
    }
    const channels = preferences.kinds[person.kind];
    const base = {
      account_id: person.accountId,
      kind: person.kind,
      source,
      event_type: eventType,
      subject_id: subjectId,
      fold_key: person.foldKey,
      payload: JSON.stringify(person.payload),
      created_at: at.toISOString(),
    };
    if (channels.email) {
      const due = afterQuietHours(person.notBefore, preferences.quiet_hours);
      rows.push({ ...base, channel: 'email', due_at: due.toISOString() });
    }
    // A push only to an account with a browser to push to (most have none).
    if (channels.push && pushable.has(person.accountId)) {
      const due = afterQuietHours(person.notBefore, preferences.quiet_hours);
      rows.push({ ...base, channel: 'push', due_at: due.toISOString() });
    }
    if (channels.digest) {
      rows.push({ ...base, channel: 'digest', due_at: nextDigestAt(at, preferences.digest_time).toISOString() });
    }
  }
  return insertNotifications(trx, rows);
}

/**
 * Reminders (every REMINDER_SCAN_MS, in every instance): a confirmed booking's pick-up tomorrow
 * (to the renter and the owner), an active one's return tomorrow and, once, its return overdue
 * (to the renter), by the local date in Karlsruhe; and to each side of a returned booking or a
 * finally completed job that has not reviewed yet, that the review window (reviewWindowDays from
 * the return or the final completion) closes within REVIEW_REMINDER_HOURS. Each is recorded once
 * per person (its source names the reminder and the booking or application), whichever instance
 * looks first. Returns how many it recorded.
 */
export async function planReminders(
  db: Kysely<Database>,
  now: Date,
  options: { reviewWindowDays: number },
): Promise<number> {
  // Read once, outside a transaction: nothing to remind of takes no write lock, and what is found
  // is recorded once per person and reminder whichever instance records it first (insertNotifications).
  const planned = await remindersDue(db, now, options.reviewWindowDays);
  if (planned.length === 0) return 0;
  return inWriteTransaction({ db, now, claim: null }, (trx) => recordPlanned(trx, planned, now));
}

/** The reminders due at `now` (planReminders), read in `db`. */
async function remindersDue(db: Queryable, now: Date, reviewWindowDays: number): Promise<ToTell[]> {
  const today = berlinDate(now);
  const tomorrow = nextDate(today);
  const planned: ToTell[] = [];
  const remind = (accountId: string | null, reminder: Reminder, subjectId: string, payload: object) => {
    if (!accountId) return;
    planned.push({
      person: { accountId, kind: 'reminders', foldKey: null, payload: { reminder, ...payload }, notBefore: now },
      source: `reminder:${reminder}:${subjectId}`,
      eventType: `reminder.${reminder}`,
      subjectId,
      at: now,
    });
  };
  for (const booking of await bookingsToRemind(db, today, tomorrow)) {
    const reminder: Reminder | null =
      booking.status === 'confirmed'
        ? 'pickup'
        : booking.end_date === tomorrow
          ? 'return'
          : booking.end_date < today
            ? 'overdue'
            : null;
    if (!reminder) continue;
    const { start_date, end_date, start_at, end_at } = booking;
    const when = { start_date, end_date, start_at, end_at };
    remind(booking.renter, reminder, booking.id, when);
    if (reminder === 'pickup') remind(booking.owner, reminder, booking.id, when);
  }
  // Review windows closing within REVIEW_REMINDER_HOURS: they opened in (now - window, now - window + hours].
  // A window no longer than that is not reminded of: it would be at its very start.
  if (reviewWindowDays * 24 <= REVIEW_REMINDER_HOURS) return planned;
  const opened = now.getTime() - reviewWindowDays * 86_400_000;
  const after = new Date(opened).toISOString();
  const upTo = new Date(opened + REVIEW_REMINDER_HOURS * 3_600_000).toISOString();
  const [bookings, applications] = await Promise.all([
    returnedBookingsBetween(db, after, upTo),
    finalApplicationsBetween(db, after, upTo),
  ]);
  const subjects = [
    ...bookings.map((row) => ({ ...row, about: 'booking', job_id: null, parties: [row.renter, row.owner] })),
    ...applications.map((row) => ({ ...row, about: 'application', parties: [row.helper, row.owner] })),
  ];
  const reviewed = await reviewAuthorsOf(
    db,
    subjects.map((subject) => subject.id),
  );
  for (const subject of subjects) {
    const closes = new Date(Date.parse(subject.since ?? '') + reviewWindowDays * 86_400_000).toISOString();
    const payload = { about: subject.about, job_id: subject.job_id, closes_at: closes };
    for (const accountId of subject.parties) {
      if (!reviewed.has(`${subject.id} ${accountId}`)) remind(accountId, 'review', subject.id, payload);
    }
  }
  return planned;
}

/** What a renderer of one notification's words is given. */
interface LineInput {
  db: Queryable;
  row: NotificationRow;
  payload: Record<string, string | null>;
  /** How many notifications this line folds (a conversation's messages). */
  count: number;
  language: Language;
  baseUrl: string;
  /** A text of the language's resources, with its values put in. */
  t: (key: string, values?: Record<string, unknown>) => string;
  /** Where to act: said in the line, and given as such (a push opens it). */
  action: (key: string, url: string) => { action: string; url: string };
}

/** Which words a notification has: its kind, and within a kind what it is about. */
type LineVariant = 'message' | 'series' | 'payment' | 'review_reminder' | 'application' | 'reminder' | 'booking';

function variantOf(row: NotificationRow, payload: Record<string, string | null>): LineVariant {
  switch (row.kind) {
    case 'messages':
      return 'message';
    case 'applications':
      // A standing helper excused from one occurrence of a series.
      return payload.series_id ? 'series' : 'application';
    case 'payments':
      return 'payment';
    case 'reminders':
      return payload.reminder === 'review' ? 'review_reminder' : 'reminder';
    default:
      // 'bookings' (the table's kind is text: a kind no longer known reads as a booking's line, as before)
      return 'booking';
  }
}

/**
 * The words of each variant, titles read now as every title here (nothing of an e-mail's text is
 * stored; an erased subject reads as erased).
 */
const LINES: Record<LineVariant, (input: LineInput) => Promise<NotificationLine>> = {
  async message({ db, payload, count, t, action, baseUrl }) {
    const values = { count, title: await conversationTitle(db, String(payload.conversation)) };
    return {
      subject: t('notification.message.subject', values),
      body: t('notification.message.body', values),
      ...action('notification.message.action', `${baseUrl}/v1/conversations/${payload.conversation}/messages`),
    };
  },
  async series({ db, payload, language, t, action, baseUrl }) {
    const series = await findSeriesRow(db, String(payload.series_id));
    const title = series ? String((JSON.parse(series.template) as { title?: unknown }).title ?? '') : '';
    const values = { title, date: dateWords(String(payload.date), language) };
    return {
      subject: t(`notification.application.${payload.status}.subject`, values),
      body: t(`notification.application.${payload.status}.body`, values),
      ...action('notification.series.action', `${baseUrl}/v1/job-series/${payload.series_id}`),
    };
  },
  async payment({ db, row, payload, language, t, action, baseUrl }) {
    const claim = payload.about === 'claim';
    const title = claim ? await claimTitle(db, row.subject_id) : await paymentTitle(db, row.subject_id);
    const values = { title, amount: euros(Number(payload.amount_eur ?? 0), language) };
    return {
      subject: t(`notification.payment.${payload.step}.subject`, values),
      body: t(`notification.payment.${payload.step}.body`, values),
      ...(claim
        ? action('notification.payment.claim_action', `${baseUrl}/v1/claims/${row.subject_id}`)
        : action('notification.payment.action', `${baseUrl}/v1/payments/${row.subject_id}`)),
    };
  },
  async review_reminder({ db, row, payload, language, t, action, baseUrl }) {
    const job = payload.about === 'application';
    const parties = job ? await applicationParties(db, row.subject_id) : await bookingParties(db, row.subject_id);
    const values = { title: parties?.title ?? '', closes: berlin(String(payload.closes_at), language) };
    return {
      subject: t('notification.reminder.review.subject', values),
      body: t('notification.reminder.review.body', values),
      ...(job
        ? action('notification.application.action', `${baseUrl}/v1/jobs/${payload.job_id}`)
        : action('notification.booking.action', `${baseUrl}/v1/bookings/${row.subject_id}`)),
    };
  },
  async application({ db, row, payload, t, action, baseUrl }) {
    const values = { title: (await applicationParties(db, row.subject_id))?.title ?? '' };
    return {
      subject: t(`notification.application.${payload.status}.subject`, values),
      body: t(`notification.application.${payload.status}.body`, values),
      ...action('notification.application.action', `${baseUrl}/v1/jobs/${payload.job_id}`),
    };
  },
  async reminder({ db, row, payload, language, t, action, baseUrl }) {
    const values = { title: (await bookingParties(db, row.subject_id))?.title ?? '', when: whenOf(payload, language) };
    return {
      subject: t(`notification.reminder.${payload.reminder}.subject`, values),
      body: t(`notification.reminder.${payload.reminder}.body`, values),
      ...action('notification.booking.action', `${baseUrl}/v1/bookings/${row.subject_id}`),
    };
  },
  async booking({ db, row, payload, language, t, action, baseUrl }) {
    // An extension's line names its new end; the others the booking's time.
    const when = payload.until ? dateWords(payload.until, language) : whenOf(payload, language);
    const values = { title: (await bookingParties(db, row.subject_id))?.title ?? '', when };
    return {
      subject: t(`notification.booking.${payload.status}.subject`, values),
      body: t(`notification.booking.${payload.status}.body`, values),
      ...action('notification.booking.action', `${baseUrl}/v1/bookings/${row.subject_id}`),
    };
  },
};

/** The words of one notification in the account's language. */
function lineOf(
  db: Queryable,
  row: NotificationRow,
  count: number,
  language: Language,
  baseUrl: string,
): Promise<NotificationLine> {
  const payload = JSON.parse(row.payload) as Record<string, string | null>;
  const t = (key: string, values = {}) => translate(language, key, values);
  const action = (key: string, url: string) => ({ action: t(key, { url }), url });
  return LINES[variantOf(row, payload)]({ db, row, payload, count, language, baseUrl, t, action });
}

/** A booking's time as words: its hours in local time, or its days. */
const whenOf = (payload: Record<string, string | null>, language: Language) =>
  payload.start_at && payload.end_at
    ? `${berlin(payload.start_at, language)} – ${berlin(payload.end_at, language)}`
    : `${day(String(payload.start_date), language)} – ${day(String(payload.end_date), language)}`;

/** A local day (YYYY-MM-DD) as the language writes it: 10.12.2026, 10 Dec 2026. */
const day = (date: string, language: Language) =>
  new Intl.DateTimeFormat(language === 'de' ? 'de-DE' : 'en-GB', { timeZone: 'UTC', dateStyle: 'medium' }).format(
    new Date(`${date}T12:00:00Z`),
  );

/** A day (YYYY-MM-DD) or an instant (in local time), as words. */
const dateWords = (value: string, language: Language) =>
  value.includes('T') ? berlin(value, language) : day(value, language);

const euros = (amount: number, language: Language) =>
  new Intl.NumberFormat(language === 'de' ? 'de-DE' : 'en-GB', { style: 'currency', currency: 'EUR' }).format(amount);

const berlin = (iso: string, language: Language) =>
  new Intl.DateTimeFormat(language === 'de' ? 'de-DE' : 'en-GB', {
    timeZone: 'Europe/Berlin',
    dateStyle: 'medium',
    timeStyle: 'short',
  }).format(new Date(iso));

/**
 * The sending sweep (every instance, every EVENTS_POLL_MS): claims the due notifications (each
 * once across instances), folds what goes together (a conversation's messages, a day's digest),
 * renders them in the account's language and sends them through the mailer; a failed send is
 * tried again later (the wait doubling from a minute, MAX_SEND_ATTEMPTS in all), an erased or
 * suspended account's are dropped. Pushes go to every browser the account subscribed (web-push).
 * Returns how many e-mails and pushes it sent.
 */
export async function sendDueNotifications(
  db: Kysely<Database>,
  mailer: Mailer,
  options: { now: Date; baseUrl: string; push: PushSettings },
): Promise<number> {
  const { now, baseUrl } = options;
  let sent = 0;
  for (let round = 0; round < SEND_BATCH; round++) {
    const first = await claimNextDue(db, now);
    if (!first) break;
    const folded = await claimFolded(db, first, now);
    const all = [first, ...folded];
    const ids = all.map((row) => row.id);
    const recipient = await recipientOf(db, first.account_id);
    const settings = await findNotificationSettings(db, first.account_id);
    if (!recipient || recipient.erased_at !== null || recipient.suspended_at !== null || !settings) {
      await markUnsent(db, ids, { status: 'dropped', dueAt: first.due_at, error: null });
      continue;
    }
    // A review reminder that waited (quiet hours) for a person who has reviewed meanwhile: said no more.
    if (first.event_type === 'reminder.review' && (await hasReviewed(db, first.subject_id, first.account_id))) {
      await markUnsent(db, ids, { status: 'dropped', dueAt: first.due_at, error: null });
      continue;
    }
    const preferences = preferencesOf(settings);
    const kind = first.kind as NotificationKind;
    try {
      if (first.channel === 'push') {
        const line = await lineOf(db, first, all.length, preferences.language, baseUrl);
        const message = { title: line.subject, body: line.body, url: line.url, kind };
        const reached = await pushToAccount(db, first.account_id, message, options.push, now);
        if (reached)
          await markSent(
            db,
            first.id,
            folded.map((row) => row.id),
            now,
          );
        // Every browser unsubscribed meanwhile: nothing to push to.
        else await markUnsent(db, ids, { status: 'dropped', dueAt: first.due_at, error: null });
        if (reached) sent++;
        continue;
      }
      const lines =
        first.channel === 'digest'
          ? await Promise.all(all.map((row) => lineOf(db, row, 1, preferences.language, baseUrl)))
          : [await lineOf(db, first, all.length, preferences.language, baseUrl)];
      const token = notificationToken(
        first.account_id,
        first.channel === 'digest' ? 'digest' : kind,
        settings.unsubscribe_key,
      );
      await mailer.send(
        notificationEmail({
          to: recipient.email,
          language: preferences.language,
          kind,
          digest: first.channel === 'digest',
          lines,
          unsubscribeUrl: `${baseUrl}/v1/notifications/unsubscribe?token=${token}`,
          settingsUrl: `${baseUrl}/v1/me/notification-settings`,
        }),
      );
      await markSent(
        db,
        first.id,
        folded.map((row) => row.id),
        now,
      );
      sent++;
    } catch (error) {
      const attempts = first.attempts + 1;
      await markUnsent(db, ids, {
        status: attempts >= MAX_SEND_ATTEMPTS ? 'failed' : 'pending',
        dueAt: new Date(now.getTime() + retryDelay(attempts)).toISOString(),
        error: error instanceof Error ? error.message.slice(0, 500) : String(error).slice(0, 500),
      });
    }
  }
  return sent;
}

/** What an unsubscribe link stops, in words, or null for a link that is not (any more) valid. */
export async function unsubscribeTarget(
  db: Queryable,
  token: string,
): Promise<{ accountId: string; kind: NotificationKind | 'digest'; language: Language } | null> {
  const parts = notificationTokenParts(token);
  if (!parts) return null;
  const kind = parts.kind as NotificationKind | 'digest';
  if (kind !== 'digest' && !NOTIFICATION_KINDS.includes(kind)) return null;
  const row = await findNotificationSettings(db, parts.accountId);
  if (!row || !notificationTokenValid(token, parts.accountId, kind, row.unsubscribe_key)) return null;
  return { accountId: parts.accountId, kind, language: row.language };
}

/**
 * One-click unsubscribe (RFC 8058): the link's kind stops being e-mailed (for the digest link:
 * nothing more goes to the digest), what is pending of it is dropped; other kinds stay. Returns
 * what it stopped, or null for a link that is not valid.
 */
export async function unsubscribe(
  db: Queryable,
  token: string,
  now: Date,
): Promise<{ kind: NotificationKind | 'digest'; language: Language } | null> {
  const target = await unsubscribeTarget(db, token);
  const row = target && (await findNotificationSettings(db, target.accountId));
  if (!target || !row) return null;
  const preferences = preferencesOf(row);
  const kinds = { ...preferences.kinds };
  if (target.kind === 'digest') {
    for (const kind of NOTIFICATION_KINDS) {
      kinds[kind] = { ...kinds[kind], digest: false };
      await dropPending(db, target.accountId, kind, 'digest');
    }
  } else {
    kinds[target.kind] = { ...kinds[target.kind], email: false };
    await dropPending(db, target.accountId, target.kind, 'email');
  }
  await saveNotificationSettings(
    db,
    rowOf(target.accountId, { ...preferences, kinds }, row.unsubscribe_key, now, row.language_chosen_at),
  );
  return { kind: target.kind, language: target.language };
}

/** The words naming what a link stops, in a language. */
export function kindName(kind: NotificationKind | 'digest', language: Language): string {
  return translate(language, kind === 'digest' ? 'notification.digest.name' : `notification.kinds.${kind}`);
}
