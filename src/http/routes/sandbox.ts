import type { Sandbox } from '../../sandbox/demo-db.js';
import type { Api, RouteDeps } from '../route-deps.js';
import { SANDBOX_BASE } from '../sandbox-naming.js';
import { availabilityRoutes } from './availability.js';
import { categoryRoutes } from './categories.js';
import { estimateRoutes } from './estimates.js';
import { jobRoutes } from './jobs.js';
import { listingRoutes } from './listings.js';
import { statsRoutes } from './stats.js';

/**
 * The sandbox (spec 4.9): every read endpoint once more under /v1/demo, with the same handlers,
 * parameters and answers, over the sandbox's fake dataset, instead of the real database.
 */
export function sandboxRoutes(app: Api, deps: RouteDeps, sandbox: Sandbox): void {
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.url?.startsWith(`${SANDBOX_BASE}/`)) await sandbox.refresh();
  });
  const demo: RouteDeps = { ...deps, base: SANDBOX_BASE, db: sandbox.db.kysely, searchIndex: undefined };
  jobRoutes(app, demo);
  listingRoutes(app, demo);
  categoryRoutes(app, demo);
  estimateRoutes(app, demo);
  availabilityRoutes(app, demo);
  statsRoutes(app, demo);
}
