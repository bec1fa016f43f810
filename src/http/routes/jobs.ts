import { searchArea } from '../../domain/geo.js';
import { eurToCents } from '../../domain/pricing.js';
import { findJob, jobsNearId, searchJobs } from '../../repositories/jobs.js';
import { DEFAULT_PAGE_SIZE, NoQuery, RefTo } from '../../schemas/common.js';
import { JobIdParams, JobPage, JobSchema, JobSearchQuery } from '../../schemas/job.js';
import { ApiError, badRequest } from '../../services/errors.js';
import { type Api, documented, errorResponses, idPrefixOf, ok, type RouteDeps } from './route-kit.js';

function checkBudget(query: JobSearchQuery): void {
  if (query.budget_min !== undefined && query.budget_max !== undefined && query.budget_min > query.budget_max) {
    throw badRequest(
      'conflicting_parameters',
      'budget_min',
      `budget_min (${query.budget_min}) is greater than budget_max (${query.budget_max}).`,
      'Swap the two values, or drop one of them.',
      ['budget_min', 'budget_max'],
    );
  }
}

export function jobRoutes(app: Api, { base, db, now, searchIndex }: RouteDeps): void {
  app.get(
    `${base}/jobs`,
    {
      config: { cache: 'public' },
      schema: documented(base, {
        operationId: 'searchJobs',
        summary: 'Search open jobs',
        description:
          'Open jobs within `radius` km of `lat`/`lng`, filtered and sorted, one page at a time. Pages never overlap; `total` and `has_more` are exact.',
        tags: ['Jobs'],
        querystring: JobSearchQuery,
        response: { 200: ok(JobPage, 'One page of open jobs.'), ...errorResponses(400) },
      }),
    },
    async (request) => {
      const query = request.query;
      checkBudget(query);
      const limit = query.limit ?? DEFAULT_PAGE_SIZE;
      const offset = query.offset ?? 0;
      const { data, total } = await searchJobs(
        db,
        {
          ...searchArea(query),
          category: query.category,
          budgetMinCents: query.budget_min === undefined ? undefined : eurToCents(query.budget_min, 'up'),
          budgetMaxCents: query.budget_max === undefined ? undefined : eurToCents(query.budget_max, 'down'),
          date: query.date,
          urgent: query.urgent,
          sort: query.sort ?? 'newest',
          limit,
          offset,
        },
        now(),
        (await searchIndex?.(request))?.jobs,
      );
      return { data, total, limit, offset, has_more: offset + limit < total };
    },
  );

  app.get(
    `${base}/jobs/:id`,
    {
      config: { cache: 'public' },
      schema: documented(base, {
        operationId: 'getJob',
        summary: 'Get a job',
        description:
          'Any job by id, whatever its status. `location.distance_km` is measured from the default centre (49.0069, 8.4037).',
        tags: ['Jobs'],
        params: JobIdParams,
        querystring: NoQuery,
        response: { 200: ok(RefTo(JobSchema), 'The job.'), ...errorResponses(400, 404) },
      }),
    },
    async (request) => {
      const job = await findJob(db, request.params.id, now());
      if (job) return job;
      const similar = await jobsNearId(db, request.params.id, now(), 3);
      throw new ApiError(404, 'not_found', `No job has the id '${request.params.id}'.`, {
        param: 'id',
        suggestion: `Check the id (job ids start with ${idPrefixOf(base)}job_), or find jobs with GET ${base}/jobs. Open jobs with similar ids are listed in alternatives.`,
        alternatives: similar.map((j) => ({ id: j.id, title: j.title, url: `${base}/jobs/${j.id}` })),
      });
    },
  );
}
