import { sql } from 'kysely';
import { dialectOf, type Queryable } from '../db/queryable.js';

/** The business flows limited per account (OWASP API6: sensitive business flows). */
export type QuotaFlow = 'applications' | 'bookings' | 'messages' | 'conversations';

/**
 * How many of a flow one account may start per hour (APPLICATIONS_, BOOKINGS_, MESSAGES_ and
 * NEW_CONVERSATIONS_PER_ACCOUNT_PER_HOUR).
 */
export type AccountQuotas = Record<QuotaFlow, number>;

export const QUOTA_WINDOW_MS = 3_600_000;

/** Where each flow's requests are counted: the rows it creates, by the account that made them. */
const COUNTED = {
  applications: { table: 'applications', column: 'account_id' },
  bookings: { table: 'bookings', column: 'renter_account_id' },
  messages: { table: 'messages', column: 'sender_account_id' },
  conversations: { table: 'conversations', column: 'started_by' },
} as const;

/** Thrown inside a write transaction when the account's quota is spent: everything rolls back. */
export class QuotaExceeded extends Error {
  constructor(
    readonly flow: QuotaFlow,
    readonly limit: number,
    /** Seconds until the oldest counted request leaves the window. */
    readonly retryAfterSeconds: number,
  ) {
    super(`${flow} quota of ${limit} per hour spent`);
  }
}

/**
 * Inside the write transaction that would add one more: throws QuotaExceeded when the account
 * already started `limit` of this flow within the last hour. PostgreSQL: a transaction-scoped
 * advisory lock per account and flow makes concurrent requests of one account count one after the
 * other (SQLite runs its write transactions one at a time anyway), so the limit is exact.
 */
export async function claimQuota(
  trx: Queryable,
  flow: QuotaFlow,
  accountId: string,
  limit: number,
  now: Date,
): Promise<void> {
  if (dialectOf(trx) === 'postgres') {
    await sql`select pg_advisory_xact_lock(hashtext(${`quota:${flow}:${accountId}`}))`.execute(trx);
  }
  const since = new Date(now.getTime() - QUOTA_WINDOW_MS).toISOString();
  const { table, column } = COUNTED[flow];
  const { rows: recent } = await sql<{ created_at: string }>`
    select created_at from ${sql.table(table)}
    where ${sql.ref(column)} = ${accountId} and created_at > ${since}
    order by created_at limit ${limit}`.execute(trx);
  if (recent.length < limit) return;
  const oldest = Date.parse(recent[0]?.created_at ?? now.toISOString());
  throw new QuotaExceeded(flow, limit, Math.max(1, Math.ceil((oldest + QUOTA_WINDOW_MS - now.getTime()) / 1000)));
}
