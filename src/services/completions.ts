import type { AccountRow, ApplicationRow, EventType } from '../db/schema.js';
import { COMPLETION_MACHINE, completionState } from '../domain/completions.js';
import { contactKindsIn } from '../domain/contact-shield.js';
import type { FeeRule } from '../domain/payments.js';
import { earliestCompletion } from '../domain/statuses.js';
import { allowedActions } from '../domain/transitions.js';
import {
  applicationRowToApplication,
  cancelWhenNoneStands,
  jobPlaceAndOwner,
  lockJob,
  markNoShow,
  reopenWhenShort,
} from '../repositories/applications.js';
import {
  type CompletionSubject,
  completionsDue,
  confirmOwnCompletion,
  finalizeCompletion,
  findCompletionSubject,
  objectToOwnCompletion,
  reopenWhenNoneStands,
  requestCompletions,
} from '../repositories/completions.js';
import { completionTimingOf } from '../repositories/job-writes.js';
import { recordEvent } from '../repositories/outbox.js';
import { jobPriceOf } from '../repositories/payments.js';
import { refreshHelperRecords } from '../repositories/reliability-records.js';
import { inWriteTransaction, type WriteContext, type WriteTransaction } from '../repositories/write-transaction.js';
import type { Application } from '../schemas/applications.js';
import { rejectPendingApplications } from './application-events.js';
import { ApiError, badRequest } from './errors.js';
import { cancelWithPolicy, withPaymentsOf } from './payments.js';
import { recordJobEvent } from './public-events.js';

/**
 * A job's completion for each accepted helper (issue 30, 3; domain/completions.ts): the owner's
 * word (POST /v1/jobs/{id}/complete), which the helper confirms or objects to within
 * COMPLETION_OBJECTION_HOURS; final by the confirmation or the window's end. Only the two parties
 * of the application see it (GET /v1/jobs/{id}/applications[/{application_id}], the
 * completion.* events to both); nobody else learns of an objection.
 */

type Ids = { jobId: string; applicationId: string };

/**
 * The owner's word, inside the completing transaction (services/jobs.ts moveJob): each accepted
 * helper's window opens, with a completion.requested event to the owner and that helper.
 */
export async function requestCompletion(
  trx: WriteTransaction,
  jobId: string,
  now: Date,
  objectionHours: number,
): Promise<void> {
  const rows = await requestCompletions(trx, jobId, now, objectionHours);
  if (rows.length === 0) return;
  const job = await jobPlaceAndOwner(trx, jobId);
  for (const row of rows) await recordCompletionEvent(trx, 'completion.requested', row, job, now);
}

/** An application for the applicant's account or the job's owner (404 for anyone else), with its completion. */
export async function getApplication(
  db: WriteContext['db'],
  account: AccountRow,
  ids: Ids,
  now: Date,
): Promise<Application> {
  const found = await findCompletionSubject(db, ids.jobId, ids.applicationId);
  const reader =
    found?.account_id === account.id ? 'applicant' : found?.owner_account_id === account.id ? 'owner' : null;
  if (!found || !reader) throw applicationNotFound(ids);
  return withPaymentsOf(db, 'application_id', applicationRowToApplication(found, reader, now));
}

/**
 * The accepted helper confirms the owner's word: final at once, the job counts in their record from
 * the next read, and the reviews of the application open. Also withdraws their objection while the
 * job stays completed (another helper's completion stands).
 */
export async function confirmCompletion(context: WriteContext, account: AccountRow, ids: Ids): Promise<Application> {
  const { now } = context;
  const subject = await helperSubject(context, account, ids, 'confirm');
  return inWriteTransaction(context, async (trx) => {
    // The job first: the helpers of one job answer one after the other (reopenWhenNoneStands counts them).
    await lockJob(trx, ids.jobId);
    const row = await confirmOwnCompletion(trx, ids, account.id, now);
    // Thrown inside: nothing of this write commits, and an Idempotency-Key is free again.
    if (!row) throw await whyNot(trx, ids, 'confirm', now);
    await refreshHelperRecords(trx, [row.helper_id]);
    await recordCompletionEvent(trx, 'completion.confirmed', row, jobOf(subject), now);
    return applicationRowToApplication(row, 'applicant', now);
  });
}

/**
 * The accepted helper objects within the window, with a reason the owner reads: the completion does
 * not stand for them (no reviews of the application, nothing in their record). When it stands for
 * no accepted helper any more, the job is assigned again: its owner completes it again once the
 * work is done, or cancels it.
 */
export async function objectToCompletion(
  context: WriteContext,
  account: AccountRow,
  ids: Ids,
  reason: string,
): Promise<Application> {
  const { now } = context;
  const kinds = contactKindsIn(reason);
  if (kinds.length > 0) {
    throw badRequest(
      'invalid_parameter',
      'reason',
      `reason contains contact data (${kinds.join(', ')}); an objection states why the completion does not stand, and takes none.`,
      "Say what was not done or not as agreed. Contact data can be shared with the job's owner in the conversation (POST /v1/conversations).",
    );
  }
  const subject = await helperSubject(context, account, ids, 'object');
  return inWriteTransaction(context, async (trx) => {
    await lockJob(trx, ids.jobId);
    const row = await objectToOwnCompletion(trx, ids, account.id, reason, now);
    if (!row) throw await whyNot(trx, ids, 'object', now);
    if (await reopenWhenNoneStands(trx, ids.jobId, now))
      await recordJobEvent(trx, 'job.status_changed', ids.jobId, now);
    await recordCompletionEvent(trx, 'completion.objected', row, jobOf(subject), now);
    return applicationRowToApplication(row, 'applicant', now);
  });
}

/**
 * Writes final the completions whose window closed without a word from the helper, each in its own
 * transaction with the helper's figures (the job counts in their record): a background write, at
 * most `batch` per call. Reads and reviews do not wait for it (domain/completions.ts judges the
 * window at read time). Returns how many it wrote.
 */
export async function finalizeCompletions(context: WriteContext, batch = 100): Promise<number> {
  const due = await completionsDue(context.db, context.now, batch);
  let written = 0;
  for (const { id } of due) {
    const done = await inWriteTransaction(context, async (trx) => {
      const helperId = await finalizeCompletion(trx, id, context.now);
      if (helperId) await refreshHelperRecords(trx, [helperId]);
      return helperId !== undefined;
    });
    if (done) written++;
  }
  return written;
}

/** completion.* events: private to the job's owner and the helper, the application as both read it (accepted: unmasked). */
async function recordCompletionEvent(
  trx: WriteTransaction,
  type: EventType,
  row: ApplicationRow,
  job: { category: string; lat: number; lng: number; owner_account_id: string | null },
  now: Date,
): Promise<void> {
  const data = applicationRowToApplication(row, 'owner', now);
  const audience = [job.owner_account_id, row.account_id];
  await recordEvent(trx, { type, subjectId: row.id, place: job, audience, data }, now);
}

const jobOf = (s: CompletionSubject) => ({
  category: s.job_category,
  lat: s.job_lat,
  lng: s.job_lng,
  owner_account_id: s.owner_account_id,
});

/**
 * The application, when the caller's account is its helper's; 404 for anyone else but the job's
 * owner, who gets 403 (the helper answers, not them). Read before the write: refusals of who asks
 * write nothing.
 */
async function helperSubject(
  context: WriteContext,
  account: AccountRow,
  ids: Ids,
  action: 'confirm' | 'object',
): Promise<CompletionSubject> {
  const found = await findCompletionSubject(context.db, ids.jobId, ids.applicationId);
  if (found && found.account_id === account.id) return found;
  if (found && found.owner_account_id === account.id) {
    throw new ApiError(
      403,
      'forbidden',
      `Only the helper of the application can ${action === 'confirm' ? 'confirm' : 'object to'} the job's completion; you are the job's owner.`,
      {
        suggestion: `Your completion is your word; the helper confirms it or objects within the window. GET /v1/jobs/${ids.jobId}/applications/${ids.applicationId} shows where it stands.`,
      },
    );
  }
  throw applicationNotFound(ids);
}

/** Why the helper's action did not apply: read again inside the transaction, so it names the state it met. */
async function whyNot(trx: WriteTransaction, ids: Ids, action: 'confirm' | 'object', now: Date): Promise<ApiError> {
  const found = await findCompletionSubject(trx, ids.jobId, ids.applicationId);
  if (!found) return applicationNotFound(ids);
  const conflict = (message: string, suggestion: string, alternatives: string[] = []) =>
    new ApiError(409, 'invalid_state_transition', message, { param: null, suggestion, alternatives });
  if (found.status !== 'accepted' || found.withdrawn_at !== null) {
    const status = found.status === 'accepted' ? 'withdrawn' : found.status;
    return conflict(
      `The application is ${status}; only an accepted helper confirms or objects to a completion.`,
      'Nothing to do for this application.',
    );
  }
  const state = completionState(found, now);
  if (found.job_status !== 'completed') {
    return conflict(
      state === 'objected'
        ? `The job is ${found.job_status} again: every accepted helper objected to its completion. There is no completion to ${action} until its owner completes it again.`
        : `The job is ${found.job_status}; there is no completion to ${action} until its owner completes it (POST /v1/jobs/${ids.jobId}/complete).`,
      'Wait for the completion: the completion.requested event tells you, and GET on this application shows it.',
    );
  }
  const allowed = state ? allowedActions(COMPLETION_MACHINE, state) : [];
  const since: Record<string, string> = {
    confirmed: `you confirmed it at ${found.completion_confirmed_at}`,
    final: `it became final at ${found.completion_objectable_until}, when the window to object closed`,
    objected: `you objected at ${found.completion_objected_at}`,
    awaiting_confirmation: `it awaits your answer until ${found.completion_objectable_until}`,
  };
  return conflict(
    `The completion is ${state}: ${since[state ?? ''] ?? 'not made'}; '${action}' is not possible from there.`,
    allowed.length > 0
      ? `From ${state} you can: ${allowed.join(', ')}.`
      : 'A final completion does not change any more; the reviews of the application are open.',
    allowed,
  );
}

function applicationNotFound(ids: Ids): ApiError {
  return new ApiError(404, 'not_found', `No application with the id '${ids.applicationId}' of this job is yours.`, {
    param: 'application_id',
    suggestion:
      "An application is seen by its helper's account and the job's owner (GET /v1/jobs/{id}/applications lists a job's applications for its owner).",
  });
}

/**
 * A no-show (issue 32): one side of an accepted application says the other did not come, from the
 * job's time (earliestCompletion: desired_at, else the last acceptance plus duration_hours) until
 * `windowHours` after it, while the job is neither completed nor cancelled. The acceptance ends
 * (withdrawn_at) and its money follows who did not come:
 *
 * - the helper (the job's owner reports): the poster gets the share back in full (unpaid: cancelled;
 *   paid: a refund), it counts as a cancellation in the helper's record, and an assigned job opens
 *   again for another acceptance;
 * - the poster (the helper reports): it is a cancellation at the job's time under the job's policy,
 *   so the helper keeps the policy's share as a cancellation fee; a job nobody stands for any more
 *   is cancelled.
 *
 * Both parties get an application.no_show event. The answer carries what it did to the money.
 */
export async function reportNoShow(
  context: WriteContext,
  account: AccountRow,
  ids: Ids,
  windowHours: number,
  fees: FeeRule,
): Promise<Application> {
  const { now } = context;
  const found = await findCompletionSubject(context.db, ids.jobId, ids.applicationId);
  const who = found?.owner_account_id === account.id ? 'helper' : found?.account_id === account.id ? 'poster' : null;
  if (!found || !who || found.owner_account_id === null) throw applicationNotFound(ids);
  const ownerId = found.owner_account_id;
  return inWriteTransaction(context, async (trx) => {
    await lockJob(trx, ids.jobId);
    const job = await jobPriceOf(trx, ids.jobId);
    const timing = await completionTimingOf(trx, ids.jobId, ownerId);
    const startsAt = timing ? earliestCompletion(timing) : null;
    checkNoShowTime(startsAt, windowHours, now, ids.jobId);
    if (job.status !== 'open' && job.status !== 'assigned') {
      throw noShowConflict(
        `The job is ${job.status}; a no-show is reported while it is open or assigned.`,
        job.status === 'completed'
          ? 'Once the job is completed, the helper objects to the completion instead (POST .../object-to-completion).'
          : 'Nothing is left to report for this job.',
      );
    }
    const row = await markNoShow(trx, ids.applicationId, who, now);
    if (!row) {
      throw noShowConflict(
        found.no_show !== null
          ? `A no-show of the ${found.no_show} was reported already at ${found.no_show_at}.`
          : `The application is ${found.withdrawn_at !== null ? 'withdrawn' : found.status}; a no-show is reported for an accepted helper whose job is not completed.`,
        'Nothing is left to report for this application.',
      );
    }
    const terms =
      who === 'helper'
        ? { policy: job.cancellation_policy, startsAt: null, byPayee: true }
        : { policy: job.cancellation_policy, startsAt: new Date(startsAt as string), byPayee: false };
    const cancellation = await cancelWithPolicy(trx, { application_id: row.id }, terms, fees, now);
    await refreshHelperRecords(trx, [row.helper_id]);
    const place = { category: found.job_category, lat: found.job_lat, lng: found.job_lng };
    const audience = [ownerId, row.account_id];
    const data = applicationRowToApplication(row, 'owner', now);
    await recordEvent(trx, { type: 'application.no_show', subjectId: row.id, place, audience, data }, now);
    const jobMoved =
      who === 'helper' ? await reopenWhenShort(trx, ids.jobId, now) : await cancelWhenNoneStands(trx, ids.jobId, now);
    if (jobMoved) {
      if (who === 'poster') await rejectPendingApplications(trx, ids.jobId, now);
      await recordJobEvent(trx, 'job.status_changed', ids.jobId, now);
    }
    const application = applicationRowToApplication(row, who === 'helper' ? 'owner' : 'applicant', now);
    return withPaymentsOf(trx, 'application_id', cancellation ? { ...application, cancellation } : application);
  });
}

/** A no-show is reported from the job's time until `windowHours` after it (409 otherwise). */
function checkNoShowTime(startsAt: string | null, windowHours: number, now: Date, jobId: string): void {
  if (startsAt === null || startsAt > now.toISOString()) {
    throw new ApiError(
      409,
      'no_show_too_early',
      startsAt === null
        ? 'The job has no time yet; a no-show is reported once it has come.'
        : `The job's time is ${startsAt}; a no-show is reported from then on.`,
      {
        param: null,
        suggestion: `Until then, cancel instead (POST /v1/jobs/${jobId}/cancel, under the job's cancellation policy).`,
      },
    );
  }
  const closes = new Date(Date.parse(startsAt) + windowHours * 3_600_000).toISOString();
  if (closes < now.toISOString()) {
    throw new ApiError(
      409,
      'no_show_window_closed',
      `A no-show is reported within ${windowHours} h of the job's time (NO_SHOW_WINDOW_HOURS); the window closed at ${closes}.`,
      { param: null, suggestion: 'Settle it with the other side, or report it to the operators (POST /v1/reports).' },
    );
  }
}

const noShowConflict = (message: string, suggestion: string) =>
  new ApiError(409, 'invalid_state_transition', message, { param: null, suggestion });
