import type { AccountRow, JobRow } from '../../db/schema.js';
import { berlinDate } from '../../domain/berlin-time.js';
import { parseInstant, type ScheduleField, scheduleIssue } from '../../domain/deadlines.js';
import { maxApplicants } from '../../domain/pricing.js';
import { effectiveJobStatus } from '../../domain/statuses.js';
import { JOB_MACHINE } from '../../domain/transitions.js';
import {
  insertOwnJob,
  type JobAction,
  type JobValues,
  transitionOwnJob,
  updateOwnJob,
} from '../../repositories/job-writes.js';
import { NoQuery, RefTo } from '../../schemas/common.js';
import { JobSchema } from '../../schemas/job.js';
import { JobActionParams, JobCreateBody, JobUpdateBody } from '../../schemas/job-writes.js';
import { badRequest } from '../errors.js';
import { centsOf, WRITE_HOOKS, WRITE_SECURITY } from '../write-body.js';
import { illegalTransition, locationOf, notFound, requireAccount } from '../write-kit.js';
import { type Api, errorResponses, ok, type RouteDeps } from './route-kit.js';

export const JOB_LIFE_CYCLE = `Job states and transitions:

| from | action | to |
| --- | --- | --- |
| open | PATCH /v1/jobs/{id} (only while open) | open |
| open | the owner accepts the last helper needed (POST .../applications/{application_id}/accept) | assigned |
| open, assigned | POST /v1/jobs/{id}/cancel (pending applications are rejected) | cancelled |
| assigned | POST /v1/jobs/{id}/complete | completed |
| open | its deadline passes (shown at once) | expired |

completed, cancelled and expired are final. Any other action answers 409 invalid_state_transition naming the current state, with the actions allowed from it in alternatives. Searches, stats and categories count open jobs only.`;

function instantOf(value: string | null, field: ScheduleField): Date | null {
  if (value === null) return null;
  const instant = parseInstant(value);
  if (instant) return instant;
  throw badRequest(
    'invalid_parameter',
    field,
    `${field} names no real moment: '${value}'.`,
    `Send ${field} as an RFC 3339 date-time, e.g. 2026-12-05T14:00:00Z.`,
  );
}

/** The columns a create or change body sets; only the fields it has. */
function jobColumns(body: JobUpdateBody, account: AccountRow): Partial<JobValues> {
  const { location, price_eur, photos, desired_at, deadline, urgent, express, remote_task, requires_license, ...same } =
    body;
  const columns: Partial<JobValues> = { ...same };
  if (location) Object.assign(columns, locationOf(location, account));
  if (price_eur !== undefined) columns.price_cents = centsOf(price_eur, 'price_eur');
  if (photos) columns.photos = JSON.stringify(photos);
  if (desired_at !== undefined) {
    const at = instantOf(desired_at, 'desired_at');
    columns.desired_at = at?.toISOString() ?? null;
    columns.desired_date = at && berlinDate(at);
  }
  if (deadline !== undefined) columns.deadline = instantOf(deadline, 'deadline')?.toISOString() ?? null;
  const flags = { urgent, express, remote_task, requires_license };
  for (const [name, value] of Object.entries(flags) as [keyof typeof flags, boolean | undefined][]) {
    if (value !== undefined) columns[name] = value ? 1 : 0;
  }
  return columns;
}

/** 400 unless desired_at and deadline, as they will be, are ahead, within the account's horizon and in order. */
function checkSchedule(
  columns: Partial<JobValues>,
  current: Pick<JobRow, 'desired_at' | 'deadline' | 'created_at'> | null,
  account: AccountRow,
  now: Date,
): void {
  const fields = ['desired_at', 'deadline'] as const;
  const planned = (field: ScheduleField) => {
    const text = field in columns ? columns[field] : current?.[field];
    return text ? new Date(text) : null;
  };
  const issue = scheduleIssue(
    { desired_at: planned('desired_at'), deadline: planned('deadline') },
    new Set(fields.filter((field) => field in columns)),
    current ? new Date(current.created_at) : now,
    account.account_type,
    now,
  );
  if (!issue) return;
  if (issue.problem === 'before_desired_at') {
    throw badRequest(
      'conflicting_parameters',
      'deadline',
      'deadline comes before desired_at.',
      'Set deadline at or after desired_at, or move desired_at earlier.',
      ['desired_at', 'deadline'],
    );
  }
  const field = issue.field;
  if (issue.problem === 'in_past') {
    throw badRequest(
      'parameter_out_of_range',
      field,
      `${field} must be in the future; it is ${now.toISOString()} now.`,
      `Send a ${field} after ${now.toISOString()}.`,
    );
  }
  const latest = issue.latest.toISOString();
  throw badRequest(
    'parameter_out_of_range',
    field,
    `${field} may be at most ${issue.days} days after the job was created for a ${account.account_type} account, so at the latest ${latest}.`,
    `Send a ${field} no later than ${latest}.`,
  );
}

/** A job may not need fewer helpers than already accepted, nor fewer than its applications need places. */
function checkHelpersNeeded(next: number | undefined, row: JobRow, accepted: number): void {
  if (next === undefined) return;
  const least = Math.max(accepted + 1, Math.ceil(row.applications_count / maxApplicants(1)));
  if (next >= least) return;
  throw badRequest(
    'parameter_out_of_range',
    'helpers_needed',
    `helpers_needed must be at least ${least} now: the job has ${row.applications_count} applications (${maxApplicants(1)} places per helper), ${accepted} of them accepted.`,
    `Send helpers_needed from ${least} to 4, or reject applications first.`,
  );
}

const JOB_ERRORS = errorResponses(400, 404, 409, 413, 415, 422);

export function jobWriteRoutes(app: Api, { db, now }: RouteDeps): void {
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
        response: { 201: ok(RefTo(JobSchema), 'The job, as GET /v1/jobs/{id} shows it.'), ...JOB_ERRORS },
      },
    },
    async (request, reply) => {
      const account = requireAccount(request);
      const at = now();
      const columns = jobColumns(request.body, account);
      checkSchedule(columns, null, account, at);
      // The create schema requires the other fields and fills in the defaults.
      return reply.code(201).send(await insertOwnJob(db, account.id, columns as JobValues, at));
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
    async (request) => {
      const account = requireAccount(request);
      const at = now();
      const columns = jobColumns(request.body, account);
      const updated = await updateOwnJob(db, request.params.id, account.id, at, (row, accepted) => {
        const status = effectiveJobStatus(row.status, row.deadline, at);
        if (status !== 'open') throw illegalTransition('job', status, 'update', JOB_MACHINE);
        checkSchedule(columns, row, account, at);
        checkHelpersNeeded(columns.helpers_needed, row, accepted);
        return columns;
      });
      if (!updated) throw notFound('job', request.params.id, 'GET /v1/jobs');
      return updated;
    },
  );

  const ACTIONS: Record<JobAction, { operationId: string; summary: string; description: string }> = {
    cancel: {
      operationId: 'cancelJob',
      summary: 'Cancel a job',
      description:
        'open or assigned -> cancelled. Its pending applications are rejected; the job leaves the open search at once.',
    },
    complete: {
      operationId: 'completeJob',
      summary: 'Mark a job completed',
      description:
        'assigned -> completed, and completed_at is set. Completed jobs are what /v1/estimate learns prices from.',
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
      async (request) => {
        const account = requireAccount(request);
        const at = now();
        const outcome = await transitionOwnJob(db, request.params.id, account.id, action, at);
        if (!outcome) throw notFound('job', request.params.id, 'GET /v1/jobs');
        if (!outcome.done) throw illegalTransition('job', outcome.status, action, JOB_MACHINE);
        return outcome.job;
      },
    );
  }
}
