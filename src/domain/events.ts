import { haversineKm, MAX_RADIUS_KM } from './geo.js';

/** What the outbox records: a change of a job, listing, application or booking, a no-show reported, a job's completion asked, confirmed or objected to (issue 30, 3), a new message, a review published, a verification decided, a saved search matched, a moderation decision (or its reversal) about the account, a draft confirmed or declined by its person, a payment created or changed, a damage claim filed or changed (issue 32). */
export const EVENT_TYPES = [
  'job.created',
  'job.updated',
  'job.status_changed',
  'listing.created',
  'listing.updated',
  'listing.status_changed',
  'application.created',
  'application.status_changed',
  'application.no_show',
  'completion.requested',
  'completion.confirmed',
  'completion.objected',
  'booking.created',
  'booking.status_changed',
  'booking.extension_requested',
  'booking.extension_decided',
  'waitlist.offered',
  'job_series.created',
  'job_series.updated',
  'job_series.status_changed',
  'job_series.helper_excused',
  'message.created',
  'review.published',
  'verification.decided',
  'saved_search.matched',
  'moderation.decided',
  'draft.confirmed',
  'draft.declined',
  'payment.created',
  'payment.status_changed',
  'claim.created',
  'claim.status_changed',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** Events about public jobs and listings: anyone may see them (the SSE stream shows only these). */
export const PUBLIC_EVENT_TYPES: readonly EventType[] = EVENT_TYPES.filter(
  (type) => type.startsWith('job.') || type.startsWith('listing.'),
);

/** Events that concern only the accounts in their audience: their webhooks and private stream (GET /v1/me/events/stream). */
export const PRIVATE_EVENT_TYPES: readonly EventType[] = EVENT_TYPES.filter(
  (type) => !PUBLIC_EVENT_TYPES.includes(type),
);

/** What an event is matched against: the search filters category, lat, lng and radius. */
export interface EventFilter {
  category?: string | null | undefined;
  lat?: number | null | undefined;
  lng?: number | null | undefined;
  /** Kilometres around lat/lng; 50 (the service area) when not given. */
  radius?: number | null | undefined;
}

interface Place {
  category: string | null;
  lat: number | null;
  lng: number | null;
}

/** Whether an event's subject passes a filter: its category, and its place within the radius. */
export function passes(filter: EventFilter, place: Place): boolean {
  if (filter.category != null && place.category !== filter.category) return false;
  if (filter.lat == null || filter.lng == null) return true;
  if (place.lat === null || place.lng === null) return false;
  return (
    haversineKm({ lat: filter.lat, lng: filter.lng }, { lat: place.lat, lng: place.lng }) <=
    (filter.radius ?? MAX_RADIUS_KM)
  );
}

/**
 * The JSON of an event as webhooks and the stream send it: the same bytes every time (a receiver
 * may deduplicate on id). `data.object` is the subject as the API showed it when the event happened.
 */
export function eventJson(event: { id: number; type: EventType; created_at: string; payload: string }): string {
  return `{"id":"${eventIdOf(event.id)}","type":"${event.type}","created_at":"${event.created_at}","data":{"object":${event.payload}}}`;
}

/** The public id of an event: evt_ and its number in the outbox. */
export function eventIdOf(id: number): string {
  return `evt_${id}`;
}
