import {
  APPLICATION_LIFE_CYCLE,
  APPLICATION_SHIELD,
  ApplicationCreateBody,
  ApplicationList,
  ApplicationParams,
  ApplicationSchema,
  COMPLETION_RULES,
  CompletionObjectionBody,
} from '../../schemas/applications.js';
import { NoQuery, RefTo } from '../../schemas/common.js';
import { JobActionParams } from '../../schemas/job-writes.js';
import { applicationsOfJob, applyAsHelper, decide } from '../../services/applications.js';
import { confirmCompletion, getApplication, objectToCompletion, reportNoShow } from '../../services/completions.js';
import { errorResponses } from '../error-catalogue.js';
import { created, ok, sendCreated } from '../responses.js';
import type { Api, RouteDeps } from '../route-deps.js';
import { WRITE_HOOKS, WRITE_SECURITY } from '../write-body.js';
import { requireAccount, writeContext } from '../write-kit.js';

export function applicationRoutes(app: Api, deps: RouteDeps): void {
  const { quotas } = deps;
  app.post(
    '/v1/jobs/:id/applications',
    {
      ...WRITE_HOOKS,
      schema: {
        operationId: 'applyToJob',
        summary: 'Apply to a job as a helper',
        description: `Applies to an open job as a helper the calling account registered (POST /v1/helpers; another account's helper answers 404). Rules, decided by the database so that they hold under concurrent requests: the job must be open (else 409 invalid_state_transition naming its state); a helper applies to a job once (409 already_applied); at most max_applicants = helpers_needed × 3 applications (409 limit_reached); an account cannot apply to its own job (400). An account sends at most ${quotas.applications} applications per hour (APPLICATIONS_PER_ACCOUNT_PER_HOUR; counted over all its helpers, refused ones not counted): beyond that 429 account_limit_reached with Retry-After, a guard against automated mass applications.\n\n${APPLICATION_SHIELD}\n\n${APPLICATION_LIFE_CYCLE}`,
        tags: ['Applications'],
        security: WRITE_SECURITY,
        params: JobActionParams,
        querystring: NoQuery,
        body: ApplicationCreateBody,
        response: {
          201: created(RefTo(ApplicationSchema), 'The application, pending.'),
          ...errorResponses(400, 404, 409, 413, 415, 422),
        },
      },
    },
    async (request, reply) => {
      const account = requireAccount(request);
      const context = writeContext(request, deps);
      const application = await applyAsHelper(context, account, request.params.id, request.body, quotas.applications);
      return sendCreated(reply, `/v1/jobs/${application.job_id}/applications`, application);
    },
  );

  app.get(
    '/v1/jobs/:id/applications',
    {
      onRequest: WRITE_HOOKS.onRequest,
      schema: {
        operationId: 'listJobApplications',
        summary: 'List the applications to your job',
        description: `The applications to a job the calling account posted, oldest first. Anyone else's job answers 404.\n\n${APPLICATION_SHIELD}\n\n${APPLICATION_LIFE_CYCLE}`,
        tags: ['Applications'],
        security: WRITE_SECURITY,
        params: JobActionParams,
        querystring: NoQuery,
        response: { 200: ok(ApplicationList, 'The applications.'), ...errorResponses(400, 404) },
      },
    },
    async (request) => applicationsOfJob(deps.db, requireAccount(request), request.params.id, deps.now()),
  );

  const ACTIONS = {
    accept: {
      operationId: 'acceptApplication',
      summary: 'Accept an application',
      description:
        "pending -> accepted, while the job is open, with a payment of the helper's share of the price (GET /v1/payments). When the accepted applications reach helpers_needed, the job becomes assigned and its other pending applications are rejected, in the same transaction.",
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
          description: `${docs.description} Only for the account that posted the job (else 404); an application that is no longer pending answers 409.\n\n${APPLICATION_LIFE_CYCLE}`,
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
        const { id: jobId, application_id: applicationId } = request.params;
        return decide(
          writeContext(request, deps),
          requireAccount(request),
          { jobId, applicationId },
          action,
          deps.fees,
        );
      },
    );
  }

  const completionRules = COMPLETION_RULES(deps.completionObjectionHours);
  const ids = (params: { id: string; application_id: string }) => ({
    jobId: params.id,
    applicationId: params.application_id,
  });
  app.get(
    '/v1/jobs/:id/applications/:application_id',
    {
      onRequest: WRITE_HOOKS.onRequest,
      schema: {
        operationId: 'getApplication',
        summary: 'Get an application, with its completion',
        description: `An application, for the helper's account that made it and for the job's owner (anyone else: 404), with the job's completion for this helper.\n\n${completionRules}`,
        tags: ['Applications'],
        security: WRITE_SECURITY,
        params: ApplicationParams,
        querystring: NoQuery,
        response: { 200: ok(RefTo(ApplicationSchema), 'The application, decided.'), ...errorResponses(400, 404) },
      },
    },
    async (request) => getApplication(deps.db, requireAccount(request), ids(request.params), deps.now()),
  );

  app.post(
    '/v1/jobs/:id/applications/:application_id/confirm-completion',
    {
      ...WRITE_HOOKS,
      schema: {
        operationId: 'confirmCompletion',
        summary: "Confirm the job's completion, as its helper",
        description:
          "The accepted helper confirms that the job is done: the completion is final for them at once and the application's reviews open; also withdraws their objection while the job stays completed. The job's owner gets 403, anyone else 404; from another state 409. The rules: getApplication.",
        tags: ['Applications'],
        security: WRITE_SECURITY,
        params: ApplicationParams,
        querystring: NoQuery,
        response: {
          200: ok(RefTo(ApplicationSchema), 'The application, decided.'),
          ...errorResponses(400, 403, 404, 409, 413, 415, 422),
        },
      },
    },
    async (request) => confirmCompletion(writeContext(request, deps), requireAccount(request), ids(request.params)),
  );

  app.post(
    '/v1/jobs/:id/applications/:application_id/no-show',
    {
      ...WRITE_HOOKS,
      schema: {
        operationId: 'reportNoShow',
        summary: 'Report that the other side did not come',
        description: `One side of an accepted application says the other did not come: the job's owner reports the helper, the helper reports the job's owner. From the job's time (desired_at, else the last acceptance plus duration_hours; before it 409 no_show_too_early: cancel instead) until ${deps.noShowWindowHours} h after it (NO_SHOW_WINDOW_HOURS; later 409 no_show_window_closed), while the job is open or assigned and the application accepted, once (else 409). The acceptance ends. A helper's no-show gives the poster the share back in full (unpaid: cancelled; paid: a refund payment), counts as a cancellation in the helper's reliability, and opens an assigned job again for another acceptance. A poster's no-show is a cancellation at the job's time under its cancellation_policy: the helper keeps the policy's share as a cancellation fee, and a job nobody stands for any more is cancelled. Both get an application.no_show event; the answer carries no_show and what it did to the money (cancellation). Anyone else gets 404.`,
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
    async (request) =>
      reportNoShow(
        writeContext(request, deps),
        requireAccount(request),
        ids(request.params),
        deps.noShowWindowHours,
        deps.fees,
      ),
  );

  app.post(
    '/v1/jobs/:id/applications/:application_id/object-to-completion',
    {
      ...WRITE_HOOKS,
      schema: {
        operationId: 'objectToCompletion',
        summary: "Object to the job's completion, as its helper",
        description: `The accepted helper says the job is not done, within ${deps.completionObjectionHours} h of its completion (COMPLETION_OBJECTION_HOURS), with a reason for the job's owner; once the completion stands for no accepted helper, the job is assigned again. The job's owner gets 403, anyone else 404; after the window or from another state 409. The rules: getApplication.`,
        tags: ['Applications'],
        security: WRITE_SECURITY,
        params: ApplicationParams,
        querystring: NoQuery,
        body: CompletionObjectionBody,
        response: {
          200: ok(RefTo(ApplicationSchema), 'The application, decided.'),
          ...errorResponses(400, 403, 404, 409, 413, 415, 422),
        },
      },
    },
    async (request) =>
      objectToCompletion(
        writeContext(request, deps),
        requireAccount(request),
        ids(request.params),
        request.body.reason,
      ),
  );
}
