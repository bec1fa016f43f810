import type { Kysely } from 'kysely';
import { textType } from './column-types.js';

/**
 * The operators' console (issue 33):
 *
 * - moderation_decisions gain `decided_by`: who took the decision (an operator's account id, `cli`
 *   for the admin command, null before this migration or for automated ones), so an appeal is
 *   decided by someone else (four eyes). Filled here from the audit log for the decisions taken
 *   since migration 0031 recorded their actor.
 * - A decision may be about an account itself (`about_type` `account`: a suspension from the
 *   console, not prompted by a report); the column is text on both engines, nothing to change.
 * - The console's 30-day figures count rows by day of `created_at` (accounts, jobs, bookings,
 *   reports) and reports by day of `decided_at`: each gets an index on that column, so the counts
 *   read a month of an index, not a million rows.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on today's Database type.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('moderation_decisions').addColumn('decided_by', textType(db)).execute();
  await db
    .updateTable('moderation_decisions')
    .set({
      decided_by: db
        .selectFrom('audit_log')
        .select('audit_log.actor')
        .where('audit_log.action', '=', 'report.decided')
        .where('audit_log.target_type', '=', 'report')
        .whereRef('audit_log.target_id', '=', 'moderation_decisions.report_id')
        .limit(1),
    })
    .where('report_id', 'is not', null)
    .execute();
  for (const [table, column] of INDEXES) {
    await db.schema.createIndex(`${table}_${column}_day`).on(table).column(column).execute();
  }
}

const INDEXES = [
  ['accounts', 'created_at'],
  ['jobs', 'created_at'],
  ['bookings', 'created_at'],
  ['reports', 'created_at'],
  ['reports', 'decided_at'],
] as const;

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  for (const [table, column] of INDEXES) await db.schema.dropIndex(`${table}_${column}_day`).execute();
  await db.schema.alterTable('moderation_decisions').dropColumn('decided_by').execute();
}
