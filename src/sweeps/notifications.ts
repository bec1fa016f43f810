import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { REMINDER_SCAN_MS } from '../domain/notifications.js';
import { planNotifications, planReminders, sendDueNotifications } from '../services/notifications.js';
import { PeriodicSweep } from './periodic.js';

export interface NotificationSweepOptions {
  now: () => Date;
  /** EVENTS_POLL_MS: what happened is planned, and what is due sent, about as soon as it is. */
  everyMs: number;
  baseUrl: string;
  /** REVIEW_WINDOW_DAYS: a side that has not reviewed is reminded before the window closes. */
  reviewWindowDays: number;
  push: Parameters<typeof sendDueNotifications>[2]['push'];
  mailer: Parameters<typeof sendDueNotifications>[1];
  log: FastifyBaseLogger;
}

/**
 * Notifications (issue 36), every everyMs, in every instance: plans what the new events tell
 * whom (each batch of events taken by one instance), every REMINDER_SCAN_MS the reminders that
 * came due, and sends what is due (each notification claimed by one instance), so nothing is sent
 * twice and nothing planned is lost.
 */
export function notificationSweep(db: Kysely<Database>, options: NotificationSweepOptions): PeriodicSweep {
  const { now, everyMs, log, mailer, baseUrl, push, reviewWindowDays } = options;
  let remindedAt = Number.NEGATIVE_INFINITY;
  return new PeriodicSweep({
    everyMs,
    log,
    run: async () => {
      let planned = await planNotifications(db, now());
      // Reminders are looked for now and then, not every round: each is recorded once anyway.
      if (now().getTime() - remindedAt >= REMINDER_SCAN_MS) {
        planned += await planReminders(db, now(), { reviewWindowDays });
        remindedAt = now().getTime();
      }
      const sent = await sendDueNotifications(db, mailer, { now: now(), baseUrl, push });
      return planned + sent;
    },
    done: 'notifications planned or sent',
    failed: 'notification sweep failed; retried next round',
  });
}
