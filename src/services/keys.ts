import type { Queryable } from '../db/queryable.js';
import { findKeyByHash, type KeyWithAccount, keyStandings, keyState } from '../repositories/access.js';
import { standingGrantIds } from '../repositories/oauth-records.js';

/** The reads of the access plugin: a developer key by its hash, with its account. */

/** The id of the stand-in key of an OAuth access token: this prefix and its grant's id. */
export const OAUTH_KEY_PREFIX = 'oauth:';

export type { AccountRow } from '../db/schema.js';
export { type KeyState, type KeyWithAccount, keyState } from '../repositories/access.js';

/** The key with this hash and its account, whatever its state (keyState says whether it is valid). */
export function keyOfHash(db: Queryable, keyHash: string): Promise<KeyWithAccount | undefined> {
  return findKeyByHash(db, keyHash);
}

/**
 * Of these keys, those that may no longer open anything now: revoked, expired after a rotation,
 * gone, or of an account suspended or erased since. The event streams end the streams opened with
 * them (http/routes/events.ts).
 */
export async function refusedKeys(db: Queryable, ids: readonly string[], now: Date): Promise<Set<string>> {
  // A stream opened with an OAuth access token (issue 31) stands while its grant does.
  const grants = ids.filter((id) => id.startsWith(OAUTH_KEY_PREFIX));
  const granted = new Set(
    (
      await standingGrantIds(
        db,
        grants.map((id) => id.slice(OAUTH_KEY_PREFIX.length)),
        now,
      )
    ).map((id) => `${OAUTH_KEY_PREFIX}${id}`),
  );
  const standing = await keyStandings(
    db,
    ids.filter((id) => !id.startsWith(OAUTH_KEY_PREFIX)),
  );
  const good = new Set(
    standing
      .filter(
        (k) => ['active', 'expiring'].includes(keyState(k, now)) && k.suspended_at === null && k.erased_at === null,
      )
      .map((k) => k.id),
  );
  return new Set(ids.filter((id) => !good.has(id) && !granted.has(id)));
}
