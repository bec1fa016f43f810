import { Type } from 'typebox';
import { CALENDAR_DAYS_AFTER, CALENDAR_DAYS_BEFORE } from '../../domain/calendar-feeds.js';
import { CalendarFeedParams, CalendarFeedSchema, ICS_RESPONSE } from '../../schemas/calendars.js';
import { NoQuery } from '../../schemas/common.js';
import { ListingIdParams } from '../../schemas/listings.js';
import { accountCalendar, createCalendarFeed, listingCalendar, revokeCalendarFeed } from '../../services/calendars.js';
import { BUDGET_HEADERS, errorResponses } from '../error-catalogue.js';
import { ok } from '../responses.js';
import type { Api, RouteDeps } from '../route-deps.js';
import { ICS_CONTENT_TYPE, icsFeed } from '../views/ics.js';
import { WRITE_HOOKS, WRITE_SECURITY } from '../write-body.js';
import { requireAccount, writeContext } from '../write-kit.js';

const ics = (description: string) => ({ description, headers: BUDGET_HEADERS, content: ICS_RESPONSE });

/** iCalendar feeds (RFC 5545): a listing's booked days for anyone, an account's commitments by secret URL. */
export function calendarRoutes(app: Api, deps: RouteDeps): void {
  const { base, db, now, bookingRequestTtlHours: requestTtlHours } = deps;
  const window = `From ${CALENDAR_DAYS_BEFORE} days ago to ${CALENDAR_DAYS_AFTER} days ahead.`;

  app.get(
    `${base}/listings/:id/calendar.ics`,
    {
      schema: {
        operationId: 'getListingCalendar',
        summary: 'Booked days of a listing as a calendar feed',
        description: `The days held by bookings (as in getListingAvailability), one all-day busy event each, as iCalendar to subscribe to. Nothing about the renter. ${window}`,
        tags: ['Bookings'],
        params: ListingIdParams,
        querystring: NoQuery,
        response: { 200: ics('The feed.'), ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => {
      const at = now();
      const { title, entries } = await listingCalendar(db, request.params.id, at, { base, requestTtlHours });
      return reply.type(ICS_CONTENT_TYPE).send(icsFeed(title, entries, at));
    },
  );

  app.post(
    '/v1/me/calendar-feed',
    {
      ...WRITE_HOOKS,
      schema: {
        operationId: 'createCalendarFeed',
        summary: 'Make your private calendar feed URL',
        description:
          'A secret URL (shown once) of a feed of your bookings, as renter and owner, and your jobs, posted or accepted. A new one replaces the old, which then answers 404. No body.',
        tags: ['Bookings'],
        security: WRITE_SECURITY,
        querystring: NoQuery,
        response: {
          201: ok(CalendarFeedSchema, 'The feed URL.'),
          ...errorResponses(400, 413, 415, 422),
        },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await createCalendarFeed(writeContext(request, deps), requireAccount(request))),
  );

  app.delete(
    '/v1/me/calendar-feed',
    {
      onRequest: WRITE_HOOKS.onRequest,
      schema: {
        operationId: 'deleteCalendarFeed',
        summary: 'Revoke your private calendar feed',
        description: 'Its URL answers 404 from now on; 204 also when there was none.',
        tags: ['Bookings'],
        security: WRITE_SECURITY,
        querystring: NoQuery,
        response: { 204: ok(Type.Null(), 'Revoked; no body.'), ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      await revokeCalendarFeed(writeContext(request, deps), requireAccount(request));
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/v1/calendar-feeds/:token.ics',
    {
      schema: {
        operationId: 'getCalendarFeed',
        summary: 'A private calendar feed',
        description: `The commitments of the account the URL was made for (createCalendarFeed): bookings with listing title, dates and status, and jobs at their desired time. No key: the URL is the secret. An unknown, replaced or revoked URL answers 404. ${window}`,
        tags: ['Bookings'],
        security: [],
        params: CalendarFeedParams,
        querystring: NoQuery,
        response: { 200: ics('The feed.'), ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => {
      const at = now();
      const entries = await accountCalendar(db, request.params.token, at, requestTtlHours);
      return reply
        .header('cache-control', 'private, no-store')
        .type(ICS_CONTENT_TYPE)
        .send(icsFeed('Karlsruhe Marketplace', entries, at));
    },
  );
}
