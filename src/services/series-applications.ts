import { isUniqueViolation } from '../db/errors.js';
import type { Queryable } from '../db/queryable.js';
import type { AccountRow, JobSeriesExcusalRow, SeriesApplicationRow } from '../db/schema.js';
import { applicationNote } from '../domain/contact-shield.js';
import { SERIES_MACHINE } from '../domain/transitions.js';
import { excuseAcceptance, lockJob, reopenWhenShort } from '../repositories/applications.js';
import { isOwnHelper } from '../repositories/helper-profiles.js';
import {
  excusalsOf,
  findSeriesApplication,
  findSeriesRow,
  insertExcusal,
  insertSeriesApplication,
  lockSeries,
  moveSeriesApplication,
  type PostedOccurrence,
  postedOccurrences,
  seriesApplicationsOf,
  skippedDates,
  standingHelpersOf,
} from '../repositories/job-series.js';
import { recordEvent } from '../repositories/outbox.js';
import { jobPriceOf } from '../repositories/payments.js';
import { refreshHelperRecords } from '../repositories/reliability-records.js';
import { inWriteTransaction, type WriteContext, type WriteTransaction } from '../repositories/write-transaction.js';
import type { SeriesApplication } from '../schemas/job-series.js';
import { standOn } from './applications.js';
import { ApiError, badRequest } from './errors.js';
import {
  effectiveSeriesStatus,
  excusalKey,
  planOf,
  type SeriesSettings,
  type SeriesTemplate,
  seriesNotFound,
  standingOn,
  startsLater,
} from './job-series.js';
import { cancelWithPolicy } from './payments.js';
import { recordJobEvent } from './public-events.js';
import { illegalTransition } from './write-rules.js';

/**
 * Applications to a whole job series (issue 35): a helper applies once, the owner accepts at most
 * helpers_needed, and an accepted helper stands for every occurrence (services/job-series.ts posts
 * them) until either side ends it, or excuses the helper from one occurrence for a substitute.
 */

/** An application to a series as its reader sees it: the owner reads the message shielded until accepted. */
function seriesApplicationView(
  row: SeriesApplicationRow,
  reader: 'applicant' | 'owner',
  excusals: readonly JobSeriesExcusalRow[],
  posted: readonly PostedOccurrence[],
): SeriesApplication {
  const shown = applicationNote(row.message, reader === 'owner' && row.status === 'pending');
  const jobs = new Map(posted.map((job) => [job.occurrence_date, job.id]));
  return {
    id: row.id,
    series_id: row.series_id,
    helper_id: row.helper_id,
    status: row.status,
    message: shown.text,
    contact_data_hidden: shown.masked,
    created_at: row.created_at,
    decided_at: row.decided_at,
    ended_at: row.ended_at,
    excused: excusals
      .filter((excusal) => excusal.helper_id === row.helper_id)
      .map((excusal) => ({
        date: excusal.occurrence_date,
        by: excusal.excused_by,
        job_id: jobs.get(excusal.occurrence_date) ?? null,
        created_at: excusal.created_at,
      })),
  };
}

/** Applications of one series as `reader` reads them, with what each is excused from. */
async function seriesApplicationViews(
  db: Queryable,
  seriesId: string,
  rows: readonly SeriesApplicationRow[],
  reader: 'applicant' | 'owner',
): Promise<SeriesApplication[]> {
  const [excusals, posted] = await Promise.all([excusalsOf(db, seriesId), postedOccurrences(db, seriesId)]);
  return rows.map((row) => seriesApplicationView(row, reader, excusals, posted));
}

/**
 * A helper of the account applies to a whole series (404 for another account's helper or an
 * unknown series; 400 for one's own series; 409 once the series is cancelled or ended, or when the
 * helper applied already). The owner decides once for every occurrence.
 */
export async function applyToSeries(
  context: WriteContext,
  account: AccountRow,
  seriesId: string,
  body: { helper_id: string; message?: string | null | undefined },
): Promise<SeriesApplication> {
  const { now } = context;
  if (!(await isOwnHelper(context.db, body.helper_id, account.id))) {
    throw new ApiError(404, 'not_found', `No helper with the id '${body.helper_id}' is yours.`, {
      param: 'helper_id',
      suggestion: 'Apply as a helper your account registered with POST /v1/helpers.',
    });
  }
  try {
    return await inWriteTransaction(context, async (trx) => {
      const series = await lockSeries(trx, seriesId, now);
      if (!series) throw seriesNotFound(seriesId);
      if (series.owner_account_id === account.id) {
        throw badRequest(
          'invalid_parameter',
          'helper_id',
          'Your account created this series; it cannot apply to it.',
          'Apply to series of other accounts; GET /v1/job-series/{id}/applications lists who applied to yours.',
        );
      }
      const status = effectiveSeriesStatus(series.status, planOf(series), now);
      if (status === 'cancelled' || status === 'ended') {
        throw new ApiError(409, 'invalid_state_transition', `The series is ${status}; it takes no applications.`, {
          param: null,
          suggestion: 'Apply to an active series, or to one of its open jobs (GET /v1/jobs).',
        });
      }
      const input = { seriesId, helperId: body.helper_id, accountId: account.id, message: body.message ?? null };
      const [view] = await seriesApplicationViews(
        trx,
        seriesId,
        [await insertSeriesApplication(trx, input, now)],
        'applicant',
      );
      return view as SeriesApplication;
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    throw new ApiError(409, 'already_applied', `Helper '${body.helper_id}' has already applied to this series.`, {
      param: 'helper_id',
      suggestion: 'A helper applies to a series once; wait for the owner to accept or reject the application.',
    });
  }
}

/** The applications to the account's series, oldest first (404 for anyone else's series). */
export async function applicationsOfSeries(
  db: Queryable,
  account: AccountRow,
  seriesId: string,
): Promise<{ data: SeriesApplication[]; total: number }> {
  const series = await findSeriesRow(db, seriesId);
  if (series?.owner_account_id !== account.id) throw seriesNotFound(seriesId);
  const rows = await seriesApplicationsOf(db, seriesId);
  return { data: await seriesApplicationViews(db, seriesId, rows, 'owner'), total: rows.length };
}

export type SeriesApplicationAction = 'accept' | 'reject' | 'end';

/** accepted -> accepted by excuse: the helper stands on, except for the one occurrence. */
const SERIES_APPLICATION_MACHINE: Record<
  SeriesApplicationRow['status'],
  Partial<Record<SeriesApplicationAction | 'excuse', SeriesApplicationRow['status']>>
> = {
  pending: { accept: 'accepted', reject: 'rejected' },
  accepted: { end: 'ended', excuse: 'accepted' },
  rejected: {},
  ended: {},
};

/**
 * The owner accepts or rejects an application to the series; either side ends an accepted one.
 * Accepting takes one of the series' helpers_needed places (409 limit_reached when they are
 * taken) and gives the helper a place on every posted occurrence that has not started (standOn);
 * the occurrences posted later take the helper as they are posted (postDue). 404 for anyone else.
 */
export async function decideSeriesApplication(
  context: WriteContext,
  account: AccountRow,
  ids: { seriesId: string; applicationId: string },
  action: SeriesApplicationAction,
  settings: SeriesSettings,
): Promise<SeriesApplication> {
  const { now } = context;
  return inWriteTransaction(context, async (trx) => {
    const series = await lockSeries(trx, ids.seriesId, now);
    const application = series && (await findSeriesApplication(trx, ids.seriesId, ids.applicationId));
    const isOwner = series?.owner_account_id === account.id;
    const mayAct = isOwner || (action === 'end' && application?.account_id === account.id);
    if (!series || !application || !mayAct) {
      throw applicationNotYours(ids.applicationId, 'decide', 'The series owner');
    }
    const to = (SERIES_APPLICATION_MACHINE[application.status] as Record<string, SeriesApplicationRow['status']>)[
      action
    ];
    if (!to) throw illegalTransition('series application', application.status, action, SERIES_APPLICATION_MACHINE);
    if (action === 'accept') {
      const status = effectiveSeriesStatus(series.status, planOf(series), now);
      if (status === 'cancelled' || status === 'ended')
        throw illegalTransition('job series', status, 'accept', SERIES_MACHINE);
      const needed = (JSON.parse(series.template) as SeriesTemplate).helpers_needed;
      const standing = await standingHelpersOf(trx, series.id);
      if (standing.length >= needed) {
        throw new ApiError(409, 'limit_reached', `The series needs ${needed} helper(s), and as many stand for it.`, {
          param: null,
          suggestion: 'End a standing helper first (…/applications/{application_id}/end), or reject this one.',
        });
      }
    }
    if (!(await moveSeriesApplication(trx, application.id, application.status, to, now))) {
      throw illegalTransition('series application', application.status, action, SERIES_APPLICATION_MACHINE);
    }
    const moved = { ...application, status: to };
    if (action === 'accept') {
      const excused = new Set((await excusalsOf(trx, series.id)).map(excusalKey));
      for (const job of await postedOccurrences(trx, series.id)) {
        if (job.status !== 'open' || !startsLater(job, now)) continue;
        if (excused.has(excusalKey({ helper_id: moved.helper_id, occurrence_date: job.occurrence_date }))) continue;
        await standOn(trx, standingOn(job.id, moved, series), now, settings.fees);
      }
    }
    const row = await findSeriesApplication(trx, ids.seriesId, ids.applicationId);
    const [view] = await seriesApplicationViews(trx, series.id, [row ?? moved], isOwner ? 'owner' : 'applicant');
    return view as SeriesApplication;
  });
}

/**
 * Excuses a standing helper from one occurrence of the series (by its local date), by the series'
 * owner or by the helper (404 for anyone else, or an unknown date; 409 unless the application is
 * accepted and the occurrence ahead and not skipped). The occurrence is posted later without the
 * helper; a posted one's accepted place ends at once (excused_by, withdrawn_at): excused by the
 * helper, the poster gets the share back in full; by the poster, the helper's share is cancelled
 * by the job's cancellation policy at the occurrence's start. An assigned job short of helpers
 * opens again, so a substitute applies and is accepted as on any job. Both get a
 * job_series.helper_excused event. Excusing again for the same date answers as it is.
 */
export async function excuseStandingHelper(
  context: WriteContext,
  account: AccountRow,
  ids: { seriesId: string; applicationId: string },
  date: string,
  settings: SeriesSettings,
): Promise<SeriesApplication> {
  const { now } = context;
  return inWriteTransaction(context, async (trx) => {
    const series = await lockSeries(trx, ids.seriesId, now);
    const application = series && (await findSeriesApplication(trx, ids.seriesId, ids.applicationId));
    const by: 'helper' | 'poster' | null =
      series?.owner_account_id === account.id ? 'poster' : application?.account_id === account.id ? 'helper' : null;
    if (!series || !application || !by) {
      throw applicationNotYours(
        ids.applicationId,
        'excuse',
        'The series owner or the standing helper excuses; the owner',
      );
    }
    const reader = by === 'poster' ? 'owner' : 'applicant';
    if (application.status !== 'accepted') {
      throw illegalTransition('series application', application.status, 'excuse', SERIES_APPLICATION_MACHINE);
    }
    const occurrence = planOf(series).find((candidate) => candidate.date === date);
    if (!occurrence) {
      throw new ApiError(404, 'not_found', `The series has no occurrence on ${date}.`, {
        param: 'date',
        suggestion: 'GET /v1/job-series/{id} lists its occurrences with their dates.',
      });
    }
    const job = (await postedOccurrences(trx, series.id)).find((posted) => posted.occurrence_date === date);
    if (occurrence.startsAt.getTime() <= now.getTime() || (await skippedDates(trx, series.id)).has(date)) {
      const started = occurrence.startsAt.getTime() <= now.getTime();
      throw new ApiError(
        409,
        'invalid_state_transition',
        started
          ? `The occurrence of ${date} started at ${occurrence.startsAt.toISOString()}; nobody is excused from it any more.`
          : `The occurrence of ${date} is skipped; nobody needs excusing from it.`,
        {
          param: 'date',
          suggestion: started
            ? `Once it started, one side reports the other's no-show instead (POST /v1/jobs/${job?.id ?? '{id}'}/applications/{application_id}/no-show).`
            : 'Excuse the helper from an occurrence that lies ahead.',
        },
      );
    }
    const excusal = { series_id: series.id, helper_id: application.helper_id, occurrence_date: date, excused_by: by };
    if (await insertExcusal(trx, excusal, now)) {
      if (job)
        await releasePlace(
          trx,
          { jobId: job.id, helperId: application.helper_id, by },
          occurrence.startsAt,
          settings,
          now,
        );
      const [data] = await seriesApplicationViews(trx, series.id, [application], 'owner');
      const template = JSON.parse(series.template) as SeriesTemplate;
      const place = { category: template.category, lat: template.lat, lng: template.lng };
      const audience = [series.owner_account_id, application.account_id];
      await recordEvent(
        trx,
        { type: 'job_series.helper_excused', subjectId: application.id, place, audience, data },
        now,
      );
    }
    const [view] = await seriesApplicationViews(trx, series.id, [application], reader);
    return view as SeriesApplication;
  });
}

/** The excused helper's accepted place on the occurrence's job ends, with its money (see excuseStandingHelper). */
async function releasePlace(
  trx: WriteTransaction,
  place: { jobId: string; helperId: string; by: 'helper' | 'poster' },
  startsAt: Date,
  settings: SeriesSettings,
  now: Date,
): Promise<void> {
  await lockJob(trx, place.jobId);
  const row = await excuseAcceptance(trx, place.jobId, place.helperId, place.by, now);
  if (!row) return;
  const job = await jobPriceOf(trx, place.jobId);
  const terms = { policy: job.cancellation_policy, startsAt, byPayee: place.by === 'helper' };
  await cancelWithPolicy(trx, { application_id: row.id }, terms, settings.fees, now);
  await refreshHelperRecords(trx, [row.helper_id]);
  if (await reopenWhenShort(trx, place.jobId, now)) await recordJobEvent(trx, 'job.status_changed', place.jobId, now);
}

/** 404 for an application to the series the caller may not act on (or none): it says nothing of it. */
function applicationNotYours(id: string, verb: string, who: string): ApiError {
  return new ApiError(404, 'not_found', `No application '${id}' to this series is yours to ${verb}.`, {
    param: 'application_id',
    suggestion: `${who} lists them with GET /v1/job-series/{id}/applications.`,
  });
}
