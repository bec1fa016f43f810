/** What the operators' console counts (issue 33): each queue's waiting items and its oldest one. */
import type { Queryable } from '../db/queryable.js';

export interface QueueFigure {
  waiting: number;
  /** When the oldest waiting item came in; null when none waits. */
  oldest: string | null;
}

async function figure(
  db: Queryable,
  table: 'key_requests' | 'verifications' | 'reports' | 'appeals' | 'claims',
  statuses: readonly string[],
): Promise<QueueFigure> {
  const row = await db
    .selectFrom(table)
    .select((eb) => [eb.fn.countAll<number>().as('waiting'), eb.fn.min<string>('created_at').as('oldest')])
    // biome-ignore lint/suspicious/noExplicitAny: each table's own status type; the lists below are theirs.
    .where('status', 'in', statuses as any)
    .executeTakeFirstOrThrow();
  return { waiting: Number(row.waiting), oldest: row.oldest ?? null };
}

export const keyRequestQueue = (db: Queryable) => figure(db, 'key_requests', ['pending']);
export const verificationQueue = (db: Queryable) => figure(db, 'verifications', ['pending']);
export const reportQueue = (db: Queryable) => figure(db, 'reports', ['received']);
export const appealQueue = (db: Queryable) => figure(db, 'appeals', ['pending']);
export const claimQueue = (db: Queryable) => figure(db, 'claims', ['disputed']);
