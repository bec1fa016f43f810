import type { Queryable } from '../db/queryable.js';
import { findKeyByHash, type KeyWithAccount } from '../repositories/access.js';

/** The reads of the access plugin: a developer key by its hash, with its account. */

export type { AccountRow } from '../db/schema.js';
export { type KeyState, type KeyWithAccount, keyState } from '../repositories/access.js';

/** The key with this hash and its account, whatever its state (keyState says whether it is valid). */
export function keyOfHash(db: Queryable, keyHash: string): Promise<KeyWithAccount | undefined> {
  return findKeyByHash(db, keyHash);
}
