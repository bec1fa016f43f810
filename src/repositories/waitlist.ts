import type { Queryable } from '../db/queryable.js';
import type { WaitlistEntryRow } from '../db/schema.js';
import type { WriteTransaction } from './write-transaction.js';

export async function insertWaitlistEntry(trx: WriteTransaction, row: WaitlistEntryRow): Promise<void> {
  await trx.insertInto('waitlist_entries').values(row).execute();
}

/** All the account's entries for the listing that still wait or hold an offer. */
export function activeEntriesOf(db: Queryable, listingId: string, accountId: string): Promise<WaitlistEntryRow[]> {
  return db
    .selectFrom('waitlist_entries')
    .selectAll()
    .where('listing_id', '=', listingId)
    .where('account_id', '=', accountId)
    .where('status', 'in', ['waiting', 'offered'])
    .execute();
}

/** The account's entries, newest first. */
export function entriesOfAccount(db: Queryable, accountId: string): Promise<WaitlistEntryRow[]> {
  return db
    .selectFrom('waitlist_entries')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(100)
    .execute();
}

export function findEntry(db: Queryable, id: string): Promise<WaitlistEntryRow | undefined> {
  return db.selectFrom('waitlist_entries').selectAll().where('id', '=', id).executeTakeFirst();
}

/** How many entries of the listing wait before this one (its place is that plus one). */
export async function entriesBefore(db: Queryable, entry: WaitlistEntryRow): Promise<number> {
  const row = await db
    .selectFrom('waitlist_entries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('listing_id', '=', entry.listing_id)
    .where('status', 'in', ['waiting', 'offered'])
    .where((eb) =>
      eb.or([
        eb('created_at', '<', entry.created_at),
        eb.and([eb('created_at', '=', entry.created_at), eb('id', '<', entry.id)]),
      ]),
    )
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Moves an entry from one of `from` to `to` in one conditional write; false when it was elsewhere. */
export async function moveEntry(
  trx: WriteTransaction,
  id: string,
  from: readonly WaitlistEntryRow['status'][],
  change: Pick<WaitlistEntryRow, 'status'> & Partial<Pick<WaitlistEntryRow, 'hold_until'>>,
  now: Date,
): Promise<boolean> {
  const result = await trx
    .updateTable('waitlist_entries')
    .set({ ...change, updated_at: now.toISOString() })
    .where('id', '=', id)
    .where('status', 'in', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Offers past their hold, oldest first. */
export function lapsedOffers(db: Queryable, now: Date, batch: number): Promise<WaitlistEntryRow[]> {
  return db
    .selectFrom('waitlist_entries')
    .selectAll()
    .where('status', '=', 'offered')
    .where('hold_until', '<=', now.toISOString())
    .orderBy('hold_until')
    .limit(batch)
    .execute();
}

/**
 * Waiting entries whose time has begun lapse (a day from its first day in Karlsruhe, hours from
 * their start): nothing can be offered any more. Returns how many.
 */
export async function lapsePastWaiting(trx: WriteTransaction, today: string, now: Date): Promise<number> {
  const result = await trx
    .updateTable('waitlist_entries')
    .set({ status: 'lapsed', updated_at: now.toISOString() })
    .where('status', '=', 'waiting')
    .where((eb) =>
      eb.or([
        eb.and([eb('start_at', 'is', null), eb('start_date', '<', today)]),
        eb.and([eb('start_at', 'is not', null), eb('start_at', '<=', now.toISOString())]),
      ]),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Waiting entries, first come first: the candidates for an offer. */
export function waitingEntries(db: Queryable, batch: number): Promise<WaitlistEntryRow[]> {
  return db
    .selectFrom('waitlist_entries')
    .selectAll()
    .where('status', '=', 'waiting')
    .orderBy('created_at')
    .orderBy('id')
    .limit(batch)
    .execute();
}

/** The listing's offers that still hold their time at `now` (of accounts other than `except`). */
export function heldOffers(db: Queryable, listingId: string, now: Date, except?: string): Promise<WaitlistEntryRow[]> {
  let query = db
    .selectFrom('waitlist_entries')
    .selectAll()
    .where('listing_id', '=', listingId)
    .where('status', '=', 'offered')
    .where('hold_until', '>', now.toISOString());
  if (except !== undefined) query = query.where('account_id', '!=', except);
  return query.execute();
}

/** Offers whose e-mail has not gone out, with the address and the listing's title. */
export function offersToMail(db: Queryable, now: Date, batch: number) {
  return db
    .selectFrom('waitlist_entries')
    .innerJoin('accounts', 'accounts.id', 'waitlist_entries.account_id')
    .innerJoin('listings', 'listings.id', 'waitlist_entries.listing_id')
    .selectAll('waitlist_entries')
    .select(['accounts.email', 'listings.title'])
    .where('waitlist_entries.status', '=', 'offered')
    .where('waitlist_entries.mailed_at', 'is', null)
    .where('waitlist_entries.hold_until', '>', now.toISOString())
    .where('accounts.erased_at', 'is', null)
    .limit(batch)
    .execute();
}

/** Claims an offer's e-mail (one instance sends it); false when another did. */
export async function claimOfferMail(db: Queryable, id: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('waitlist_entries')
    .set({ mailed_at: now.toISOString() })
    .where('id', '=', id)
    .where('mailed_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Gives a claimed e-mail back after a failed send, for the next round. */
export async function releaseOfferMail(db: Queryable, id: string): Promise<void> {
  await db.updateTable('waitlist_entries').set({ mailed_at: null }).where('id', '=', id).execute();
}
