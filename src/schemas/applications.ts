import { type Static, Type } from 'typebox';
import { COMPLETION_STATES } from '../domain/completions.js';
import { MASK } from '../domain/contact-shield.js';
import { CancellationOutcome, Nullable, PlainText, RefTo, StringEnum, Text } from './common.js';
import { JOB_LIFE_CYCLE } from './job-writes.js';
import { PaymentsSummary } from './payments.js';

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

const At = (description: string) => Nullable(Type.String({ format: 'date-time' }), { description });

/** The completion of a job for one accepted helper (domain/completions.ts). */
const CompletionSchema = Type.Object(
  {
    state: StringEnum(COMPLETION_STATES, {
      description:
        'awaiting_confirmation (until objections_close_at), confirmed, final (no objection in the window) or objected.',
    }),
    completed_at: Type.String({ format: 'date-time', description: 'When the owner completed the job.' }),
    objections_close_at: Type.String({
      format: 'date-time',
      description: 'Until when the helper may object.',
    }),
    confirmed_at: At('When the helper confirmed it.'),
    objected_at: At('When the helper objected.'),
    objection: Nullable(Type.String(), { description: "The helper's reason." }),
    final_at: At('When it became final (reviews open).'),
  },
  { additionalProperties: false },
);
export type Completion = Static<typeof CompletionSchema>;

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
    completion: Nullable(CompletionSchema, {
      description: "The job's completion for this helper (only the two parties see it); null before any.",
    }),
    payments: PaymentsSummary("the helper's share, from the acceptance"),
    no_show: Type.Optional(
      Type.Object(
        {
          party: StringEnum(['helper', 'poster'] as const, { description: 'Who did not come.' }),
          reported_at: Type.String({ format: 'date-time' }),
        },
        {
          additionalProperties: false,
          description:
            'Present once the other side reported a no-show (POST /v1/jobs/{id}/applications/{application_id}/no-show): the acceptance ended then.',
        },
      ),
    ),
    excused: Type.Optional(
      Type.Object(
        {
          by: StringEnum(['helper', 'poster'] as const, { description: 'Who excused the helper.' }),
          excused_at: Type.String({ format: 'date-time' }),
        },
        {
          additionalProperties: false,
          description:
            'Present once a standing helper of a job series was excused from this occurrence (POST /v1/job-series/{id}/applications/{application_id}/excuse): the acceptance ended then.',
        },
      ),
    ),
    cancellation: CancellationOutcome,
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

/** POST /v1/jobs/{id}/applications/{application_id}/object-to-completion. */
export const CompletionObjectionBody = Type.Object(
  {
    reason: Text(
      10,
      1000,
      "Why the job is not done, 10 to 1000 characters, for the job's owner. No contact data (400).",
    ),
  },
  { additionalProperties: false },
);
export type CompletionObjectionBody = Static<typeof CompletionObjectionBody>;

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

/** The completion rules (issue 30, 3), as the operations tell them. */
export const COMPLETION_RULES = (hours: number) =>
  `**Completion.** POST /v1/jobs/{id}/complete is the job owner's word; each accepted helper (a completion.requested event) confirms it or objects to it with a reason within ${hours} h (COMPLETION_OBJECTION_HOURS); without an objection it is final then. Only a final completion opens the reviews of the application (before: 409 completion_not_final, naming when) and counts in the helper's record. An objection keeps it from standing for that helper; once it stands for no accepted helper, the job is assigned again, and its owner completes it again when the work is done, or cancels it. Only the two parties see the completion and the objection.`;
