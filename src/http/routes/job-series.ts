import { ApplicationCreateBody } from '../../schemas/applications.js';
import { DEFAULT_PAGE_SIZE, NoQuery, RefTo } from '../../schemas/common.js';
import {
  JOB_SERIES_LIFE_CYCLE,
  JobSeriesCreateBody,
  JobSeriesListQuery,
  JobSeriesPage,
  JobSeriesParams,
  JobSeriesSchema,
  JobSeriesUpdateBody,
  OccurrenceParams,
  SERIES_STANDING,
  SeriesApplicationPage,
  SeriesApplicationParams,
  SeriesApplicationSchema,
  SeriesExcuseBody,
} from '../../schemas/job-series.js';
import {
  createJobSeries,
  moveJobSeries,
  ownJobSeries,
  requireJobSeries,
  type SeriesAction,
  skipOccurrence,
  updateJobSeries,
} from '../../services/job-series.js';
import {
  applicationsOfSeries,
  applyToSeries,
  decideSeriesApplication,
  excuseStandingHelper,
  type SeriesApplicationAction,
} from '../../services/series-applications.js';
import { errorResponses } from '../error-catalogue.js';
import { created, ok, sendCreated } from '../responses.js';
import type { Api, RouteDeps } from '../route-deps.js';
import { WRITE_HOOKS, WRITE_SECURITY } from '../write-body.js';
import { requireAccount, writeContext } from '../write-kit.js';

const SERIES_ERRORS = errorResponses(400, 404, 409, 413, 415, 422);

export function jobSeriesRoutes(app: Api, deps: RouteDeps): void {
  const { db, now } = deps;
  const tags = ['Job series'];
  const settings = { horizonDays: deps.seriesHorizonDays, fees: deps.fees };

  app.post(
    '/v1/job-series',
    {
      ...WRITE_HOOKS,
      schema: {
        operationId: 'createJobSeries',
        summary: 'Post a recurring job',
        description: `Creates a job series for the calling account: the fields of a job plus a recurrence (rrule), the first local date (starts_on) and the local start time (local_time, Europe/Berlin). Each occurrence becomes an ordinary open job (series_id names the series; desired_at its start, deadline its start too) ${deps.seriesHorizonDays} days ahead of it (SERIES_HORIZON_DAYS): those within that window at once, with this answer, the others by a sweep as their time comes, each once also with several instances. The rules of POST /v1/jobs hold for each (a commercial account needs provider details first).\n\n${JOB_SERIES_LIFE_CYCLE}`,
        tags,
        security: WRITE_SECURITY,
        querystring: NoQuery,
        body: JobSeriesCreateBody,
        response: {
          201: created(RefTo(JobSeriesSchema), 'The series, as GET /v1/job-series/{id} shows it.'),
          ...SERIES_ERRORS,
        },
      },
    },
    async (request, reply) => {
      const series = await createJobSeries(
        writeContext(request, deps),
        requireAccount(request),
        request.body,
        settings,
      );
      return sendCreated(reply, `/v1/job-series/${series.id}`, series);
    },
  );

  app.get(
    '/v1/job-series',
    {
      onRequest: WRITE_HOOKS.onRequest,
      schema: {
        operationId: 'listJobSeries',
        summary: 'Your job series',
        description: 'The job series of the calling account, newest first, with their occurrences.',
        tags,
        security: WRITE_SECURITY,
        querystring: JobSeriesListQuery,
        response: { 200: ok(JobSeriesPage, 'A page of series.'), ...errorResponses(400) },
      },
    },
    async (request) =>
      ownJobSeries(
        db,
        requireAccount(request),
        { limit: request.query.limit ?? DEFAULT_PAGE_SIZE, offset: request.query.offset ?? 0 },
        now(),
      ),
  );

  app.get(
    '/v1/job-series/:id',
    {
      schema: {
        operationId: 'getJobSeries',
        summary: 'Get a job series',
        description:
          'A series as anyone sees it: what its jobs show (the approximate place, no duration), its rule and every occurrence with its state and job. A helper finds it through series_id of a job.',
        tags,
        params: JobSeriesParams,
        querystring: NoQuery,
        response: { 200: ok(RefTo(JobSeriesSchema), 'The series.'), ...errorResponses(400, 404) },
      },
    },
    async (request) => requireJobSeries(db, request.params.id, now()),
  );

  app.patch(
    '/v1/job-series/:id',
    {
      ...WRITE_HOOKS,
      schema: {
        operationId: 'updateJobSeries',
        summary: 'Change a job series',
        description: `Changes the fields of its jobs (as PATCH /v1/jobs/{id} takes them) and its local start time, for every occurrence or, with from (an occurrence's date), for that occurrence and the following ones: the series is then split there, ending the day before, and a new series (answered, with its own id) carries the change with the same rule, the standing helpers, and the posted jobs and skipped dates from then on. Posted occurrences take the change as PATCH /v1/jobs/{id} would while open and ahead; assigned or started ones keep what they were posted with, as do those whose rules the change cannot meet. To change one occurrence only, PATCH its job. Only for the series' owner (else 404); cancelled or ended: 409.\n\n${JOB_SERIES_LIFE_CYCLE}`,
        tags,
        security: WRITE_SECURITY,
        params: JobSeriesParams,
        querystring: NoQuery,
        body: JobSeriesUpdateBody,
        response: { 200: ok(RefTo(JobSeriesSchema), 'The series that carries the change.'), ...SERIES_ERRORS },
      },
    },
    async (request) =>
      updateJobSeries(writeContext(request, deps), requireAccount(request), request.params.id, request.body, settings),
  );

  const ACTIONS: Record<SeriesAction, { operationId: string; summary: string; description: string }> = {
    pause: {
      operationId: 'pauseJobSeries',
      summary: 'Pause a job series',
      description:
        'active -> paused: no occurrence is posted until it is resumed; those posted already stay (skip them, or cancel their jobs, to call them off).',
    },
    resume: {
      operationId: 'resumeJobSeries',
      summary: 'Resume a job series',
      description:
        'paused -> active: the occurrences still ahead are posted again as they come due, those within the window at once; those whose time passed meanwhile are not_posted.',
    },
    cancel: {
      operationId: 'cancelJobSeries',
      summary: 'Cancel a job series',
      description:
        'active or paused -> cancelled: nothing more is posted, and each posted occurrence that has not started (open or assigned) is cancelled as POST /v1/jobs/{id}/cancel would, by its cancellation policy (pending applications rejected, payments refunded as the policy says).',
    },
  };
  for (const [action, docs] of Object.entries(ACTIONS) as [SeriesAction, (typeof ACTIONS)[SeriesAction]][]) {
    app.post(
      `/v1/job-series/:id/${action}`,
      {
        ...WRITE_HOOKS,
        schema: {
          ...docs,
          description: `${docs.description} Only for the account that created the series (else 404); from any other state 409.\n\n${JOB_SERIES_LIFE_CYCLE}`,
          tags,
          security: WRITE_SECURITY,
          params: JobSeriesParams,
          querystring: NoQuery,
          response: { 200: ok(RefTo(JobSeriesSchema), 'The series in its new state.'), ...SERIES_ERRORS },
        },
      },
      async (request) =>
        moveJobSeries(writeContext(request, deps), requireAccount(request), request.params.id, action, settings),
    );
  }

  app.post(
    '/v1/job-series/:id/occurrences/:date/skip',
    {
      ...WRITE_HOOKS,
      schema: {
        operationId: 'skipJobSeriesOccurrence',
        summary: 'Skip one occurrence',
        description:
          'Calls off the occurrence on that local date: it is not posted, or, when its job is posted and has not started (open or assigned), the job is cancelled by its cancellation policy as POST /v1/jobs/{id}/cancel would. Skipping one skipped already changes nothing. 404: not your series, or no occurrence on that date; 409: it has started, or its job is completed or cancelled already. To change one occurrence, PATCH its job (/v1/jobs/{id}).',
        tags,
        security: WRITE_SECURITY,
        params: OccurrenceParams,
        querystring: NoQuery,
        response: { 200: ok(RefTo(JobSeriesSchema), 'The series, the occurrence skipped.'), ...SERIES_ERRORS },
      },
    },
    async (request) =>
      skipOccurrence(
        writeContext(request, deps),
        requireAccount(request),
        request.params.id,
        request.params.date,
        deps.fees,
      ),
  );

  app.post(
    '/v1/job-series/:id/applications',
    {
      ...WRITE_HOOKS,
      schema: {
        operationId: 'applyToJobSeries',
        summary: 'Apply to a whole series',
        description: `A helper of the calling account applies to every occurrence at once. 404: not your helper, or no such series; 400: your own series; 409: the series is cancelled or ended, or the helper applied already.\n\n${SERIES_STANDING}`,
        tags,
        security: WRITE_SECURITY,
        params: JobSeriesParams,
        querystring: NoQuery,
        body: ApplicationCreateBody,
        response: { 201: created(RefTo(SeriesApplicationSchema), 'The application, pending.'), ...SERIES_ERRORS },
      },
    },
    async (request, reply) => {
      const account = requireAccount(request);
      const application = await applyToSeries(writeContext(request, deps), account, request.params.id, request.body);
      return sendCreated(reply, `/v1/job-series/${request.params.id}/applications/${application.id}`, application);
    },
  );

  app.get(
    '/v1/job-series/:id/applications',
    {
      onRequest: WRITE_HOOKS.onRequest,
      schema: {
        operationId: 'listJobSeriesApplications',
        summary: 'Applications to your series',
        description: `Oldest first, for the series owner (404 for anyone else).\n\n${SERIES_STANDING}`,
        tags,
        security: WRITE_SECURITY,
        params: JobSeriesParams,
        querystring: NoQuery,
        response: { 200: ok(SeriesApplicationPage, 'The applications.'), ...errorResponses(400, 404) },
      },
    },
    async (request) => applicationsOfSeries(db, requireAccount(request), request.params.id),
  );

  const DECISIONS: Record<SeriesApplicationAction, { operationId: string; summary: string; description: string }> = {
    accept: {
      operationId: 'acceptJobSeriesApplication',
      summary: 'Accept a standing helper',
      description:
        'pending -> accepted, by the series owner: the helper takes a place on every posted occurrence that has not started and on each posted later. 409 limit_reached when helpers_needed helpers stand already.',
    },
    reject: {
      operationId: 'rejectJobSeriesApplication',
      summary: 'Reject an application to a series',
      description: 'pending -> rejected, by the series owner.',
    },
    end: {
      operationId: 'endJobSeriesApplication',
      summary: 'End a standing helper',
      description:
        'accepted -> ended, by the series owner or the helper: occurrences posted afterwards no longer take the helper; accepted places on posted ones stay (cancel or complete those jobs as jobs).',
    },
  };
  for (const [action, docs] of Object.entries(DECISIONS) as [
    SeriesApplicationAction,
    (typeof DECISIONS)[SeriesApplicationAction],
  ][]) {
    app.post(
      `/v1/job-series/:id/applications/:application_id/${action}`,
      {
        ...WRITE_HOOKS,
        schema: {
          ...docs,
          description: `${docs.description} 404 for anyone else; from any other state 409.\n\n${SERIES_STANDING}`,
          tags,
          security: WRITE_SECURITY,
          params: SeriesApplicationParams,
          querystring: NoQuery,
          response: { 200: ok(RefTo(SeriesApplicationSchema), 'The application in its new state.'), ...SERIES_ERRORS },
        },
      },
      async (request) =>
        decideSeriesApplication(
          writeContext(request, deps),
          requireAccount(request),
          { seriesId: request.params.id, applicationId: request.params.application_id },
          action,
          settings,
        ),
    );
  }
  app.post(
    '/v1/job-series/:id/applications/:application_id/excuse',
    {
      ...WRITE_HOOKS,
      schema: {
        operationId: 'excuseJobSeriesHelper',
        summary: 'Excuse a standing helper from one occurrence',
        description: `By the series owner or the standing helper, for an occurrence ahead (date): the helper stays accepted for the others, and a substitute takes this one. A posted occurrence's place ends at once, with its money (see below); an assigned job opens again for applications. Excusing again for the same date answers as it is. 404 for anyone else or an unknown date; 409 unless accepted, or when the occurrence started or is skipped. Both get a job_series.helper_excused event.\n\n${SERIES_STANDING}`,
        tags,
        security: WRITE_SECURITY,
        params: SeriesApplicationParams,
        querystring: NoQuery,
        body: SeriesExcuseBody,
        response: {
          200: ok(RefTo(SeriesApplicationSchema), 'The application, with the dates it is excused from.'),
          ...SERIES_ERRORS,
        },
      },
    },
    async (request) =>
      excuseStandingHelper(
        writeContext(request, deps),
        requireAccount(request),
        { seriesId: request.params.id, applicationId: request.params.application_id },
        request.body.date,
        settings,
      ),
  );
}
