/** What the outbox records: a change of a job, listing, application or booking. */
export const EVENT_TYPES = [
  'job.created',
  'job.updated',
  'job.status_changed',
  'listing.created',
  'listing.updated',
  'listing.status_changed',
  'application.created',
  'booking.created',
  'booking.status_changed',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** Events about public jobs and listings: anyone may see them (the SSE stream shows only these). */
export const PUBLIC_EVENT_TYPES: readonly EventType[] = EVENT_TYPES.filter(
  (type) => type.startsWith('job.') || type.startsWith('listing.'),
);
