/** What every route module is given: the Fastify instance type (Api) and its dependencies (RouteDeps). */

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyRequest,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { FeeRule } from '../domain/payments.js';
import type { TierLimits } from '../domain/tiers.js';
import type { Endpoint } from '../schemas/stats.js';
import type { Database } from '../services/database.js';
import type { PaymentProvider } from '../services/payment-provider.js';
import type { PushSettings } from '../services/push-subscriptions.js';
import type { AccountQuotas } from '../services/quotas.js';
import type { IndexSnapshot } from '../services/search.js';
import type { Base } from './sandbox-naming.js';

/** The Fastify instance routes are written against: TypeBox schemas give the handler types. */
export type Api = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** What handlers need from the outside world; tests pass their own clock. */
export interface RouteDeps {
  /** The path every route of the set starts with; error advice points at paths under it. */
  base: Base;
  db: Kysely<Database>;
  now: () => Date;
  /** Documented operations, filled as routes register (for /v1/stats and 404 advice). */
  endpoints: readonly Endpoint[];
  /** Requests per minute of each tier, as configured. */
  limits: TierLimits;
  /** Applications and bookings each account may start per hour, as configured. */
  quotas: AccountQuotas;
  /** Hours a booking request waits for the owner's answer before it expires (BOOKING_REQUEST_TTL_HOURS). */
  bookingRequestTtlHours: number;
  /** Days after completion or return in which both sides may review (REVIEW_WINDOW_DAYS). */
  reviewWindowDays: number;
  /** Hours an accepted helper has to object to a job's completion (COMPLETION_OBJECTION_HOURS). */
  completionObjectionHours: number;
  /** Days ahead a job series posts its occurrences (SERIES_HORIZON_DAYS). */
  seriesHorizonDays: number;
  /** Busy calendars: fetched every BUSY_CALENDAR_REFRESH_MINUTES; from inside too with WEBHOOK_ALLOW_PRIVATE_NETWORKS. */
  busyCalendars: { allowPrivate: boolean; refreshMinutes: number };
  /** The platform's fee on payments (PLATFORM_FEE_PERCENT, PLATFORM_FEE_MIN_EUR). */
  fees: FeeRule;
  /** Hours after a return in which the owner may claim on the deposit (CLAIM_WINDOW_HOURS). */
  claimWindowHours: number;
  /** Hours after a job's time in which either side may report a no-show (NO_SHOW_WINDOW_HOURS). */
  noShowWindowHours: number;
  /** Saved searches an account may keep (SAVED_SEARCHES_PER_ACCOUNT). */
  savedSearchesPerAccount: number;
  /** Web push: the VAPID keys and subject, and whether endpoints may be private addresses (tests). */
  push: PushSettings;
  /** The payment provider that moves money (PAYMENTS_PROVIDER=stripe); null or absent: manual. */
  payments?: PaymentProvider | null;
  /** The address people reach the API at (PUBLIC_URL): links given to Stripe come back to it. */
  baseUrl?: string;
  /** Counts a report (POST /v1/reports) against its sender's hourly budget; throws 429 past it. */
  countReport?: (request: FastifyRequest) => Promise<void>;
  /** The in-memory search index, when it is current for the request's data version (else SQL answers). */
  searchIndex?: (request: FastifyRequest) => Promise<IndexSnapshot | undefined>;
}

/** What of RouteDeps the configuration sets: the numbers the routes enforce and document. */
export type ConfiguredLimits = Pick<
  RouteDeps,
  | 'limits'
  | 'quotas'
  | 'bookingRequestTtlHours'
  | 'reviewWindowDays'
  | 'completionObjectionHours'
  | 'seriesHorizonDays'
  | 'busyCalendars'
  | 'fees'
  | 'claimWindowHours'
  | 'noShowWindowHours'
  | 'savedSearchesPerAccount'
  | 'push'
>;

/** The configured limits of the routes, for the app (app.ts) and the stdio server's catalog (mcp/catalog.ts). */
export function configuredLimits(config: Config): ConfiguredLimits {
  return {
    limits: {
      anonymous: config.RATE_LIMIT_ANONYMOUS_PER_MIN,
      developer: config.RATE_LIMIT_DEVELOPER_PER_MIN,
      sandbox: config.RATE_LIMIT_SANDBOX_PER_MIN,
    },
    quotas: {
      applications: config.APPLICATIONS_PER_ACCOUNT_PER_HOUR,
      bookings: config.BOOKINGS_PER_ACCOUNT_PER_HOUR,
      messages: config.MESSAGES_PER_ACCOUNT_PER_HOUR,
      conversations: config.NEW_CONVERSATIONS_PER_ACCOUNT_PER_HOUR,
    },
    bookingRequestTtlHours: config.BOOKING_REQUEST_TTL_HOURS,
    reviewWindowDays: config.REVIEW_WINDOW_DAYS,
    completionObjectionHours: config.COMPLETION_OBJECTION_HOURS,
    seriesHorizonDays: config.SERIES_HORIZON_DAYS,
    busyCalendars: {
      allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_NETWORKS,
      refreshMinutes: config.BUSY_CALENDAR_REFRESH_MINUTES,
    },
    fees: {
      percent: config.PLATFORM_FEE_PERCENT,
      minCents: config.PLATFORM_FEE_MIN_EUR * 100,
      provider: config.PAYMENTS_PROVIDER === 'stripe' ? 'stripe' : 'manual',
    },
    claimWindowHours: config.CLAIM_WINDOW_HOURS,
    noShowWindowHours: config.NO_SHOW_WINDOW_HOURS,
    savedSearchesPerAccount: config.SAVED_SEARCHES_PER_ACCOUNT,
    push: pushSettingsOf(config),
  };
}

/** Web push from the configuration (VAPID_*; the subject defaults to mailto: the address of MAIL_FROM). */
export function pushSettingsOf(config: Config): PushSettings {
  const from = /<([^>]+)>/.exec(config.MAIL_FROM)?.[1] ?? config.MAIL_FROM;
  return {
    keys:
      config.VAPID_PUBLIC_KEY && config.VAPID_PRIVATE_KEY
        ? { publicKey: config.VAPID_PUBLIC_KEY, privateKey: config.VAPID_PRIVATE_KEY }
        : null,
    subject: config.VAPID_SUBJECT ?? `mailto:${from}`,
    allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_NETWORKS,
  };
}
