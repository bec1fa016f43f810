import type { Api, RouteDeps } from './route-kit.js';

/** Filled in by the write-API work (issue 4). */
export function helperProfileRoutes(_app: Api, _deps: RouteDeps): void {}
