/**
 * Operators and the audit log (issue 33, migration 0031). The audit log is only ever inserted into
 * and read: a trigger refuses updates and deletes on both engines.
 */
import type { Queryable } from '../db/queryable.js';
import type { AuditLogRow, OperatorRole, OperatorRow } from '../db/schema.js';
import { newId } from '../domain/ids.js';
import type { WriteTransaction } from './write-transaction.js';

export function findOperator(db: Queryable, accountId: string): Promise<OperatorRow | undefined> {
  return db.selectFrom('operators').selectAll().where('account_id', '=', accountId).executeTakeFirst();
}

/** Gives an account a role (or changes it); the row as it is now. */
export function putOperator(
  trx: WriteTransaction,
  accountId: string,
  role: OperatorRole,
  createdBy: string,
  now: Date,
): Promise<OperatorRow> {
  const at = now.toISOString();
  return trx
    .insertInto('operators')
    .values({ account_id: accountId, role, created_by: createdBy, created_at: at, updated_at: at })
    .onConflict((oc) => oc.column('account_id').doUpdateSet({ role, updated_at: at }))
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Takes the role away; whether the account had one. */
export async function deleteOperator(trx: WriteTransaction, accountId: string): Promise<boolean> {
  const deleted = await trx.deleteFrom('operators').where('account_id', '=', accountId).executeTakeFirst();
  return Number(deleted.numDeletedRows) > 0;
}

/** Every operator with the account's e-mail and name, admins first. */
export function listOperators(db: Queryable) {
  return db
    .selectFrom('operators')
    .innerJoin('accounts', 'accounts.id', 'operators.account_id')
    .select(['operators.account_id', 'operators.role', 'operators.created_at', 'accounts.email', 'accounts.name'])
    .orderBy('operators.role')
    .orderBy('accounts.email')
    .execute();
}

/** How many admins there are (the last one is not removed). */
export async function adminCount(db: Queryable): Promise<number> {
  const row = await db
    .selectFrom('operators')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('role', '=', 'admin')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface AuditEntry {
  actor: string;
  actorRole: AuditLogRow['actor_role'];
  action: string;
  targetType: string;
  targetId: string;
  reason?: string | null;
  details?: Record<string, unknown> | null;
}

/** Appends one entry, in the transaction of the action it records. */
export async function insertAudit(trx: WriteTransaction, entry: AuditEntry, now: Date): Promise<AuditLogRow> {
  return trx
    .insertInto('audit_log')
    .values({
      id: newId('aud'),
      at: now.toISOString(),
      actor: entry.actor,
      actor_role: entry.actorRole,
      action: entry.action,
      target_type: entry.targetType,
      target_id: entry.targetId,
      reason: entry.reason ?? null,
      details: entry.details ? JSON.stringify(entry.details) : null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export interface AuditFilter {
  from?: string | undefined;
  to?: string | undefined;
  actor?: string | undefined;
  action?: string | undefined;
  targetId?: string | undefined;
}

/** Entries in [from, to), oldest first, filtered; with `newest`, only the newest that many (still oldest first). */
export async function auditEntries(db: Queryable, filter: AuditFilter, newest?: number): Promise<AuditLogRow[]> {
  let query = db.selectFrom('audit_log').selectAll();
  if (filter.from) query = query.where('at', '>=', filter.from);
  if (filter.to) query = query.where('at', '<', filter.to);
  if (filter.actor) query = query.where('actor', '=', filter.actor);
  if (filter.action) query = query.where('action', '=', filter.action);
  if (filter.targetId) query = query.where('target_id', '=', filter.targetId);
  if (newest === undefined) return query.orderBy('at').orderBy('id').execute();
  const rows = await query.orderBy('at', 'desc').orderBy('id', 'desc').limit(newest).execute();
  return rows.reverse();
}
