/**
 * The operators' console (issue 33): who may enter (a signed-in account with an operator's role),
 * what each role sees, and the queues' figures. The pages are in http/views/console-pages.ts.
 */
import type { AuditLogRow, OperatorRole, OperatorRow } from '../db/schema.js';
import {
  appealQueue,
  claimQueue,
  keyRequestQueue,
  type QueueFigure,
  reportQueue,
  verificationQueue,
} from '../repositories/console.js';
import { findOperator } from '../repositories/operators.js';
import type { WriteContext } from '../repositories/write-transaction.js';
import { type AuditFilter, auditLog, roleAllows } from './operators.js';

/** A console session ends after this long without a request (then the operator signs in again). */
export const CONSOLE_IDLE_MINUTES = 30;

export type QueueName = 'key_requests' | 'verifications' | 'reports' | 'appeals' | 'claims';

/** Which role a queue needs: support sees key requests and verifications, moderators also decide reports, appeals and claims. */
export const QUEUE_ROLE: Record<QueueName, OperatorRole> = {
  key_requests: 'support',
  verifications: 'support',
  reports: 'moderator',
  appeals: 'moderator',
  claims: 'moderator',
};

const FIGURES: Record<QueueName, (db: WriteContext['db']) => Promise<QueueFigure>> = {
  key_requests: keyRequestQueue,
  verifications: verificationQueue,
  reports: reportQueue,
  appeals: appealQueue,
  claims: claimQueue,
};

/** The operator behind an account, or undefined: the console's door. */
export function operatorOf(db: WriteContext['db'], accountId: string): Promise<OperatorRow | undefined> {
  return findOperator(db, accountId);
}

/** Whether a session seen last at `lastSeenAt` is still a console session at `now`. */
export const consoleSessionLive = (lastSeenAt: string, now: Date): boolean =>
  now.getTime() - Date.parse(lastSeenAt) < CONSOLE_IDLE_MINUTES * 60_000;

/** The queues the role sees, with how many wait and since when. */
export async function queueFigures(
  db: WriteContext['db'],
  role: OperatorRole,
): Promise<{ queue: QueueName; figure: QueueFigure }[]> {
  const shown = (Object.keys(QUEUE_ROLE) as QueueName[]).filter((queue) => roleAllows(role, QUEUE_ROLE[queue]));
  return Promise.all(shown.map(async (queue) => ({ queue, figure: await FIGURES[queue](db) })));
}

/** The audit log for the console (admins), newest last, at most `limit` entries. */
export function auditPage(db: WriteContext['db'], filter: AuditFilter, limit = 200) {
  return auditLog(db, filter, limit);
}

/** The types the console's pages name. */
export type { AuditLogRow, OperatorRole, QueueFigure };
