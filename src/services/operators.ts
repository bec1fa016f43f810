/**
 * The people who run the platform (issue 33): operators with a role, and the audit log of what
 * they do. Roles nest: support sees accounts, key requests and verifications; moderator also
 * decides reports, appeals and claims; admin also manages operators, settings and erasure. Every
 * operator action is audited in its own transaction; the admin command acts as `cli`.
 */
import type { AuditLogRow, OperatorRole, OperatorRow } from '../db/schema.js';
import {
  type AuditEntry,
  type AuditFilter,
  adminCount,
  auditEntries,
  deleteOperator,
  findOperator,
  insertAudit,
  listOperators,
  putOperator,
} from '../repositories/operators.js';
import { accountOfEmail } from '../repositories/sign-in.js';
import { inWriteTransaction, type WriteContext, type WriteTransaction } from '../repositories/write-transaction.js';

export const OPERATOR_ROLES: readonly OperatorRole[] = ['support', 'moderator', 'admin'];

/** Whether `role` may do what `needed` may (support < moderator < admin). */
export const roleAllows = (role: OperatorRole, needed: OperatorRole): boolean =>
  OPERATOR_ROLES.indexOf(role) >= OPERATOR_ROLES.indexOf(needed);

/** Who acts: an operator (their account and role) or the admin command. */
export type Actor = { accountId: string; role: OperatorRole } | 'cli';

const actorOf = (actor: Actor) =>
  actor === 'cli' ? { actor: 'cli', actorRole: 'cli' as const } : { actor: actor.accountId, actorRole: actor.role };

/** Appends an audit entry for `actor` in the action's transaction. */
export function audit(trx: WriteTransaction, actor: Actor, entry: Omit<AuditEntry, 'actor' | 'actorRole'>, now: Date) {
  return insertAudit(trx, { ...actorOf(actor), ...entry }, now);
}

export class OperatorError extends Error {}

/** Gives the account with `email` the role (or changes it), audited. */
export async function addOperator(
  context: WriteContext,
  actor: Actor,
  email: string,
  role: OperatorRole,
  reason: string | null,
): Promise<OperatorRow> {
  if (!OPERATOR_ROLES.includes(role)) {
    throw new OperatorError(`--role must be one of ${OPERATOR_ROLES.join(', ')}.`);
  }
  return inWriteTransaction(context, async (trx) => {
    const account = await accountOfEmail(trx, email.trim());
    if (!account || account.erased_at) {
      throw new OperatorError(`No account has the e-mail ${email}: the person signs up first (/sign-up).`);
    }
    const before = await findOperator(trx, account.id);
    if (before?.role === 'admin' && role !== 'admin' && (await adminCount(trx)) === 1) {
      throw new OperatorError('This is the last admin: give another account the admin role first.');
    }
    const row = await putOperator(trx, account.id, role, actorOf(actor).actor, context.now);
    await audit(
      trx,
      actor,
      {
        action: before ? 'operator.role_changed' : 'operator.added',
        targetType: 'account',
        targetId: account.id,
        reason,
        details: before ? { from: before.role, to: role } : { role },
      },
      context.now,
    );
    return row;
  });
}

/** Takes the role away from the account with `email`, audited; never the last admin. */
export async function removeOperator(context: WriteContext, actor: Actor, email: string, reason: string | null) {
  return inWriteTransaction(context, async (trx) => {
    const account = await accountOfEmail(trx, email.trim());
    const before = account && (await findOperator(trx, account.id));
    if (!account || !before) throw new OperatorError(`${email} is not an operator.`);
    if (before.role === 'admin' && (await adminCount(trx)) === 1) {
      throw new OperatorError('This is the last admin: give another account the admin role first.');
    }
    await deleteOperator(trx, account.id);
    await audit(
      trx,
      actor,
      {
        action: 'operator.removed',
        targetType: 'account',
        targetId: account.id,
        reason,
        details: { role: before.role },
      },
      context.now,
    );
  });
}

export type { AuditFilter };
export { listOperators };

/** The audit log in [from, to), oldest first. */
export function auditLog(
  db: WriteContext['db'],
  filter: Parameters<typeof auditEntries>[1],
  newest?: number,
): Promise<AuditLogRow[]> {
  return auditEntries(db, filter, newest);
}

const CSV_COLUMNS = [
  'id',
  'at',
  'actor',
  'actor_role',
  'action',
  'target_type',
  'target_id',
  'reason',
  'details',
] as const;

/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, quote or line break; a cell a spreadsheet
 * would run as a formula (=, +, -, @, tab, CR first) gets a leading apostrophe (CSV injection).
 */
export function csvCell(value: string | null): string {
  if (value === null) return '';
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** The audit log as CSV: a header line, then one line per entry. */
export function auditCsv(rows: readonly AuditLogRow[]): string[] {
  return [CSV_COLUMNS.join(','), ...rows.map((row) => CSV_COLUMNS.map((column) => csvCell(row[column])).join(','))];
}
