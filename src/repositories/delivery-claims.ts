import { sql } from 'kysely';
import { dialectOf, type Queryable } from '../db/queryable.js';
import type { EventRow } from '../db/schema.js';

export interface DueDelivery {
  id: string;
  attempts: number;
  url: string;
  secret: string;
  event: Pick<EventRow, 'id' | 'type' | 'created_at' | 'payload'>;
}

/** The most attempts held at once of one webhook and of one account, across all workers. */
export interface InFlightLimits {
  perWebhook: number;
  perAccount: number;
}

/** An arbitrary constant naming the PostgreSQL advisory lock that makes claims one at a time. */
const CLAIM_LOCK = 0x6b6d_7009;
/**
 * Due deliveries read per slot to fill: of a webhook or account with room left only some may be
 * taken, so more are read than taken (those of webhooks and accounts at their limit are not read).
 */
const CANDIDATES_PER_SLOT = 4;

/**
 * Takes up to `limit` due deliveries not held by a worker, holding them until `lockedUntil`, and
 * none beyond `limits`: a webhook or account with that many deliveries held already (by any
 * worker: the holds are in the database) gets no more, so slow receivers of one account cannot
 * take every slot. One worker per delivery across processes; on PostgreSQL an advisory lock makes
 * claims one after another, so two instances cannot both take a webhook's last free place (SQLite
 * has one writer at a time). A worker that dies lets its holds expire; until then they count.
 */
export async function claimDueDeliveries(
  db: Queryable,
  now: Date,
  lockedUntil: Date,
  limit: number,
  limits: InFlightLimits,
): Promise<DueDelivery[]> {
  const at = now.toISOString();
  return db.transaction().execute(async (trx) => {
    const postgres = dialectOf(trx) === 'postgres';
    if (postgres) await sql`select pg_advisory_xact_lock(${sql.lit(CLAIM_LOCK)})`.execute(trx);
    const held = await trx
      .selectFrom('webhook_deliveries')
      .innerJoin('webhooks', 'webhooks.id', 'webhook_deliveries.webhook_id')
      .select(['webhook_deliveries.webhook_id', 'webhooks.account_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('webhook_deliveries.status', '=', 'pending')
      .where('webhook_deliveries.locked_until', '>', at)
      .groupBy(['webhook_deliveries.webhook_id', 'webhooks.account_id'])
      .execute();
    const ofWebhook = new Map<string, number>();
    const ofAccount = new Map<string, number>();
    for (const row of held) {
      ofWebhook.set(row.webhook_id, Number(row.n));
      ofAccount.set(row.account_id, (ofAccount.get(row.account_id) ?? 0) + Number(row.n));
    }
    const full = (counts: Map<string, number>, max: number) =>
      [...counts].filter(([, n]) => n >= max).map(([id]) => id);
    const fullWebhooks = full(ofWebhook, limits.perWebhook);
    const fullAccounts = full(ofAccount, limits.perAccount);

    let due = trx
      .selectFrom('webhook_deliveries')
      .innerJoin('webhooks', 'webhooks.id', 'webhook_deliveries.webhook_id')
      .select(['webhook_deliveries.id', 'webhook_deliveries.webhook_id', 'webhooks.account_id'])
      .where('webhook_deliveries.status', '=', 'pending')
      .where('webhook_deliveries.next_attempt_at', '<=', at)
      .where((eb) =>
        eb.or([eb('webhook_deliveries.locked_until', 'is', null), eb('webhook_deliveries.locked_until', '<=', at)]),
      )
      .orderBy('webhook_deliveries.next_attempt_at')
      .limit(limit * CANDIDATES_PER_SLOT);
    if (fullWebhooks.length > 0) due = due.where('webhook_deliveries.webhook_id', 'not in', fullWebhooks);
    if (fullAccounts.length > 0) due = due.where('webhooks.account_id', 'not in', fullAccounts);
    // PostgreSQL skips deliveries another transaction is changing (recording an attempt, say).
    if (postgres) due = due.forUpdate(['webhook_deliveries']).skipLocked();
    const ids: string[] = [];
    for (const row of await due.execute()) {
      if (ids.length === limit) break;
      const webhook = ofWebhook.get(row.webhook_id) ?? 0;
      const account = ofAccount.get(row.account_id) ?? 0;
      if (webhook >= limits.perWebhook || account >= limits.perAccount) continue;
      ofWebhook.set(row.webhook_id, webhook + 1);
      ofAccount.set(row.account_id, account + 1);
      ids.push(row.id);
    }
    if (ids.length === 0) return [];
    await trx
      .updateTable('webhook_deliveries')
      .set({ locked_until: lockedUntil.toISOString() })
      .where('id', 'in', ids)
      .execute();
    const rows = await trx
      .selectFrom('webhook_deliveries')
      .innerJoin('webhooks', 'webhooks.id', 'webhook_deliveries.webhook_id')
      .innerJoin('events', 'events.id', 'webhook_deliveries.event_id')
      .select([
        'webhook_deliveries.id',
        'webhook_deliveries.attempts',
        'webhooks.url',
        'webhooks.secret',
        'events.id as event_id',
        'events.type',
        'events.created_at',
        'events.payload',
      ])
      .where('webhook_deliveries.id', 'in', ids)
      .orderBy('webhook_deliveries.next_attempt_at')
      .execute();
    return rows.map((row) => ({
      id: row.id,
      attempts: row.attempts,
      url: row.url,
      secret: row.secret,
      event: { id: Number(row.event_id), type: row.type, created_at: row.created_at, payload: row.payload },
    }));
  });
}
