import type { Queryable } from '../db/queryable.js';

/** The listing's id when it is the account's (and not removed), else undefined. */
export async function ownerIdOfListing(
  db: Queryable,
  listingId: string,
  accountId: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('listings')
    .innerJoin('owners', 'owners.id', 'listings.owner_id')
    .select('listings.id')
    .where('listings.id', '=', listingId)
    .where('owners.account_id', '=', accountId)
    .where('listings.status', '!=', 'removed')
    .executeTakeFirst();
  return row?.id;
}

/** Whether the helper profile is the account's (and not removed). */
export async function ownHelper(db: Queryable, helperId: string, accountId: string): Promise<boolean> {
  const row = await db
    .selectFrom('helpers')
    .select('id')
    .where('id', '=', helperId)
    .where('account_id', '=', accountId)
    .where('removed_at', 'is', null)
    .executeTakeFirst();
  return row !== undefined;
}
