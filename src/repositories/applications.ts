import { sql } from 'kysely';
import type { Queryable } from '../db/queryable.js';
import type { ApplicationRow, ApplicationStatus } from '../db/schema.js';
import { newId } from '../domain/ids.js';
import { maxApplicants } from '../domain/pricing.js';
import { effectiveJobStatus, type JobStatus } from '../domain/statuses.js';
import { APPLICATION_MACHINE, nextState } from '../domain/transitions.js';
import type { Application } from '../schemas/applications.js';
import { claimQuota } from './account-quotas.js';
import { rejectPending } from './job-writes.js';
import { openJobSql } from './jobs.js';
import { recordEvent, recordJobEvent } from './outbox.js';
import { refreshHelperRecords } from './reliability-records.js';
import type { WriteTransaction } from './write-transaction.js';

export function applicationRowToApplication(row: ApplicationRow): Application {
  return {
    id: row.id,
    job_id: row.job_id,
    helper_id: row.helper_id,
    status: row.status,
    message: row.message,
    created_at: row.created_at,
    decided_at: row.decided_at,
  };
}

export type ApplyOutcome =
  | { ok: true; application: Application }
  | { ok: false; problem: 'job_not_found' | 'own_job' | 'limit_reached' | 'already_applied' }
  | { ok: false; problem: 'not_open'; status: JobStatus };

const acceptedCountSql = sql<number>`(select count(*) from applications as a where a.job_id = jobs.id and a.status = 'accepted')`;

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
 * A helper's application for a job, inside the write transaction. The database decides every limit: the first statement of the
 * transaction takes a place among the job's max_applicants with a conditional increment (open,
 * deadline ahead, a place left, not the applicant's own job), and the unique (job, helper)
 * constraint refuses a second application (a unique violation the caller turns into
 * already_applied), rolling the increment back. As the first statement
 * writes, the transaction holds SQLite's write lock from its start and waits (busy_timeout) for
 * another process's, instead of failing to upgrade a read. The account's hourly quota is claimed in
 * the same transaction (a refusal rolls the place back).
 */
export async function applyToJob(
  trx: WriteTransaction,
  input: { jobId: string; helperId: string; accountId: string; message: string | null },
  now: Date,
  /** Applications the account may send per hour; beyond it QuotaExceeded (account-quotas.ts). */
  quota: number,
): Promise<ApplyOutcome> {
  const placed = await trx
    .updateTable('jobs')
    .set((eb) => ({ applications_count: eb('applications_count', '+', 1) }))
    .where('id', '=', input.jobId)
    .where(openJobSql(now))
    .where(sql<boolean>`applications_count < helpers_needed * ${sql.lit(maxApplicants(1))}`)
    .where((eb) => eb.or([eb('owner_account_id', 'is', null), eb('owner_account_id', '!=', input.accountId)]))
    .executeTakeFirst();
  if (Number(placed.numUpdatedRows) === 0) return whyNoPlace(trx, input.jobId, input.accountId, now);
  await claimQuota(trx, 'applications', input.accountId, quota, now);
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
  };
  await trx.insertInto('applications').values(row).execute();
  // The helper's avg_response_minutes counts this answer to the job at once.
  await refreshHelperRecords(trx, [input.helperId]);
  const application = applicationRowToApplication(row);
  const job = await trx
    .selectFrom('jobs')
    .select(['category', 'lat', 'lng', 'owner_account_id'])
    .where('id', '=', input.jobId)
    .executeTakeFirstOrThrow();
  // Private: only the job's owner and the applicant see it.
  const audience = [job.owner_account_id, input.accountId];
  await recordEvent(
    trx,
    { type: 'application.created', subjectId: row.id, place: job, audience, data: application },
    now,
  );
  return { ok: true, application };
}

async function whyNoPlace(db: Queryable, jobId: string, accountId: string, now: Date): Promise<ApplyOutcome> {
  const job = await db
    .selectFrom('jobs')
    .select(['status', 'deadline', 'owner_account_id'])
    .where('id', '=', jobId)
    .executeTakeFirst();
  if (!job) return { ok: false, problem: 'job_not_found' };
  if (job.owner_account_id === accountId) return { ok: false, problem: 'own_job' };
  const status = effectiveJobStatus(job.status, job.deadline, now);
  return status === 'open' ? { ok: false, problem: 'limit_reached' } : { ok: false, problem: 'not_open', status };
}

/** The applications of a job of the account, oldest first; undefined when the job is not the account's. */
export async function listJobApplications(
  db: Queryable,
  jobId: string,
  accountId: string,
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
  return rows.map(applicationRowToApplication);
}

export type DecideOutcome =
  | { ok: true; application: Application }
  | { ok: false; problem: 'job_not_found' | 'application_not_found' }
  | { ok: false; problem: 'application_state'; status: ApplicationStatus }
  | { ok: false; problem: 'job_state'; status: JobStatus };

/**
 * The job owner accepts or rejects a pending application. Accepting needs the job open and a
 * helper still missing, checked by the same conditional update that decides; when the accepted
 * applications reach helpers_needed, the job becomes assigned and the pending rest are rejected,
 * all in one transaction. The first statement locks the job row (SQLite: the database's write
 * lock): concurrent decisions on one job then run one after the other, and on PostgreSQL each
 * later statement reads the accepted applications committed before it, so two acceptances of
 * different applications cannot both take the last place.
 */
export async function decideApplication(
  trx: WriteTransaction,
  input: { jobId: string; applicationId: string; accountId: string; action: 'accept' | 'reject' },
  now: Date,
): Promise<DecideOutcome> {
  const to = nextState(APPLICATION_MACHINE, 'pending', input.action) as ApplicationStatus;
  const at = now.toISOString();
  await trx.updateTable('jobs').set({ updated_at: sql`updated_at` }).where('id', '=', input.jobId).execute();
  const decided = await trx
    .updateTable('applications')
    .set({ status: to, decided_at: at })
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
  if (Number(decided.numUpdatedRows) === 0) return whyUndecided(trx, input, now);
  if (to === 'accepted') {
    const assigned = await trx
      .updateTable('jobs')
      .set({ status: 'assigned', updated_at: at })
      .where('id', '=', input.jobId)
      .where('status', '=', 'open')
      .where(sql<boolean>`${acceptedCountSql} >= helpers_needed`)
      .executeTakeFirst();
    if (Number(assigned.numUpdatedRows) > 0) {
      await rejectPending(trx, input.jobId, now);
      await recordJobEvent(trx, 'job.status_changed', input.jobId, now);
    }
  }
  const row = await trx
    .selectFrom('applications')
    .selectAll()
    .where('id', '=', input.applicationId)
    .executeTakeFirstOrThrow();
  // An acceptance is a commitment in the helper's record.
  if (to === 'accepted') await refreshHelperRecords(trx, [row.helper_id]);
  return { ok: true, application: applicationRowToApplication(row) };
}

async function whyUndecided(
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
