/**
 * The REST operations of /v1 for the stdio server, which calls a running API over HTTP and has no
 * app, so no route registry, of its own: the route modules register their routes on a bare Fastify
 * instance that is never started (nothing is compiled or served, no database is opened, no request
 * is made), and what they register is collected as app.ts collects it (operationOf). The tools are
 * then made from it exactly as the /mcp endpoint makes them from the app's routes. A module missing
 * here is a tool whose operation is not found: the stdio server stops at start-up saying which.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { applicationRoutes } from '../http/routes/applications.js';
import { availabilityRoutes } from '../http/routes/availability.js';
import { bookingRoutes } from '../http/routes/bookings.js';
import { categoryRoutes } from '../http/routes/categories.js';
import { estimateRoutes } from '../http/routes/estimate.js';
import { jobWriteRoutes } from '../http/routes/job-writes.js';
import { jobRoutes } from '../http/routes/jobs.js';
import { listingRoutes } from '../http/routes/listings.js';
import type { RouteDeps } from '../http/routes/route-kit.js';
import { statsRoutes } from '../http/routes/stats.js';
import { type Operation, operationOf } from './operations.js';

/** The route modules of the operations the tools call. */
const ROUTE_MODULES = [
  jobRoutes,
  listingRoutes,
  categoryRoutes,
  estimateRoutes,
  availabilityRoutes,
  statsRoutes,
  jobWriteRoutes,
  applicationRoutes,
  bookingRoutes,
];

/**
 * What the modules need to register their routes. Handlers never run here, so no database is
 * given; the numbers only reach the routes' OpenAPI descriptions, which the tools do not use.
 */
const DEPS: RouteDeps = {
  base: '/v1',
  db: null as unknown as Kysely<Database>,
  now: () => new Date(),
  endpoints: [],
  limits: { anonymous: 0, developer: 0, sandbox: 0 },
  quotas: { applications: 0, bookings: 0 },
  bookingRequestTtlHours: 0,
};

/** The operations the route modules register under /v1. */
export function routeCatalog(): Operation[] {
  const app = Fastify({ logger: false }).withTypeProvider<TypeBoxTypeProvider>();
  const operations: Operation[] = [];
  app.addHook('onRoute', (route) => {
    const operation = operationOf(route);
    if (operation) operations.push(operation);
  });
  for (const register of ROUTE_MODULES) register(app, DEPS);
  return operations;
}
