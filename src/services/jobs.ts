import type { AccountRow, JobRow } from '../db/schema.js';
import { berlinDate } from '../domain/berlin-time.js';
import { parseInstant, type ScheduleField, scheduleIssue } from '../domain/deadlines.js';
import type { FeeRule } from '../domain/payments.js';
import { maxApplicants } from '../domain/pricing.js';
import { earliestCompletion, effectiveJobStatus } from '../domain/statuses.js';
import { JOB_MACHINE } from '../domain/transitions.js';
import {
  acceptedCount,
  completionTimingOf,
  derivedJobFields,
  insertOwnJob,
  type JobAction,
  type JobValues,
  lockOwnJob,
  moveOwnJob,
  setJobColumns,
  type TransitionOutcome,
} from '../repositories/job-writes.js';
import { jobPriceOf } from '../repositories/payments.js';
import { inWriteTransaction, type WriteContext, type WriteTransaction } from '../repositories/write-transaction.js';
import type { JobCreateBody, JobUpdateBody } from '../schemas/job-writes.js';
import type { Job } from '../schemas/jobs.js';
import { rejectPendingApplications } from './application-events.js';
import { requestCompletion } from './completions.js';
import { ApiError, badRequest } from './errors.js';
import { type CancellationMoney, cancelUnpaid, cancelWithPolicy, captureOnCompletion } from './payments.js';
import { requireProviderDetails } from './providers.js';
import { recordJobEvent } from './public-events.js';
import { matchSavedSearches } from './saved-search-matches.js';
import { centsOf, illegalTransition, locationOf, notFound } from './write-rules.js';

/**
 * Posts a job for the account: open, visible at once, its job.created event committed with it, and
 * the saved searches of other accounts it matches told.
 */
export async function createJob(context: WriteContext, account: AccountRow, body: JobCreateBody): Promise<Job> {
  const { now } = context;
  const columns = jobColumns(body, account);
  checkSchedule(columns, null, account, now);
  await requireProviderDetails(context.db, account, 'jobs');
  // The create schema requires the other fields and fills in the defaults.
  const values = columns as JobValues;
  const derived = await derivedJobFields(context.db, values);
  return inWriteTransaction(context, async (trx) => {
    const id = await insertOwnJob(trx, account.id, { ...values, ...derived }, now);
    const job = await recordJobEvent(trx, 'job.created', id, now);
    await matchSavedSearches(trx, 'jobs', job, account.id, now);
    return job;
  });
}

/**
 * Changes the given fields of the account's open job; 404 for anyone else's, 409 unless open. The
 * first statement locks the job (lockOwnJob), so the rules below hold against concurrent changes
 * and applications; what they throw rolls everything back. Derived fields are computed again.
 */
export async function updateJob(
  context: WriteContext,
  account: AccountRow,
  id: string,
  body: JobUpdateBody,
): Promise<Job> {
  const at = context.now;
  const columns = jobColumns(body, account);
  return inWriteTransaction(context, async (trx) => {
    const row = await lockOwnJob(trx, id, account.id, at);
    if (!row) throw notFound('job', id, 'GET /v1/jobs');
    return changeOpenJob(trx, row, columns, account, at);
  });
}

/**
 * The story of updateJob once the job is locked (lockOwnJob), also told by an edit of a job series
 * for each of its open occurrences (services/job-series.ts): 409 unless open, the schedule and
 * helpers_needed checked, derived fields computed again, the job.updated event and the saved
 * searches it now matches.
 */
export async function changeOpenJob(
  trx: WriteTransaction,
  row: JobRow,
  columns: Partial<JobValues>,
  account: AccountRow,
  at: Date,
): Promise<Job> {
  const accepted = await acceptedCount(trx, row.id);
  const status = effectiveJobStatus(row.status, row.deadline, at);
  if (status !== 'open') throw illegalTransition('job', status, 'update', JOB_MACHINE);
  checkSchedule(columns, row, account, at);
  checkHelpersNeeded(columns.helpers_needed, row, accepted);
  const derived = await derivedJobFields(trx, { ...row, ...columns });
  await setJobColumns(trx, row.id, { ...columns, ...derived });
  const job = await recordJobEvent(trx, 'job.updated', row.id, at);
  await matchSavedSearches(trx, 'jobs', job, account.id, at);
  return job;
}

/**
 * Cancels or completes the account's job along JOB_MACHINE. Cancelling rejects the pending
 * applications; completing is the owner's word, which each accepted helper confirms or objects to
 * within `objectionHours` (services/completions.ts): a completed job counts for a helper once it
 * is final.
 */
export async function transitionJob(
  context: WriteContext,
  account: AccountRow,
  id: string,
  action: JobAction,
  objectionHours: number,
  fees: FeeRule,
): Promise<Job> {
  return inWriteTransaction(context, async (trx) => {
    if (action === 'complete') await checkCompletionTime(trx, id, account.id, context.now);
    const outcome = await moveJob(trx, id, account.id, action, context.now, objectionHours, fees);
    // Refusals are thrown in the transaction: they commit nothing, not even the key's mark.
    if (!outcome) throw notFound('job', id, 'GET /v1/jobs');
    if (!outcome.done) throw illegalTransition('job', outcome.status, action, JOB_MACHINE);
    return outcome.job;
  });
}

/** A job is completed once its time has come (earliestCompletion): before, 409 completion_too_early. */
async function checkCompletionTime(trx: WriteTransaction, id: string, accountId: string, now: Date): Promise<void> {
  const timing = await completionTimingOf(trx, id, accountId);
  const earliest = timing && earliestCompletion(timing);
  if (!earliest || earliest <= now.toISOString()) return;
  const planned =
    timing.desired_at !== null
      ? `is planned for ${earliest}`
      : `can be done at ${earliest} at the earliest (its helper was accepted at ${timing.last_accepted_at}, and it takes ${timing.duration_hours} h)`;
  throw new ApiError(409, 'completion_too_early', `The job ${planned}; it cannot be completed before.`, {
    param: null,
    suggestion: `Complete it once the work is done, at ${earliest} or later; until then it stays assigned (cancel it if it will not happen).`,
  });
}

/**
 * The story of transitionJob inside a write transaction, also told by an erasure cancelling the
 * account's jobs (services/account-data.ts): the move (moveOwnJob), then the pending applications
 * rejected (cancel) or each accepted helper asked to confirm within `objectionHours` (complete:
 * requestCompletion), then the job.status_changed event. Undefined: no such job of the account;
 * done false: not from `status`. With `fees` (the poster's own cancellation) the accepted helpers'
 * shares follow the job's cancellation policy and the answer says what it did; without (an
 * erasure), what is unpaid is cancelled.
 */
export async function moveJob(
  trx: WriteTransaction,
  id: string,
  accountId: string,
  action: JobAction,
  now: Date,
  objectionHours?: number,
  fees?: FeeRule,
): Promise<{ done: true; job: Job } | Exclude<TransitionOutcome, { done: true }>> {
  const moved = await moveOwnJob(trx, id, accountId, action, now);
  if (!moved?.done) return moved;
  let cancellation: CancellationMoney | null = null;
  if (moved.to === 'cancelled') {
    await rejectPendingApplications(trx, id, now);
    if (fees) {
      const job = await jobPriceOf(trx, id);
      const startsAt = job.desired_at === null ? null : new Date(job.desired_at);
      const terms = { policy: job.cancellation_policy, startsAt, byPayee: false };
      cancellation = await cancelWithPolicy(trx, { job_id: id }, terms, fees, now);
    } else {
      await cancelUnpaid(trx, { job_id: id }, now);
    }
  }
  if (moved.to === 'completed') {
    if (objectionHours === undefined) throw new Error('completing a job needs the hours to object');
    await requestCompletion(trx, id, now, objectionHours);
    await captureOnCompletion(trx, id, now);
  }
  const job = await recordJobEvent(trx, 'job.status_changed', id, now);
  return { done: true, job: cancellation ? { ...job, cancellation } : job };
}

function instantOf(value: string | null, field: ScheduleField): Date | null {
  if (value === null) return null;
  const instant = parseInstant(value);
  if (instant) return instant;
  throw badRequest(
    'invalid_parameter',
    field,
    `${field} names no real moment: '${value}'.`,
    `Send ${field} as an RFC 3339 date-time, e.g. 2026-12-05T14:00:00Z.`,
  );
}

/** The columns a create or change body sets; only the fields it has (a job series' template too). */
export function jobColumns(body: JobUpdateBody, account: AccountRow): Partial<JobValues> {
  const { location, price_eur, photos, desired_at, deadline, urgent, express, remote_task, requires_license, ...same } =
    body;
  const columns: Partial<JobValues> = { ...same };
  if (location) Object.assign(columns, locationOf(location, account));
  if (price_eur !== undefined) columns.price_cents = centsOf(price_eur, 'price_eur');
  if (photos) columns.photos = JSON.stringify(photos);
  if (desired_at !== undefined) {
    const at = instantOf(desired_at, 'desired_at');
    columns.desired_at = at?.toISOString() ?? null;
    columns.desired_date = at && berlinDate(at);
  }
  if (deadline !== undefined) columns.deadline = instantOf(deadline, 'deadline')?.toISOString() ?? null;
  const flags = { urgent, express, remote_task, requires_license };
  for (const [name, value] of Object.entries(flags) as [keyof typeof flags, boolean | undefined][]) {
    if (value !== undefined) columns[name] = value ? 1 : 0;
  }
  return columns;
}

/** 400 unless desired_at and deadline, as they will be, are ahead, within the account's horizon and in order. */
function checkSchedule(
  columns: Partial<JobValues>,
  current: Pick<JobRow, 'desired_at' | 'deadline' | 'created_at'> | null,
  account: AccountRow,
  now: Date,
): void {
  const fields = ['desired_at', 'deadline'] as const;
  const planned = (field: ScheduleField) => {
    const text = field in columns ? columns[field] : current?.[field];
    return text ? new Date(text) : null;
  };
  const issue = scheduleIssue(
    { desired_at: planned('desired_at'), deadline: planned('deadline') },
    new Set(fields.filter((field) => field in columns)),
    current ? new Date(current.created_at) : now,
    account.account_type,
    now,
  );
  if (!issue) return;
  if (issue.problem === 'before_desired_at') {
    throw badRequest(
      'conflicting_parameters',
      'deadline',
      'deadline comes before desired_at.',
      'Set deadline at or after desired_at, or move desired_at earlier.',
      ['desired_at', 'deadline'],
    );
  }
  const field = issue.field;
  if (issue.problem === 'in_past') {
    throw badRequest(
      'parameter_out_of_range',
      field,
      `${field} must be in the future; it is ${now.toISOString()} now.`,
      `Send a ${field} after ${now.toISOString()}.`,
    );
  }
  const latest = issue.latest.toISOString();
  throw badRequest(
    'parameter_out_of_range',
    field,
    `${field} may be at most ${issue.days} days after the job was created for a ${account.account_type} account, so at the latest ${latest}.`,
    `Send a ${field} no later than ${latest}.`,
  );
}

/** A job may not need fewer helpers than already accepted, nor fewer than its applications need places. */
function checkHelpersNeeded(next: number | undefined, row: JobRow, accepted: number): void {
  if (next === undefined) return;
  const least = Math.max(accepted + 1, Math.ceil(row.applications_count / maxApplicants(1)));
  if (next >= least) return;
  throw badRequest(
    'parameter_out_of_range',
    'helpers_needed',
    `helpers_needed must be at least ${least} now: the job has ${row.applications_count} applications (${maxApplicants(1)} places per helper), ${accepted} of them accepted.`,
    `Send helpers_needed from ${least} to 4, or reject applications first.`,
  );
}
