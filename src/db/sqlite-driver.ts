import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

const require = createRequire(import.meta.url);

/** The Node.js major from which the Node-API build of better-sqlite3 (13.x) is used. */
export const NODE_API_DRIVER_FROM = 22;

/**
 * better-sqlite3, in the build that is safe on the running Node.js:
 * - Node 22 and later: better-sqlite3 13 (`better-sqlite3-napi`, an npm alias), built on Node-API
 *   and shipped prebuilt inside its registry package. 12.x aborts Node 24 when V8 collects a
 *   statement (`Assertion failed: (env) != nullptr` in RemoveEnvironmentCleanupHook: its raw
 *   node::ObjectWrap no longer fits Node 24's), which the Node 24 test run hit at every exit.
 * - Node 20: better-sqlite3 12, compiled on install; 13 needs Node 22 and is an optional
 *   dependency that npm skips there (the project's .npmrc sets engine-strict, so without a warning).
 * Both have the same API (the @types/better-sqlite3 types).
 */
export function sqliteDriver(nodeMajor = Number(process.versions.node.split('.')[0])): {
  name: string;
  Database: typeof BetterSqlite3;
} {
  const name = nodeMajor >= NODE_API_DRIVER_FROM ? 'better-sqlite3-napi' : 'better-sqlite3';
  return { name, Database: require(name) as typeof BetterSqlite3 };
}
