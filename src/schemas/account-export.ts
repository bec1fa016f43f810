import { type TSchema, Type } from 'typebox';

/**
 * The export of an account (GET /v1/me/export, GDPR Art. 15 and 20): what is stored about it, as
 * stored, one section per kind of record. The fields below are the whole contract: the
 * repository reads these columns and no other (repositories/account-export.ts), and the schema of
 * the answer is made from the same list, so code and document cannot drift apart.
 *
 * Left out on purpose: secrets and their hashes (keys, webhook secrets, feed tokens, unsubscribe
 * keys), and other people's personal data: the texts of messages received and of applications
 * received, names of reviewers, the ids of renters and counterparts.
 */

/** s: string, i: integer, n: number, b: boolean (stored 0/1), j: JSON stored as text; `?` when it may be null. */
/**
 * s, i, n, b: string, integer, number, boolean; ja, jo: stored JSON text, exported parsed: a list of
 * texts, an object of any fields; ?: or null.
 */
type FieldType = 's' | 'i' | 'n' | 'b' | 'ja' | 'jo' | 's?' | 'i?' | 'n?' | 'b?' | 'jo?';
export type ExportFields = Readonly<Record<string, readonly [FieldType, string]>>;

export interface ExportSection {
  /** The section's key in the document. */
  key: string;
  description: string;
  /** One object (the account) or a list. */
  many: boolean;
  fields: ExportFields;
}

const PLACE: ExportFields = {
  city: ['s', 'City.'],
  plz: ['s', 'Postal code.'],
  district: ['s?', 'District, when known.'],
  lat: ['n', 'Shown (approximate) latitude.'],
  lng: ['n', 'Shown (approximate) longitude.'],
  exact_lat: ['n', 'Latitude of the place.'],
  exact_lng: ['n', 'Longitude of the place.'],
};

const RELIABILITY: ExportFields = {
  reliability_score: ['i', 'Reliability score, 0-100.'],
  completed_jobs: ['i', 'Completed jobs or bookings.'],
  avg_response_minutes: ['i', 'Average answer time.'],
  cancellation_rate: ['n', 'Cancellation rate.'],
  rating_avg: ['n', 'Average rating.'],
  rating_count: ['i', 'Ratings.'],
  verified: ['b', 'Verified.'],
};

/** Every instant is UTC (the section says so once). */
const CREATED = { created_at: ['s', 'Created at.'] } as const;

/** The job's completion for an accepted helper (issue 30, 3). */
const COMPLETION: ExportFields = {
  completion_requested_at: ['s?', 'Job completed at.'],
  completion_objectable_until: ['s?', 'Objections until.'],
  completion_confirmed_at: ['s?', 'Confirmed at.'],
  completion_objected_at: ['s?', 'Objected at.'],
  completion_final_at: ['s?', 'Final at.'],
  no_show: ['s?', 'Who did not come: helper or poster.'],
  no_show_at: ['s?', 'No-show reported at.'],
  excused_by: ['s?', 'Who excused it (series): helper or poster.'],
};

export const EXPORT_SECTIONS = [
  {
    key: 'account',
    description: 'Your account.',
    many: false,
    fields: {
      id: ['s', 'Account id.'],
      name: ['s', 'Name given when the key was requested.'],
      email: ['s', 'E-mail address.'],
      organisation: ['s?', 'Organisation, when given.'],
      account_type: ['s', 'private or commercial.'],
      ...CREATED,
    },
  },
  {
    key: 'provider_details',
    description: 'Your provider details (PUT /v1/me/provider).',
    many: true,
    fields: {
      legal_name: ['s', 'Legal name.'],
      street: ['s', 'Street and number.'],
      plz: ['s', 'Postal code.'],
      city: ['s', 'City.'],
      country: ['s', 'Country (ISO 3166-1 alpha-2).'],
      email: ['s', 'E-mail for quick contact.'],
      phone: ['s', 'Telephone.'],
      register_court: ['s?', 'Register court.'],
      register_number: ['s?', 'Register number.'],
      vat_id: ['s?', 'VAT id.'],
      self_certified_at: ['s', 'When you gave the self-certification.'],
      ...CREATED,
      updated_at: ['s', 'Last change.'],
    },
  },
  {
    key: 'api_keys',
    description: 'Your API keys (no key, no hash).',
    many: true,
    fields: {
      id: ['s', 'Key id.'],
      last4: ['s', 'The last four characters of the key.'],
      ...CREATED,
      expires_at: ['s?', 'When a rotated key stops working.'],
      revoked_at: ['s?', 'When the key was revoked.'],
      replaced_by: ['s?', 'The id of the key that replaced it.'],
    },
  },
  {
    key: 'key_requests',
    description: 'Key requests with your e-mail.',
    many: true,
    fields: {
      id: ['s', 'Request id.'],
      name: ['s', 'Name given.'],
      email: ['s', 'E-mail address given.'],
      organisation: ['s?', 'Organisation given.'],
      account_type: ['s', 'private or commercial.'],
      intended_use: ['s', 'What you said the key is for.'],
      status: ['s', 'pending, approved or rejected.'],
      ...CREATED,
      decided_at: ['s?', 'When it was decided.'],
      reason: ['s?', 'The reason given with a rejection.'],
    },
  },
  {
    key: 'jobs',
    description: 'Jobs you posted, whatever their state.',
    many: true,
    fields: {
      id: ['s', 'Job id.'],
      title: ['s', 'Title.'],
      description: ['s', 'Description.'],
      category: ['s', 'Category.'],
      status: ['s', 'Stored status (an open job past its deadline reads as expired).'],
      price_cents: ['i', 'Price in euro cents.'],
      duration_hours: ['n', 'Expected hours per helper.'],
      desired_at: ['s?', 'Desired start.'],
      deadline: ['s?', 'Deadline.'],
      time_preference: ['s?', 'Preferred time of day.'],
      urgent: ['b', 'Urgent.'],
      helpers_needed: ['i', 'Helpers needed.'],
      applications_count: ['i', 'Applications received.'],
      photos: ['ja', 'Photo URLs.'],
      requires_license: ['b', 'Requires a licence.'],
      express: ['b', 'Express.'],
      remote_task: ['b', 'Can be done remotely.'],
      ...PLACE,
      ...CREATED,
      updated_at: ['s?', 'Last change.'],
      completed_at: ['s?', 'When it was completed.'],
      series_id: ['s?', 'The job series it is an occurrence of.'],
      occurrence_date: ['s?', 'Its date in the series (local).'],
    },
  },
  {
    key: 'job_series',
    description: 'Your recurring jobs (job series).',
    many: true,
    fields: {
      id: ['s', 'Series id.'],
      status: ['s', 'active, paused or cancelled.'],
      rrule: ['s', 'The recurrence rule.'],
      starts_on: ['s', 'First local date.'],
      local_time: ['s', 'Local start time (Europe/Berlin).'],
      template: ['jo', 'The fields each occurrence is posted with, its place included.'],
      ...CREATED,
      updated_at: ['s', 'Last change.'],
    },
  },
  {
    key: 'series_applications',
    description: 'Your applications to job series (as a standing helper).',
    many: true,
    fields: {
      id: ['s', 'Series application id.'],
      series_id: ['s', 'The series.'],
      helper_id: ['s', 'Your helper profile.'],
      message: ['s?', 'Your note.'],
      status: ['s', 'pending, accepted, rejected or ended.'],
      ...CREATED,
      decided_at: ['s?', 'When it was decided.'],
      ended_at: ['s?', 'When it ended.'],
    },
  },
  {
    key: 'job_series_skips',
    description: 'Occurrences of your job series you skipped.',
    many: true,
    fields: { series_id: ['s', 'Series id.'], occurrence_date: ['s', 'Skipped local date.'], ...CREATED },
  },
  {
    key: 'job_series_excusals',
    description: 'Standing helpers excused from one occurrence: of your series, or your helpers.',
    many: true,
    fields: {
      series_id: ['s', 'Series id.'],
      helper_id: ['s', 'The helper.'],
      occurrence_date: ['s', 'Local date.'],
      excused_by: ['s', 'helper or poster.'],
      ...CREATED,
    },
  },
  {
    key: 'notification_settings',
    description: 'What is e-mailed to you, when and in which language.',
    many: true,
    fields: {
      language: ['s', 'de or en.'],
      quiet_start: ['s?', 'Quiet hours from.'],
      quiet_end: ['s?', 'Quiet hours until.'],
      digest_time: ['s', 'Digest time.'],
      kinds: ['jo', 'Per kind the channels.'],
      updated_at: ['s', 'Last change.'],
      language_chosen_at: ['s?', 'When you chose the language (the default of your API answers).'],
    },
  },
  {
    key: 'push_subscriptions',
    description: 'The browsers notifications are pushed to.',
    many: true,
    fields: {
      id: ['s', 'Push subscription id.'],
      endpoint: ['s', 'The push service address.'],
      p256dh: ['s', "The browser's public key."],
      ...CREATED,
      last_sent_at: ['s?', 'Last push.'],
      last_error: ['s?', 'Last failure.'],
    },
  },
  {
    key: 'notifications',
    description: 'Notifications for you: planned, sent or not.',
    many: true,
    fields: {
      id: ['s', 'Notification id.'],
      kind: ['s', 'messages, applications, bookings, payments or reminders.'],
      channel: ['s', 'email, push or digest.'],
      event_type: ['s', 'What happened.'],
      subject_id: ['s', 'What it was about.'],
      status: ['s', 'pending, sent, folded, failed or dropped.'],
      due_at: ['s', 'Due at.'],
      sent_at: ['s?', 'Sent at.'],
      ...CREATED,
    },
  },
  {
    key: 'owner_profiles',
    description: 'Your profile as a lender (made with your first listing).',
    many: true,
    fields: { id: ['s', 'Owner id.'], display_name: ['s', 'Name shown on your listings.'], ...CREATED, ...RELIABILITY },
  },
  {
    key: 'listings',
    description: 'Items you lend or rent out, whatever their state.',
    many: true,
    fields: {
      id: ['s', 'Listing id.'],
      owner_id: ['s', 'Your owner profile.'],
      title: ['s', 'Title.'],
      description: ['s', 'Description.'],
      category: ['s', 'Category.'],
      status: ['s', 'active, paused or archived.'],
      price_per_day_cents: ['i', 'Price per day in euro cents.'],
      price_per_week_cents: ['i?', 'Price per week in euro cents.'],
      deposit_cents: ['i', 'Deposit in euro cents.'],
      condition: ['s', 'Condition.'],
      instant_booking: ['b', 'Booked without confirmation.'],
      photos: ['ja', 'Photo URLs.'],
      ...PLACE,
      ...CREATED,
      updated_at: ['s?', 'Last change.'],
    },
  },
  {
    key: 'helper_profiles',
    description: 'Your helper profiles.',
    many: true,
    fields: {
      id: ['s', 'Helper id.'],
      display_name: ['s', 'Name shown.'],
      bio: ['s', 'About you.'],
      hourly_rate_cents: ['i', 'Hourly rate in euro cents.'],
      available: ['b', 'Taking work.'],
      availability: ['jo?', 'When you work ({weekdays, from, to}); null: any time.'],
      categories: ['ja', 'Categories you work in.'],
      ...PLACE,
      ...CREATED,
      ...RELIABILITY,
    },
  },
  {
    key: 'applications',
    description: 'Applications you made as a helper.',
    many: true,
    fields: {
      id: ['s', 'Application id.'],
      job_id: ['s', 'The job.'],
      helper_id: ['s', 'Your helper profile.'],
      message: ['s?', 'Your message.'],
      status: ['s', 'pending, accepted, rejected or withdrawn.'],
      ...CREATED,
      decided_at: ['s?', 'When the job owner decided.'],
      withdrawn_at: ['s?', 'When you gave up an accepted application.'],
      ...COMPLETION,
      completion_objection: ['s?', 'Your objection.'],
    },
  },
  {
    key: 'applications_received',
    description: "Applications to your jobs, without the helper's message.",
    many: true,
    fields: {
      id: ['s', 'Application id.'],
      job_id: ['s', 'Your job.'],
      helper_id: ['s', 'The helper profile.'],
      status: ['s', 'pending, accepted, rejected or withdrawn.'],
      ...CREATED,
      decided_at: ['s?', 'When you decided.'],
      ...COMPLETION,
    },
  },
  {
    key: 'bookings',
    description: 'Bookings you made as a renter.',
    many: true,
    fields: {
      id: ['s', 'Booking id.'],
      listing_id: ['s', 'The listing.'],
      start_date: ['s', 'First day (Europe/Berlin).'],
      end_date: ['s', 'Last day (Europe/Berlin).'],
      days: ['i', 'Days.'],
      price_cents: ['i', 'Price in euro cents.'],
      deposit_cents: ['i', 'Deposit in euro cents.'],
      status: ['s', 'Stored status.'],
      ...CREATED,
      updated_at: ['s', 'Last change.'],
      decided_at: ['s?', 'When the owner decided.'],
      cancelled_by: ['s?', 'owner or renter, when cancelled.'],
    },
  },
  {
    key: 'booking_extensions',
    description: 'Extensions you asked for your bookings.',
    many: true,
    fields: {
      id: ['s', 'Extension id.'],
      booking_id: ['s', 'The booking.'],
      status: ['s', 'requested, accepted or declined.'],
      until_date: ['s', 'The new last day.'],
      until_at: ['s?', 'The new end (by the hour).'],
      price_cents: ['i', 'Added rent in euro cents.'],
      ...CREATED,
      decided_at: ['s?', 'When it was decided.'],
    },
  },
  {
    key: 'waitlist_entries',
    description: 'Your places on listings’ waiting lists.',
    many: true,
    fields: {
      id: ['s', 'Entry id.'],
      listing_id: ['s', 'The listing.'],
      status: ['s', 'waiting, offered, booked, lapsed or left.'],
      start_date: ['s', 'First day waited for.'],
      end_date: ['s', 'Last day waited for.'],
      start_at: ['s?', 'From (by the hour).'],
      end_at: ['s?', 'To (by the hour).'],
      hold_until: ['s?', 'An offer held until.'],
      ...CREATED,
    },
  },
  {
    key: 'busy_calendars',
    description: 'Your own calendars attached to your listings or helper profiles (the busy times are read from them).',
    many: true,
    fields: {
      id: ['s', 'Busy calendar id.'],
      listing_id: ['s?', 'The listing it blocks.'],
      helper_id: ['s?', 'The helper profile it blocks.'],
      url: ['s', 'The address you gave.'],
      status: ['s', 'pending, ok or error.'],
      last_fetch_at: ['s?', 'The last fetch.'],
      last_error: ['s?', 'Why the last fetch failed.'],
      busy_count: ['i', 'Busy times read.'],
      ...CREATED,
    },
  },
  {
    key: 'bookings_received',
    description: 'Bookings of your listings: without who booked.',
    many: true,
    fields: {
      id: ['s', 'Booking id.'],
      listing_id: ['s', 'Your listing.'],
      start_date: ['s', 'First day (Europe/Berlin).'],
      end_date: ['s', 'Last day (Europe/Berlin).'],
      days: ['i', 'Days.'],
      price_cents: ['i', 'Price in euro cents.'],
      deposit_cents: ['i', 'Deposit in euro cents.'],
      status: ['s', 'Stored status.'],
      ...CREATED,
      updated_at: ['s', 'Last change.'],
      decided_at: ['s?', 'When you decided.'],
      cancelled_by: ['s?', 'owner or renter, when cancelled.'],
    },
  },
  {
    key: 'conversations',
    description: 'Conversations you take part in.',
    many: true,
    fields: {
      id: ['s', 'Conversation id.'],
      about_type: ['s', 'job, listing, application or booking.'],
      about_id: ['s', 'What it is about.'],
      ...CREATED,
      last_message_at: ['s', 'Last message.'],
    },
  },
  {
    key: 'messages_sent',
    description: 'Messages you wrote, as you wrote them.',
    many: true,
    fields: {
      id: ['s', 'Message id.'],
      conversation_id: ['s', 'Conversation.'],
      seq: ['i', 'Place in the conversation.'],
      text: ['s', 'Your text.'],
      ...CREATED,
      read_at: ['s?', 'When the other party read it.'],
    },
  },
  {
    key: 'messages_received',
    description: "Messages you received, without the sender's text.",
    many: true,
    fields: {
      id: ['s', 'Message id.'],
      conversation_id: ['s', 'Conversation.'],
      seq: ['i', 'Place in the conversation.'],
      ...CREATED,
      read_at: ['s?', 'When you read it.'],
    },
  },
  {
    key: 'reviews_written',
    description: 'Reviews you wrote.',
    many: true,
    fields: {
      id: ['s', 'Review id.'],
      about_type: ['s', 'application or booking.'],
      about_id: ['s', 'What was reviewed.'],
      author_side: ['s', 'Your side: client, helper, owner or renter.'],
      rating: ['i', 'Rating, 1 to 5.'],
      text: ['s?', 'Your text.'],
      ...CREATED,
      published_at: ['s?', 'When it was published.'],
      replied_at: ['s?', 'When the reviewed party replied.'],
    },
  },
  {
    key: 'reviews_received',
    description: 'Published reviews of you: without the author, with your reply.',
    many: true,
    fields: {
      id: ['s', 'Review id.'],
      about_type: ['s', 'application or booking.'],
      about_id: ['s', 'What was reviewed.'],
      author_side: ['s', "The author's side."],
      rating: ['i', 'Rating, 1 to 5.'],
      text: ['s?', 'The text published.'],
      ...CREATED,
      published_at: ['s?', 'When it was published.'],
      reply: ['s?', 'Your reply.'],
      replied_at: ['s?', 'When you replied.'],
    },
  },
  {
    key: 'verifications',
    description: 'Verification requests for your profiles and their decisions.',
    many: true,
    fields: {
      id: ['s', 'Verification id.'],
      helper_id: ['s?', 'Helper profile.'],
      owner_id: ['s?', 'Owner profile.'],
      method: ['s', 'How it was to be verified.'],
      status: ['s', 'pending, approved, rejected or revoked.'],
      ...CREATED,
      decided_at: ['s?', 'When it was decided.'],
      reason: ['s?', 'The reason given.'],
    },
  },
  {
    key: 'saved_searches',
    description: 'Your saved searches.',
    many: true,
    fields: {
      id: ['s', 'Saved search id.'],
      name: ['s', 'Name.'],
      resource: ['s', 'jobs or listings.'],
      query: ['jo', 'The search parameters.'],
      email_digest: ['b', 'Daily e-mail digest on.'],
      ...CREATED,
    },
  },
  {
    key: 'saved_search_matches',
    description: 'Jobs and listings that matched your saved searches.',
    many: true,
    fields: {
      saved_search_id: ['s', 'Saved search.'],
      subject_id: ['s', 'Job or listing.'],
      matched_at: ['s', 'When it matched.'],
    },
  },
  {
    key: 'drafts',
    description: 'Writes an agent prepared for you to confirm: without their link tokens.',
    many: true,
    fields: {
      id: ['s', 'Draft id.'],
      operation: ['s', 'createJob, applyToJob, createBooking or createListing.'],
      path_id: ['s?', 'The job or listing it applies to or books.'],
      body: ['jo', 'What the write would send.'],
      summary: ['jo', 'What the page shows: {summary: {de, en}, details}.'],
      status: ['s', 'pending (expired after expires_at), confirmed or declined.'],
      result_id: ['s?', 'What confirming created.'],
      ...CREATED,
      expires_at: ['s', 'When its link stops working.'],
      decided_at: ['s?', 'When it was confirmed or declined.'],
    },
  },
  {
    key: 'sessions',
    description: 'Browsers signed in to your account: without their tokens.',
    many: true,
    fields: {
      id: ['s', 'Session id.'],
      user_agent: ['s?', 'The browser, as it named itself.'],
      ...CREATED,
      last_seen_at: ['s', 'Last used at.'],
      expires_at: ['s', 'Ends at.'],
    },
  },
  {
    key: 'passkeys',
    description: 'Your passkeys: without their keys.',
    many: true,
    fields: {
      id: ['s', 'Passkey id.'],
      name: ['s', 'Its name.'],
      backed_up: ['b', 'Synced.'],
      ...CREATED,
      last_used_at: ['s?', 'Last used at.'],
    },
  },
  {
    key: 'connected_apps',
    description: 'Apps acting for you (OAuth grants).',
    many: true,
    fields: { id: ['s', 'Grant id.'], client_id: ['s', 'The app.'], ...CREATED, expires_at: ['s?', 'Ends at.'] },
  },
  {
    key: 'oauth_clients',
    description: 'OAuth clients you registered: without secrets.',
    many: true,
    fields: { id: ['s', 'client_id.'], ...CREATED },
  },
  {
    key: 'bank_account',
    description: 'Your bank account (PUT /v1/me/bank-account).',
    many: true,
    fields: {
      iban: ['s', 'IBAN.'],
      account_holder: ['s', 'Account holder.'],
      ...CREATED,
      updated_at: ['s', 'Last change.'],
    },
  },
  {
    key: 'operator',
    description: 'Your role in running the platform, if any (npm run admin -- operators add).',
    many: true,
    fields: { role: ['s', 'support, moderator or admin.'], ...CREATED, updated_at: ['s', 'Last change.'] },
  },
  {
    key: 'payout_account',
    description: 'Your Stripe connected account (POST /v1/me/payouts/onboarding); Stripe keeps the details.',
    many: true,
    fields: {
      provider_account_id: ['s', "Stripe's account id."],
      charges_enabled: ['i', '1: card payments to you work.'],
      payouts_enabled: ['i', '1: Stripe pays out to you.'],
      ...CREATED,
      updated_at: ['s', 'Last news from Stripe.'],
    },
  },
  {
    key: 'payments',
    description: 'Payments you owe or are owed (kept 10 years after erasure: tax law).',
    many: true,
    fields: {
      id: ['s', 'Payment id.'],
      kind: ['s', 'What for.'],
      status: ['s', 'State.'],
      job_id: ['s?', 'The job.'],
      booking_id: ['s?', 'The booking.'],
      amount_cents: ['i', 'Amount in cents.'],
      fee_cents: ['i', 'Fee in cents.'],
      kept_cents: ['i', 'Deposit kept for a claim.'],
      ...CREATED,
      received_at: ['s?', 'Received at.'],
    },
  },
  {
    key: 'claims',
    description: 'Damage claims you filed or answered.',
    many: true,
    fields: {
      id: ['s', 'Claim id.'],
      booking_id: ['s', 'The booking.'],
      status: ['s', 'State.'],
      amount_cents: ['i', 'Claimed, in cents.'],
      text: ['s', "The owner's text."],
      response_text: ['s?', "The renter's text."],
      decided_cents: ['i?', 'Decided, in cents.'],
      ...CREATED,
    },
  },
  {
    key: 'webhooks',
    description: 'Your webhooks: without their signing secrets.',
    many: true,
    fields: {
      id: ['s', 'Webhook id.'],
      url: ['s', 'Where events are sent.'],
      events: ['s', 'Subscribed event types, comma-framed.'],
      filter_category: ['s?', 'Category filter.'],
      filter_lat: ['n?', 'Area filter: latitude.'],
      filter_lng: ['n?', 'Area filter: longitude.'],
      filter_radius_km: ['n?', 'Area filter: radius.'],
      ...CREATED,
    },
  },
  {
    key: 'reports_filed',
    description: 'Reports (DSA notices) you filed with your key.',
    many: true,
    fields: {
      id: ['s', 'Report id.'],
      about_type: ['s', 'What was reported.'],
      about_id: ['s', 'Its id.'],
      reason: ['s', 'Reason.'],
      explanation: ['s', 'Your explanation.'],
      reporter_email: ['s?', 'Where the outcome goes.'],
      status: ['s', 'received or decided.'],
      ...CREATED,
      decided_at: ['s?', 'When it was decided.'],
    },
  },
  {
    key: 'moderation_decisions',
    description: 'Decisions about your content or account.',
    many: true,
    fields: {
      id: ['s', 'Decision id.'],
      about_type: ['s', 'What it concerns.'],
      about_id: ['s', 'Its id.'],
      action: ['s', 'Action taken.'],
      ground: ['s', 'legal or terms.'],
      explanation: ['s', 'Statement of reasons.'],
      ...CREATED,
      reversed_at: ['s?', 'When reversed on appeal.'],
    },
  },
  {
    key: 'appeals',
    description: 'Your appeals.',
    many: true,
    fields: {
      id: ['s', 'Appeal id.'],
      decision_id: ['s', 'Decision.'],
      text: ['s', 'Your text.'],
      status: ['s', 'pending, upheld or reversed.'],
      ...CREATED,
      decided_at: ['s?', 'When decided.'],
      explanation: ['s?', 'The answer.'],
    },
  },
  {
    key: 'calendar_feeds',
    description: 'Your private calendar feed (not its URL).',
    many: true,
    fields: { ...CREATED },
  },
  {
    key: 'place_reads',
    description: 'The exact places of others’ jobs and listings you were shown, per day.',
    many: true,
    fields: {
      resource: ['s', 'jobs or listings.'],
      object_id: ['s', 'The job or listing.'],
      day: ['s', 'The Europe/Berlin day.'],
      first_at: ['s', 'First read that day.'],
      last_at: ['s', 'Last read that day.'],
      reads: ['i', 'Reads that day.'],
    },
  },
  {
    key: 'place_releases',
    description: 'Who was shown the exact places of your jobs and listings, per day.',
    many: true,
    fields: {
      resource: ['s', 'jobs or listings.'],
      object_id: ['s', 'The job or listing.'],
      reader_account_id: ['s', 'The account shown the place.'],
      day: ['s', 'The Europe/Berlin day.'],
      first_at: ['s', 'First read that day.'],
      last_at: ['s', 'Last read that day.'],
      reads: ['i', 'Reads that day.'],
    },
  },
] as const satisfies readonly ExportSection[];

export type ExportSectionKey = (typeof EXPORT_SECTIONS)[number]['key'];

/** A description that only repeats the field's name ('Title.' for title) is left out of the document. */
const saysMore = (name: string, description: string) =>
  description.toLowerCase().replace(/[^a-z]/g, '') !== name.replace(/_/g, '');

function fieldSchema(name: string, [type, text]: readonly [FieldType, string]): TSchema {
  const description = saysMore(name, text) ? text : undefined;
  const nullable = type.endsWith('?');
  const base = type.replace('?', '');
  if (base === 'ja') return Type.Unsafe({ type: 'array', items: { type: 'string' }, description: text });
  if (base === 'jo') {
    const object = { type: 'object', properties: {}, additionalProperties: true };
    return Type.Unsafe(
      nullable ? { anyOf: [object, { type: 'null' }], description: text } : { ...object, description: text },
    );
  }
  const typeName = { s: 'string', i: 'integer', n: 'number', b: 'boolean' }[base as 's'];
  return Type.Unsafe({ type: nullable ? [typeName, 'null'] : typeName, ...(description && { description }) });
}

function sectionSchema(section: ExportSection): TSchema {
  const object = Type.Object(
    Object.fromEntries(Object.entries(section.fields).map(([name, field]) => [name, fieldSchema(name, field)])),
    { additionalProperties: false },
  );
  return section.many
    ? Type.Array(object, { description: section.description })
    : { ...object, description: section.description };
}

export const EXPORT_FORMAT = 'karlsruhe-marketplace-account-export';
export const EXPORT_VERSION = 1;

export const AccountExportSchema = Type.Object(
  {
    format: Type.Literal(EXPORT_FORMAT),
    version: Type.Literal(EXPORT_VERSION),
    exported_at: Type.String({ format: 'date-time', description: 'When the export was made.' }),
    ...Object.fromEntries(EXPORT_SECTIONS.map((section) => [section.key, sectionSchema(section)])),
  },
  {
    $id: 'AccountExport',
    additionalProperties: false,
    description:
      'Everything stored about your account, one section per kind of record; instants UTC, money in cents. No secrets or hashes, no other people’s personal data.',
  },
);
