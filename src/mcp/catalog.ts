/**
 * The REST operations of /v1 for the stdio server, which calls a running API over HTTP and has no
 * app, so no route registry, of its own: the read and write route modules (the lists app.ts
 * registers, http/routes/index.ts) register their routes on a bare Fastify instance that is never
 * started (nothing is compiled or served, no database is opened, no request is made), and what they
 * register is collected as app.ts collects it (operationOf). The tools are then made from it exactly
 * as the /mcp endpoint makes them from the app's routes.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { READ_ROUTES, registerRoutes, WRITE_ROUTES } from '../http/routes/index.js';
import type { RouteDeps } from '../http/routes/route-kit.js';
import { type Operation, operationOf } from './operations.js';

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
  quotas: { applications: 0, bookings: 0, messages: 0, conversations: 0 },
  bookingRequestTtlHours: 0,
  reviewWindowDays: 0,
  savedSearchesPerAccount: 0,
};

/** The operations the route modules register under /v1. */
export function routeCatalog(): Operation[] {
  const app = Fastify({ logger: false }).withTypeProvider<TypeBoxTypeProvider>();
  const operations: Operation[] = [];
  app.addHook('onRoute', (route) => {
    const operation = operationOf(route);
    if (operation) operations.push(operation);
  });
  registerRoutes(app, [...READ_ROUTES, ...WRITE_ROUTES], DEPS);
  return operations;
}
