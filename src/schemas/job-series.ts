import { type Static, Type } from 'typebox';
import { MAX_SERIES_OCCURRENCES } from '../domain/recurrence.js';
import { TIME_PREFERENCES } from '../domain/statuses.js';
import {
  CancellationPolicySchema,
  CategorySchema,
  IdParams,
  LocationSchema,
  Nullable,
  PageFields,
  PagingQuery,
  RefTo,
  StringEnum,
} from './common.js';
import { JobCreateBody, JobUpdateBody } from './job-writes.js';

export const SERIES_STATUSES = ['active', 'paused', 'cancelled', 'ended'] as const;
export const OCCURRENCE_STATES = ['planned', 'posted', 'skipped', 'paused', 'not_posted'] as const;

const RRULE_DESCRIPTION = `The recurrence, an RFC 5545 RRULE of this subset: FREQ (DAILY, WEEKLY or MONTHLY), INTERVAL (1 to 52), BYDAY (weekdays MO..SU; with MONTHLY also with a position, 1TH the first Thursday, -1FR the last Friday), WKST, and COUNT (1 to ${MAX_SERIES_OCCURRENCES}) or UNTIL (a date YYYYMMDD, the last local day, or a UTC date-time YYYYMMDDTHHMMSSZ); one of COUNT and UNTIL is needed, and a series has at most ${MAX_SERIES_OCCURRENCES} occurrences. The rule runs on Karlsruhe's wall clock: every occurrence starts at local_time, summer or winter; on the day the clocks go back, 02:00-02:59 is the first of the two (summer time), and on the day they go forward a time from 02:00 to 02:59, which does not exist, is an hour later (RFC 5545, 3.3.5), so a weekly job does not skip a week. As in RFC 5545, a day the rule names that does not exist is no occurrence (FREQ=MONTHLY from the 31st skips the months without one; use BYDAY=-1FR and the like for "last").`;

const { desired_at: _desired, deadline: _deadline, ...jobFields } = JobCreateBody.properties;

export const JobSeriesCreateBody = Type.Object(
  {
    ...jobFields,
    rrule: Type.String({
      minLength: 6,
      maxLength: 200,
      pattern: '^[A-Za-z0-9=;:,+-]+$',
      description: `${RRULE_DESCRIPTION} Example: FREQ=WEEKLY;INTERVAL=2;BYDAY=TH;COUNT=10.`,
    }),
    starts_on: Type.String({
      format: 'date',
      maxLength: 10,
      description:
        "The first local date (YYYY-MM-DD, Europe/Berlin) an occurrence may fall on; the rule's days from then on are the occurrences (starts_on itself only when the rule names it). The first occurrence must lie ahead and within the account's horizon (30 days for commercial accounts, 90 for private ones).",
    }),
    local_time: Type.String({
      maxLength: 5,
      pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$',
      description: 'When each occurrence starts, HH:MM on the local clock of Karlsruhe (Europe/Berlin), e.g. 09:00.',
    }),
  },
  {
    additionalProperties: false,
    description:
      'A new job series: the fields of a job (as POST /v1/jobs takes them, without desired_at and deadline, which each occurrence gets from the rule) and its recurrence.',
  },
);
export type JobSeriesCreateBody = Static<typeof JobSeriesCreateBody>;

export const SeriesOccurrenceSchema = Type.Object(
  {
    date: Type.String({ format: 'date', description: 'Its local date (Europe/Berlin): the occurrence’s key.' }),
    starts_at: Type.String({ format: 'date-time', description: 'When it starts: the posted job’s desired_at.' }),
    state: StringEnum(OCCURRENCE_STATES, {
      description:
        'planned (to be posted SERIES_HORIZON_DAYS ahead of it), posted (a job: job_id; the job’s own status says what became of it), skipped (by the owner), paused (to be posted if the series is resumed in time), not_posted (its time came while the series was paused, or the series was cancelled).',
    }),
    job_id: Nullable(Type.String(), { description: 'The job posted for it (GET /v1/jobs/{id}); null until posted.' }),
  },
  { additionalProperties: false },
);
export type SeriesOccurrence = Static<typeof SeriesOccurrenceSchema>;

export const JobSeriesSchema = Type.Object(
  {
    id: Type.String({ description: 'Series id, prefixed `ser_`.' }),
    status: StringEnum(SERIES_STATUSES, {
      description:
        'active (posts its occurrences), paused (posts none until resumed), cancelled, or ended (active, and every occurrence has started).',
    }),
    rrule: Type.String({ description: 'The recurrence as stored: its parts in a fixed order.' }),
    starts_on: Type.String({ format: 'date' }),
    local_time: Type.String({ description: 'HH:MM, Europe/Berlin.' }),
    time_zone: Type.Literal('Europe/Berlin'),
    title: Type.String(),
    description: Type.String(),
    category: RefTo(CategorySchema),
    price_eur: Type.Number({ minimum: 0, description: 'Price in EUR of each occurrence.' }),
    location: RefTo(LocationSchema),
    time_preference: Nullable(StringEnum(TIME_PREFERENCES)),
    urgent: Type.Boolean(),
    express: Type.Boolean(),
    remote_task: Type.Boolean(),
    requires_license: Type.Boolean(),
    cancellation_policy: CancellationPolicySchema(),
    helpers_needed: Type.Integer({ minimum: 1, maximum: 4 }),
    photos: Type.Array(Type.String({ format: 'uri' })),
    occurrences: Type.Array(SeriesOccurrenceSchema, {
      maxItems: MAX_SERIES_OCCURRENCES,
      description: 'Every occurrence of the rule, in order.',
    }),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'JobSeries', additionalProperties: false },
);
export type JobSeries = Static<typeof JobSeriesSchema>;

export const JobSeriesPage = Type.Object(
  { data: Type.Array(RefTo(JobSeriesSchema), { description: 'Newest first.' }), ...PageFields },
  { additionalProperties: false },
);

export const JobSeriesListQuery = Type.Object(
  { limit: PagingQuery.limit, offset: PagingQuery.offset },
  { additionalProperties: false },
);

export const JobSeriesParams = IdParams('Job series', 'ser_4f9c2a7b1d3e5f60', { pattern: '^[A-Za-z0-9_-]+$' });

export const OccurrenceParams = Type.Object(
  {
    id: JobSeriesParams.properties.id,
    date: Type.String({ format: 'date', maxLength: 10, description: 'The occurrence’s local date, YYYY-MM-DD.' }),
  },
  { additionalProperties: false },
);

export const JOB_SERIES_LIFE_CYCLE = `Series states and transitions:

| from | action | to |
| --- | --- | --- |
| active | POST /v1/job-series/{id}/pause | paused |
| paused | POST /v1/job-series/{id}/resume | active |
| active, paused | POST /v1/job-series/{id}/cancel (its posted occurrences that have not started are cancelled, each by its cancellation policy) | cancelled |
| active | its last occurrence starts (shown at once) | ended |

Each occurrence is an ordinary job, posted SERIES_HORIZON_DAYS ahead of its start by a sweep (at once for those within the window when the series is created or resumed): searchable, with its own applications, changed (PATCH /v1/jobs/{id}) or cancelled (POST /v1/jobs/{id}/cancel) on its own; its deadline is its start, so an occurrence nobody took expires then. cancelled and ended are final; any other action answers 409 invalid_state_transition.`;

export const SERIES_APPLICATION_STATUSES = ['pending', 'accepted', 'rejected', 'ended'] as const;

export const SeriesApplicationSchema = Type.Object(
  {
    id: Type.String({ description: 'Series application id, prefixed `sap_`.' }),
    series_id: Type.String(),
    helper_id: Type.String(),
    status: StringEnum(SERIES_APPLICATION_STATUSES, {
      description:
        'pending (waiting for the series owner) -> accepted (the helper stands for every occurrence) or rejected; accepted -> ended (by either side: occurrences posted afterwards no longer take the helper).',
    }),
    message: Nullable(Type.String(), {
      description:
        'The note to the series owner: as written for the applicant; for the owner with contact data masked until accepted (contact_data_hidden), as on a job’s applications.',
    }),
    contact_data_hidden: Type.Boolean(),
    created_at: Type.String({ format: 'date-time' }),
    decided_at: Nullable(Type.String({ format: 'date-time' }), { description: 'When it was accepted or rejected.' }),
    ended_at: Nullable(Type.String({ format: 'date-time' }), { description: 'When an accepted one ended.' }),
    excused: Type.Array(
      Type.Object(
        {
          date: Type.String({ format: 'date', description: 'The occurrence’s local date.' }),
          by: StringEnum(['helper', 'poster'] as const, { description: 'Who excused the helper.' }),
          job_id: Nullable(Type.String(), {
            description: 'The occurrence’s job when it was posted at the excuse (its application shows the money).',
          }),
          created_at: Type.String({ format: 'date-time' }),
        },
        { additionalProperties: false },
      ),
      { description: 'The occurrences the helper is excused from (…/excuse), by date; a substitute takes them.' },
    ),
  },
  { $id: 'SeriesApplication', additionalProperties: false },
);
export type SeriesApplication = Static<typeof SeriesApplicationSchema>;

export const SeriesApplicationPage = Type.Object(
  {
    data: Type.Array(RefTo(SeriesApplicationSchema), { description: 'Oldest first.' }),
    total: PageFields.total,
  },
  { additionalProperties: false },
);

/** POST /v1/job-series/{id}/applications/{application_id}/excuse. */
export const SeriesExcuseBody = Type.Object(
  {
    date: Type.String({
      format: 'date',
      maxLength: 10,
      description: 'The local date (YYYY-MM-DD) of the occurrence the standing helper is excused from.',
    }),
  },
  { additionalProperties: false },
);

export const SeriesApplicationParams = Type.Object(
  {
    id: JobSeriesParams.properties.id,
    application_id: Type.String({
      minLength: 1,
      maxLength: 64,
      pattern: '^[A-Za-z0-9_-]+$',
      description: 'Series application id, e.g. sap_4f9c2a7b1d3e5f60.',
    }),
  },
  { additionalProperties: false },
);

export const SERIES_STANDING = `**Standing helpers.** A helper applies to the whole series once (POST /v1/job-series/{id}/applications); the owner accepts at most helpers_needed of them. An accepted helper stands for every occurrence: each occurrence posted and not started gets an ordinary application of the helper, accepted at once (its events, the payment of the helper's share, the job assigned once staffed), now for those posted already and as each further one is posted. A standing helper takes no place on an occurrence that has no helper missing, and none is taken from the hourly quota of applications. Either side ends it (…/end): occurrences posted afterwards no longer take the helper; what was accepted stays, and is cancelled or completed as a job. **A substitute for one occurrence**: either side excuses a standing helper from one occurrence ahead (…/excuse {date}), posted or not. A posted occurrence's accepted place ends at once (the application shows excused): excused by the helper, the poster gets the share back in full; excused by the poster, the helper's share is cancelled by the job's cancellation policy at the occurrence's time. An assigned job opens again, and a substitute applies to it and is accepted as on any job; an occurrence posted later is posted without the excused helper. An excuse is final for that date.`;

const { desired_at: _desiredChange, deadline: _deadlineChange, ...changeFields } = JobUpdateBody.properties;

export const JobSeriesUpdateBody = Type.Object(
  {
    ...changeFields,
    local_time: Type.Optional(JobSeriesCreateBody.properties.local_time),
    from: Type.Optional(
      Type.String({
        format: 'date',
        maxLength: 10,
        description:
          'This and following: the date of the first occurrence the change is for. The series is split there: it ends the day before, and a new series (its own id, the same rule, the standing helpers, the posted jobs and skipped dates from then on) carries the change. Left out: every occurrence.',
      }),
    ),
  },
  {
    additionalProperties: false,
    description:
      'The fields to change, as on a job (PATCH /v1/jobs/{id}), and the local start time; fields left out keep their value.',
  },
);
export type JobSeriesUpdateBody = Static<typeof JobSeriesUpdateBody>;
