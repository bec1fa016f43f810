import { MeSchema } from './access.js';
import { AccountErasureSchema } from './account-data.js';
import { AccountExportSchema } from './account-export.js';
import { ApplicationSchema } from './applications.js';
import { AvailabilitySchema, PublicHelperSchema } from './availability.js';
import { BookingExtensionSchema } from './booking-extensions.js';
import { BookingSchema } from './bookings.js';
import { BusyCalendarSchema } from './busy-calendars.js';
import { CategoryItemSchema } from './categories.js';
import { ClaimSchema } from './claims.js';
import { CategorySchema, LocationSchema, ReliabilityScoreSchema } from './common.js';
import { ConversationSchema, MessageSchema } from './conversations.js';
import { DraftSchema } from './drafts.js';
import { ApiErrorSchema } from './error.js';
import { EstimateSchema } from './estimates.js';
import { HelperProfileSchema } from './helper-profiles.js';
import { JobSeriesSchema, SeriesApplicationSchema } from './job-series.js';
import { JobSchema } from './jobs.js';
import { ListingSchema, OpeningHoursSchema } from './listings.js';
import { AppealSchema, ModerationDecisionSchema, ReportSchema, TransparencySchema } from './notices.js';
import { NotificationSettingsSchema, PushSubscriptionSchema } from './notifications.js';
import { AuthorizationSchema, OauthClientSchema } from './oauth.js';
import { BankAccountSchema, PaymentSchema, PayoutsSchema } from './payments.js';
import { ExactLocationSchema } from './places.js';
import { ProviderSchema, PublicProviderSchema } from './providers.js';
import { PublicReviewSchema, ReviewSchema } from './reviews.js';
import { SavedSearchSchema } from './saved-searches.js';
import { NamedPlaceSchema } from './search-words.js';
import { StatsSchema } from './stats.js';
import { VerificationSchema } from './verifications.js';
import { WaitlistEntrySchema } from './waitlist.js';
import { DeliverySchema, WebhookSchema } from './webhooks.js';

/** Component schemas, shown once in the OpenAPI document and referenced by `$ref`. */
export const COMPONENT_SCHEMAS = [
  CategorySchema,
  LocationSchema,
  ExactLocationSchema,
  NamedPlaceSchema,
  ReliabilityScoreSchema,
  PublicProviderSchema,
  ProviderSchema,
  JobSchema,
  JobSeriesSchema,
  SeriesApplicationSchema,
  ListingSchema,
  OpeningHoursSchema,
  BookingSchema,
  BookingExtensionSchema,
  WaitlistEntrySchema,
  BusyCalendarSchema,
  NotificationSettingsSchema,
  PushSubscriptionSchema,
  CategoryItemSchema,
  EstimateSchema,
  PublicHelperSchema,
  AvailabilitySchema,
  HelperProfileSchema,
  ApplicationSchema,
  MessageSchema,
  ConversationSchema,
  ReviewSchema,
  PublicReviewSchema,
  VerificationSchema,
  SavedSearchSchema,
  DraftSchema,
  StatsSchema,
  MeSchema,
  AuthorizationSchema,
  OauthClientSchema,
  ReportSchema,
  AppealSchema,
  ModerationDecisionSchema,
  TransparencySchema,
  PaymentSchema,
  BankAccountSchema,
  PayoutsSchema,
  ClaimSchema,
  AccountExportSchema,
  AccountErasureSchema,
  WebhookSchema,
  DeliverySchema,
  ApiErrorSchema,
];
