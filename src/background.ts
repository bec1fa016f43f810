import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { type Config, publicBaseUrl } from './config.js';
import type { Database } from './db/schema.js';
import { API_VERSION } from './domain/tiers.js';
import { configuredLimits, pushSettingsOf } from './http/route-deps.js';
import { createMailer } from './mail/mailer.js';
import { pruneSearchChanges } from './repositories/search-changes.js';
import type { PaymentProvider } from './services/payment-provider.js';
import { sendSavedSearchDigests } from './services/saved-search-digests.js';
import { forgetEndedSignIns } from './services/sign-in.js';
import { bookingRequestSweep } from './sweeps/booking-requests.js';
import { busyCalendarSweep } from './sweeps/busy-calendars.js';
import { completionSweep } from './sweeps/completions.js';
import { jobSeriesSweep } from './sweeps/job-series.js';
import { notificationSweep } from './sweeps/notifications.js';
import { PeriodicSweep } from './sweeps/periodic.js';
import { providerTaskSweep } from './sweeps/provider-tasks.js';
import { reviewPublicationSweep } from './sweeps/reviews.js';
import { waitlistSweep } from './sweeps/waitlist.js';
import { WebhookWorker } from './webhooks/worker.js';

/** How long the search indexes' change log keeps a change, and how often it is pruned. */
export const SEARCH_CHANGES_KEPT_MS = 3_600_000;
const SEARCH_CHANGES_SWEEP_MS = 600_000;
/** How often expired sign-in codes and ended sessions are forgotten. */
const SIGN_IN_SWEEP_MS = 600_000;

/**
 * The work every instance does besides answering requests: sending the outbox's webhook deliveries
 * (when WEBHOOK_DELIVERY is on), expiring unanswered booking requests, publishing reviews whose
 * window closed, writing final the job completions nobody objected to, posting the occurrences of
 * job series as they come due, offering waiting lists' freed times, e-mailing notifications, sending saved-search
 * digests and forgetting old search changes, expired sign-in codes and ended sessions. All start
 * when the app is ready and stop (waiting for what is in flight) when it closes.
 */
export function startBackgroundWork(
  app: FastifyInstance,
  db: Kysely<Database>,
  config: Config,
  now: () => Date,
  payments: PaymentProvider | null = null,
): void {
  if (payments) {
    // Makes the calls to Stripe that writes decided on (captures, cancellations, refunds).
    const tasks = providerTaskSweep(db, payments, { now, everyMs: config.EVENTS_POLL_MS, log: app.log });
    app.addHook('onReady', async () => tasks.start());
    app.addHook('onClose', () => tasks.stop());
  }
  if (config.WEBHOOK_DELIVERY) {
    // Sends the outbox's deliveries; stopped (waiting for those in flight) when the app closes.
    const worker = new WebhookWorker(db, {
      now,
      pollMs: config.EVENTS_POLL_MS,
      retryBaseMs: config.WEBHOOK_RETRY_BASE_MS,
      maxAttempts: config.WEBHOOK_MAX_ATTEMPTS,
      timeoutMs: config.WEBHOOK_TIMEOUT_MS,
      allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_NETWORKS,
      log: app.log,
      userAgent: `KarlsruheMarketplace-Webhooks/${API_VERSION}`,
      retentionDays: config.EVENTS_RETENTION_DAYS,
      concurrency: config.WEBHOOK_CONCURRENCY,
      inFlight: { perWebhook: config.WEBHOOK_IN_FLIGHT_PER_WEBHOOK, perAccount: config.WEBHOOK_IN_FLIGHT_PER_ACCOUNT },
    });
    app.addHook('onReady', async () => worker.start());
    app.addHook('onClose', () => worker.stop());
  }
  // Writes `expired` (and its event) for unanswered booking requests; stopped when the app closes.
  const bookingRequests = bookingRequestSweep(db, {
    now,
    everyMs: config.EVENTS_POLL_MS,
    requestTtlHours: config.BOOKING_REQUEST_TTL_HOURS,
    log: app.log,
  });
  // Publishes reviews whose window closed alone (their events and the reviewed parties' figures).
  const reviews = reviewPublicationSweep(db, { now, everyMs: config.EVENTS_POLL_MS, log: app.log });
  // Writes final the job completions whose window to object closed (the helpers' figures count them).
  const completions = completionSweep(db, { now, everyMs: config.EVENTS_POLL_MS, log: app.log });
  // Posts the occurrences of job series as they enter the window (once each, across instances).
  const series = jobSeriesSweep(db, {
    now,
    everyMs: config.EVENTS_POLL_MS,
    horizonDays: config.SERIES_HORIZON_DAYS,
    fees: configuredLimits(config).fees,
    log: app.log,
  });
  const mailer = createMailer(config);
  // Offers waiting lists' times as they come free, holds them, mails the offers (once, across instances).
  const waitlists = waitlistSweep(db, {
    now,
    everyMs: config.EVENTS_POLL_MS,
    holdHours: config.WAITLIST_HOLD_HOURS,
    requestTtlHours: config.BOOKING_REQUEST_TTL_HOURS,
    baseUrl: publicBaseUrl(config),
    mailer,
    log: app.log,
  });
  // Fetches owners' and helpers' own calendars as they come due (each fetch claimed by one instance).
  const busyCalendars = busyCalendarSweep(db, {
    now,
    everyMs: config.EVENTS_POLL_MS,
    refreshMinutes: config.BUSY_CALENDAR_REFRESH_MINUTES,
    allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_NETWORKS,
    userAgent: `KarlsruheMarketplace-Calendars/${API_VERSION}`,
    log: app.log,
  });
  // E-mails what happens to people as they chose (planned from the events, each sent once across instances).
  const notifications = notificationSweep(db, {
    now,
    everyMs: config.EVENTS_POLL_MS,
    baseUrl: publicBaseUrl(config),
    reviewWindowDays: config.REVIEW_WINDOW_DAYS,
    push: pushSettingsOf(config),
    mailer,
    log: app.log,
  });
  // Sends the daily digest e-mails of saved-search matches (claimed per account: one instance sends).
  const digests = new PeriodicSweep({
    everyMs: config.DIGEST_SWEEP_MS,
    log: app.log,
    run: () => sendSavedSearchDigests(db, mailer, { now: now(), baseUrl: publicBaseUrl(config) }),
    done: 'saved-search digests sent',
    failed: 'saved-search digests failed; retried next round',
  });
  // Forgets the search indexes' change log after an hour (an index further behind rebuilds).
  const searchChanges = new PeriodicSweep({
    everyMs: SEARCH_CHANGES_SWEEP_MS,
    log: app.log,
    run: () => pruneSearchChanges(db, new Date(now().getTime() - SEARCH_CHANGES_KEPT_MS)),
    done: 'search change log pruned',
    failed: 'pruning the search change log failed; retried next round',
  });
  // Forgets expired sign-in codes (and the addresses they went to) and ended sessions, also when nobody signs in.
  const signIns = new PeriodicSweep({
    everyMs: SIGN_IN_SWEEP_MS,
    log: app.log,
    run: () => forgetEndedSignIns(db, now()),
    done: 'expired sign-in codes and ended sessions forgotten',
    failed: 'forgetting expired sign-in codes failed; retried next round',
  });
  for (const sweep of [
    bookingRequests,
    reviews,
    completions,
    series,
    waitlists,
    busyCalendars,
    ...(config.NOTIFICATION_EMAILS ? [notifications] : []),
    digests,
    searchChanges,
    signIns,
  ]) {
    app.addHook('onReady', async () => sweep.start());
    app.addHook('onClose', () => sweep.stop());
  }
  app.addHook('onClose', async () => mailer.close());
}
