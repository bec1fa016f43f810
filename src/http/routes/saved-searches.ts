import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { SavedQuery } from '../../domain/saved-search-match.js';
import { DEFAULT_PAGE_SIZE, NoQuery, RefTo } from '../../schemas/common.js';
import { JobSearchQuery } from '../../schemas/jobs.js';
import { ListingSearchQuery } from '../../schemas/listings.js';
import {
  PAGING_PARAMETERS,
  SavedSearchCreateBody,
  SavedSearchListQuery,
  SavedSearchMatchPage,
  SavedSearchPage,
  SavedSearchParams,
  SavedSearchSchema,
  UnsubscribedSchema,
  UnsubscribeQuery,
} from '../../schemas/saved-searches.js';
import { badRequest } from '../../services/errors.js';
import {
  removeSavedSearch,
  savedSearchById,
  savedSearches,
  savedSearchMatchPage,
  saveSearch,
  unsubscribe,
} from '../../services/saved-searches.js';
import { checkBudget, searchWordsAndSort } from '../../services/search.js';
import { errorResponses } from '../error-catalogue.js';
import { created, ok, sendCreated } from '../responses.js';
import type { Api, RouteDeps } from '../route-deps.js';
import type { JsonSchema } from '../schema-words.js';
import { validationToApiError } from '../validation.js';
import { WRITE_HOOKS, WRITE_SECURITY } from '../write-body.js';
import { requireAccount, writeContext } from '../write-kit.js';

const SEARCH_QUERIES = { jobs: JobSearchQuery, listings: ListingSearchQuery } as const;

/**
 * A saved query, checked exactly as its search checks its query string: JSON numbers and booleans
 * become the strings a query string carries, then the search's own schema (through the app's
 * querystring validator, which coerces) and its extra checks run, so the errors are the search's
 * (param is the parameter's name, as the search names it). Paging parameters are refused.
 */
function searchQueryOf(request: FastifyRequest, resource: 'jobs' | 'listings', given: object): SavedQuery {
  const asQueryString: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(given)) {
    if ((PAGING_PARAMETERS as readonly string[]).includes(name)) {
      throw badRequest(
        'invalid_parameter',
        name,
        `A saved search takes no ${name}: it matches jobs and listings one at a time.`,
        `Remove ${name}; GET /v1/saved-searches/{id}/matches pages through the matches.`,
      );
    }
    if (!['string', 'number', 'boolean'].includes(typeof value)) {
      throw badRequest(
        'invalid_parameter',
        name,
        `${name} must be a text, a number or true/false, as a query string carries it; got ${JSON.stringify(value)?.slice(0, 100)}.`,
        `Send ${name} as the value GET /v1/${resource}?${name}=... takes.`,
      );
    }
    asQueryString[name] = String(value);
  }
  const schema = SEARCH_QUERIES[resource];
  const validate = request.compileValidationSchema(schema, 'querystring');
  if (!validate(asQueryString)) {
    throw validationToApiError(validate.errors ?? [], 'querystring', schema as JsonSchema, asQueryString);
  }
  if (resource === 'jobs') checkBudget(asQueryString);
  // The search's own check of q (too many words); near is resolved, with the search's errors, when saved.
  searchWordsAndSort({ q: asQueryString.q as string | undefined });
  // Typed as validated, without the defaults the validator filled in (sort, a listing search's area).
  return Object.fromEntries(Object.keys(given).map((name) => [name, asQueryString[name]])) as SavedQuery;
}

export function savedSearchRoutes(app: Api, deps: RouteDeps): void {
  const { db, now } = deps;
  const privacy = "Only the account that saved a search sees it: another account's id answers 404.";
  const tags = ['Saved searches'];

  app.post(
    '/v1/saved-searches',
    {
      ...WRITE_HOOKS,
      schema: {
        operationId: 'createSavedSearch',
        summary: 'Save a search',
        description: `Saves a jobs or listings search; jobs or listings that start to match it afterwards are listed under /matches and sent as saved_search.matched to your webhooks and private stream (not your own). \`near\` is resolved when saved. At most ${deps.savedSearchesPerAccount} per account (409 limit_reached).`,
        tags,
        security: WRITE_SECURITY,
        querystring: NoQuery,
        body: SavedSearchCreateBody,
        response: {
          201: created(RefTo(SavedSearchSchema), 'The saved search.'),
          ...errorResponses(400, 409, 413, 415, 422),
        },
      },
    },
    async (request, reply) => {
      const account = requireAccount(request);
      const { name, resource, query, email_digest } = request.body;
      const input = {
        name,
        resource,
        query: searchQueryOf(request, resource, query),
        email_digest: email_digest ?? false,
      };
      const saved = await saveSearch(writeContext(request, deps), account, input, deps.savedSearchesPerAccount);
      return sendCreated(reply, `/v1/saved-searches/${saved.id}`, saved);
    },
  );

  app.get(
    '/v1/saved-searches',
    {
      onRequest: WRITE_HOOKS.onRequest,
      schema: {
        operationId: 'listSavedSearches',
        summary: 'Your saved searches',
        description: `Newest first. ${privacy}`,
        tags,
        security: WRITE_SECURITY,
        querystring: SavedSearchListQuery,
        response: { 200: ok(SavedSearchPage, 'A page of saved searches.'), ...errorResponses(400) },
      },
    },
    async (request) =>
      savedSearches(db, requireAccount(request), {
        limit: request.query.limit ?? DEFAULT_PAGE_SIZE,
        offset: request.query.offset ?? 0,
      }),
  );

  for (const method of ['GET', 'POST'] as const) {
    app.route({
      method,
      url: '/v1/saved-searches/unsubscribe',
      schema: {
        operationId: method === 'GET' ? 'unsubscribeSavedSearchDigest' : 'unsubscribeSavedSearchDigestOneClick',
        summary: 'Stop a saved search’s digest e-mails (no key)',
        description:
          method === 'GET'
            ? 'The link of the digest e-mail: turns email_digest off for the search the token names.'
            : 'The same for RFC 8058 one-click unsubscribe (List-Unsubscribe-Post).',
        tags,
        querystring: UnsubscribeQuery,
        response: { 200: ok(UnsubscribedSchema, 'Unsubscribed.'), ...errorResponses(400, 404) },
      },
      handler: async (request) => unsubscribe(writeContext(request, deps), (request.query as { token: string }).token),
    });
  }

  app.get(
    '/v1/saved-searches/:id',
    {
      onRequest: WRITE_HOOKS.onRequest,
      schema: {
        operationId: 'getSavedSearch',
        summary: 'Get a saved search',
        description: privacy,
        tags,
        security: WRITE_SECURITY,
        params: SavedSearchParams,
        querystring: NoQuery,
        response: { 200: ok(RefTo(SavedSearchSchema), 'The saved search.'), ...errorResponses(400, 404) },
      },
    },
    async (request) => savedSearchById(db, requireAccount(request), request.params.id),
  );

  app.delete(
    '/v1/saved-searches/:id',
    {
      onRequest: WRITE_HOOKS.onRequest,
      schema: {
        operationId: 'deleteSavedSearch',
        summary: 'Delete a saved search',
        description: `Deletes it with its matches. ${privacy}`,
        tags,
        security: WRITE_SECURITY,
        params: SavedSearchParams,
        querystring: NoQuery,
        response: { 204: ok(Type.Null(), 'Deleted; no body.'), ...errorResponses(400, 404, 413, 415) },
      },
    },
    async (request, reply) => {
      await removeSavedSearch(writeContext(request, deps), requireAccount(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/v1/saved-searches/:id/matches',
    {
      onRequest: WRITE_HOOKS.onRequest,
      schema: {
        operationId: 'listSavedSearchMatches',
        summary: 'Matches of a saved search',
        description: `Jobs or listings that started to match after the search was saved, newest first, as they are now. ${privacy}`,
        tags,
        security: WRITE_SECURITY,
        params: SavedSearchParams,
        querystring: SavedSearchListQuery,
        response: { 200: ok(SavedSearchMatchPage, 'A page of matches.'), ...errorResponses(400, 404) },
      },
    },
    async (request) =>
      savedSearchMatchPage(
        db,
        requireAccount(request),
        request.params.id,
        { limit: request.query.limit ?? DEFAULT_PAGE_SIZE, offset: request.query.offset ?? 0 },
        now(),
      ),
  );
}
