import { type Static, Type } from 'typebox';
import { JOB_STATUSES, TIME_PREFERENCES } from '../domain/statuses.js';
import {
  CancellationOutcome,
  CancellationPolicySchema,
  CategorySchema,
  IdParams,
  LocationSchema,
  Nullable,
  RefTo,
  StringEnum,
} from './common.js';
import { PublicProviderSchema } from './providers.js';
import { searchPage, searchQuery } from './search.js';

const DateTime = (description: string) => Nullable(Type.String({ format: 'date-time' }), { description });

export const JobSchema = Type.Object(
  {
    id: Type.String({ description: 'Job id, prefixed `job_`.' }),
    title: Type.String(),
    description: Type.String(),
    category: RefTo(CategorySchema),
    type: Type.Literal('marketplace'),
    status: StringEnum(JOB_STATUSES, {
      description:
        'open (accepting applications), assigned (all helpers found), completed, cancelled, or expired (deadline passed while open). Search returns open jobs only.',
    }),
    price_eur: Type.Number({ minimum: 0, description: 'Price in EUR for the whole job.' }),
    price_range: Type.Object(
      { low: Type.Number(), high: Type.Number() },
      { additionalProperties: false, description: 'price_eur minus and plus 20 %, EUR.' },
    ),
    location: RefTo(LocationSchema),
    desired_at: DateTime('When the job should be done.'),
    deadline: DateTime(
      'Last moment the job can be done; at most 30 days after creation for commercial accounts (spec 2.1) and 90 days for private ones.',
    ),
    time_preference: Nullable(StringEnum(TIME_PREFERENCES), {
      description:
        'vormittags (mornings), nachmittags (afternoons), abends (evenings), wochenende (weekend) or flexibel.',
    }),
    urgent: Type.Boolean(),
    created_at: Type.String({ format: 'date-time' }),
    helpers_needed: Type.Integer({ minimum: 1, maximum: 4 }),
    applications_count: Type.Integer({ minimum: 0 }),
    max_applicants: Type.Integer({ description: 'helpers_needed times 3.' }),
    smart_eta_minutes: Nullable(Type.Integer({ minimum: 15 }), {
      description:
        'Minutes until the quickest verified, available helper of the category within 50 km could be there: their average response time plus travel at 20 km/h (no travel for remote tasks), rounded up to whole quarter hours (at least 15) so that it tells no more about where the job is than its shown point. Null when there is none.',
    }),
    photos: Type.Array(Type.String({ format: 'uri' }), { description: 'Photo URLs.' }),
    requires_license: Type.Boolean({
      description: 'Needs a licence or certificate (driving licence, electrician ...).',
    }),
    express: Type.Boolean({ description: 'The poster pays for priority placement and quick matching.' }),
    remote_task: Type.Boolean({ description: 'Can be done remotely.' }),
    pricing_confidence: Nullable(StringEnum(['low', 'medium', 'high'] as const), {
      description:
        'How well the price per helper-hour is backed by completed jobs of the category (the data /v1/estimate uses): high inside their middle half (with 30+ jobs), medium inside the 10th-90th percentile, low outside; null with fewer than 5 jobs.',
    }),
    cancellation_policy: CancellationPolicySchema(),
    cancellation: CancellationOutcome,
    provider: Nullable(RefTo(PublicProviderSchema)),
    series_id: Nullable(Type.String(), {
      description:
        'The job series (GET /v1/job-series/{id}) this job is an occurrence of, prefixed `ser_`; null for a job posted on its own.',
    }),
  },
  { $id: 'Job', additionalProperties: false },
);
export type Job = Static<typeof JobSchema>;

export const JobSearchQuery = searchQuery('Search radius in km around lat/lng; at most 50.', {
  budget_min: Type.Optional(
    Type.Number({ minimum: 0, maximum: 1_000_000, description: 'Minimum price_eur, EUR (inclusive).' }),
  ),
  budget_max: Type.Optional(
    Type.Number({ minimum: 0, maximum: 1_000_000, description: 'Maximum price_eur, EUR (inclusive).' }),
  ),
  date: Type.Optional(
    Type.String({
      format: 'date',
      maxLength: 10,
      description: 'Only jobs whose desired_at falls on this calendar day in Europe/Berlin (YYYY-MM-DD).',
    }),
  ),
  urgent: Type.Optional(Type.Boolean({ description: 'true: only urgent jobs; false: only jobs that are not urgent.' })),
});
export type JobSearchQuery = Static<typeof JobSearchQuery>;

export const JobPage = searchPage(RefTo(JobSchema), 'Open jobs matching the filters, over all pages.');

export const JobIdParams = IdParams('Job', 'job_4f9c2a7b1d3e5f60');
