import type { FastifyRequest } from 'fastify';
import type { AccountRow } from '../db/schema.js';
import { type Machine, nextState } from '../domain/transitions.js';
import type { WriteContext } from '../repositories/write-transaction.js';
import { ApiError } from '../services/errors.js';

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

/** The states an action leaves from and the one it leads to (in our machines an action has one target). */
export function edgesOf<S extends string>(machine: Machine, action: string): { from: S[]; to: S } {
  const from = Object.keys(machine).filter((state) => nextState(machine, state, action) !== null) as S[];
  return { from, to: nextState(machine, from[0] ?? '', action) as S };
}

/** A state machine as a Markdown table for the OpenAPI descriptions. */
export function transitionsTable(machine: Machine): string {
  const rows = Object.entries(machine).map(
    ([state, actions]) =>
      `| ${state} | ${
        Object.entries(actions)
          .map(([action, next]) => `${action} → ${next}`)
          .join(', ') || '(final)'
      } |`,
  );
  return ['| State | Actions → next state |', '| --- | --- |', ...rows].join('\n');
}

/** What a write needs from its request: the database, the moment, and the request's idempotency claim. */
export function writeContext(request: FastifyRequest, deps: { db: WriteContext['db']; now: () => Date }): WriteContext {
  return { db: deps.db, now: deps.now(), claim: request.idempotency };
}
