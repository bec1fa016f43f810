/**
 * The database as the layers above the services name it: handles they pass on to services, never
 * query (types only; src/http and src/mcp do not import src/db or src/repositories).
 */

export type { Db, PoolStats } from '../db/create-db.js';
export { isDatabaseUnavailable } from '../db/errors.js';
export type { Database } from '../db/schema.js';
export type { WriteContext } from '../repositories/write-transaction.js';
