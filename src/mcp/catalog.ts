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
import { loadConfig } from '../config.js';
import type { Database } from '../db/schema.js';
import { configuredLimits, type RouteDeps } from '../http/route-deps.js';
import { draftRoutes, draftSettingsOf } from '../http/routes/drafts.js';
import { READ_ROUTES, registerRoutes, WRITE_ROUTES } from '../http/routes/index.js';
import { webhookRoutes, webhookSettingsOf } from '../http/routes/webhooks.js';
import { type Operation, operationOf } from './operations.js';

/**
 * What the modules need to register their routes, with the configuration's defaults: the routes'
 * descriptions (which the tools' descriptions quote) name limits such as the saved searches per
 * account, and a server run with its defaults names the same. Handlers never run here, so no
 * database is given.
 */
const CONFIG = loadConfig({});
const DEPS: RouteDeps = {
  base: '/v1',
  db: null as unknown as Kysely<Database>,
  now: () => new Date(),
  endpoints: [],
  ...configuredLimits(CONFIG),
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
  draftRoutes(app, DEPS, draftSettingsOf(CONFIG));
  webhookRoutes(app, DEPS, webhookSettingsOf(CONFIG));
  return operations;
}
