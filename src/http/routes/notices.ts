import { Type } from 'typebox';
import { NoQuery, RefTo } from '../../schemas/common.js';
import {
  AppealBody,
  AppealSchema,
  DecisionIdParams,
  ListQuery,
  ModerationDecisionList,
  ModerationDecisionSchema,
  ReportBody,
  ReportIdParams,
  ReportSchema,
  TransparencySchema,
} from '../../schemas/notices.js';
import { fileAppeal, fileReport, myDecision, myDecisions, readReport, transparency } from '../../services/notices.js';
import { errorResponses } from '../error-catalogue.js';
import { created, ok, sendCreated } from '../responses.js';
import type { Api, RouteDeps } from '../route-deps.js';
import { KEY_SECURITY, WRITE_HOOKS, WRITE_SECURITY } from '../write-body.js';
import { requireAccount, writeContext } from '../write-kit.js';

const TOKEN_HEADER = 'x-report-token';

/** DSA notice and action: reports (Art. 16), statements of reasons (Art. 17), appeals (Art. 20), transparency (Art. 24). */
export function noticeRoutes(app: Api, deps: RouteDeps): void {
  const { db, now, countReport } = deps;
  const callerOf = (request: Parameters<typeof requireAccount>[0]) =>
    request.access?.tier === 'developer' ? (request.access.key?.account ?? null) : null;

  app.post(
    '/v1/reports',
    {
      preValidation: WRITE_HOOKS.preValidation,
      schema: {
        operationId: 'fileReport',
        summary: 'Report illegal or prohibited content',
        description:
          'DSA Art. 16. Anyone reports a job, listing, helper, review they can see, or a message of their own conversations; REPORTS_PER_HOUR per address or key. Follow it with the report_token (shown once).',
        tags: ['Notices'],
        security: [{}, ...KEY_SECURITY],
        querystring: NoQuery,
        body: ReportBody,
        response: { 201: created(RefTo(ReportSchema), 'Received.'), ...errorResponses(400, 404, 409, 413, 415, 422) },
      },
    },
    async (request, reply) => {
      await countReport?.(request);
      const report = await fileReport(writeContext(request, deps), callerOf(request), request.body);
      return sendCreated(reply, `/v1/reports/${report.id}`, report);
    },
  );

  app.get(
    '/v1/reports/:id',
    {
      schema: {
        operationId: 'getReport',
        summary: 'Follow a report',
        description: 'With its report_token as X-Report-Token, or the key that filed it; else 404.',
        tags: ['Notices'],
        security: [{}, ...KEY_SECURITY],
        params: ReportIdParams,
        querystring: NoQuery,
        headers: Type.Object({
          [TOKEN_HEADER]: Type.Optional(
            Type.String({ maxLength: 100, description: 'The report_token of the report.' }),
          ),
        }),
        response: { 200: ok(RefTo(ReportSchema), 'The report.'), ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => {
      const token = request.headers[TOKEN_HEADER];
      reply.header('cache-control', 'private, no-store');
      return readReport(db, request.params.id, typeof token === 'string' ? token : null, callerOf(request));
    },
  );

  app.get(
    '/v1/me/moderation-decisions',
    {
      onRequest: WRITE_HOOKS.onRequest,
      config: { openWhileSuspended: true },
      schema: {
        operationId: 'listMyModerationDecisions',
        summary: 'Decisions about your content or account',
        description: 'Statements of reasons (DSA Art. 17), newest first; readable while suspended.',
        tags: ['Notices'],
        security: WRITE_SECURITY,
        querystring: ListQuery,
        response: { 200: ok(ModerationDecisionList, 'A page of decisions.'), ...errorResponses(400) },
      },
    },
    async (request) => {
      const { limit = 20, offset = 0 } = request.query;
      return myDecisions(db, requireAccount(request), limit, offset);
    },
  );

  app.get(
    '/v1/me/moderation-decisions/:id',
    {
      onRequest: WRITE_HOOKS.onRequest,
      config: { openWhileSuspended: true },
      schema: {
        operationId: 'getMyModerationDecision',
        summary: 'One statement of reasons',
        description: 'With its appeal; 404 unless it concerns you.',
        tags: ['Notices'],
        security: WRITE_SECURITY,
        params: DecisionIdParams,
        querystring: NoQuery,
        response: { 200: ok(RefTo(ModerationDecisionSchema), 'The statement.'), ...errorResponses(400, 404) },
      },
    },
    async (request) => myDecision(db, requireAccount(request), request.params.id),
  );

  app.post(
    '/v1/me/moderation-decisions/:id/appeals',
    {
      ...WRITE_HOOKS,
      config: { openWhileSuspended: true },
      schema: {
        operationId: 'appealModerationDecision',
        summary: 'Appeal a decision',
        description: 'DSA Art. 20: once per decision, within six months; a reversal restores at once.',
        tags: ['Notices'],
        security: WRITE_SECURITY,
        params: DecisionIdParams,
        querystring: NoQuery,
        body: AppealBody,
        response: { 201: created(RefTo(AppealSchema), 'Filed.'), ...errorResponses(400, 404, 409, 413, 415, 422) },
      },
    },
    async (request, reply) => {
      const appeal = await fileAppeal(
        writeContext(request, deps),
        requireAccount(request),
        request.params.id,
        request.body.text,
      );
      return sendCreated(reply, `/v1/me/moderation-decisions/${appeal.decision_id}`, appeal);
    },
  );

  app.get(
    '/v1/transparency',
    {
      config: { cache: 'public' },
      schema: {
        operationId: 'getTransparency',
        summary: 'Moderation figures per month',
        description: 'DSA Art. 24: the last 12 months, counted from the stored records.',
        tags: ['Notices'],
        querystring: NoQuery,
        response: { 200: ok(RefTo(TransparencySchema), 'The figures.'), ...errorResponses(400) },
      },
    },
    async () => transparency(db, now()),
  );
}
