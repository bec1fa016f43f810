import type { Kysely } from 'kysely';
import type { Queryable } from '../db/queryable.js';
import type { AccountRow, Database, JobSeriesRow, SeriesApplicationRow } from '../db/schema.js';
import { berlinDate, berlinWallClock, isCalendarDate } from '../domain/berlin-time.js';
import { addDays } from '../domain/booking-price.js';
import { SCHEDULE_HORIZON_DAYS, scheduleHorizon } from '../domain/deadlines.js';
import { DEFAULT_CENTER, haversineKm } from '../domain/geo.js';
import type { FeeRule } from '../domain/payments.js';
import { centsToEur } from '../domain/pricing.js';
import {
  isRecurrenceProblem,
  MAX_SERIES_OCCURRENCES,
  type Occurrence,
  occurrencesOf,
  parseRecurrence,
  recurrenceText,
} from '../domain/recurrence.js';
import { SERIES_MACHINE } from '../domain/transitions.js';
import {
  activeSeriesOfParty,
  copyStandingHelpers,
  dueSeries,
  excusalsOf,
  excusedDatesOfAccount,
  findSeriesRow,
  insertOccurrence,
  insertSeries,
  insertSkip,
  lockOwnSeries,
  moveOccurrencesFrom,
  type PostedOccurrence,
  postedOccurrences,
  postedOccurrencesOf,
  seriesCountOfAccount,
  seriesOfAccount,
  setSeriesState,
  skippedDates,
  skippedDatesOf,
  standingHelpersOf,
} from '../repositories/job-series.js';
import { derivedJobFields, type JobValues, lockOwnJob } from '../repositories/job-writes.js';
import { flag, locationFromRow, parsePhotos } from '../repositories/mappers.js';
import { recordEvent } from '../repositories/outbox.js';
import { inWriteTransaction, type WriteContext, type WriteTransaction } from '../repositories/write-transaction.js';
import type { JobSeries, JobSeriesCreateBody, JobSeriesUpdateBody, SeriesOccurrence } from '../schemas/job-series.js';
import { standOn } from './applications.js';
import { ApiError, badRequest } from './errors.js';
import { changeOpenJob, jobColumns, moveJob } from './jobs.js';
import { requireProviderDetails } from './providers.js';
import { recordJobEvent } from './public-events.js';
import { matchSavedSearches } from './saved-search-matches.js';
import { illegalTransition } from './write-rules.js';

const DAY_MS = 86_400_000;
/** Series a sweep run posts for at most (the next run takes the rest). */
const SWEEP_BATCH = 50;

/**
 * What each occurrence of a series is posted with: the columns of a job a client sets (place
 * resolved, price in cents), without its schedule, which each occurrence takes from the rule.
 */
export type SeriesTemplate = Omit<
  JobValues,
  'desired_at' | 'desired_date' | 'deadline' | 'series_id' | 'occurrence_date'
>;

/** What series writes need: the window occurrences are posted in, and the fees of payments and cancellations. */
export interface SeriesSettings {
  /** SERIES_HORIZON_DAYS. */
  horizonDays: number;
  /** PLATFORM_FEE_PERCENT and its minimum: a standing helper's acceptance owes a payment. */
  fees: FeeRule;
}

/**
 * Creates a job series for the account: the rule and first date are checked, the series stored,
 * and the occurrences within the window posted at once as open jobs (each with its job.created
 * event and saved-search matches), in one transaction.
 */
export async function createJobSeries(
  context: WriteContext,
  account: AccountRow,
  body: JobSeriesCreateBody,
  settings: SeriesSettings,
): Promise<JobSeries> {
  const { now } = context;
  const { rrule, starts_on, local_time, ...fields } = body;
  const rule = parseRecurrence(rrule);
  if (isRecurrenceProblem(rule)) throw badRequest('invalid_parameter', 'rrule', rule.problem, rule.suggestion);
  if (!isCalendarDate(starts_on)) {
    throw badRequest(
      'invalid_parameter',
      'starts_on',
      `starts_on names no calendar day: '${starts_on}'.`,
      'Send a date as YYYY-MM-DD.',
    );
  }
  const occurrences = occurrencesOf(rule, starts_on, local_time);
  if (occurrences === 'too_many') {
    throw badRequest(
      'parameter_out_of_range',
      'rrule',
      `The rule has more than ${MAX_SERIES_OCCURRENCES} occurrences from ${starts_on}.`,
      `End it sooner: COUNT of at most ${MAX_SERIES_OCCURRENCES}, or an earlier UNTIL; create another series for the time after.`,
    );
  }
  checkFirstOccurrence(occurrences, starts_on, account, now);
  const template = jobColumns(fields, account) as SeriesTemplate;
  await requireProviderDetails(context.db, account, 'jobs');
  const text = recurrenceText(rule);
  const id = await inWriteTransaction(context, async (trx) => {
    const seriesId = await insertSeries(
      trx,
      {
        owner_account_id: account.id,
        rrule: text,
        starts_on,
        local_time,
        template: JSON.stringify(template),
      },
      now,
    );
    const row = await findSeriesRow(trx, seriesId);
    if (!row) throw new Error(`series ${seriesId} vanished in its own transaction`);
    await postDue(trx, row, now, settings);
    await recordSeriesEvent(trx, 'job_series.created', seriesId, now);
    return seriesId;
  });
  return (await jobSeriesById(context.db, id, now)) as JobSeries;
}

function checkFirstOccurrence(occurrences: Occurrence[], startsOn: string, account: AccountRow, now: Date): void {
  const first = occurrences.find((occurrence) => occurrence.startsAt.getTime() > now.getTime());
  if (!first || occurrences[0] !== first) {
    throw badRequest(
      'parameter_out_of_range',
      occurrences.length === 0 ? 'rrule' : 'starts_on',
      occurrences.length === 0
        ? `The rule has no occurrence from ${startsOn} on.`
        : `The first occurrence (${occurrences[0]?.date}) has started already; it is ${now.toISOString()} now.`,
      occurrences.length === 0
        ? 'Check UNTIL and BYDAY against starts_on.'
        : `Send a starts_on from ${berlinDate(now)} on whose first occurrence is still ahead.`,
    );
  }
  const latest = scheduleHorizon(now, account.account_type);
  if (first.startsAt.getTime() > latest.getTime()) {
    throw badRequest(
      'parameter_out_of_range',
      'starts_on',
      `The first occurrence (${first.date}) may be at most ${SCHEDULE_HORIZON_DAYS[account.account_type]} days ahead for a ${account.account_type} account, so at the latest ${latest.toISOString()}.`,
      `Send a starts_on no later than ${berlinDate(latest)}.`,
    );
  }
}

/** The occurrences of a stored series (its rule was checked when stored). */
export function planOf(row: Pick<JobSeriesRow, 'rrule' | 'starts_on' | 'local_time'>): Occurrence[] {
  const rule = parseRecurrence(row.rrule);
  if (isRecurrenceProblem(rule)) throw new Error(`stored rule of a series no longer reads: ${rule.problem}`);
  const occurrences = occurrencesOf(rule, row.starts_on, row.local_time);
  return occurrences === 'too_many' ? [] : occurrences;
}

/**
 * Posts the occurrences of an active series that are due (starting after `now` and within the
 * window), each an open job with its event and saved-search matches, and sets when the next is due.
 * An occurrence another instance posted meanwhile is left alone (the unique index). Returns how
 * many it posted.
 */
async function postDue(trx: WriteTransaction, row: JobSeriesRow, now: Date, settings: SeriesSettings): Promise<number> {
  const plan = planOf(row);
  const [posted, skipped] = await Promise.all([postedOccurrences(trx, row.id), skippedDates(trx, row.id)]);
  // The same content again would undo a moderation decision: nothing is posted while one stands.
  if (heldByModeration(posted)) return 0;
  const postedDates = new Set(posted.map((job) => job.occurrence_date));
  const windowEnd = now.getTime() + settings.horizonDays * DAY_MS;
  const waiting = plan.filter(
    (occurrence) =>
      occurrence.startsAt.getTime() > now.getTime() &&
      !postedDates.has(occurrence.date) &&
      !skipped.has(occurrence.date),
  );
  const due = waiting.filter((occurrence) => occurrence.startsAt.getTime() <= windowEnd);
  let count = 0;
  if (due.length > 0) {
    const template = JSON.parse(row.template) as SeriesTemplate;
    const derived = await derivedJobFields(trx, template);
    const standing = await standingHelpersOf(trx, row.id);
    const excused = new Set((await excusalsOf(trx, row.id)).map(excusalKey));
    for (const occurrence of due) {
      const at = occurrence.startsAt.toISOString();
      const values: JobValues = {
        ...template,
        ...derived,
        desired_at: at,
        desired_date: occurrence.date,
        deadline: at,
      };
      const jobId = await insertOccurrence(trx, row, occurrence.date, values, now);
      if (!jobId) continue;
      count += 1;
      const job = await recordJobEvent(trx, 'job.created', jobId, now);
      await matchSavedSearches(trx, 'jobs', job, row.owner_account_id, now);
      for (const helper of standing) {
        if (excused.has(excusalKey({ helper_id: helper.helper_id, occurrence_date: occurrence.date }))) continue;
        await standOn(trx, standingOn(jobId, helper, row), now, settings.fees);
      }
    }
  }
  const next = waiting.find((occurrence) => occurrence.startsAt.getTime() > windowEnd);
  const nextPostAt = next ? new Date(next.startsAt.getTime() - settings.horizonDays * DAY_MS).toISOString() : null;
  if (nextPostAt !== row.next_post_at) await setSeriesState(trx, row.id, { next_post_at: nextPostAt });
  return count;
}

/**
 * The sweep's work (every instance, every EVENTS_POLL_MS): posts the due occurrences of active
 * series whose owner may act (not suspended, not erased), each series in a transaction of its own
 * that first locks it, so two instances post each occurrence once. Returns how many jobs it posted.
 */
export async function postDueOccurrences(db: Kysely<Database>, now: Date, settings: SeriesSettings): Promise<number> {
  const due = await dueSeries(db, now, SWEEP_BATCH);
  let posted = 0;
  for (const series of due) {
    posted += await inWriteTransaction({ db, now, claim: null }, async (trx) => {
      const row = await lockOwnSeries(trx, series.id, series.owner_account_id, now);
      if (row?.status !== 'active' || row.next_post_at === null || row.next_post_at > now.toISOString()) return 0;
      return postDue(trx, row, now, settings);
    });
  }
  return posted;
}

/** A series as GET /v1/job-series/{id} shows it (anyone's: what its jobs show publicly); undefined: none. */
export async function jobSeriesById(db: Queryable, id: string, now: Date): Promise<JobSeries | undefined> {
  const loaded = await loadSeries(db, id);
  return loaded && seriesView(loaded.row, loaded.posted, loaded.skipped, now);
}

/** A series' row with its posted occurrences and skipped dates: what its view is made of. */
async function loadSeries(db: Queryable, id: string) {
  const row = await findSeriesRow(db, id);
  if (!row) return undefined;
  const [posted, skipped] = await Promise.all([postedOccurrences(db, id), skippedDates(db, id)]);
  return { row, posted, skipped };
}

/**
 * Whether a moderation decision removed one of the series' jobs (DSA notice and action): the
 * series posts nothing more and is shown to nobody, as a removed job is not, until it is reversed.
 */
function heldByModeration(posted: readonly PostedOccurrence[]): boolean {
  return posted.some((job) => job.status === 'removed');
}

/** A series by id as anyone sees it; 404 when there is none, or while a moderation decision holds it. */
export async function requireJobSeries(db: Queryable, id: string, now: Date): Promise<JobSeries> {
  const loaded = await loadSeries(db, id);
  if (loaded && !heldByModeration(loaded.posted)) return seriesView(loaded.row, loaded.posted, loaded.skipped, now);
  throw new ApiError(404, 'not_found', `No job series with the id '${id}'.`, {
    param: 'id',
    suggestion: 'Check the id: a job posted for a series names it in series_id; GET /v1/job-series lists yours.',
  });
}

/** One page of the account's series, newest first. */
export async function ownJobSeries(
  db: Queryable,
  account: AccountRow,
  page: { limit: number; offset: number },
  now: Date,
): Promise<{ data: JobSeries[]; total: number; limit: number; offset: number }> {
  const [rows, total] = await Promise.all([
    seriesOfAccount(db, account.id, page),
    seriesCountOfAccount(db, account.id),
  ]);
  // Two queries for the whole page, not two a series.
  const ids = rows.map((row) => row.id);
  const [posted, skipped] = await Promise.all([postedOccurrencesOf(db, ids), skippedDatesOf(db, ids)]);
  const data = rows.map((row) => seriesView(row, posted.get(row.id) ?? [], skipped.get(row.id) ?? new Set(), now));
  return { data, total, ...page };
}

function seriesView(row: JobSeriesRow, posted: PostedOccurrence[], skipped: Set<string>, now: Date): JobSeries {
  const template = JSON.parse(row.template) as SeriesTemplate;
  const plan = planOf(row);
  const jobs = new Map(posted.map((job) => [job.occurrence_date, job.id]));
  const status = effectiveSeriesStatus(row.status, plan, now);
  const occurrences = plan.map((occurrence): SeriesOccurrence => {
    const jobId = jobs.get(occurrence.date) ?? null;
    return {
      date: occurrence.date,
      starts_at: occurrence.startsAt.toISOString(),
      state: occurrenceState(occurrence, jobId, skipped, row.status, now),
      job_id: jobId,
    };
  });
  return {
    id: row.id,
    status,
    rrule: row.rrule,
    starts_on: row.starts_on,
    local_time: row.local_time,
    time_zone: 'Europe/Berlin',
    title: template.title,
    description: template.description,
    category: template.category,
    price_eur: centsToEur(template.price_cents),
    location: locationFromRow(
      { ...template, district: template.district ?? null },
      haversineKm(DEFAULT_CENTER, template),
    ),
    time_preference: template.time_preference ?? null,
    urgent: flag(template.urgent),
    express: flag(template.express),
    remote_task: flag(template.remote_task),
    requires_license: flag(template.requires_license),
    cancellation_policy: template.cancellation_policy ?? 'flexible',
    helpers_needed: template.helpers_needed,
    photos: parsePhotos(template.photos),
    occurrences,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The stored status as shown: an active series whose every occurrence has started is ended. */
export function effectiveSeriesStatus(
  status: JobSeriesRow['status'],
  plan: Occurrence[],
  now: Date,
): JobSeries['status'] {
  const last = plan.at(-1);
  if (status === 'active' && (!last || last.startsAt.getTime() <= now.getTime())) return 'ended';
  return status;
}

function occurrenceState(
  occurrence: Occurrence,
  jobId: string | null,
  skipped: Set<string>,
  status: JobSeriesRow['status'],
  now: Date,
): SeriesOccurrence['state'] {
  if (skipped.has(occurrence.date)) return 'skipped';
  if (jobId) return 'posted';
  if (status === 'cancelled' || occurrence.startsAt.getTime() <= now.getTime()) return 'not_posted';
  return status === 'paused' ? 'paused' : 'planned';
}

export type SeriesAction = 'pause' | 'resume' | 'cancel';

/**
 * Pauses, resumes or cancels the account's series along SERIES_MACHINE. Resuming posts what is due
 * at once; cancelling cancels its posted occurrences that have not started (open or assigned),
 * each by its cancellation policy, as the owner's cancellation of that job would. 404 for anyone
 * else's series; 409 from any other state.
 */
export async function moveJobSeries(
  context: WriteContext,
  account: AccountRow,
  id: string,
  action: SeriesAction,
  settings: SeriesSettings,
): Promise<JobSeries> {
  const { now } = context;
  await inWriteTransaction(context, async (trx) => {
    const row = await lockOwnSeries(trx, id, account.id, now);
    if (!row) throw seriesNotFound(id);
    const current = effectiveSeriesStatus(row.status, planOf(row), now);
    const to = SERIES_MACHINE[current]?.[action] as JobSeriesRow['status'] | undefined;
    if (!to) throw illegalTransition('job series', current, action, SERIES_MACHINE);
    await setSeriesState(trx, id, { status: to });
    if (to === 'active') await postDue(trx, { ...row, status: to }, now, settings);
    if (to === 'cancelled') {
      for (const job of await postedOccurrences(trx, id)) {
        if (!startsLater(job, now)) continue;
        await moveJob(trx, job.id, account.id, 'cancel', now, undefined, settings.fees);
      }
    }
    await recordSeriesEvent(trx, 'job_series.status_changed', id, now);
  });
  return (await jobSeriesById(context.db, id, now)) as JobSeries;
}

/**
 * Skips one occurrence of the account's series (by its local date): not posted, or, when posted
 * and not started, its job cancelled by its cancellation policy. Skipping one skipped already
 * answers the series as it is. 404: no such series of the account, or no such occurrence; 409: it
 * has started, or its job is completed or cancelled already.
 */
export async function skipOccurrence(
  context: WriteContext,
  account: AccountRow,
  id: string,
  date: string,
  fees: FeeRule,
): Promise<JobSeries> {
  const { now } = context;
  await inWriteTransaction(context, async (trx) => {
    const row = await lockOwnSeries(trx, id, account.id, now);
    if (!row) throw seriesNotFound(id);
    const occurrence = planOf(row).find((candidate) => candidate.date === date);
    if (!occurrence) {
      throw new ApiError(404, 'not_found', `The series has no occurrence on ${date}.`, {
        param: 'date',
        suggestion: 'GET /v1/job-series/{id} lists its occurrences with their dates.',
      });
    }
    if (!(await insertSkip(trx, id, date, now))) return;
    await recordSeriesEvent(trx, 'job_series.updated', id, now);
    if (occurrence.startsAt.getTime() <= now.getTime()) {
      throw new ApiError(
        409,
        'invalid_state_transition',
        `The occurrence of ${date} started at ${occurrence.startsAt.toISOString()}.`,
        {
          param: 'date',
          suggestion:
            'Skip an occurrence that lies ahead; the job of one that started is cancelled or completed as a job.',
        },
      );
    }
    const job = (await postedOccurrences(trx, id)).find((posted) => posted.occurrence_date === date);
    if (!job) return;
    const moved = await moveJob(trx, job.id, account.id, 'cancel', now, undefined, fees);
    if (moved?.done) return;
    throw new ApiError(
      409,
      'invalid_state_transition',
      `The job of the occurrence on ${date} (${job.id}) is ${moved?.status ?? job.status}; it can no longer be skipped.`,
      { param: 'date', suggestion: 'Only an occurrence whose job is open or assigned can be skipped.' },
    );
  });
  return (await jobSeriesById(context.db, id, now)) as JobSeries;
}

/**
 * A series' own event (job_series.created, .updated, .status_changed), with the series as anyone
 * reads it, to its owner and the helpers standing for it (webhooks, private stream): its
 * occurrences' jobs have their own public job.* events.
 */
async function recordSeriesEvent(
  trx: WriteTransaction,
  type: 'job_series.created' | 'job_series.updated' | 'job_series.status_changed',
  id: string,
  now: Date,
): Promise<void> {
  const series = await jobSeriesById(trx, id, now);
  const row = await findSeriesRow(trx, id);
  if (!series || !row) return;
  const standing = await standingHelpersOf(trx, id);
  const template = JSON.parse(row.template) as SeriesTemplate;
  await recordEvent(
    trx,
    {
      type,
      subjectId: id,
      place: { category: template.category, lat: template.lat, lng: template.lng },
      audience: [row.owner_account_id, ...standing.map((helper) => helper.account_id)],
      data: series,
    },
    now,
  );
}

export function startsLater(job: PostedOccurrence, now: Date): boolean {
  return job.desired_at !== null && job.desired_at > now.toISOString() && ['open', 'assigned'].includes(job.status);
}

export function seriesNotFound(id: string): ApiError {
  return new ApiError(404, 'not_found', `No job series with the id '${id}' is yours to change.`, {
    param: 'id',
    suggestion: 'Check the id; you can change only series your account created. GET /v1/job-series lists yours.',
  });
}

/** A helper excused from an occurrence, as one string to look up. */
export const excusalKey = (excusal: { helper_id: string; occurrence_date: string }) =>
  `${excusal.helper_id} ${excusal.occurrence_date}`;

/** What standOn needs to give a standing helper a place on an occurrence's job. */
export function standingOn(
  jobId: string,
  helper: SeriesApplicationRow,
  series: Pick<JobSeriesRow, 'owner_account_id'>,
) {
  return { jobId, helperId: helper.helper_id, accountId: helper.account_id, ownerAccountId: series.owner_account_id };
}

/** An occurrence still to be posted, in the calendar of the series' owner or of a helper standing for it. */
export interface PlannedOccurrence {
  seriesId: string;
  date: string;
  title: string;
  startsAt: Date;
  durationHours: number;
  role: 'poster' | 'helper';
}

/**
 * The occurrences of the active series the account has a part in that are still to be posted
 * (not posted, not skipped, not excused for a helper of the account, ahead of `now`) from `from`
 * to `to` (local dates, inclusive): posted ones are jobs and come with the account's jobs.
 */
export async function plannedOccurrencesOf(
  db: Queryable,
  accountId: string,
  window: { from: string; to: string },
  now: Date,
): Promise<PlannedOccurrence[]> {
  const planned: PlannedOccurrence[] = [];
  for (const { row, role } of await activeSeriesOfParty(db, accountId)) {
    const [posted, skipped, excused] = await Promise.all([
      postedOccurrences(db, row.id),
      skippedDates(db, row.id),
      role === 'helper' ? excusedDatesOfAccount(db, row.id, accountId) : new Set<string>(),
    ]);
    const postedDates = new Set(posted.map((job) => job.occurrence_date));
    const template = JSON.parse(row.template) as SeriesTemplate;
    for (const occurrence of planOf(row)) {
      if (postedDates.has(occurrence.date) || skipped.has(occurrence.date) || excused.has(occurrence.date)) continue;
      if (occurrence.startsAt.getTime() <= now.getTime()) continue;
      if (occurrence.date < window.from || occurrence.date > window.to) continue;
      planned.push({
        seriesId: row.id,
        date: occurrence.date,
        title: template.title,
        startsAt: occurrence.startsAt,
        durationHours: template.duration_hours ?? 2,
        role,
      });
    }
  }
  return planned;
}

/**
 * Changes the account's series: the fields of its jobs and its local start time, for every
 * occurrence, or (`from`, "this and following") from one occurrence on, by splitting the series
 * there: it ends the day before, and a new series with the same rule (COUNT what is left), the
 * change, the standing helpers and the posted jobs and skipped dates from then on continues it.
 * The posted occurrences the change is for take it as PATCH /v1/jobs/{id} would (changeOpenJob)
 * while open and ahead; those assigned or started keep what they were posted with. Answers the
 * series that carries the change (the new one after a split). 404 for anyone else's series or no
 * occurrence on `from`; 409 once cancelled or ended.
 */
export async function updateJobSeries(
  context: WriteContext,
  account: AccountRow,
  id: string,
  body: JobSeriesUpdateBody,
  settings: SeriesSettings,
): Promise<JobSeries> {
  const { now } = context;
  const { from, local_time: localTime, ...fields } = body;
  const columns = jobColumns(fields, account);
  const targetId = await inWriteTransaction(context, async (trx) => {
    const row = await lockOwnSeries(trx, id, account.id, now);
    if (!row) throw seriesNotFound(id);
    const plan = planOf(row);
    const status = effectiveSeriesStatus(row.status, plan, now);
    if (status === 'cancelled' || status === 'ended')
      throw illegalTransition('job series', status, 'update', SERIES_MACHINE);
    const changed = {
      template: JSON.stringify({ ...(JSON.parse(row.template) as SeriesTemplate), ...columns }),
      local_time: localTime ?? row.local_time,
    };
    let target: JobSeriesRow;
    if (from !== undefined && from !== plan[0]?.date) {
      target = await splitSeries(trx, row, plan, from, changed, now);
      if (row.status === 'active')
        await postDue(trx, (await findSeriesRow(trx, row.id)) as JobSeriesRow, now, settings);
    } else {
      await setSeriesState(trx, row.id, changed);
      target = { ...row, ...changed };
    }
    const [hour, minute] = target.local_time.split(':').map(Number) as [number, number];
    for (const job of await postedOccurrences(trx, target.id)) {
      if (job.status !== 'open' || !startsLater(job, now)) continue;
      const change: Partial<JobValues> = { ...columns };
      if (localTime !== undefined) {
        const startsAt = berlinWallClock(job.occurrence_date, hour, minute);
        if (startsAt.getTime() <= now.getTime()) continue;
        Object.assign(change, { desired_at: startsAt.toISOString(), deadline: startsAt.toISOString() });
      }
      const jobRow = await lockOwnJob(trx, job.id, account.id, now);
      if (!jobRow) continue;
      try {
        await changeOpenJob(trx, jobRow, change, account, now);
      } catch (error) {
        // A rule of the job the change cannot meet there (more helpers accepted than it asks): it keeps its values.
        if (!(error instanceof ApiError)) throw error;
      }
    }
    if (target.status === 'active') await postDue(trx, target, now, settings);
    await recordSeriesEvent(trx, 'job_series.updated', row.id, now);
    if (target.id !== row.id) await recordSeriesEvent(trx, 'job_series.created', target.id, now);
    return target.id;
  });
  return (await jobSeriesById(context.db, targetId, now)) as JobSeries;
}

/** Splits a series at the occurrence on `from` (404 when there is none): see updateJobSeries. */
async function splitSeries(
  trx: WriteTransaction,
  row: JobSeriesRow,
  plan: Occurrence[],
  from: string,
  changed: { template: string; local_time: string },
  now: Date,
): Promise<JobSeriesRow> {
  const index = plan.findIndex((occurrence) => occurrence.date === from);
  if (index < 0) {
    throw new ApiError(404, 'not_found', `The series has no occurrence on ${from}.`, {
      param: 'from',
      suggestion: 'Send the date of one of its occurrences (GET /v1/job-series/{id}), or leave from out to change all.',
    });
  }
  const rule = parseRecurrence(row.rrule);
  if (isRecurrenceProblem(rule)) throw new Error(`stored rule of a series no longer reads: ${rule.problem}`);
  const before = recurrenceText({ ...rule, count: null, until: { date: addDays(from, -1) } });
  const after = recurrenceText({ ...rule, count: rule.count === null ? null : plan.length - index });
  const newId = await insertSeries(
    trx,
    { owner_account_id: row.owner_account_id, rrule: after, starts_on: from, ...changed },
    now,
  );
  await setSeriesState(trx, row.id, { rrule: before });
  if (row.status === 'paused') await setSeriesState(trx, newId, { status: 'paused' });
  await moveOccurrencesFrom(trx, row.id, newId, from);
  await copyStandingHelpers(trx, row.id, newId, now);
  return (await findSeriesRow(trx, newId)) as JobSeriesRow;
}
