import { type RawBuilder, sql } from 'kysely';
import { withinRadiusSql } from '../db/distance.js';
import { dialectOf, type Queryable } from '../db/queryable.js';
import type { JobRow, JobsTable, NewJob } from '../db/schema.js';
import { smartEtaMinutes } from '../domain/eta.js';
import { MAX_RADIUS_KM } from '../domain/geo.js';
import { newId } from '../domain/ids.js';
import { type PricingConfidence, pricingConfidence, sampleInEuros } from '../domain/pricing.js';
import { effectiveJobStatus, type JobStatus } from '../domain/statuses.js';
import { JOB_MACHINE, nextState } from '../domain/transitions.js';
import type { Job } from '../schemas/job.js';
import { completedRateSample } from './aggregates.js';
import { openJobSql } from './jobs.js';
import { recordJobEvent } from './outbox.js';
import { acceptedHelpersOf, refreshHelperRecords } from './reliability-records.js';
import { matchSavedSearches } from './saved-search-matches.js';
import type { WriteTransaction } from './write-transaction.js';

/** The columns of a job that a client sets (location already resolved, prices in cents). */
export type JobValues = Omit<
  NewJob,
  | 'id'
  | 'status'
  | 'created_at'
  | 'updated_at'
  | 'applications_count'
  | 'smart_eta_minutes'
  | 'pricing_confidence'
  | 'completed_at'
  | 'owner_account_id'
>;

type Derivable = Pick<
  JobsTable,
  'category' | 'exact_lat' | 'exact_lng' | 'remote_task' | 'price_cents' | 'duration_hours' | 'helpers_needed'
>;

/**
 * smart_eta_minutes and pricing_confidence of a job as it is written now: from the verified,
 * available helpers of the category within 50 km, and the completed jobs of the category (the data
 * /v1/helpers/availability and /v1/estimate read). The travel is to the job's place itself (a whole
 * minute is a third of a kilometre, far coarser than the shown point's offset).
 */
export async function derivedJobFields(
  db: Queryable,
  job: Derivable,
): Promise<{ smart_eta_minutes: number | null; pricing_confidence: PricingConfidence | null }> {
  const remote = job.remote_task === 1;
  const place = { lat: job.exact_lat, lng: job.exact_lng };
  let helpers = db
    .selectFrom('helpers')
    .innerJoin('helper_categories', 'helper_categories.helper_id', 'helpers.id')
    .select(['helpers.lat', 'helpers.lng', 'helpers.avg_response_minutes'])
    .where('helper_categories.category', '=', job.category)
    .where('helpers.verified', '=', 1)
    .where('helpers.available', '=', 1);
  if (!remote)
    helpers = helpers.where(withinRadiusSql(dialectOf(db), 'helpers.lat', 'helpers.lng', place, MAX_RADIUS_KM));
  const [etaHelpers, sample] = await Promise.all([helpers.execute(), completedRateSample(db, job.category)]);
  const ratePerHelperHour = job.price_cents / 100 / (job.duration_hours * job.helpers_needed);
  return {
    smart_eta_minutes: smartEtaMinutes({ ...place, remote_task: remote }, etaHelpers, MAX_RADIUS_KM),
    pricing_confidence: pricingConfidence(ratePerHelperHour, sample && sampleInEuros(sample)),
  };
}

/**
 * Inserts a job posted by an account, with its derived fields (derivedJobFields, read before the
 * write transaction starts); returns it as GET /v1/jobs/{id} shows it (the snapshot its job.created
 * event holds).
 */
export async function insertOwnJob(
  trx: WriteTransaction,
  accountId: string,
  values: JobValues & Awaited<ReturnType<typeof derivedJobFields>>,
  now: Date,
): Promise<Job> {
  const id = newId('job');
  await trx
    .insertInto('jobs')
    .values({
      ...values,
      id,
      status: 'open',
      applications_count: 0,
      completed_at: null,
      owner_account_id: accountId,
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
    })
    .execute();
  const job = await recordJobEvent(trx, 'job.created', id, now);
  await matchSavedSearches(trx, 'jobs', job, accountId, now);
  return job;
}

/**
 * Changes a job of the account in one transaction. Its first statement writes (it stamps
 * updated_at), so the transaction holds the write lock before it reads: concurrent changes and
 * applications wait for it instead of acting on what it is about to change. `change` sees the
 * current row and the number of accepted applications and returns the columns to set; what it
 * throws rolls everything back. Derived fields are computed again. Returns the job as changed (as
 * GET /v1/jobs/{id} shows it); undefined: no such job of the account.
 */
export async function updateOwnJob(
  trx: WriteTransaction,
  id: string,
  accountId: string,
  now: Date,
  change: (row: JobRow, accepted: number) => Partial<JobValues>,
): Promise<Job | undefined> {
  const row = await trx
    .updateTable('jobs')
    .set({ updated_at: now.toISOString() })
    .where('id', '=', id)
    .where('owner_account_id', '=', accountId)
    .returningAll()
    .executeTakeFirst();
  if (!row) return undefined;
  const accepted = await trx
    .selectFrom('applications')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('job_id', '=', id)
    .where('status', '=', 'accepted')
    .executeTakeFirst();
  const changes = change(row, Number(accepted?.n ?? 0));
  const derived = await derivedJobFields(trx, { ...row, ...changes });
  await trx
    .updateTable('jobs')
    .set({ ...changes, ...derived })
    .where('id', '=', id)
    .execute();
  const job = await recordJobEvent(trx, 'job.updated', id, now);
  await matchSavedSearches(trx, 'jobs', job, accountId, now);
  return job;
}

/** SQL for "the job is in one of these states"; open means open with its deadline ahead. */
function inStates(states: readonly string[], now: Date): RawBuilder<boolean> {
  const each = states.map((state) => (state === 'open' ? openJobSql(now) : sql<boolean>`status = ${state}`));
  return sql<boolean>`(${sql.join(each, sql` or `)})`;
}

export type JobAction = 'cancel' | 'complete';
export type TransitionOutcome = { done: true; job: Job } | { done: false; status: JobStatus } | undefined;

/**
 * Moves a job of the account along JOB_MACHINE with one conditional update, so of two concurrent
 * actions only one applies. Cancelling rejects the pending applications in the same transaction.
 * Undefined: no such job of the account; done false: the action is not allowed from `status`.
 */
export async function transitionOwnJob(
  trx: WriteTransaction,
  id: string,
  accountId: string,
  action: JobAction,
  now: Date,
): Promise<TransitionOutcome> {
  const from = Object.keys(JOB_MACHINE).filter((state) => nextState(JOB_MACHINE, state, action) !== null);
  const to = nextState(JOB_MACHINE, from[0] ?? '', action) as JobStatus;
  const at = now.toISOString();
  const updated = await trx
    .updateTable('jobs')
    .set({ status: to, updated_at: at, ...(to === 'completed' ? { completed_at: at } : {}) })
    .where('id', '=', id)
    .where('owner_account_id', '=', accountId)
    .where(inStates(from, now))
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) {
    const row = await trx
      .selectFrom('jobs')
      .select(['status', 'deadline'])
      .where('id', '=', id)
      .where('owner_account_id', '=', accountId)
      .executeTakeFirst();
    return row && { done: false, status: effectiveJobStatus(row.status, row.deadline, now) };
  }
  if (to === 'cancelled') await rejectPending(trx, id, now);
  // A completion is one more completed job for each accepted helper, in the next read already.
  if (to === 'completed') await refreshHelperRecords(trx, await acceptedHelpersOf(trx, id));
  return { done: true, job: await recordJobEvent(trx, 'job.status_changed', id, now) };
}

/** Rejects the pending applications of a job (it was cancelled or all its helpers were found). */
export async function rejectPending(db: WriteTransaction, jobId: string, now: Date): Promise<void> {
  await db
    .updateTable('applications')
    .set({ status: 'rejected', decided_at: now.toISOString() })
    .where('job_id', '=', jobId)
    .where('status', '=', 'pending')
    .execute();
}
