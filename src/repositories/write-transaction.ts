import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import { type Claim, markCommitted } from './idempotency.js';

declare const opened: unique symbol;

/**
 * A transaction opened by inWriteTransaction, the only kind the write functions of the
 * repositories take: a write that does not go through it is a type error, not a silent loss of its
 * idempotency key.
 */
export type WriteTransaction = Transaction<Database> & { readonly [opened]: true };

/** What a write needs from the request that asks for it. */
export interface WriteContext {
  db: Kysely<Database>;
  /** The moment of the write: every timestamp it stamps. */
  now: Date;
  /** The request's hold on its Idempotency-Key; null when it sent none (or for background writes). */
  claim: Claim | null;
  /**
   * Drafts (services/drafts.ts): `rehearse` runs the work and rolls it back, so a draft meets every
   * rule of the write without doing it; `alongside` runs in the write's transaction with the work's
   * result, so a confirmed draft and what it created commit together or not at all.
   */
  rehearse?: boolean;
  alongside?: (trx: WriteTransaction, result: unknown) => Promise<void>;
}

/** Thrown to roll a rehearsed write back; carries what the write returned. */
class Rehearsed {
  constructor(readonly result: unknown) {}
}

/**
 * Runs a write in one transaction that also marks the request's idempotency key 'committed': the
 * write, its events (recorded by the work through the transaction) and the key commit together or
 * not at all, whatever happens to the process after. A key taken over by a retry meanwhile throws
 * ClaimLostError and rolls the write back, so exactly one attempt's write commits.
 */
export async function inWriteTransaction<T>(
  context: WriteContext,
  work: (trx: WriteTransaction) => Promise<T>,
): Promise<T> {
  const written = context.db.transaction().execute(async (trx) => {
    const result = await work(trx as WriteTransaction);
    if (context.rehearse) throw new Rehearsed(result);
    await context.alongside?.(trx as WriteTransaction, result);
    if (context.claim) await markCommitted(trx, context.claim);
    return result;
  });
  if (!context.rehearse) return written;
  return written.catch((error: unknown) => {
    if (error instanceof Rehearsed) return error.result as T;
    throw error;
  });
}
