import type { Generated, Insertable, Selectable } from 'kysely';
import type { BOOKING_STATUSES } from '../domain/booking-price.js';
import type { Category } from '../domain/categories.js';
import type { EventType } from '../domain/events.js';
import type { AccountType } from '../domain/key-request.js';
import type { Condition, JobStatus, ListingStatus, TimePreference } from '../domain/statuses.js';

/**
 * Portable storage conventions (SQLite and PostgreSQL): money as integer cents, booleans as 0/1
 * integers, instants as ISO-8601 UTC text (sortable as text), lists as JSON text.
 */
type Flag = 0 | 1;

/**
 * Columns shared by every row that has a place. lat/lng is the point public answers show and
 * compute with, a few hundred metres from the place (domain/approximate-place.ts); exact_lat and
 * exact_lng is the place itself, read only for the owner and the other party of an accepted
 * application or a confirmed booking.
 */
interface PlaceColumns {
  city: string;
  plz: string;
  district: string | null;
  lat: number;
  lng: number;
  exact_lat: number;
  exact_lng: number;
}

/** The ReliabilityScore of a helper or a listing owner (spec 2.4). */
export interface ReliabilityColumns {
  reliability_score: number;
  completed_jobs: number;
  avg_response_minutes: number;
  cancellation_rate: number;
  rating_avg: number;
  rating_count: number;
  verified: Flag;
}

export interface JobsTable extends PlaceColumns {
  id: string;
  title: string;
  description: string;
  category: Category;
  status: JobStatus;
  price_cents: number;
  /** Expected working hours per helper; what the estimate learns hourly rates from. */
  duration_hours: number;
  desired_at: string | null;
  /** Europe/Berlin calendar date of desired_at, kept for the `date` filter. */
  desired_date: string | null;
  deadline: string | null;
  time_preference: TimePreference | null;
  urgent: Flag;
  created_at: string;
  helpers_needed: number;
  applications_count: number;
  smart_eta_minutes: number | null;
  photos: string;
  requires_license: Flag;
  express: Flag;
  remote_task: Flag;
  pricing_confidence: 'low' | 'medium' | 'high' | null;
  completed_at: string | null;
  /** The account that posted the job through the API; null for the seeded marketplace. */
  owner_account_id: string | null;
  updated_at: string | null;
}

export interface OwnersTable extends ReliabilityColumns {
  id: string;
  display_name: string;
  created_at: string;
  /** The account behind an owner who lists through the API; null for seeded owners. */
  account_id: string | null;
}

export interface ListingsTable extends PlaceColumns {
  id: string;
  owner_id: string;
  title: string;
  description: string;
  category: Category;
  status: ListingStatus;
  price_per_day_cents: number;
  price_per_week_cents: number | null;
  deposit_cents: number;
  condition: Condition;
  instant_booking: Flag;
  photos: string;
  created_at: string;
  updated_at: string | null;
}

export interface HelpersTable extends PlaceColumns, ReliabilityColumns {
  id: string;
  display_name: string;
  bio: string;
  hourly_rate_cents: number;
  available: Flag;
  created_at: string;
  /** The account that registered the profile through the API; null for seeded helpers. */
  account_id: string | null;
  /** When the helper works, as JSON ({weekdays, from, to}); null: any time. */
  availability: string | null;
}

export interface HelperCategoriesTable {
  helper_id: string;
  category: Category;
}

export type { AccountType };

export interface AccountsTable {
  id: string;
  name: string;
  email: string;
  organisation: string | null;
  account_type: AccountType;
  created_at: string;
  /** Keys the offset of the account's shown places (domain/approximate-place.ts); never shown. */
  place_salt: string;
}

/** Only a SHA-256 of a key is stored (and its last four characters for display). */
export interface ApiKeysTable {
  id: string;
  account_id: string;
  key_hash: string;
  last4: string;
  created_at: string;
  /** Set when the key was rotated: it stays valid until then. */
  expires_at: string | null;
  revoked_at: string | null;
  replaced_by: string | null;
  /** The first key of its rotation chain: a rotated key and its successor share one budget. */
  lineage_id: string;
}

export type KeyRequestStatus = 'pending' | 'approved' | 'rejected';

export interface KeyRequestsTable {
  id: string;
  name: string;
  email: string;
  organisation: string | null;
  account_type: AccountType;
  intended_use: string;
  status: KeyRequestStatus;
  created_at: string;
  decided_at: string | null;
  reason: string | null;
  key_id: string | null;
}

export type ApplicationStatus = 'pending' | 'accepted' | 'rejected';

export interface ApplicationsTable {
  id: string;
  job_id: string;
  helper_id: string;
  /** The account that applied (the helper's account). */
  account_id: string;
  message: string | null;
  status: ApplicationStatus;
  created_at: string;
  decided_at: string | null;
}

export type BookingStatus = (typeof BOOKING_STATUSES)[number];

export interface BookingsTable {
  id: string;
  listing_id: string;
  renter_account_id: string;
  /** Calendar days (Europe/Berlin), both inclusive. */
  start_date: string;
  end_date: string;
  days: number;
  price_cents: number;
  deposit_cents: number;
  /** The listing's prices when it was booked, and how the price was made of them. */
  daily_cents: number;
  weekly_cents: number | null;
  weeks: number;
  extra_days: number;
  status: BookingStatus;
  created_at: string;
  updated_at: string;
}

export interface IdempotencyKeysTable {
  account_id: string;
  key: string;
  request_hash: string;
  /** running: claimed; committed: its write transaction committed, response not stored yet; done: response stored. */
  state: 'running' | 'committed' | 'done';
  response_status: number | null;
  response_body: string | null;
  /** The stored answer's own headers (Content-Type, Location) as a JSON object; null before migration 0011. */
  response_headers: string | null;
  created_at: string;
  /** The attempt holding the key (random per claim); null on keys stored before migration 0007. */
  claim_token: string | null;
}

/** The outbox: one row per change, numbered in commit order (migration 0008). */
export interface EventsTable {
  id: Generated<number>;
  type: EventType;
  /** The job, listing, application or booking the event is about. */
  subject_id: string;
  /** What the search filters match: the job's or listing's category and place (null when it has none). */
  category: string | null;
  lat: number | null;
  lng: number | null;
  /** null: public; else a JSON array of the account ids the event concerns (only they see it). */
  audience: string | null;
  /** The subject as the API showed it when the event happened (JSON). */
  payload: string;
  created_at: string;
}

export interface WebhooksTable {
  id: string;
  account_id: string;
  url: string;
  /** The subscribed event types, each framed by commas: ",job.created,listing.created,". */
  events: string;
  filter_category: string | null;
  filter_lat: number | null;
  filter_lng: number | null;
  filter_radius_km: number | null;
  /** The signing secret (whsec_...): kept as is, the server signs with it. */
  secret: string;
  created_at: string;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface WebhookDeliveriesTable {
  id: string;
  webhook_id: string;
  event_id: number;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: string | null;
  locked_until: string | null;
  last_attempt_at: string | null;
  response_status: number | null;
  last_error: string | null;
  delivered_at: string | null;
  redelivery_of: string | null;
  created_at: string;
}

export interface MetaTable {
  key: string;
  value: string;
}

export interface Database {
  jobs: JobsTable;
  owners: OwnersTable;
  listings: ListingsTable;
  helpers: HelpersTable;
  helper_categories: HelperCategoriesTable;
  meta: MetaTable;
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  key_requests: KeyRequestsTable;
  applications: ApplicationsTable;
  bookings: BookingsTable;
  idempotency_keys: IdempotencyKeysTable;
  events: EventsTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
}

export type JobRow = Selectable<JobsTable>;
export type NewJob = Insertable<JobsTable>;
export type ListingRow = Selectable<ListingsTable>;
export type NewListing = Insertable<ListingsTable>;
export type OwnerRow = Selectable<OwnersTable>;
export type NewOwner = Insertable<OwnersTable>;
export type HelperRow = Selectable<HelpersTable>;
export type NewHelper = Insertable<HelpersTable>;
export type AccountRow = Selectable<AccountsTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type KeyRequestRow = Selectable<KeyRequestsTable>;
export type ApplicationRow = Selectable<ApplicationsTable>;
export type BookingRow = Selectable<BookingsTable>;
export type EventRow = Selectable<EventsTable>;
export type WebhookRow = Selectable<WebhooksTable>;
export type DeliveryRow = Selectable<WebhookDeliveriesTable>;

export type { EventType };
