import type { Api, RouteDeps } from '../route-deps.js';
import { accessRoutes } from './access.js';
import { accountDataRoutes } from './account-data.js';
import { applicationRoutes } from './applications.js';
import { availabilityRoutes } from './availability.js';
import { bookingExtensionRoutes } from './booking-extensions.js';
import { bookingRoutes } from './bookings.js';
import { busyCalendarRoutes } from './busy-calendars.js';
import { calendarRoutes } from './calendars.js';
import { categoryRoutes } from './categories.js';
import { claimRoutes } from './claims.js';
import { conversationRoutes } from './conversations.js';
import { estimateRoutes } from './estimates.js';
import { helperProfileRoutes } from './helper-profiles.js';
import { jobSeriesRoutes } from './job-series.js';
import { jobWriteRoutes } from './job-writes.js';
import { jobRoutes } from './jobs.js';
import { listingWriteRoutes } from './listing-writes.js';
import { listingRoutes } from './listings.js';
import { noticeRoutes } from './notices.js';
import { notificationRoutes } from './notifications.js';
import { paymentRoutes } from './payments.js';
import { payoutRoutes } from './payouts.js';
import { placeNameRoutes } from './place-names.js';
import { placeRoutes } from './places.js';
import { providerRoutes } from './providers.js';
import { reviewRoutes } from './reviews.js';
import { savedSearchRoutes } from './saved-searches.js';
import { statsRoutes } from './stats.js';
import { verificationRoutes } from './verifications.js';
import { waitlistRoutes } from './waitlist.js';

/** A resource's routes: registered on the app with what handlers need. */
export type RouteModule = (app: Api, deps: RouteDeps) => void;

/** The public reads of /v1, in the order the document lists them (their sandbox twins follow). */
export const READ_ROUTES: readonly RouteModule[] = [
  jobRoutes,
  listingRoutes,
  categoryRoutes,
  estimateRoutes,
  availabilityRoutes,
  statsRoutes,
  placeNameRoutes,
];

/** Keys, writes and what concerns one account (developer tier), in the order the document lists them. */
export const WRITE_ROUTES: readonly RouteModule[] = [
  accessRoutes,
  jobWriteRoutes,
  jobSeriesRoutes,
  applicationRoutes,
  helperProfileRoutes,
  verificationRoutes,
  listingWriteRoutes,
  bookingRoutes,
  bookingExtensionRoutes,
  waitlistRoutes,
  busyCalendarRoutes,
  conversationRoutes,
  reviewRoutes,
  placeRoutes,
  calendarRoutes,
  savedSearchRoutes,
  accountDataRoutes,
  notificationRoutes,
  providerRoutes,
  noticeRoutes,
  paymentRoutes,
  payoutRoutes,
  claimRoutes,
];

export function registerRoutes(app: Api, modules: readonly RouteModule[], deps: RouteDeps): void {
  for (const register of modules) register(app, deps);
}
