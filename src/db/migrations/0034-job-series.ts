import type { Kysely } from 'kysely';
import { notifyChanges } from './0019-change-notify.js';
import { isPostgres, textType } from './column-types.js';

/**
 * Recurring jobs (issue 35):
 *
 * - job_series: a job posted again and again by a recurrence rule (an RRULE subset, local start
 *   date and time in Europe/Berlin). `template` holds the job's fields as JSON (the columns of a
 *   job a client sets, place included); `next_post_at` is when the sweep next has an occurrence to
 *   post (null: nothing left), so the sweep reads an index, not every series.
 * - job_series_skips: occurrences the owner skipped (by local date), posted or not.
 * - jobs gain `series_id` and `occurrence_date`, unique together: an occurrence is posted once,
 *   whichever instance's sweep gets there first (the others' inserts do nothing).
 * - series_applications: a helper applies to a whole series once; accepted, the helper stands for
 *   every occurrence (an ordinary accepted application on each occurrence's job) until it ends.
 *   One per helper and series.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on today's Database type.
export async function up(db: Kysely<any>): Promise<void> {
  const text = textType(db);
  await db.schema
    .createTable('job_series')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('owner_account_id', text, (c) => c.notNull())
    .addColumn('status', text, (c) => c.notNull())
    .addColumn('rrule', text, (c) => c.notNull())
    .addColumn('starts_on', text, (c) => c.notNull())
    .addColumn('local_time', text, (c) => c.notNull())
    .addColumn('template', text, (c) => c.notNull())
    .addColumn('next_post_at', text)
    .addColumn('created_at', text, (c) => c.notNull())
    .addColumn('updated_at', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('job_series_due').on('job_series').columns(['status', 'next_post_at']).execute();
  await db.schema.createIndex('job_series_owner').on('job_series').columns(['owner_account_id', 'id']).execute();
  await db.schema
    .createTable('job_series_skips')
    .addColumn('series_id', text, (c) => c.notNull())
    .addColumn('occurrence_date', text, (c) => c.notNull())
    .addColumn('created_at', text, (c) => c.notNull())
    .addPrimaryKeyConstraint('job_series_skips_pk', ['series_id', 'occurrence_date'])
    .execute();
  await db.schema
    .createTable('series_applications')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('series_id', text, (c) => c.notNull())
    .addColumn('helper_id', text, (c) => c.notNull())
    .addColumn('account_id', text, (c) => c.notNull())
    .addColumn('message', text)
    .addColumn('status', text, (c) => c.notNull())
    .addColumn('created_at', text, (c) => c.notNull())
    .addColumn('decided_at', text)
    .addColumn('ended_at', text)
    .addUniqueConstraint('series_applications_helper', ['series_id', 'helper_id'])
    .execute();
  await db.schema
    .createIndex('series_applications_account')
    .on('series_applications')
    .columns(['account_id'])
    .execute();
  await db.schema.alterTable('jobs').addColumn('series_id', text).execute();
  await db.schema.alterTable('jobs').addColumn('occurrence_date', text).execute();
  await db.schema
    .createIndex('jobs_series_occurrence')
    .on('jobs')
    .columns(['series_id', 'occurrence_date'])
    .unique()
    .execute();
  if (isPostgres(db)) {
    await notifyChanges(db, 'job_series');
    await notifyChanges(db, 'job_series_skips');
    await notifyChanges(db, 'series_applications');
  }
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('jobs_series_occurrence').execute();
  await db.schema.alterTable('jobs').dropColumn('occurrence_date').execute();
  await db.schema.alterTable('jobs').dropColumn('series_id').execute();
  await db.schema.dropTable('series_applications').execute();
  await db.schema.dropTable('job_series_skips').execute();
  await db.schema.dropTable('job_series').execute();
}
