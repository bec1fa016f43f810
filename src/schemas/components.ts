import { MeSchema } from './access.js';
import { ApplicationSchema } from './applications.js';
import { AvailabilitySchema, PublicHelperSchema } from './availability.js';
import { BookingSchema } from './bookings.js';
import { CategoryItemSchema } from './category.js';
import { CategorySchema, LocationSchema, ReliabilityScoreSchema } from './common.js';
import { ApiErrorSchema } from './error.js';
import { EstimateSchema } from './estimate.js';
import { HelperProfileSchema } from './helper-profiles.js';
import { JobSchema } from './job.js';
import { ListingSchema } from './listing.js';
import { ExactLocationSchema } from './places.js';
import { StatsSchema } from './stats.js';
import { DeliverySchema, WebhookSchema } from './webhooks.js';

/** Component schemas, shown once in the OpenAPI document and referenced by `$ref`. */
export const COMPONENT_SCHEMAS = [
  CategorySchema,
  LocationSchema,
  ExactLocationSchema,
  ReliabilityScoreSchema,
  JobSchema,
  ListingSchema,
  BookingSchema,
  CategoryItemSchema,
  EstimateSchema,
  PublicHelperSchema,
  AvailabilitySchema,
  HelperProfileSchema,
  ApplicationSchema,
  StatsSchema,
  MeSchema,
  WebhookSchema,
  DeliverySchema,
  ApiErrorSchema,
];
