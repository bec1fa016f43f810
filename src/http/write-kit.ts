import type { FastifyRequest } from 'fastify';
import type { WriteContext } from '../services/database.js';
import { ApiError } from '../services/errors.js';
import type { AccountRow } from '../services/keys.js';

/** The calling account of a write; anonymous callers get a 401 that says how to get a key. */
export function requireAccount(request: FastifyRequest): AccountRow {
  const key = request.access?.key;
  if (key && request.access.tier === 'developer') return key.account;
  throw new ApiError(401, 'authentication_required', 'Writing needs a developer key in the X-API-Key header.', {
    param: 'X-API-Key',
    suggestion:
      'Request a free developer key at /developers (or POST /v1/developer/key-requests); reading works without one.',
  });
}

/** What a write needs from its request: the database, the moment, and the request's idempotency claim. */
export function writeContext(request: FastifyRequest, deps: { db: WriteContext['db']; now: () => Date }): WriteContext {
  return { db: deps.db, now: deps.now(), claim: request.idempotency };
}
