import { type Static, Type } from 'typebox';
import { Nullable, RefTo, StringEnum } from './common.js';

export const BusyCalendarCreateBody = Type.Object(
  {
    url: Type.String({
      format: 'uri',
      minLength: 10,
      maxLength: 2000,
      description:
        "Your calendar's secret iCalendar address (http or https; webcal:// is read as https://), as your calendar app shares it.",
    }),
    listing_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Your listing it blocks.' })),
    helper_id: Type.Optional(
      Type.String({ minLength: 1, maxLength: 64, description: 'Your helper profile it blocks.' }),
    ),
  },
  { additionalProperties: false, description: 'The url and exactly one of listing_id and helper_id.' },
);
export type BusyCalendarCreateBody = Static<typeof BusyCalendarCreateBody>;

export const BusyCalendarSchema = Type.Object(
  {
    id: Type.String({ description: 'Busy calendar id, prefixed `bcal_`.' }),
    listing_id: Nullable(Type.String()),
    helper_id: Nullable(Type.String()),
    url_host: Type.String({ description: 'The host of the address you gave; the address itself is not shown again.' }),
    status: StringEnum(['pending', 'ok', 'error'] as const, {
      description:
        'pending (not fetched yet), ok (the last fetch was read), error (the last fetch failed: last_error says why; the busy times of the last good fetch still count).',
    }),
    busy_times: Type.Integer({ minimum: 0, description: 'Busy times from now to a year ahead, as last read.' }),
    last_fetch_at: Nullable(Type.String({ format: 'date-time' })),
    last_error: Nullable(Type.String()),
    next_fetch_at: Type.String({ format: 'date-time' }),
    created_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'BusyCalendar', additionalProperties: false },
);
export type BusyCalendar = Static<typeof BusyCalendarSchema>;

export const BusyCalendarList = Type.Object(
  { data: Type.Array(RefTo(BusyCalendarSchema)) },
  { additionalProperties: false },
);

export const BusyCalendarParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 64, description: 'Busy calendar id, e.g. bcal_8a1b2c3d4e5f6a7b.' }) },
  { additionalProperties: false },
);

/** The busy calendars' rules, for the OpenAPI descriptions. */
export const BUSY_CALENDAR_RULES =
  'Busy calendars: attach your own calendar (its secret iCalendar address) to one of your listings or helper profiles, one each (a new one replaces the old). The server fetches it at once and then every BUSY_CALENDAR_REFRESH_MINUTES (default 30), with the address guard of webhooks (no internal addresses, no redirects), at most 2 MB within 10 s, with ETag and If-Modified-Since; ical.js reads it, recurring events with their exceptions. Events that are not free (TRANSP:TRANSPARENT) or cancelled, from now to a year ahead, are busy: a listing cannot be booked then (409 booking_conflict; its availability lists them as busy), and a helper is not counted available in /v1/helpers/availability while busy. Nothing of the events (titles, places) is stored or shown; only when. status and last_error tell the last fetch.';
