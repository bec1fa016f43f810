import { isUniqueViolation } from '../db/errors.js';
import type { AccountRow } from '../db/schema.js';
import type { FeeRule } from '../domain/payments.js';
import { APPLICATION_MACHINE, JOB_MACHINE } from '../domain/transitions.js';
import { claimQuota } from '../repositories/account-quotas.js';
import {
  type ApplyOutcome,
  applicationRowToApplication,
  assignWhenStaffed,
  type DecideOutcome,
  decidePending,
  findApplication,
  hasApplied,
  insertApplication,
  jobPlaceAndOwner,
  listJobApplications,
  lockJob,
  takeApplicationPlace,
  whyNoPlace,
  whyUndecided,
} from '../repositories/applications.js';
import { isOwnHelper } from '../repositories/helper-profiles.js';
import { recordEvent } from '../repositories/outbox.js';
import { refreshHelperRecords } from '../repositories/reliability-records.js';
import { inWriteTransaction, type WriteContext, type WriteTransaction } from '../repositories/write-transaction.js';
import type { Application } from '../schemas/applications.js';
import { recordApplicationDecided, rejectPendingApplications } from './application-events.js';
import { ApiError, badRequest } from './errors.js';
import { createJobPayment, withPayments, withPaymentsOf } from './payments.js';
import { recordJobEvent } from './public-events.js';
import { illegalTransition, notFound } from './write-rules.js';

/**
 * Applies to an open job as a helper of the account (404 for another account's helper); the
 * database decides the limits (apply). At most `quota` applications per account and hour.
 */
export async function applyAsHelper(
  context: WriteContext,
  account: AccountRow,
  jobId: string,
  body: { helper_id: string; message?: string | null | undefined },
  quota: number,
): Promise<Application> {
  const { helper_id: helperId, message } = body;
  if (!(await isOwnHelper(context.db, helperId, account.id))) {
    throw new ApiError(404, 'not_found', `No helper with the id '${helperId}' is yours.`, {
      param: 'helper_id',
      suggestion: 'Apply as a helper your account registered with POST /v1/helpers.',
    });
  }
  const input = { jobId, helperId, accountId: account.id, message: message ?? null };
  if (await hasApplied(context.db, jobId, helperId))
    throw applyError({ ok: false, problem: 'already_applied' }, jobId, helperId);
  try {
    const outcome = await inWriteTransaction(context, async (trx) => {
      const applied = await apply(trx, input, context.now, quota);
      // A refusal decided in the transaction is thrown in it: nothing commits, not even the
      // Idempotency-Key's mark, so the same key applies once the job takes applications again.
      if (!applied.ok) throw applyError(applied, jobId, helperId);
      return applied;
    });
    // A new application owes nothing yet: its payment comes with the acceptance.
    return { ...outcome.application, payments: [] };
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    throw applyError({ ok: false, problem: 'already_applied' }, jobId, helperId);
  }
}

/** The applications to the account's job, oldest first (404 for anyone else's job). */
export async function applicationsOfJob(
  db: WriteContext['db'],
  account: AccountRow,
  jobId: string,
  now: Date,
): Promise<{ data: Application[]; total: number }> {
  const applications = await listJobApplications(db, jobId, account.id, now);
  if (!applications) throw notFound('job', jobId, 'GET /v1/jobs');
  return { data: await withPayments(db, 'application_id', applications), total: applications.length };
}

/** The job's owner accepts or rejects a pending application. */
export async function decide(
  context: WriteContext,
  account: AccountRow,
  ids: { jobId: string; applicationId: string },
  action: 'accept' | 'reject',
  fees: FeeRule,
): Promise<Application> {
  const input = { ...ids, accountId: account.id, action };
  return inWriteTransaction(context, async (trx) => {
    const outcome = await decideOn(trx, input, context.now, fees);
    // Thrown in the transaction: a refusal commits nothing (the key is free for a later decision).
    if (!outcome.ok) throw decideError(outcome, action, ids.jobId, ids.applicationId);
    return withPaymentsOf(trx, 'application_id', outcome.application);
  });
}

/**
 * An application inside its transaction. The database decides every limit: the first statement
 * takes a place among the job's max_applicants (takeApplicationPlace), the unique (job, helper)
 * constraint refuses a second application (rolling the place back), and the account's hourly quota
 * is claimed in the same transaction (a refusal rolls the place back too; null: no quota, a
 * standing helper's place on an occurrence). Then the helper's figures, and the
 * application.created event, private to the job's owner and the applicant, with the message as the
 * owner reads it (contact data masked: the application is pending).
 */
async function apply(
  trx: WriteTransaction,
  input: { jobId: string; helperId: string; accountId: string; message: string | null },
  now: Date,
  quota: number | null,
): Promise<ApplyOutcome> {
  if (!(await takeApplicationPlace(trx, input.jobId, input.accountId, now)))
    return whyNoPlace(trx, input.jobId, input.accountId, now);
  if (quota !== null) await claimQuota(trx, 'applications', input.accountId, quota, now);
  const row = await insertApplication(trx, input, now);
  // The helper's avg_response_minutes counts this answer to the job at once.
  await refreshHelperRecords(trx, [input.helperId]);
  const job = await jobPlaceAndOwner(trx, input.jobId);
  const audience = [job.owner_account_id, input.accountId];
  // The event reaches the job's owner: the message as they read it (the shield is on while pending).
  const data = applicationRowToApplication(row, 'owner', now);
  await recordEvent(trx, { type: 'application.created', subjectId: row.id, place: job, audience, data }, now);
  return { ok: true, application: applicationRowToApplication(row, 'applicant', now) };
}

/**
 * A decision inside its transaction: the job locked first (lockJob), the conditional decision,
 * and on acceptance, once the accepted reach helpers_needed, the job assigned, the pending rest
 * rejected and its job.status_changed event; an acceptance is a commitment in the helper's record,
 * and the helper's share of the price a payment owed to them (services/payments.ts).
 */
async function decideOn(
  trx: WriteTransaction,
  input: { jobId: string; applicationId: string; accountId: string; action: 'accept' | 'reject' },
  now: Date,
  fees: FeeRule,
): Promise<DecideOutcome> {
  await lockJob(trx, input.jobId);
  if (!(await decidePending(trx, input, now))) return whyUndecided(trx, input, now);
  if (input.action === 'accept' && (await assignWhenStaffed(trx, input.jobId, now))) {
    await rejectPendingApplications(trx, input.jobId, now);
    await recordJobEvent(trx, 'job.status_changed', input.jobId, now);
  }
  const row = await findApplication(trx, input.applicationId);
  // The helper learns the decision (their webhooks, private stream and notifications).
  await recordApplicationDecided(trx, row, now);
  if (input.action === 'accept') {
    await refreshHelperRecords(trx, [row.helper_id]);
    await createJobPayment(
      trx,
      { jobId: input.jobId, applicationId: row.id, payeeAccountId: row.account_id },
      fees,
      now,
    );
  }
  return { ok: true, application: applicationRowToApplication(row, 'owner', now) };
}

/**
 * A standing helper of a job series (services/job-series.ts) takes a place on one occurrence, in
 * the caller's transaction: an application and the owner's acceptance of it, as applying and
 * accepting would (their events, the helper's figures, the job assigned once staffed, the payment
 * owed), without the hourly quota: the owner accepted the helper for the whole series. False when
 * the helper applied to the job already, or it has no place or no helper missing.
 */
export async function standOn(
  trx: WriteTransaction,
  input: { jobId: string; helperId: string; accountId: string; ownerAccountId: string },
  now: Date,
  fees: FeeRule,
): Promise<boolean> {
  if (await hasApplied(trx, input.jobId, input.helperId)) return false;
  const applied = await apply(trx, { ...input, message: null }, now, null);
  if (!applied.ok) return false;
  const ids = { jobId: input.jobId, applicationId: applied.application.id, accountId: input.ownerAccountId };
  return (await decideOn(trx, { ...ids, action: 'accept' }, now, fees)).ok;
}

function applyError(outcome: Exclude<ApplyOutcome, { ok: true }>, jobId: string, helperId: string): ApiError {
  switch (outcome.problem) {
    case 'job_not_found':
      return new ApiError(404, 'not_found', `No job has the id '${jobId}'.`, {
        param: 'id',
        suggestion: 'Check the id (job ids start with job_); GET /v1/jobs lists open jobs.',
      });
    case 'own_job':
      return badRequest(
        'invalid_parameter',
        'helper_id',
        'Your account posted this job; it cannot apply to it.',
        'Apply to jobs of other accounts; GET /v1/jobs/{id}/applications lists who applied to yours.',
      );
    case 'already_applied':
      return new ApiError(409, 'already_applied', `Helper '${helperId}' has already applied to this job.`, {
        param: 'helper_id',
        suggestion: 'A helper applies to a job once; wait for the owner to accept or reject the application.',
      });
    case 'limit_reached':
      return new ApiError(409, 'limit_reached', 'The job takes no more applications: max_applicants is reached.', {
        param: null,
        suggestion: 'Apply to another open job (GET /v1/jobs); max_applicants is helpers_needed × 3.',
      });
    case 'not_open':
      return new ApiError(
        409,
        'invalid_state_transition',
        `The job is ${outcome.status}; it takes applications only while open.`,
        {
          param: null,
          suggestion: 'Apply to an open job; GET /v1/jobs lists them.',
        },
      );
  }
}

function decideError(
  outcome: Exclude<DecideOutcome, { ok: true }>,
  action: string,
  jobId: string,
  applicationId: string,
): ApiError {
  switch (outcome.problem) {
    case 'job_not_found':
      return notFound('job', jobId, 'GET /v1/jobs');
    case 'application_not_found':
      return new ApiError(404, 'not_found', `The job has no application with the id '${applicationId}'.`, {
        param: 'application_id',
        suggestion: `GET /v1/jobs/${jobId}/applications lists the job's applications.`,
      });
    case 'application_state':
      return illegalTransition('application', outcome.status, action, APPLICATION_MACHINE);
    case 'job_state':
      return illegalTransition('job', outcome.status, action, JOB_MACHINE);
  }
}
