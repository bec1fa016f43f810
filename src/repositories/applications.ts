import { sql } from 'kysely';
import type { Queryable } from '../db/queryable.js';
import type { ApplicationRow, ApplicationStatus } from '../db/schema.js';
import { completionFinalAt, completionState, NO_COMPLETION } from '../domain/completions.js';
import { applicationNote } from '../domain/contact-shield.js';
import { newId } from '../domain/ids.js';
import { maxApplicants } from '../domain/pricing.js';
import { effectiveJobStatus, type JobStatus } from '../domain/statuses.js';
import { APPLICATION_MACHINE, nextState } from '../domain/transitions.js';
import type { Application, Completion } from '../schemas/applications.js';
import { openJobSql } from './jobs.js';
import type { WriteTransaction } from './write-transaction.js';

/**
 * An application as `reader` reads it: the applicant reads the message as written; the job's owner
 * reads it through the contact-data shield until the application is accepted (domain/contact-shield.ts),
 * as the other party of a conversation does.
 */
export function applicationRowToApplication(
  row: ApplicationRow,
  reader: 'applicant' | 'owner',
  now: Date,
): Application {
  const shown = applicationNote(row.message, reader === 'owner' && row.status !== 'accepted');
  return {
    id: row.id,
    job_id: row.job_id,
    helper_id: row.helper_id,
    status: row.status,
    message: shown.text,
    contact_data_hidden: shown.masked,
    created_at: row.created_at,
    decided_at: row.decided_at,
    completion: completionOf(row, now),
    ...(row.no_show !== null && { no_show: { party: row.no_show, reported_at: row.no_show_at as string } }),
    ...(row.excused_by !== null && { excused: { by: row.excused_by, excused_at: row.withdrawn_at as string } }),
  };
}

/** The completion of an application as its two parties read it (domain/completions.ts); null before any. */
function completionOf(row: ApplicationRow, now: Date): Completion | null {
  const state = completionState(row, now);
  if (state === null || row.completion_requested_at === null || row.completion_objectable_until === null) return null;
  return {
    state,
    completed_at: row.completion_requested_at,
    objections_close_at: row.completion_objectable_until,
    confirmed_at: row.completion_confirmed_at,
    objected_at: row.completion_objected_at,
    objection: row.completion_objection,
    final_at: completionFinalAt(row, now),
  };
}

export type ApplyOutcome =
  | { ok: true; application: Application }
  | { ok: false; problem: 'job_not_found' | 'own_job' | 'limit_reached' | 'already_applied' }
  | { ok: false; problem: 'not_open'; status: JobStatus };

/** The helpers standing for a job: accepted, and not withdrawn since (an erasure, a reported no-show). */
const acceptedCountSql = sql<number>`(select count(*) from applications as a where a.job_id = jobs.id and a.status = 'accepted' and a.withdrawn_at is null)`;

/** Whether the helper has applied to the job before (checked before the write transaction starts). */
export async function hasApplied(db: Queryable, jobId: string, helperId: string): Promise<boolean> {
  const earlier = await db
    .selectFrom('applications')
    .select('id')
    .where('job_id', '=', jobId)
    .where('helper_id', '=', helperId)
    .executeTakeFirst();
  return earlier !== undefined;
}

/**
 * Takes a place among the job's max_applicants with a conditional increment (open, deadline ahead,
 * a place left, not the applicant's own job); false when there is none (whyNoPlace says why). The
 * first statement of an application: as it writes, the transaction holds SQLite's write lock from
 * its start and waits (busy_timeout) for another process's, instead of failing to upgrade a read.
 */
export async function takeApplicationPlace(
  trx: WriteTransaction,
  jobId: string,
  accountId: string,
  now: Date,
): Promise<boolean> {
  const placed = await trx
    .updateTable('jobs')
    .set((eb) => ({ applications_count: eb('applications_count', '+', 1) }))
    .where('id', '=', jobId)
    .where(openJobSql(now))
    .where(sql<boolean>`applications_count < helpers_needed * ${sql.lit(maxApplicants(1))}`)
    .where((eb) => eb.or([eb('owner_account_id', 'is', null), eb('owner_account_id', '!=', accountId)]))
    .executeTakeFirst();
  return Number(placed.numUpdatedRows) > 0;
}

/**
 * Inserts a pending application; the unique (job, helper) constraint refuses a second one (a
 * unique violation the service turns into already_applied).
 */
export async function insertApplication(
  trx: WriteTransaction,
  input: { jobId: string; helperId: string; accountId: string; message: string | null },
  now: Date,
): Promise<ApplicationRow> {
  const row: ApplicationRow = {
    id: newId('app'),
    job_id: input.jobId,
    helper_id: input.helperId,
    account_id: input.accountId,
    message: input.message,
    status: 'pending',
    created_at: now.toISOString(),
    decided_at: null,
    withdrawn_at: null,
    no_show: null,
    no_show_at: null,
    excused_by: null,
    ...NO_COMPLETION,
  };
  await trx.insertInto('applications').values(row).execute();
  return row;
}

/** A job's place and owner: what the events about its applications need. */
export function jobPlaceAndOwner(db: Queryable, jobId: string) {
  return db
    .selectFrom('jobs')
    .select(['category', 'lat', 'lng', 'owner_account_id'])
    .where('id', '=', jobId)
    .executeTakeFirstOrThrow();
}

/** Why takeApplicationPlace found no place for the account on the job. */
export async function whyNoPlace(db: Queryable, jobId: string, accountId: string, now: Date): Promise<ApplyOutcome> {
  const job = await db
    .selectFrom('jobs')
    .select(['status', 'deadline', 'owner_account_id'])
    .where('id', '=', jobId)
    .executeTakeFirst();
  if (!job) return { ok: false, problem: 'job_not_found' };
  if (job.owner_account_id === accountId) return { ok: false, problem: 'own_job' };
  // Removed by a moderation decision: as unknown to anyone but its owner (not "409 removed").
  if (job.status === 'removed') return { ok: false, problem: 'job_not_found' };
  const status = effectiveJobStatus(job.status, job.deadline, now);
  return status === 'open' ? { ok: false, problem: 'limit_reached' } : { ok: false, problem: 'not_open', status };
}

/** The applications of a job of the account, oldest first, as its owner reads them; undefined when the job is not the account's. */
export async function listJobApplications(
  db: Queryable,
  jobId: string,
  accountId: string,
  now: Date,
): Promise<Application[] | undefined> {
  const job = await db
    .selectFrom('jobs')
    .select('id')
    .where('id', '=', jobId)
    .where('owner_account_id', '=', accountId)
    .executeTakeFirst();
  if (!job) return undefined;
  const rows = await db
    .selectFrom('applications')
    .selectAll()
    .where('job_id', '=', jobId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((row) => applicationRowToApplication(row, 'owner', now));
}

export type DecideOutcome =
  | { ok: true; application: Application }
  | { ok: false; problem: 'job_not_found' | 'application_not_found' }
  | { ok: false; problem: 'application_state'; status: ApplicationStatus }
  | { ok: false; problem: 'job_state'; status: JobStatus };

/**
 * Writes a job's row without changing it: the first statement of a decision locks the job row
 * (SQLite: the database's write lock), so concurrent decisions on one job run one after the other,
 * and on PostgreSQL each later statement reads the accepted applications committed before it, so
 * two acceptances of different applications cannot both take the last place.
 */
export async function lockJob(trx: WriteTransaction, jobId: string): Promise<void> {
  await trx.updateTable('jobs').set({ updated_at: sql`updated_at` }).where('id', '=', jobId).execute();
}

/**
 * The job owner's decision on a pending application, in one conditional update: accepting needs
 * the job open and a helper still missing. False when it did not apply (whyUndecided says why).
 */
export async function decidePending(
  trx: WriteTransaction,
  input: { jobId: string; applicationId: string; accountId: string; action: 'accept' | 'reject' },
  now: Date,
): Promise<boolean> {
  const to = nextState(APPLICATION_MACHINE, 'pending', input.action) as ApplicationStatus;
  const decided = await trx
    .updateTable('applications')
    .set({ status: to, decided_at: now.toISOString() })
    .where('id', '=', input.applicationId)
    .where('job_id', '=', input.jobId)
    .where('status', '=', 'pending')
    .where(({ exists, selectFrom }) => {
      let job = selectFrom('jobs')
        .select('jobs.id')
        .whereRef('jobs.id', '=', 'applications.job_id')
        .where('jobs.owner_account_id', '=', input.accountId);
      if (input.action === 'accept') {
        job = job.where(openJobSql(now)).where(sql<boolean>`${acceptedCountSql} < jobs.helpers_needed`);
      }
      return exists(job);
    })
    .executeTakeFirst();
  return Number(decided.numUpdatedRows) > 0;
}

/** Assigns an open job whose accepted applications reach helpers_needed; false when they do not. */
export async function assignWhenStaffed(trx: WriteTransaction, jobId: string, now: Date): Promise<boolean> {
  const assigned = await trx
    .updateTable('jobs')
    .set({ status: 'assigned', updated_at: now.toISOString() })
    .where('id', '=', jobId)
    .where('status', '=', 'open')
    .where(sql<boolean>`${acceptedCountSql} >= helpers_needed`)
    .executeTakeFirst();
  return Number(assigned.numUpdatedRows) > 0;
}

/** An application by id. */
export function findApplication(db: Queryable, id: string): Promise<ApplicationRow> {
  return db.selectFrom('applications').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** Why decidePending did not apply. */
export async function whyUndecided(
  db: Queryable,
  input: { jobId: string; applicationId: string; accountId: string },
  now: Date,
): Promise<DecideOutcome> {
  const job = await db
    .selectFrom('jobs')
    .select(['status', 'deadline'])
    .where('id', '=', input.jobId)
    .where('owner_account_id', '=', input.accountId)
    .executeTakeFirst();
  if (!job) return { ok: false, problem: 'job_not_found' };
  const application = await db
    .selectFrom('applications')
    .select('status')
    .where('id', '=', input.applicationId)
    .where('job_id', '=', input.jobId)
    .executeTakeFirst();
  if (!application) return { ok: false, problem: 'application_not_found' };
  if (application.status !== 'pending') return { ok: false, problem: 'application_state', status: application.status };
  return { ok: false, problem: 'job_state', status: effectiveJobStatus(job.status, job.deadline, now) };
}

/**
 * A reported no-show (issue 32): the accepted application, not withdrawn, not reported before and
 * not yet part of a completion, ends; `who` did not come. The changed row, or undefined.
 */
export function markNoShow(
  trx: WriteTransaction,
  applicationId: string,
  who: 'helper' | 'poster',
  now: Date,
): Promise<ApplicationRow | undefined> {
  const at = now.toISOString();
  return trx
    .updateTable('applications')
    .set({ no_show: who, no_show_at: at, withdrawn_at: at })
    .where('id', '=', applicationId)
    .where('status', '=', 'accepted')
    .where('withdrawn_at', 'is', null)
    .where('no_show', 'is', null)
    .where('completion_requested_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}

/**
 * A standing helper excused from one occurrence of a series (issue 35): the helper's accepted
 * place on the occurrence's job, not withdrawn and not yet part of a completion, ends; `by` says
 * who excused. The changed row, or undefined when the helper holds no such place.
 */
export function excuseAcceptance(
  trx: WriteTransaction,
  jobId: string,
  helperId: string,
  by: 'helper' | 'poster',
  now: Date,
): Promise<ApplicationRow | undefined> {
  return trx
    .updateTable('applications')
    .set({ excused_by: by, withdrawn_at: now.toISOString() })
    .where('job_id', '=', jobId)
    .where('helper_id', '=', helperId)
    .where('status', '=', 'accepted')
    .where('withdrawn_at', 'is', null)
    .where('completion_requested_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}

/** An assigned job short of helpers again (a helper did not come) opens for another acceptance; whether it did. */
export async function reopenWhenShort(trx: WriteTransaction, jobId: string, now: Date): Promise<boolean> {
  const reopened = await trx
    .updateTable('jobs')
    .set({ status: 'open', updated_at: now.toISOString() })
    .where('id', '=', jobId)
    .where('status', '=', 'assigned')
    .where(sql<boolean>`${acceptedCountSql} < helpers_needed`)
    .executeTakeFirst();
  return Number(reopened.numUpdatedRows) > 0;
}

/** A job nobody stands for any more (its poster did not come to any helper) is cancelled; whether it was. */
export async function cancelWhenNoneStands(trx: WriteTransaction, jobId: string, now: Date): Promise<boolean> {
  const cancelled = await trx
    .updateTable('jobs')
    .set({ status: 'cancelled', updated_at: now.toISOString() })
    .where('id', '=', jobId)
    .where('status', 'in', ['open', 'assigned'])
    .where(sql<boolean>`${acceptedCountSql} = 0`)
    .executeTakeFirst();
  return Number(cancelled.numUpdatedRows) > 0;
}
