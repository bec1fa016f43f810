import { type Static, Type } from 'typebox';
import { MASK } from '../domain/contact-shield.js';
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
    message: Nullable(Type.String(), {
      description:
        'The note to the job owner: as written for the applicant; for the job owner with contact data masked until the application is accepted (see contact_data_hidden). null: none.',
    }),
    contact_data_hidden: Type.Boolean({
      description: 'Whether the contact-data shield masked parts of the message for the caller.',
    }),
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

/** The contact-data shield of an application's message (domain/contact-shield.ts), as the operations tell it. */
export const APPLICATION_SHIELD = `**Contact data in applications.** The job's owner reads the message of an application that is not accepted (pending, rejected, withdrawn) with e-mail addresses, phone numbers, IBANs and messenger, social or payment links and handles masked as "${MASK}", with contact_data_hidden true; so does the application.created event (webhooks, private stream). The applicant reads what they wrote; once the application is accepted, the owner reads it in full. Contact data is shared in the conversation after acceptance (POST /v1/conversations).`;

export const APPLICATION_LIFE_CYCLE = `Application states: pending -> accepted or rejected (by the job owner). When the accepted applications reach helpers_needed, the job becomes assigned and the pending rest are rejected; cancelling the job rejects the pending ones too. accepted and rejected are final; a rejected application keeps its place among max_applicants.

${JOB_LIFE_CYCLE}`;
