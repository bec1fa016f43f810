import { APPLICATION_MACHINE, JOB_MACHINE } from '../../domain/transitions.js';
import {
  type ApplyOutcome,
  applyToJob,
  type DecideOutcome,
  decideApplication,
  listJobApplications,
} from '../../repositories/applications.js';
import { isOwnHelper } from '../../repositories/helper-profiles.js';
import {
  ApplicationCreateBody,
  ApplicationList,
  ApplicationParams,
  ApplicationSchema,
} from '../../schemas/applications.js';
import { NoQuery, RefTo } from '../../schemas/common.js';
import { JobActionParams } from '../../schemas/job-writes.js';
import { ApiError, badRequest } from '../../services/errors.js';
import { WRITE_HOOKS, WRITE_SECURITY } from '../write-body.js';
import { illegalTransition, notFound, requireAccount } from '../write-kit.js';
import { JOB_LIFE_CYCLE } from '../../schemas/job-writes.js';
import { type Api, errorResponses, ok, type RouteDeps } from './route-kit.js';

const LIFE_CYCLE = `Application states: pending -> accepted or rejected (by the job owner). When the accepted applications reach helpers_needed, the job becomes assigned and the pending rest are rejected; cancelling the job rejects the pending ones too. accepted and rejected are final; a rejected application keeps its place among max_applicants.

${JOB_LIFE_CYCLE}`;

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

export function applicationRoutes(app: Api, { db, now, quotas }: RouteDeps): void {
  app.post(
    '/v1/jobs/:id/applications',
    {
      ...WRITE_HOOKS,
      schema: {
        operationId: 'applyToJob',
        summary: 'Apply to a job as a helper',
        description: `Applies to an open job as a helper the calling account registered (POST /v1/helpers; another account's helper answers 404). Rules, decided by the database so that they hold under concurrent requests: the job must be open (else 409 invalid_state_transition naming its state); a helper applies to a job once (409 already_applied); at most max_applicants = helpers_needed × 3 applications (409 limit_reached); an account cannot apply to its own job (400). An account sends at most ${quotas.applications} applications per hour (APPLICATIONS_PER_ACCOUNT_PER_HOUR; counted over all its helpers, refused ones not counted): beyond that 429 account_limit_reached with Retry-After, a guard against automated mass applications.\n\n${LIFE_CYCLE}`,
        tags: ['Applications'],
        security: WRITE_SECURITY,
        params: JobActionParams,
        querystring: NoQuery,
        body: ApplicationCreateBody,
        response: {
          201: ok(RefTo(ApplicationSchema), 'The application, pending.'),
          ...errorResponses(400, 404, 409, 413, 415, 422),
        },
      },
    },
    async (request, reply) => {
      const account = requireAccount(request);
      const { helper_id: helperId, message } = request.body;
      if (!(await isOwnHelper(db, helperId, account.id))) {
        throw new ApiError(404, 'not_found', `No helper with the id '${helperId}' is yours.`, {
          param: 'helper_id',
          suggestion: 'Apply as a helper your account registered with POST /v1/helpers.',
        });
      }
      const jobId = request.params.id;
      const input = { jobId, helperId, accountId: account.id, message: message ?? null };
      const outcome = await applyToJob(db, input, now(), quotas.applications);
      if (!outcome.ok) throw applyError(outcome, jobId, helperId);
      return reply.code(201).send(outcome.application);
    },
  );

  app.get(
    '/v1/jobs/:id/applications',
    {
      onRequest: WRITE_HOOKS.onRequest,
      schema: {
        operationId: 'listJobApplications',
        summary: 'List the applications to your job',
        description: `The applications to a job the calling account posted, oldest first. Anyone else's job answers 404.\n\n${LIFE_CYCLE}`,
        tags: ['Applications'],
        security: WRITE_SECURITY,
        params: JobActionParams,
        querystring: NoQuery,
        response: { 200: ok(ApplicationList, 'The applications.'), ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      const account = requireAccount(request);
      const applications = await listJobApplications(db, request.params.id, account.id);
      if (!applications) throw notFound('job', request.params.id, 'GET /v1/jobs');
      return { data: applications, total: applications.length };
    },
  );

  const ACTIONS = {
    accept: {
      operationId: 'acceptApplication',
      summary: 'Accept an application',
      description:
        'pending -> accepted, while the job is open. When the accepted applications reach helpers_needed, the job becomes assigned and its other pending applications are rejected, in the same transaction.',
    },
    reject: {
      operationId: 'rejectApplication',
      summary: 'Reject an application',
      description: 'pending -> rejected.',
    },
  } as const;
  for (const action of ['accept', 'reject'] as const) {
    const docs = ACTIONS[action];
    app.post(
      `/v1/jobs/:id/applications/:application_id/${action}`,
      {
        ...WRITE_HOOKS,
        schema: {
          ...docs,
          description: `${docs.description} Only for the account that posted the job (else 404); an application that is no longer pending answers 409.\n\n${LIFE_CYCLE}`,
          tags: ['Applications'],
          security: WRITE_SECURITY,
          params: ApplicationParams,
          querystring: NoQuery,
          response: {
            200: ok(RefTo(ApplicationSchema), 'The application, decided.'),
            ...errorResponses(400, 404, 409, 413, 415, 422),
          },
        },
      },
      async (request) => {
        const account = requireAccount(request);
        const { id: jobId, application_id: applicationId } = request.params;
        const input = { jobId, applicationId, accountId: account.id, action };
        const outcome = await decideApplication(db, input, now());
        if (!outcome.ok) throw decideError(outcome, action, jobId, applicationId);
        return outcome.application;
      },
    );
  }
}
