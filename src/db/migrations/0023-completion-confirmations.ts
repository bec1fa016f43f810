import { type Kysely, sql } from 'kysely';
import { textType } from './column-types.js';

/**
 * Issue 30, 3 (reputation cannot be bought): a job's completion is its owner's word, which each
 * accepted helper confirms or objects to within a window (COMPLETION_OBJECTION_HOURS); only a
 * final completion counts in the helper's record and opens the reviews. On each accepted
 * application (services/completions.ts):
 *
 * - completion_requested_at: when the job's owner completed the job (their word for this helper);
 * - completion_objectable_until: until when the helper may object (the window, fixed at completion);
 * - completion_confirmed_at: when the helper confirmed it;
 * - completion_objected_at and completion_objection: when and why the helper objected;
 * - completion_final_at: when it became final, by the confirmation or, written by the sweep, at the
 *   window's end; what the helper's record counts (reads judge the window themselves).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on today's Database type.
export async function up(db: Kysely<any>): Promise<void> {
  const text = textType(db);
  for (const column of COLUMNS) await db.schema.alterTable('applications').addColumn(column, text).execute();
  // Completions made before this migration were the owner's word alone, and counted as final:
  // they stay so (the helpers' figures and the reviews of those jobs do not change).
  const completedAt = sql`(select jobs.completed_at from jobs where jobs.id = applications.job_id)`;
  await db
    .updateTable('applications')
    .set({
      completion_requested_at: completedAt,
      completion_objectable_until: completedAt,
      completion_final_at: completedAt,
    })
    .where('status', '=', 'accepted')
    .where('withdrawn_at', 'is', null)
    .where(
      sql<boolean>`exists (select 1 from jobs where jobs.id = applications.job_id and jobs.status = 'completed' and jobs.completed_at is not null)`,
    )
    .execute();
  // The sweep's question: which windows have closed without a word from the helper.
  await db.schema
    .createIndex('applications_completion_window')
    .on('applications')
    .column('completion_objectable_until')
    .execute();
}

const COLUMNS = [
  'completion_requested_at',
  'completion_objectable_until',
  'completion_confirmed_at',
  'completion_objected_at',
  'completion_objection',
  'completion_final_at',
] as const;

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('applications_completion_window').execute();
  for (const column of [...COLUMNS].reverse()) await db.schema.alterTable('applications').dropColumn(column).execute();
}
