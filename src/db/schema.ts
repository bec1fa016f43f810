import type { Generated, Insertable, Selectable } from 'kysely';
import type { BOOKING_STATUSES } from '../domain/booking-price.js';
import type { CancellationPolicy } from '../domain/cancellation.js';
import type { Category } from '../domain/categories.js';
import type { DraftOperation } from '../domain/drafts.js';
import type { EventType } from '../domain/events.js';
import type { AccountType } from '../domain/key-request.js';
import type { PaymentKind, PaymentStatus } from '../domain/payments.js';
import type { ReportSnapshot } from '../domain/report-snapshot.js';
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
  /** What a cancellation by the poster refunds (domain/cancellation.ts; migration 0029). */
  cancellation_policy: Generated<CancellationPolicy>;
  /** The series this job is an occurrence of (migration 0034); null for a job posted alone. */
  series_id: Generated<string | null>;
  /** The occurrence's local date (its key in the series, as first planned), with series_id. */
  occurrence_date: Generated<string | null>;
}

/** A recurring job (issue 35, migration 0034): its occurrences are jobs posted by a sweep. */
export interface JobSeriesTable {
  id: string;
  owner_account_id: string;
  status: 'active' | 'paused' | 'cancelled';
  /** The recurrence, RRULE subset as shown (domain/recurrence.ts recurrenceText). */
  rrule: string;
  /** The first local date (YYYY-MM-DD) an occurrence may fall on. */
  starts_on: string;
  /** The local start time, HH:MM in Europe/Berlin. */
  local_time: string;
  /** The job's fields as JSON (services/job-series.ts SeriesTemplate): what each occurrence is posted with. */
  template: string;
  /** When the sweep next has an occurrence to post (its start minus the horizon); null: nothing left. */
  next_post_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A helper's application to a whole job series (migration 0034): accepted, it stands for every occurrence. */
export interface SeriesApplicationsTable {
  id: string;
  series_id: string;
  helper_id: string;
  /** The helper's account. */
  account_id: string;
  message: string | null;
  status: 'pending' | 'accepted' | 'rejected' | 'ended';
  created_at: string;
  decided_at: string | null;
  /** When an accepted one ended (by the owner or the helper): no occurrence posted after takes the helper. */
  ended_at: string | null;
}

/** An occurrence the owner skipped (migration 0034). */
export interface JobSeriesSkipsTable {
  series_id: string;
  occurrence_date: string;
  created_at: string;
}

/** A standing helper excused from one occurrence of a series, by the helper or the owner (migration 0037). */
export interface JobSeriesExcusalsTable {
  series_id: string;
  helper_id: string;
  occurrence_date: string;
  excused_by: 'helper' | 'poster';
  created_at: string;
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
  /** What a renter's cancellation refunds (domain/cancellation.ts; migration 0029). */
  cancellation_policy: Generated<CancellationPolicy>;
  /** What each day of a late return costs, in cents; null: nothing (migration 0029). */
  late_fee_per_day_cents: Generated<number | null>;
  /** A booking starts at least this many hours ahead (migration 0035); 0: any time from today. */
  min_lead_hours: Generated<number>;
  /** Hours kept free between two bookings (migration 0035); whole days for day bookings. */
  buffer_hours: Generated<number>;
  /** The longest booking in days (migration 0035); null: no limit. */
  max_booking_days: Generated<number | null>;
  /** Price per hour in cents (migration 0036); null: lent by the day only. */
  price_per_hour_cents: Generated<number | null>;
  /** The shortest booking by the hour, in hours (migration 0036). */
  min_hours: Generated<number>;
  /** JSON OpeningHours (domain/hourly-lending.ts): when pick-up and return are possible; null: any time. */
  opening_hours: Generated<string | null>;
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
  /** When a moderation decision removed it from every public read (migration 0018). */
  removed_at: Generated<string | null>;
}

export interface HelperCategoriesTable {
  helper_id: string;
  category: Category;
}

export type { AccountType, ReportSnapshot };

export interface AccountsTable {
  id: string;
  name: string;
  email: string;
  organisation: string | null;
  account_type: AccountType;
  created_at: string;
  /** Keys the offset of the account's shown places (domain/approximate-place.ts); never shown. */
  place_salt: string;
  /** When the account was erased (DELETE /v1/me, migration 0016): name and e-mail are gone, no key works. */
  erased_at: Generated<string | null>;
  /** When the platform suspended the account (a moderation decision, migration 0018); its keys are refused meanwhile. */
  suspended_at: Generated<string | null>;
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

/** withdrawn: the helper's account was erased while the application was pending (migration 0016). */
export type ApplicationStatus = 'pending' | 'accepted' | 'rejected' | 'withdrawn';

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
  /** When the helper gave up an accepted application (a cancellation in the helper's record); migration 0013. */
  withdrawn_at: Generated<string | null>;
  /**
   * The job's completion for this helper (migration 0023, services/completions.ts): the owner's
   * word (when they completed the job), until when the helper may object, the helper's
   * confirmation or objection (with its reason), and when it became final.
   */
  completion_requested_at: Generated<string | null>;
  completion_objectable_until: Generated<string | null>;
  completion_confirmed_at: Generated<string | null>;
  completion_objected_at: Generated<string | null>;
  completion_objection: Generated<string | null>;
  completion_final_at: Generated<string | null>;
  /** Who did not come, by the other side's report (issue 32, migration 0030): the helper or the poster. */
  no_show: Generated<'helper' | 'poster' | null>;
  no_show_at: Generated<string | null>;
  /** An accepted place on an occurrence of a series given up by an excuse (migration 0037): who excused. */
  excused_by: Generated<'helper' | 'poster' | null>;
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
  /** When the owner confirmed or declined the request (null: instant, or not answered); migration 0013. */
  decided_at: Generated<string | null>;
  /** Who cancelled the booking (the owner's cancellations count in the owner's record). */
  cancelled_by: Generated<'owner' | 'renter' | null>;
  /** When the item came back (migration 0029): the claim window counts from it. */
  returned_at: Generated<string | null>;
  /** The listing's cancellation policy when it was booked (migration 0029). */
  cancellation_policy: Generated<CancellationPolicy>;
  /** The listing's late fee per day when it was booked, in cents (migration 0029). */
  late_fee_per_day_cents: Generated<number | null>;
  /** A booking by the hour (migration 0036): its first and end instant (ISO 8601 UTC); null for a day booking. */
  start_at: Generated<string | null>;
  end_at: Generated<string | null>;
  /** Its length in real hours (a night of a clock change counts what passes), its hourly price, the hours charged at it. */
  hours: Generated<number | null>;
  hourly_cents: Generated<number | null>;
  extra_hours: Generated<number | null>;
}

export type BookingExtensionStatus = 'requested' | 'accepted' | 'declined' | 'withdrawn';

/** A renter's request to keep a booked item longer (migration 0036). */
export interface BookingExtensionsTable {
  id: string;
  booking_id: string;
  status: BookingExtensionStatus;
  /** The new last day (a day booking), or the local day of the new end (an hourly one). */
  until_date: string;
  /** The new end of an hourly booking; null for a day booking. */
  until_at: string | null;
  /** What the extension adds to the rent, in cents. */
  price_cents: number;
  created_at: string;
  decided_at: string | null;
}

export type WaitlistStatus = 'waiting' | 'offered' | 'booked' | 'lapsed' | 'left';

/** Someone waiting for a listing's taken time to come free (migration 0036). */
export interface WaitlistEntriesTable {
  id: string;
  listing_id: string;
  account_id: string;
  status: WaitlistStatus;
  /** The time waited for, as a booking asks it: local days, and instants for one by the hour. */
  start_date: string;
  end_date: string;
  start_at: string | null;
  end_at: string | null;
  /** While offered: until when the time is held for this entry. */
  hold_until: string | null;
  /** When the offer's e-mail went out (claimed before sending, so one instance sends it). */
  mailed_at: string | null;
  created_at: string;
  updated_at: string;
}

/** An owner's or helper's own calendar blocking a listing or a helper profile (migration 0036). */
export interface BusyCalendarsTable {
  id: string;
  account_id: string;
  listing_id: string | null;
  helper_id: string | null;
  /** The calendar's secret address, as its owner gave it (webcal:// read as https://). */
  url: string;
  status: 'pending' | 'ok' | 'error';
  etag: string | null;
  last_modified: string | null;
  last_fetch_at: string | null;
  last_error: string | null;
  busy_count: number;
  next_fetch_at: string;
  created_at: string;
}

/** When a busy calendar is busy, as its last good fetch read it (migration 0036). */
export interface BusyTimesTable {
  calendar_id: string;
  start_at: string;
  end_at: string;
}

/** What a review is about, and the side that wrote it (the caller's role). */
export type ReviewAbout = 'application' | 'booking';
export type ReviewSide = 'client' | 'helper' | 'owner' | 'renter';

/** A review of one side of a completed job or a returned booking (migration 0013). */
export interface ReviewsTable {
  id: string;
  about_type: ReviewAbout;
  /** The application (for a job) or the booking reviewed. */
  about_id: string;
  author_side: ReviewSide;
  /** null for seeded reviews. */
  author_account_id: string | null;
  /** First name and initial, as public reads show the author. */
  author_name: string;
  /** The reviewed helper (author_side client), or null. */
  helper_id: string | null;
  /** The reviewed listing owner (author_side renter), or null. */
  owner_id: string | null;
  listing_id: string | null;
  /** The account reviewed: the one that may reply (null for seeded parties without an account). */
  reviewed_account_id: string | null;
  rating: number;
  text: string | null;
  created_at: string;
  window_closes_at: string;
  /** Set when the other side reviewed too, or by the background publication after the window. */
  published_at: string | null;
  reply: string | null;
  replied_at: string | null;
  /** When a moderation decision removed it from every public read (migration 0018). */
  removed_at: Generated<string | null>;
}

export type VerificationStatus = 'pending' | 'approved' | 'rejected' | 'revoked';
export type VerificationMethod = 'id_document' | 'address_letter' | 'phone';

/** A request to verify a helper (or a seeded owner) and the platform's decision (migration 0013). */
export interface VerificationsTable {
  id: string;
  helper_id: string | null;
  owner_id: string | null;
  account_id: string | null;
  method: VerificationMethod;
  status: VerificationStatus;
  created_at: string;
  decided_at: string | null;
  reason: string | null;
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

/** What a conversation is about (issue 17). */
export type ConversationAbout = 'job' | 'listing' | 'application' | 'booking';

export interface ConversationsTable {
  id: string;
  about_type: ConversationAbout;
  about_id: string;
  /** The two accounts in id order: one row per pair and subject, whoever wrote first. */
  account_low: string;
  account_high: string;
  /** The account that opened it (counted by NEW_CONVERSATIONS_PER_ACCOUNT_PER_HOUR). */
  started_by: string;
  created_at: string;
  last_message_at: string;
}

export interface MessagesTable {
  id: string;
  conversation_id: string;
  /** 1, 2, ... within the conversation: the reading order (drawn while the conversation row is locked). */
  seq: number;
  sender_account_id: string;
  recipient_account_id: string;
  /** As written: the contact-data shield masks it at read time, for the recipient only. */
  text: string;
  created_at: string;
  read_at: string | null;
  /** When a moderation decision removed it from every public read (migration 0018). */
  removed_at: Generated<string | null>;
}

/** An account's notification choices (migration 0038, issue 36); no row: the defaults. */
export interface NotificationSettingsTable {
  account_id: string;
  language: 'de' | 'en';
  quiet_start: string | null;
  quiet_end: string | null;
  digest_time: string;
  /** JSON: per kind (domain/notifications.ts) the channels on. */
  kinds: string;
  /** Random key (hex) of the HMAC in the one-click unsubscribe links; never shown. */
  unsubscribe_key: string;
  updated_at: string;
  /** When the person chose `language` themselves (migration 0039); null: the default, not chosen. */
  language_chosen_at: string | null;
}

/** Something to send to one account on one channel, or sent (migration 0038, issue 36). */
export interface NotificationsTable {
  id: string;
  account_id: string;
  kind: string;
  channel: 'email' | 'digest' | 'push';
  /** What it was made from (the event's id): with account and channel, unique. */
  source: string;
  event_type: string;
  subject_id: string;
  /** What is sent as one (the conversation of a message); null: on its own. */
  fold_key: string | null;
  /** The event's object as the account read it (JSON). */
  payload: string;
  status: 'pending' | 'sent' | 'folded' | 'failed' | 'dropped';
  due_at: string;
  attempts: Generated<number>;
  claimed_until: string | null;
  sent_at: string | null;
  last_error: string | null;
  created_at: string;
}

/** A browser's push subscription of an account (migration 0038, issue 36). */
export interface PushSubscriptionsTable {
  id: string;
  account_id: string;
  /** The push service's address for this browser (unique): secret-ish, never shown whole. */
  endpoint: string;
  /** The browser's P-256 public key and auth secret (base64url): what the pushes are encrypted for. */
  p256dh: string;
  auth: string;
  created_at: string;
  last_sent_at: string | null;
  last_error: string | null;
}

export interface MetaTable {
  key: string;
  value: string;
}

/** An account's private calendar feed (migration 0014): only a SHA-256 of its token is stored. */
export interface CalendarFeedsTable {
  account_id: string;
  token_hash: string;
  created_at: string;
}

export type SavedSearchResource = 'jobs' | 'listings';

/** An account's stored search (migration 0015): the query as JSON, its category and area as columns to pre-filter by. */
export interface SavedSearchesTable {
  id: string;
  account_id: string;
  name: string;
  resource: SavedSearchResource;
  /** The validated search parameters as JSON (without paging); `near` is kept as given. */
  query: string;
  category: Category | null;
  /** The search centre (lat/lng, the place `near` names, or the default centre) and radius. */
  center_lat: number;
  center_lng: number;
  radius_km: number;
  /** The bounding box of the circle: the cheap SQL pre-filter of candidates. */
  min_lat: number;
  max_lat: number;
  min_lng: number;
  max_lng: number;
  email_digest: Flag;
  /** Random key (hex) of the HMAC in the digest's unsubscribe link (domain/unsubscribe.ts); never shown. */
  unsubscribe_key: string;
  created_at: string;
}

/** A job or listing that started to match a saved search after it was saved (migration 0015). */
export interface SavedSearchMatchesTable {
  saved_search_id: string;
  subject_id: string;
  matched_at: string;
}

/** When an account's digest e-mail of saved-search matches was last sent (migration 0015). */
export interface SavedSearchDigestsTable {
  account_id: string;
  sent_at: string;
}

/** A commercial account's legal details (§ 5 DDG; migration 0017); jobs and listings show the public part. */
export interface ProvidersTable {
  account_id: string;
  legal_name: string;
  street: string;
  plz: string;
  city: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  email: string;
  phone: string;
  register_court: string | null;
  register_number: string | null;
  vat_id: string | null;
  /** When the account last stated it offers only lawful services and products (DSA Art. 30(1)(e)). */
  self_certified_at: string;
  created_at: string;
  updated_at: string;
}

export type ReportAbout = 'job' | 'listing' | 'helper' | 'review' | 'message';
/** What a moderation decision may be about: what may be reported, or an account (migration 0033). */
export type DecisionAbout = ReportAbout | 'account';
export type ModerationAction = 'remove' | 'restrict_visibility' | 'suspend_account' | 'no_action';

/** A notice of illegal or prohibited content (DSA Art. 16; migration 0018). */
export interface ReportsTable {
  id: string;
  about_type: ReportAbout;
  about_id: string;
  reason: string;
  explanation: string;
  /** Where the outcome is e-mailed, when the reporter gave it. */
  reporter_email: string | null;
  reporter_account_id: string | null;
  /** SHA-256 of the report token the reporter follows the report with. */
  token_hash: string;
  status: 'received' | 'decided';
  decision_id: string | null;
  created_at: string;
  decided_at: string | null;
  /**
   * What the item said when it was reported: a ReportSnapshot (domain/report-snapshot.ts) as JSON,
   * never shown by the API (migration 0032). null: filed before 0032, or its account was erased.
   */
  snapshot: string | null;
  /** The account the reported item belongs to (null: seeded content); erasing it drops `snapshot`. */
  about_account_id: string | null;
}

/** A decision of the platform about content or an account, with its statement of reasons (DSA Art. 17). */
export interface ModerationDecisionsTable {
  id: string;
  report_id: string | null;
  /** What the decision is about: a reported item, or the account itself (a suspension from the console). */
  about_type: DecisionAbout;
  about_id: string;
  /** The account affected (null: seeded content without an account). */
  account_id: string | null;
  action: ModerationAction;
  ground: 'legal' | 'terms';
  explanation: string;
  automated: Generated<number>;
  /** A job's or listing's status before removal, restored by a reversal. */
  status_before: string | null;
  created_at: string;
  reversed_at: string | null;
  /** Who took it: an operator's account id, `cli` (the admin command), or null (before migration 0033). */
  decided_by: string | null;
}

/** An appeal of the affected account against a decision (DSA Art. 20). */
export interface AppealsTable {
  id: string;
  decision_id: string;
  account_id: string;
  text: string;
  status: 'pending' | 'upheld' | 'reversed';
  created_at: string;
  decided_at: string | null;
  explanation: string | null;
}

/**
 * The ids of changed jobs and listings, in change order, filled by triggers (migration 0020) for the
 * search indexes to follow; PostgreSQL adds the writing transaction's id (`xid`, read with raw SQL).
 */
export interface SearchChangesTable {
  seq: Generated<number>;
  kind: 'job' | 'listing';
  id: string;
  changed_at: Generated<string>;
}

/** One row: the highest search_changes.seq pruned so far. */
export interface SearchChangeHorizonTable {
  one: number;
  pruned_upto: number;
}

/** A write prepared by an agent for a person to confirm (migration 0021, services/drafts.ts). */
export interface DraftsTable {
  id: string;
  account_id: string;
  operation: DraftOperation;
  /** The path id of the operation (the job of applyToJob, the listing of createBooking); null for the others. */
  path_id: string | null;
  /** The body as validated (JSON), what the confirmation sends to the operation. */
  body: string;
  /** What the page and GET show (JSON: the German and English summary and the facts). */
  summary: string;
  /** SHA-256 of the page's token; the token itself is shown once, in the confirmation_url. */
  token_hash: string;
  status: 'pending' | 'confirmed' | 'declined';
  result_id: string | null;
  result_location: string | null;
  created_at: string;
  expires_at: string;
  decided_at: string | null;
}

/** An exact place shown to someone other than its owner, per reader and day (migration 0022, services/places.ts). */
export interface PlaceReleasesTable {
  resource: 'jobs' | 'listings';
  object_id: string;
  owner_account_id: string;
  reader_account_id: string;
  /** The Europe/Berlin calendar day of the reads (YYYY-MM-DD). */
  day: string;
  first_at: string;
  last_at: string;
  reads: number;
}

/** Why a one-time code was sent: to create an account, or to sign in to one. */
export type SignInPurpose = 'signup' | 'signin';

/**
 * A one-time code sent by e-mail (migration 0024): ten minutes, five tries. Only an HMAC of the
 * code (keyed by the browser's challenge token) and the challenge's SHA-256 are kept.
 */
export interface SignInCodesTable {
  id: string;
  challenge_hash: string;
  code_hash: string;
  purpose: SignInPurpose;
  /** The address the code went to, in lower case. */
  email: string;
  /** Sign-up: the name and account type to create the account with once the code is entered. */
  name: string | null;
  account_type: AccountType | null;
  /** Sign-in: the account the address belonged to when the code was sent; null when none could sign in. */
  account_id: string | null;
  tries: number;
  created_at: string;
  expires_at: string;
}

/** A person's signed-in browser (migration 0024): only the SHA-256 of the cookie's token is kept. */
export interface SessionsTable {
  id: string;
  token_hash: string;
  account_id: string;
  /** The browser's User-Agent when it signed in (at most 200 characters), to tell sessions apart. */
  user_agent: string | null;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
}

/** A WebAuthn credential (passkey) of an account (issue 31, migration 0025). */
export interface PasskeysTable {
  id: string;
  /** The credential's id as the authenticator made it, base64url. */
  credential_id: string;
  account_id: string;
  /** The COSE public key, base64url: not a secret. */
  public_key: string;
  /** The signature counter the authenticator reported last (kept at most 2^31 - 1, an integer on both engines). */
  counter: number;
  /** The transports the browser reported, as a JSON list, or null. */
  transports: string | null;
  /** 'singleDevice' or 'multiDevice' (synced). */
  device_type: string;
  /** 1 when the credential is backed up (synced), else 0. */
  backed_up: number;
  /** What the person called it, to tell passkeys apart. */
  name: string;
  created_at: string;
  last_used_at: string | null;
}

/** A WebAuthn challenge handed out and not yet used: only its SHA-256, five minutes, once. */
export interface PasskeyChallengesTable {
  challenge_hash: string;
  purpose: 'register' | 'signin';
  /** The account a registration is for; null for a sign-in (the passkey names its account). */
  account_id: string | null;
  created_at: string;
  expires_at: string;
}

/**
 * What the OAuth 2.1 authorization server (oidc-provider) keeps, through its adapter (issue 31,
 * migration 0026): one row per stored object of one of its models.
 */
export interface OauthRecordsTable {
  /** The library's model: Client, Grant, AccessToken, RefreshToken, AuthorizationCode, Interaction, Session, … and Keys. */
  model: string;
  id: string;
  /** The library's payload, as JSON. */
  payload: string;
  grant_id: string | null;
  /** The person a grant or token is for, or the developer who registered a client. */
  account_id: string | null;
  /** The client a grant or token was given to, or a client's own id. */
  client_id: string | null;
  uid: string | null;
  created_at: string;
  expires_at: string | null;
  consumed_at: string | null;
}

export interface Database {
  jobs: JobsTable;
  job_series: JobSeriesTable;
  job_series_skips: JobSeriesSkipsTable;
  job_series_excusals: JobSeriesExcusalsTable;
  notification_settings: NotificationSettingsTable;
  notifications: NotificationsTable;
  push_subscriptions: PushSubscriptionsTable;
  series_applications: SeriesApplicationsTable;
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
  booking_extensions: BookingExtensionsTable;
  waitlist_entries: WaitlistEntriesTable;
  busy_calendars: BusyCalendarsTable;
  busy_times: BusyTimesTable;
  idempotency_keys: IdempotencyKeysTable;
  events: EventsTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  conversations: ConversationsTable;
  messages: MessagesTable;
  reviews: ReviewsTable;
  verifications: VerificationsTable;
  calendar_feeds: CalendarFeedsTable;
  saved_searches: SavedSearchesTable;
  saved_search_matches: SavedSearchMatchesTable;
  saved_search_digests: SavedSearchDigestsTable;
  providers: ProvidersTable;
  reports: ReportsTable;
  moderation_decisions: ModerationDecisionsTable;
  appeals: AppealsTable;
  drafts: DraftsTable;
  search_changes: SearchChangesTable;
  search_change_horizon: SearchChangeHorizonTable;
  place_releases: PlaceReleasesTable;
  sign_in_codes: SignInCodesTable;
  sessions: SessionsTable;
  passkeys: PasskeysTable;
  passkey_challenges: PasskeyChallengesTable;
  oauth_records: OauthRecordsTable;
  payments: PaymentsTable;
  ledger_entries: LedgerEntriesTable;
  bank_accounts: BankAccountsTable;
  claims: ClaimsTable;
  payout_accounts: PayoutAccountsTable;
  provider_events: ProviderEventsTable;
  provider_tasks: ProviderTasksTable;
  operators: OperatorsTable;
  audit_log: AuditLogTable;
}

export type JobRow = Selectable<JobsTable>;
export type JobSeriesRow = Selectable<JobSeriesTable>;
export type SeriesApplicationRow = Selectable<SeriesApplicationsTable>;
export type JobSeriesExcusalRow = Selectable<JobSeriesExcusalsTable>;
export type NotificationRow = Selectable<NotificationsTable>;
export type NotificationSettingsRow = Selectable<NotificationSettingsTable>;
export type PushSubscriptionRow = Selectable<PushSubscriptionsTable>;
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
export type BookingExtensionRow = Selectable<BookingExtensionsTable>;
export type WaitlistEntryRow = Selectable<WaitlistEntriesTable>;
export type BusyCalendarRow = Selectable<BusyCalendarsTable>;
export type EventRow = Selectable<EventsTable>;
export type WebhookRow = Selectable<WebhooksTable>;
export type DeliveryRow = Selectable<WebhookDeliveriesTable>;
export type ConversationRow = Selectable<ConversationsTable>;
export type MessageRow = Selectable<MessagesTable>;
export type ReviewRow = Selectable<ReviewsTable>;
export type VerificationRow = Selectable<VerificationsTable>;
export type SignInCodeRow = Selectable<SignInCodesTable>;
export type SessionRow = Selectable<SessionsTable>;
export type PasskeyRow = Selectable<PasskeysTable>;
export type PasskeyChallengeRow = Selectable<PasskeyChallengesTable>;
export type OauthRecordRow = Selectable<OauthRecordsTable>;

export type { EventType };
export type SavedSearchRow = Selectable<SavedSearchesTable>;

/** A sum owed by one account to another (issue 32, migration 0027), in integer cents. */
export interface PaymentsTable {
  id: string;
  kind: PaymentKind;
  provider: 'manual' | 'stripe';
  status: PaymentStatus;
  payer_account_id: string;
  payee_account_id: string;
  job_id: string | null;
  application_id: string | null;
  /** A booking's rent or deposit (migration 0029). */
  booking_id: Generated<string | null>;
  amount_cents: number;
  /** Of a released deposit, what stayed with the owner for an accepted or decided claim (migration 0029). */
  kept_cents: Generated<number>;
  /** The platform's fee, owed by the payee; 0 where none is due (domain/payments.ts). */
  fee_cents: number;
  currency: 'EUR';
  created_at: string;
  paid_at: string | null;
  received_at: string | null;
  cancelled_at: string | null;
  /** When the owner said a deposit was given back (migration 0029). */
  released_at: Generated<string | null>;
  /** Stripe (migration 0030): the PaymentIntent, and the Checkout Session the payer confirms it in. */
  provider_ref: Generated<string | null>;
  checkout_ref: Generated<string | null>;
  /** The customer and card Stripe saved for an off-session charge (a deposit held later). */
  customer_ref: Generated<string | null>;
  payment_method_ref: Generated<string | null>;
  /** Counts the Checkout Sessions made for it: the idempotency key of the next is `<id>:checkout:<attempt>`. */
  provider_attempt: Generated<number>;
  /** Why Stripe last refused it (e.g. card_declined), null when it did not. */
  provider_error: Generated<string | null>;
  updated_at: string;
}
export type PaymentRow = Selectable<PaymentsTable>;

/** One line of the double-entry books (issue 32, migration 0027); a transaction's lines sum to zero. */
export interface LedgerEntriesTable {
  id: string;
  transaction_id: string;
  payment_id: string | null;
  /** Whose money: `party:<account id>`, `fees_receivable:<account id>` or `platform:fee_revenue`. */
  ledger_account: string;
  /** Cents; positive is money in, negative money out of the ledger account. */
  amount_cents: number;
  /** What moved: `settlement` (between the parties, also a deposit handed over or given back) or `fee`. */
  kind: 'settlement' | 'fee';
  created_at: string;
}
export type LedgerEntryRow = Selectable<LedgerEntriesTable>;

/** The bank account a payee gives for transfers (issue 32, migration 0028), one per account. */
export interface BankAccountsTable {
  account_id: string;
  /** Electronic format: no spaces, upper case. */
  iban: string;
  account_holder: string;
  created_at: string;
  updated_at: string;
}
export type BankAccountRow = Selectable<BankAccountsTable>;

/** Where a damage claim stands (issue 32, migration 0029). */
export type ClaimStatus = 'open' | 'accepted' | 'disputed' | 'decided';

/** An owner's claim on a returned booking's held deposit, one per booking (issue 32, migration 0029). */
export interface ClaimsTable {
  id: string;
  booking_id: string;
  /** The deposit it is taken from. */
  payment_id: string;
  owner_account_id: string;
  renter_account_id: string;
  /** What the owner claims, at most the deposit. */
  amount_cents: number;
  text: string;
  /** JSON array of https URLs. */
  photos: string;
  status: ClaimStatus;
  /** The renter's side, when disputed. */
  response_text: string | null;
  /** What an operator decided (disputed claims). */
  decided_cents: number | null;
  explanation: string | null;
  created_at: string;
  answered_at: string | null;
  decided_at: string | null;
  updated_at: string;
}
export type ClaimRow = Selectable<ClaimsTable>;

/** A payee's Stripe connected account (Express) and what Stripe last said of it (issue 32, migration 0030). */
export interface PayoutAccountsTable {
  account_id: string;
  /** Stripe's acct_ id. */
  provider_account_id: string;
  /** 0 or 1, as Stripe's charges_enabled, payouts_enabled and details_submitted. */
  charges_enabled: number;
  payouts_enabled: number;
  details_submitted: number;
  /** JSON array of what Stripe still needs (requirements.currently_due). */
  currently_due: string;
  created_at: string;
  updated_at: string;
}
export type PayoutAccountRow = Selectable<PayoutAccountsTable>;

/** A Stripe event received, by its id: processed once however often it comes (migration 0030). */
export interface ProviderEventsTable {
  id: string;
  type: string;
  /** The id of the object it is about (pi_, cs_, acct_ ...). */
  object_id: string;
  received_at: string;
  processed_at: string | null;
}

/** What a provider task asks of Stripe: capture, cancel a hold, refund (a refund payment), return (a stray charge, in full). */
export type ProviderAction = 'capture' | 'cancel' | 'refund' | 'return';

/**
 * A call to Stripe a write decided on, made after its commit by the provider sweep (migration 0030):
 * pending until Stripe answered, done, or failed after its last attempt. The idempotency key is
 * `<id>:<attempt>`, so a retry after a timeout can never do it twice.
 */
export interface ProviderTasksTable {
  id: string;
  payment_id: string;
  action: ProviderAction;
  amount_cents: number;
  /**
   * The PaymentIntent it is about when not the payment's own: a hold or charge made on a page the
   * payer paid after the payment was cancelled or paid otherwise, let go (cancel) or given back (return).
   */
  intent_ref: Generated<string | null>;
  attempt: number;
  status: 'pending' | 'done' | 'failed';
  error: string | null;
  due_at: string;
  created_at: string;
  updated_at: string;
}
export type ProviderTaskRow = Selectable<ProviderTasksTable>;

/** What an operator may do (issue 33): support < moderator < admin. */
export type OperatorRole = 'support' | 'moderator' | 'admin';

/** An account that runs the platform, with its role (issue 33, migration 0031). */
export interface OperatorsTable {
  account_id: string;
  role: OperatorRole;
  /** Who gave the role: `cli` (the admin command) or an admin's account id. */
  created_by: string;
  created_at: string;
  updated_at: string;
}
export type OperatorRow = Selectable<OperatorsTable>;

/**
 * One operator action or read of private data (issue 33, migration 0031), written in the action's
 * transaction. Append-only: a trigger refuses updates and deletes on both engines.
 */
export interface AuditLogTable {
  id: string;
  at: string;
  /** The operator's account id, or `cli` for the admin command. */
  actor: string;
  actor_role: OperatorRole | 'cli';
  /** What was done, e.g. `operator.added`, `claim.decided`, `conversation.read`. */
  action: string;
  target_type: string;
  target_id: string;
  reason: string | null;
  /** JSON of what else the action needs to be understood later (amounts, the role given). */
  details: string | null;
}
export type AuditLogRow = Selectable<AuditLogTable>;
