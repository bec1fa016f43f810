import { type Static, Type } from 'typebox';
import { Nullable, PlainText, RefTo, StringEnum } from './common.js';
import { JOB_LIFE_CYCLE } from './job-writes.js';

const APPLICATION_STATUSES = ['pending', 'accepted', 'rejected', 'withdrawn'] as const;

const Id = (what: string, example: string) =>
  Type.String({ minLength: 1, maxLength: 64, description: `${what} id, e.g. ${example}.` });

export const ApplicationCreateBody = Type.Object(
  {
    helper_id: Id(
      'The applying helper (a profile your account registered with POST /v1/helpers):',
      'hlp_8a1b2c3d4e5f6a7b',
    ),
    message: Type.Optional(PlainText(1000, { description: 'A note to the job owner, at most 1000 characters.' })),
  },
  { additionalProperties: false },
);
export type ApplicationCreateBody = Static<typeof ApplicationCreateBody>;

export const ApplicationSchema = Type.Object(
  {
    id: Type.String({ description: 'Application id, prefixed `app_`.' }),
    job_id: Type.String(),
    helper_id: Type.String(),
    status: StringEnum(APPLICATION_STATUSES, {
      description:
        'pending (waiting for the job owner) -> accepted or rejected. Pending applications are rejected when the job is cancelled or when its last helper is accepted, and withdrawn when the helper’s account is erased (DELETE /v1/me).',
    }),
    message: Nullable(Type.String()),
    created_at: Type.String({ format: 'date-time' }),
    decided_at: Nullable(Type.String({ format: 'date-time' }), {
      description: 'When it was accepted, rejected or withdrawn.',
    }),
  },
  { $id: 'Application', additionalProperties: false, description: 'A helper’s application for a job.' },
);
export type Application = Static<typeof ApplicationSchema>;

export const ApplicationList = Type.Object(
  {
    data: Type.Array(RefTo(ApplicationSchema), { description: 'Oldest first.' }),
    total: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);

export const ApplicationParams = Type.Object(
  {
    id: Id('Job', 'job_4f9c2a7b1d3e5f60'),
    application_id: Id('Application', 'app_1f2e3d4c5b6a7988'),
  },
  { additionalProperties: false },
);

export const APPLICATION_LIFE_CYCLE = `Application states: pending -> accepted or rejected (by the job owner). When the accepted applications reach helpers_needed, the job becomes assigned and the pending rest are rejected; cancelling the job rejects the pending ones too. accepted and rejected are final; a rejected application keeps its place among max_applicants.

${JOB_LIFE_CYCLE}`;
