import { type Static, Type } from 'typebox';

/** The answer to POST /v1/me/calendar-feed: the one time the feed's URL is shown. */
export const CalendarFeedSchema = Type.Object(
  {
    url: Type.String({
      description:
        'Path of the private feed (/v1/calendar-feeds/cal_….ics), shown this once: subscribe to it in a calendar app.',
    }),
    created_at: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);
export type CalendarFeed = Static<typeof CalendarFeedSchema>;

/**
 * The token of a private feed. No pattern here: a malformed token is as unknown as a revoked one
 * (404), so the answer tells nothing about which tokens exist.
 */
export const CalendarFeedParams = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 100, description: 'The secret token of the feed (cal_…).' }) },
  { additionalProperties: false },
);

/** The response of an .ics feed in the document. */
export const ICS_RESPONSE = { 'text/calendar': { schema: { type: 'string' } } } as const;
