import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { availabilityRoutes } from './availability.js';
import { categoryRoutes } from './categories.js';
import { estimateRoutes } from './estimate.js';
import { jobRoutes } from './jobs.js';
import { listingRoutes } from './listings.js';
import { type Api, type RouteDeps, SANDBOX_BASE } from './route-kit.js';
import { statsRoutes } from './stats.js';

/**
 * The sandbox (spec 4.9): every read endpoint once more under /v1/demo, with the same handlers,
 * parameters and answers, over `sandboxDb`, the fake dataset, instead of the real database.
 */
export function sandboxRoutes(app: Api, deps: RouteDeps, sandboxDb: Kysely<Database>): void {
  const demo: RouteDeps = { ...deps, base: SANDBOX_BASE, db: sandboxDb };
  jobRoutes(app, demo);
  listingRoutes(app, demo);
  categoryRoutes(app, demo);
  estimateRoutes(app, demo);
  availabilityRoutes(app, demo);
  statsRoutes(app, demo);
}
