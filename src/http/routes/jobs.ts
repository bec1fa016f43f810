import { NoQuery, RefTo } from '../../schemas/common.js';
import { JobIdParams, JobPage, JobSchema, JobSearchQuery } from '../../schemas/jobs.js';
import { ApiError } from '../../services/errors.js';
import { jobById, searchJobs } from '../../services/search.js';
import { errorResponses } from '../error-catalogue.js';
import { ok, privately } from '../responses.js';
import type { Api, RouteDeps } from '../route-deps.js';
import { documented, idPrefixOf } from '../sandbox-naming.js';

export function jobRoutes(app: Api, { base, db, now, searchIndex }: RouteDeps): void {
  app.get(
    `${base}/jobs`,
    {
      config: { cache: 'public' },
      schema: documented(base, {
        operationId: 'searchJobs',
        summary: 'Search open jobs',
        description:
          'Open jobs within `radius` km of `lat`/`lng` (or of the place `near` names), matching the words of `q`, filtered and sorted, one page at a time. Pages never overlap; `total` and `has_more` are exact. Example: /v1/jobs?q=rasen+m%C3%A4hen&near=Durlach.',
        tags: ['Jobs'],
        querystring: JobSearchQuery,
        response: { 200: ok(JobPage, 'One page of open jobs.'), ...errorResponses(400) },
      }),
    },
    async (request) => searchJobs(db, request.query, now(), searchIndex && (() => searchIndex(request))),
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
    async (request, reply) => {
      const job = await jobById(db, request.params.id, now(), request.access?.key?.account.id);
      if (job.found === 'shown') return job.item;
      // Removed by a moderation decision: gone for everyone but its owner, who sees it marked.
      if (job.found === 'private') return privately(request, reply, job.item);
      throw new ApiError(404, 'not_found', `No job has the id '${request.params.id}'.`, {
        param: 'id',
        suggestion: `Check the id (job ids start with ${idPrefixOf(base)}job_), or find jobs with GET ${base}/jobs. Open jobs with similar ids are listed in alternatives.`,
        alternatives: job.similar.map((j) => ({ id: j.id, title: j.title, url: `${base}/jobs/${j.id}` })),
      });
    },
  );
}
