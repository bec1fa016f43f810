import type { FastifyRequest } from 'fastify';
import type { Db } from '../services/database.js';

/**
 * The data version (Db.version) as of a request's start, asked once per request however many
 * plugins need it (key lookups, the response cache): on SQLite each ask reads the WAL header.
 * Taken before any query of the request, it is never newer than what the request reads.
 */
export function versionPerRequest(db: Db): (request: FastifyRequest) => Promise<string> {
  const versions = new WeakMap<FastifyRequest, Promise<string>>();
  return (request) => {
    let version = versions.get(request);
    if (!version) {
      version = db.version();
      versions.set(request, version);
    }
    return version;
  };
}
