import type { OperatorRole } from '../db/schema.js';
import {
  addOperator,
  auditCsv,
  auditLog,
  listOperators,
  OPERATOR_ROLES,
  removeOperator,
} from '../services/operators.js';
import type { AdminContext, AdminOptions } from './admin-context.js';

const context = (ctx: AdminContext) => ({ db: ctx.db, now: ctx.now, claim: null });

/** `operators add <email> --role support|moderator|admin`: gives the account the role (or changes it), audited. */
export async function addOperatorCommand(ctx: AdminContext, email: string, options: AdminOptions): Promise<void> {
  const role = options.role as OperatorRole | undefined;
  if (!role || !OPERATOR_ROLES.includes(role)) {
    throw new Error(`operators add needs --role ${OPERATOR_ROLES.join('|')}.`);
  }
  const row = await addOperator(context(ctx), 'cli', email, role, options.reason?.trim() || null);
  ctx.out(`${email} is ${row.role === 'admin' ? 'an' : 'a'} ${row.role} (${row.account_id}).`);
}

/** `operators remove <email>`: takes the role away, audited; never the last admin. */
export async function removeOperatorCommand(ctx: AdminContext, email: string, options: AdminOptions): Promise<void> {
  await removeOperator(context(ctx), 'cli', email, options.reason?.trim() || null);
  ctx.out(`${email} is no operator any more.`);
}

/** `operators list`: who runs the platform, admins first. */
export async function listOperatorsCommand(ctx: AdminContext): Promise<void> {
  const rows = await listOperators(ctx.db);
  if (rows.length === 0) {
    ctx.out('No operators yet: npm run admin -- operators add <email> --role admin');
    return;
  }
  for (const row of rows) ctx.out(`${row.role.padEnd(9)} ${row.email}  ${row.account_id}  since ${row.created_at}`);
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * `audit export --from 2026-11-01 --to 2026-12-01`: the audit log in [from, to) (UTC days) as CSV
 * on stdout, oldest first.
 */
export async function exportAuditCommand(ctx: AdminContext, _id: string, options: AdminOptions): Promise<void> {
  for (const name of ['from', 'to'] as const) {
    const value = options[name];
    if (value !== undefined && (!DAY.test(value) || Number.isNaN(Date.parse(value)))) {
      throw new Error(`--${name} needs a day, such as --${name} 2026-11-01.`);
    }
  }
  const rows = await auditLog(ctx.db, {
    from: options.from && new Date(`${options.from}T00:00:00Z`).toISOString(),
    to: options.to && new Date(`${options.to}T00:00:00Z`).toISOString(),
  });
  for (const line of auditCsv(rows)) ctx.out(line);
}
