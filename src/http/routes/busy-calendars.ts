import { Type } from 'typebox';
import {
  BUSY_CALENDAR_RULES,
  BusyCalendarCreateBody,
  BusyCalendarList,
  BusyCalendarParams,
  BusyCalendarSchema,
} from '../../schemas/busy-calendars.js';
import { NoQuery, RefTo } from '../../schemas/common.js';
import { attachBusyCalendar, detachBusyCalendar, listBusyCalendars } from '../../services/busy-calendars.js';
import { errorResponses } from '../error-catalogue.js';
import { created, ok, sendCreated } from '../responses.js';
import type { Api, RouteDeps } from '../route-deps.js';
import { WRITE_HOOKS, WRITE_SECURITY } from '../write-body.js';
import { requireAccount, writeContext } from '../write-kit.js';

/** Busy calendars (issue 35): an owner's or helper's own calendar blocks their listing or profile. */
export function busyCalendarRoutes(app: Api, deps: RouteDeps): void {
  const { db } = deps;
  const settings = deps.busyCalendars;
  app.post(
    '/v1/me/busy-calendars',
    {
      schema: {
        operationId: 'attachBusyCalendar',
        summary: 'Attach your calendar',
        description: `Attaches your calendar's secret iCalendar address to one of your listings or helper profiles; fetched at once by the sweep (status pending until then).\n\n${BUSY_CALENDAR_RULES}`,
        tags: ['Bookings'],
        security: WRITE_SECURITY,
        body: BusyCalendarCreateBody,
        response: {
          201: created(RefTo(BusyCalendarSchema), 'The busy calendar, pending its first fetch.'),
          ...errorResponses(400, 404, 409, 413, 415, 422),
        },
      },
      ...WRITE_HOOKS,
    },
    async (request, reply) => {
      const calendar = await attachBusyCalendar(
        writeContext(request, deps),
        requireAccount(request),
        request.body,
        settings,
      );
      return sendCreated(reply, '/v1/me/busy-calendars', calendar);
    },
  );

  app.get(
    '/v1/me/busy-calendars',
    {
      schema: {
        operationId: 'listBusyCalendars',
        summary: 'Your busy calendars',
        description: `Your attached calendars with the outcome of each one's last fetch.\n\n${BUSY_CALENDAR_RULES}`,
        tags: ['Bookings'],
        security: WRITE_SECURITY,
        querystring: NoQuery,
        response: { 200: ok(BusyCalendarList, 'Your busy calendars.'), ...errorResponses(400) },
      },
      ...WRITE_HOOKS,
    },
    async (request) => listBusyCalendars(db, requireAccount(request)),
  );

  app.delete(
    '/v1/me/busy-calendars/:id',
    {
      onRequest: WRITE_HOOKS.onRequest,
      schema: {
        operationId: 'deleteBusyCalendar',
        summary: 'Detach a busy calendar',
        description: `Detaches it: its busy times stop counting at once. 404 for anyone else's.\n\n${BUSY_CALENDAR_RULES}`,
        tags: ['Bookings'],
        security: WRITE_SECURITY,
        params: BusyCalendarParams,
        querystring: NoQuery,
        response: { 204: ok(Type.Null(), 'Detached; no body.'), ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => {
      await detachBusyCalendar(writeContext(request, deps), requireAccount(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
}
