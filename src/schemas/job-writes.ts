import { type Static, Type } from 'typebox';
import { CATEGORIES } from '../domain/categories.js';
import { SCHEDULE_HORIZON_DAYS } from '../domain/deadlines.js';
import { TIME_PREFERENCES } from '../domain/statuses.js';
import { CancellationPolicySchema, IdParams, Nullable, PublicText, StringEnum } from './common.js';
import { LocationInput } from './location-input.js';

/** A price or rate in EUR; at most two decimals (checked by the handler: JSON Schema's multipleOf misjudges floats). */
export const Euros = (min: number, max: number, description: string) =>
  Type.Number({ minimum: min, maximum: max, description: `${description} At most two decimals.` });

/** Longer than any RFC 3339 date-time a client writes (35 characters with nanoseconds and an offset). */
const DATE_TIME_MAX_LENGTH = 64;

const { commercial, private: personal } = SCHEDULE_HORIZON_DAYS;
const HORIZON = `at most ${commercial} days after the job was created for commercial accounts (spec 2.1) and ${personal} days for private accounts`;

/** The Job fields a client sets; `defaults` only on create, so that a PATCH never resets what it leaves out. */
function jobFields(defaults: boolean) {
  const orDefault = (value: unknown) => (defaults ? { default: value } : {});
  const Flag = (description: string) => Type.Boolean({ ...orDefault(false), description });
  return {
    title: PublicText(3, 120, 'Short title, 3 to 120 characters.'),
    description: PublicText(10, 5000, 'What is to be done, 10 to 5000 characters.'),
    category: StringEnum(CATEGORIES, { description: 'Category value, in any case.' }),
    price_eur: Euros(0, 100_000, 'Price for the whole job in EUR, 0 to 100000.'),
    location: LocationInput,
    desired_at: Nullable(Type.String({ format: 'date-time', maxLength: DATE_TIME_MAX_LENGTH }), {
      description: `When the job should be done: in the future and ${HORIZON}. null: no date.`,
    }),
    deadline: Nullable(Type.String({ format: 'date-time', maxLength: DATE_TIME_MAX_LENGTH }), {
      description: `Last moment the job can be done: in the future, not before desired_at, and ${HORIZON}. The job leaves the open search (status expired) when it passes. null: no deadline.`,
    }),
    time_preference: Nullable(StringEnum(TIME_PREFERENCES), {
      description: 'The time of day preferred (any letter case), or null.',
    }),
    urgent: Flag('Needed at short notice.'),
    express: Flag('Priority placement and quick matching.'),
    remote_task: Flag('Can be done remotely (smart_eta_minutes then counts no travel).'),
    requires_license: Flag('Needs a licence or certificate.'),
    cancellation_policy: CancellationPolicySchema(orDefault('flexible')),
    helpers_needed: Type.Integer({
      format: 'int32',
      minimum: 1,
      maximum: 4,
      ...orDefault(1),
      description: 'Helpers needed, 1 to 4; max_applicants is three times this.',
    }),
    photos: Type.Array(Type.String({ format: 'uri', pattern: '^https://', maxLength: 500 }), {
      maxItems: 8,
      ...orDefault([]),
      description: 'Up to 8 https URLs of photos, each at most 500 characters.',
    }),
    duration_hours: Type.Number({
      minimum: 0.25,
      maximum: 100,
      ...orDefault(2),
      description:
        'Expected working hours per helper, 0.25 to 100. Not shown on the Job: pricing_confidence compares price_eur / (duration_hours × helpers_needed) with what completed jobs paid per helper-hour.',
    }),
  };
}

const created = jobFields(true);
const REQUIRED = ['title', 'description', 'category', 'price_eur', 'location'] as const;

export const JobCreateBody = Type.Object(
  {
    title: created.title,
    description: created.description,
    category: created.category,
    price_eur: created.price_eur,
    location: created.location,
    desired_at: Type.Optional(created.desired_at),
    deadline: Type.Optional(created.deadline),
    time_preference: Type.Optional(created.time_preference),
    urgent: Type.Optional(created.urgent),
    express: Type.Optional(created.express),
    remote_task: Type.Optional(created.remote_task),
    requires_license: Type.Optional(created.requires_license),
    cancellation_policy: Type.Optional(created.cancellation_policy),
    helpers_needed: Type.Optional(created.helpers_needed),
    photos: Type.Optional(created.photos),
    duration_hours: Type.Optional(created.duration_hours),
  },
  {
    additionalProperties: false,
    description: `A new job: the Job fields a client sets (${REQUIRED.join(', ')} required). Fields the server computes (id, type, status, price_range, max_applicants, applications_count, smart_eta_minutes, pricing_confidence, created_at) are refused as unknown.`,
  },
);
export type JobCreateBody = Static<typeof JobCreateBody>;

export const JobUpdateBody = Type.Partial(Type.Object(jobFields(false)), {
  additionalProperties: false,
  description: 'The fields to change, as on create; fields left out keep their value, null clears a nullable one.',
});
export type JobUpdateBody = Static<typeof JobUpdateBody>;

export const JobActionParams = IdParams('Job', 'job_4f9c2a7b1d3e5f60');

export const JOB_LIFE_CYCLE = `Job states and transitions:

| from | action | to |
| --- | --- | --- |
| open | PATCH /v1/jobs/{id} (only while open) | open |
| open | the owner accepts the last helper needed (POST .../applications/{application_id}/accept) | assigned |
| open, assigned | POST /v1/jobs/{id}/cancel (pending applications are rejected) | cancelled |
| assigned | POST /v1/jobs/{id}/complete, once the job's time has come (desired_at; without one, the last acceptance plus duration_hours); before, 409 completion_too_early | completed |
| completed | every accepted helper objects within the window (POST .../applications/{application_id}/object-to-completion) | assigned |
| open | its deadline passes (shown at once) | expired |

A completion is the owner's word: each accepted helper confirms it (.../confirm-completion) or objects within COMPLETION_OBJECTION_HOURS (72 by default); it is final for them then. Only a final completion opens the reviews and counts in the helper's record. completed (once no helper can object any more), cancelled and expired are final. Any other action answers 409 invalid_state_transition naming the current state, with the actions allowed from it in alternatives. Searches, stats and categories count open jobs only.`;
