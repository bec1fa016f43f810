import { Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { AccountErasureBody, AccountErasureSchema } from '../../schemas/account-data.js';
import { AccountExportSchema } from '../../schemas/account-export.js';
import { NoQuery, RefTo } from '../../schemas/common.js';
import { eraseAccount, exclusiveExport } from '../../services/account-data.js';
import { errorResponses } from '../error-catalogue.js';
import { ok } from '../responses.js';
import type { Api, RouteDeps } from '../route-deps.js';
import { WRITE_HOOKS, WRITE_SECURITY } from '../write-body.js';
import { requireAccount, writeContext } from '../write-kit.js';

/** Whether the request takes gzip (the export is streamed, so compressed as a stream: gzip only). */
function acceptsGzip(header: string | undefined): boolean {
  return (header ?? '')
    .split(',')
    .map((part) => part.trim().split(';'))
    .some(
      ([coding, ...params]) =>
        coding?.trim().toLowerCase() === 'gzip' && !params.some((p) => /^\s*q=0(\.0*)?\s*$/.test(p)),
    );
}

/** GDPR data rights: the export of an account (Art. 15, 20) and its erasure (Art. 17). */
export function accountDataRoutes(app: Api, deps: RouteDeps): void {
  const { db, now, bookingRequestTtlHours } = deps;

  app.get(
    '/v1/me/export',
    {
      onRequest: WRITE_HOOKS.onRequest,
      config: { compression: 'own', openWhileSuspended: true },
      schema: {
        operationId: 'exportMyData',
        summary: 'Everything stored about your account, as one JSON document',
        description:
          'Every record of your account, every field as stored (GDPR Art. 15, 20; AccountExport lists them). No secret or hash, no other person’s personal data. Streamed (gzip when accepted); one at a time per account (409 export_in_progress).',
        tags: ['Your data'],
        security: WRITE_SECURITY,
        querystring: NoQuery,
        response: { 200: ok(RefTo(AccountExportSchema), 'The export.'), ...errorResponses(400, 409) },
      },
    },
    async (request, reply) => {
      const account = requireAccount(request);
      const chunks = exclusiveExport(db, account, now());
      const body = Readable.from(chunks, { objectMode: false });
      reply
        .type('application/json; charset=utf-8')
        .header('cache-control', 'private, no-store')
        .header('content-disposition', `attachment; filename="export-${account.id}.json"`)
        .header('vary', 'Accept-Encoding');
      if (acceptsGzip(request.headers['accept-encoding'])) {
        reply.header('content-encoding', 'gzip');
        return reply.send(body.pipe(createGzip()) as never);
      }
      return reply.send(body as never);
    },
  );

  app.delete(
    '/v1/me',
    {
      ...WRITE_HOOKS,
      config: { openWhileSuspended: true },
      schema: {
        operationId: 'eraseMyAccount',
        summary: 'Erase your account',
        description:
          'GDPR Art. 17. Open jobs cancelled, listings archived, pending applications withdrawn, requested bookings cancelled (usual events); names, e-mail, your texts and exact places erased; webhooks, saved searches, feed deleted; keys revoked (this one: 401 afterwards). What stays is listed with reason and period. confirm must be the account’s e-mail (else 400, nothing erased).',
        tags: ['Your data'],
        security: WRITE_SECURITY,
        querystring: NoQuery,
        body: AccountErasureBody,
        response: {
          202: ok(RefTo(AccountErasureSchema), 'Erased: what was done and what was kept.'),
          ...errorResponses(400, 409, 413, 415),
        },
      },
    },
    async (request, reply) =>
      reply
        .code(202)
        .send(
          await eraseAccount(
            writeContext(request, deps),
            requireAccount(request),
            request.body.confirm,
            bookingRequestTtlHours,
          ),
        ),
  );
}
