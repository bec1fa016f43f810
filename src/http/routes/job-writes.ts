import { NoQuery, RefTo } from '../../schemas/common.js';
import { JOB_LIFE_CYCLE, JobActionParams, JobCreateBody, JobUpdateBody } from '../../schemas/job-writes.js';
import { JobSchema } from '../../schemas/jobs.js';
import { createJob, transitionJob, updateJob } from '../../services/jobs.js';

/** What POST /v1/jobs/{id}/{action} may do to a job. */
type JobAction = Parameters<typeof transitionJob>[3];

import { errorResponses } from '../error-catalogue.js';
import { created, ok, sendCreated } from '../responses.js';
import type { Api, RouteDeps } from '../route-deps.js';
import { WRITE_HOOKS, WRITE_SECURITY } from '../write-body.js';
import { requireAccount, writeContext } from '../write-kit.js';

const JOB_ERRORS = errorResponses(400, 404, 409, 413, 415, 422);

export function jobWriteRoutes(app: Api, deps: RouteDeps): void {
  app.post(
    '/v1/jobs',
    {
      ...WRITE_HOOKS,
      schema: {
        operationId: 'createJob',
        summary: 'Post a job',
        description: `Posts a job for the calling account; it is open, and visible at once in search, get, stats and categories. The body holds the Job fields a client sets; the server computes id, type, status, price_range, max_applicants, applications_count, smart_eta_minutes (from the verified, available helpers of the category) and pricing_confidence (against what completed jobs of the category paid per helper-hour). Dates must lie ahead; deadline at most 30 days after creation for commercial accounts (spec 2.1) and 90 days for private ones.\n\n${JOB_LIFE_CYCLE}`,
        tags: ['Jobs'],
        security: WRITE_SECURITY,
        querystring: NoQuery,
        body: JobCreateBody,
        response: { 201: created(RefTo(JobSchema), 'The job, as GET /v1/jobs/{id} shows it.'), ...JOB_ERRORS },
      },
    },
    async (request, reply) => {
      const job = await createJob(writeContext(request, deps), requireAccount(request), request.body);
      return sendCreated(reply, `/v1/jobs/${job.id}`, job);
    },
  );

  app.patch(
    '/v1/jobs/:id',
    {
      ...WRITE_HOOKS,
      schema: {
        operationId: 'updateJob',
        summary: 'Change an open job',
        description: `Changes the given fields of a job the calling account posted, while it is open (else 409); derived fields are computed again. Another account's job answers 404. helpers_needed may not drop below the helpers accepted plus one, nor below what its applications need (3 per helper).\n\n${JOB_LIFE_CYCLE}`,
        tags: ['Jobs'],
        security: WRITE_SECURITY,
        params: JobActionParams,
        querystring: NoQuery,
        body: JobUpdateBody,
        response: { 200: ok(RefTo(JobSchema), 'The changed job.'), ...JOB_ERRORS },
      },
    },
    async (request) => updateJob(writeContext(request, deps), requireAccount(request), request.params.id, request.body),
  );

  const ACTIONS: Record<JobAction, { operationId: string; summary: string; description: string }> = {
    cancel: {
      operationId: 'cancelJob',
      summary: 'Cancel a job',
      description:
        'open or assigned -> cancelled. Its pending applications are rejected and its payments not yet paid cancelled; the job leaves the open search at once.',
    },
    complete: {
      operationId: 'completeJob',
      summary: 'Mark a job completed',
      description: `assigned -> completed, and completed_at is set; not before the job's time has come (desired_at, or without one the last acceptance plus duration_hours: 409 completion_too_early), so that reputation cannot be bought with a job done in a second. It is the owner's word: each accepted helper confirms it or objects within ${deps.completionObjectionHours} h (COMPLETION_OBJECTION_HOURS; the application's completion, completion.requested event); reviews open and the helper's record counts it once it is final. Completed jobs are what /v1/estimate learns prices from.`,
    },
  };
  for (const [action, docs] of Object.entries(ACTIONS) as [JobAction, (typeof ACTIONS)[JobAction]][]) {
    app.post(
      `/v1/jobs/:id/${action}`,
      {
        ...WRITE_HOOKS,
        schema: {
          ...docs,
          description: `${docs.description} Only for the account that posted the job (else 404); from any other state 409.\n\n${JOB_LIFE_CYCLE}`,
          tags: ['Jobs'],
          security: WRITE_SECURITY,
          params: JobActionParams,
          querystring: NoQuery,
          response: { 200: ok(RefTo(JobSchema), 'The job in its new state.'), ...JOB_ERRORS },
        },
      },
      async (request) =>
        transitionJob(
          writeContext(request, deps),
          requireAccount(request),
          request.params.id,
          action,
          deps.completionObjectionHours,
          deps.fees,
        ),
    );
  }
}
