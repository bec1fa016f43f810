import { type RawBuilder, sql } from 'kysely';
import { withinRadiusSql } from '../db/distance.js';
import { dialectOf, type Queryable } from '../db/queryable.js';
import type { ApplicationRow, JobRow, JobsTable, NewJob } from '../db/schema.js';
import { smartEtaMinutes } from '../domain/eta.js';
import { MAX_RADIUS_KM } from '../domain/geo.js';
import { newId } from '../domain/ids.js';
import { type PricingConfidence, pricingConfidenceOfStanding } from '../domain/pricing.js';
import { effectiveJobStatus, type JobStatus } from '../domain/statuses.js';
import { JOB_MACHINE, nextState } from '../domain/transitions.js';
import { completedRateStanding } from './aggregates.js';
import { openJobSql } from './jobs.js';
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
  const ratePerHelperHour = job.price_cents / 100 / (job.duration_hours * job.helpers_needed);
  // Counted, not ranked (issue 34): ranking every completed job of the category was the largest
  // statement of a created job (667 µs on the default dataset) and grew with the data.
  const [etaHelpers, standing] = await Promise.all([
    helpers.execute(),
    completedRateStanding(db, job.category, ratePerHelperHour),
  ]);
  return {
    smart_eta_minutes: smartEtaMinutes({ ...place, remote_task: remote }, etaHelpers, MAX_RADIUS_KM),
    pricing_confidence: pricingConfidenceOfStanding(standing),
  };
}

/**
 * Inserts a job posted by an account, with its derived fields (derivedJobFields, read before the
 * write transaction starts), open; returns its id.
 */
export async function insertOwnJob(
  trx: WriteTransaction,
  accountId: string,
  values: JobValues & Awaited<ReturnType<typeof derivedJobFields>>,
  now: Date,
): Promise<string> {
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
  return id;
}

/**
 * Stamps updated_at of a job of the account and returns its row; undefined: no such job of the
 * account. As the first statement of a change it takes the write lock before anything reads, so
 * concurrent changes and applications wait for it instead of acting on what it is about to change.
 */
export function lockOwnJob(
  trx: WriteTransaction,
  id: string,
  accountId: string,
  now: Date,
): Promise<JobRow | undefined> {
  return trx
    .updateTable('jobs')
    .set({ updated_at: now.toISOString() })
    .where('id', '=', id)
    .where('owner_account_id', '=', accountId)
    .returningAll()
    .executeTakeFirst();
}

/** The number of accepted applications of a job. */
export async function acceptedCount(db: Queryable, jobId: string): Promise<number> {
  const accepted = await db
    .selectFrom('applications')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('job_id', '=', jobId)
    .where('status', '=', 'accepted')
    .executeTakeFirst();
  return Number(accepted?.n ?? 0);
}

/** Sets columns of a job (a change with its derived fields computed again). */
export async function setJobColumns(
  trx: WriteTransaction,
  id: string,
  columns: Partial<JobValues> & Awaited<ReturnType<typeof derivedJobFields>>,
): Promise<void> {
  await trx.updateTable('jobs').set(columns).where('id', '=', id).execute();
}

/** SQL for "the job is in one of these states"; open means open with its deadline ahead. */
function inStates(states: readonly string[], now: Date): RawBuilder<boolean> {
  const each = states.map((state) => (state === 'open' ? openJobSql(now) : sql<boolean>`status = ${state}`));
  return sql<boolean>`(${sql.join(each, sql` or `)})`;
}

export type JobAction = 'cancel' | 'complete';
export type TransitionOutcome = { done: true; to: JobStatus } | { done: false; status: JobStatus } | undefined;

/**
 * Moves a job of the account along JOB_MACHINE with one conditional update, so of two concurrent
 * actions only one applies. Undefined: no such job of the account; done false: the action is not
 * allowed from `status`; done true: the job is now in `to`.
 */
export async function moveOwnJob(
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
  if (Number(updated.numUpdatedRows) > 0) return { done: true, to };
  const row = await trx
    .selectFrom('jobs')
    .select(['status', 'deadline'])
    .where('id', '=', id)
    .where('owner_account_id', '=', accountId)
    .executeTakeFirst();
  return row && { done: false, status: effectiveJobStatus(row.status, row.deadline, now) };
}

/**
 * What decides when the account's job may be completed: its planned moment, its length and when
 * its last helper was accepted. Undefined: no such job of the account.
 */
export function completionTimingOf(
  db: Queryable,
  id: string,
  accountId: string,
): Promise<{ desired_at: string | null; duration_hours: number; last_accepted_at: string | null } | undefined> {
  return db
    .selectFrom('jobs')
    .select((eb) => [
      'jobs.desired_at',
      'jobs.duration_hours',
      eb
        .selectFrom('applications')
        .select((a) => a.fn.max('applications.decided_at').as('at'))
        .whereRef('applications.job_id', '=', 'jobs.id')
        .where('applications.status', '=', 'accepted')
        .as('last_accepted_at'),
    ])
    .where('jobs.id', '=', id)
    .where('jobs.owner_account_id', '=', accountId)
    .executeTakeFirst();
}

/** Rejects the pending applications of a job (it was cancelled or all its helpers were found); returns them. */
export function rejectPending(db: WriteTransaction, jobId: string, now: Date): Promise<ApplicationRow[]> {
  return db
    .updateTable('applications')
    .set({ status: 'rejected', decided_at: now.toISOString() })
    .where('job_id', '=', jobId)
    .where('status', '=', 'pending')
    .returningAll()
    .execute();
}
