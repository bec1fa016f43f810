import type { Kysely } from 'kysely';
import { notifyChanges } from './0019-change-notify.js';
import { isPostgres, textType } from './column-types.js';

/**
 * A substitute for one occurrence of a job series (issue 35):
 *
 * - job_series_excusals: a standing helper excused from one occurrence (by its local date), by the
 *   helper or by the series' owner, posted or not. Keyed by series, helper and date, not by the
 *   series application: a split series ("this and following") moves the dates from the split on
 *   to the new series, whose standing helpers are the same helpers.
 * - applications gain `excused_by` ('helper' or 'poster'): an accepted place given up by an excuse
 *   (withdrawn_at says when), so a helper's record tells an excuse in good time from a late one and
 *   a place the poster released from a cancellation of the helper's.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on today's Database type.
export async function up(db: Kysely<any>): Promise<void> {
  const text = textType(db);
  await db.schema
    .createTable('job_series_excusals')
    .addColumn('series_id', text, (c) => c.notNull())
    .addColumn('helper_id', text, (c) => c.notNull())
    .addColumn('occurrence_date', text, (c) => c.notNull())
    .addColumn('excused_by', text, (c) => c.notNull())
    .addColumn('created_at', text, (c) => c.notNull())
    .addPrimaryKeyConstraint('job_series_excusals_pk', ['series_id', 'helper_id', 'occurrence_date'])
    .execute();
  await db.schema.createIndex('job_series_excusals_helper').on('job_series_excusals').columns(['helper_id']).execute();
  await db.schema.alterTable('applications').addColumn('excused_by', text).execute();
  if (isPostgres(db)) await notifyChanges(db, 'job_series_excusals');
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('applications').dropColumn('excused_by').execute();
  await db.schema.dropTable('job_series_excusals').execute();
}
