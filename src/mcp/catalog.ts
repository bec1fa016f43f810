/**
 * The REST operations of /v1 for the stdio server, which calls a running API over HTTP and has no
 * app, so no route registry, of its own: the read and write route modules (the lists app.ts
 * registers, http/routes/index.ts, and the draft and webhook routes it registers beside them) register their routes on a bare Fastify instance that is never
 * started (nothing is compiled or served, no database is opened, no request is made), and what they
 * register is collected as app.ts collects it (operationOf). The tools are then made from it exactly
 * as the /mcp endpoint makes them from the app's routes.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify from 'fastify';
import type { Kysely } from 'kysely';
import { type Config, loadConfig } from '../config.js';
import type { Database } from '../db/schema.js';
import { draftRoutes } from '../http/routes/drafts.js';
import { READ_ROUTES, registerRoutes, WRITE_ROUTES } from '../http/routes/index.js';
import type { RouteDeps } from '../http/routes/route-kit.js';
import { webhookRoutes } from '../http/routes/webhooks.js';
import { type Operation, operationOf } from './operations.js';

/**
 * What the modules need to register their routes, with the configuration's defaults: the routes'
 * descriptions (which the tools' descriptions quote) name limits such as the saved searches per
 * account, and a server run with its defaults names the same. Handlers never run here, so no
 * database is given.
 */
function deps(): { deps: RouteDeps; config: Config } {
  const config = loadConfig({});
  return {
    config,
    deps: {
      base: '/v1',
      db: null as unknown as Kysely<Database>,
      now: () => new Date(),
      endpoints: [],
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
      savedSearchesPerAccount: config.SAVED_SEARCHES_PER_ACCOUNT,
    },
  };
}

/** The operations the route modules register under /v1. */
export function routeCatalog(): Operation[] {
  const app = Fastify({ logger: false }).withTypeProvider<TypeBoxTypeProvider>();
  const operations: Operation[] = [];
  app.addHook('onRoute', (route) => {
    const operation = operationOf(route);
    if (operation) operations.push(operation);
  });
  const { deps: DEPS, config } = deps();
  registerRoutes(app, [...READ_ROUTES, ...WRITE_ROUTES], DEPS);
  draftRoutes(app, DEPS, {
    ttlHours: config.DRAFT_TTL_HOURS,
    pendingPerAccount: config.DRAFTS_PENDING_PER_ACCOUNT,
    baseUrl: '',
    applicationsPerHour: config.APPLICATIONS_PER_ACCOUNT_PER_HOUR,
    bookingsPerHour: config.BOOKINGS_PER_ACCOUNT_PER_HOUR,
    bookingRequestTtlHours: config.BOOKING_REQUEST_TTL_HOURS,
  });
  webhookRoutes(app, DEPS, {
    perAccount: config.WEBHOOKS_PER_ACCOUNT,
    allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_NETWORKS,
    retryBaseMs: config.WEBHOOK_RETRY_BASE_MS,
    maxAttempts: config.WEBHOOK_MAX_ATTEMPTS,
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
  });
  return operations;
}
