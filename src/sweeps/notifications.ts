import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { planNotifications, sendDueNotifications } from '../services/notifications.js';
import { PeriodicSweep } from './periodic.js';

export interface NotificationSweepOptions {
  now: () => Date;
  /** EVENTS_POLL_MS: what happened is planned, and what is due sent, about as soon as it is. */
  everyMs: number;
  baseUrl: string;
  mailer: Parameters<typeof sendDueNotifications>[1];
  log: FastifyBaseLogger;
}

/**
 * Notifications (issue 36), every everyMs, in every instance: plans what the new events tell
 * whom (each batch of events taken by one instance) and sends what is due (each notification
 * claimed by one instance), so nothing is sent twice and nothing planned is lost.
 */
export function notificationSweep(db: Kysely<Database>, options: NotificationSweepOptions): PeriodicSweep {
  const { now, everyMs, log, mailer, baseUrl } = options;
  return new PeriodicSweep({
    everyMs,
    log,
    run: async () => {
      const planned = await planNotifications(db, now());
      const sent = await sendDueNotifications(db, mailer, { now: now(), baseUrl });
      return planned + sent;
    },
    done: 'notifications planned or sent',
    failed: 'notification sweep failed; retried next round',
  });
}
