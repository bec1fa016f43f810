import type { AccountRow } from '../db/schema.js';
import { clockMinutes, type OpeningHours } from '../domain/hourly-lending.js';
import type { ListingStatus } from '../domain/statuses.js';
import { edgesOf, LISTING_MACHINE } from '../domain/transitions.js';
import {
  insertListing,
  type ListingChange,
  type ListingValues,
  lockListing,
  moveOwnListing,
  ownerIdOfAccount,
  ownListing,
  setListingColumns,
} from '../repositories/listing-writes.js';
import { inWriteTransaction, type WriteContext, type WriteTransaction } from '../repositories/write-transaction.js';
import type { ListingCreateBody, ListingPatchBody } from '../schemas/listing-writes.js';
import type { Listing } from '../schemas/listings.js';
import { badRequest } from './errors.js';
import { requireProviderDetails } from './providers.js';
import { recordListingEvent } from './public-events.js';
import { matchSavedSearches } from './saved-search-matches.js';
import { centsOf, illegalTransition, locationOf, notFound } from './write-rules.js';

export type ListingAction = 'pause' | 'resume' | 'archive';

/**
 * Lists an item of the account: available at once (with the account's owner row, made on its first
 * listing), its listing.created event committed with it, and the saved searches of other accounts
 * it matches told.
 */
export async function createListing(
  context: WriteContext,
  account: AccountRow,
  body: ListingCreateBody,
): Promise<Listing> {
  const { now } = context;
  const values = columnsOf(body, account) as ListingValues;
  checkWeeklyPrice(values.price_per_day_cents, values.price_per_week_cents ?? null, 'price_per_week_eur');
  checkHourlyPrice(values.price_per_day_cents, values.price_per_hour_cents, 'price_per_hour_eur');
  await requireProviderDetails(context.db, account, 'listings');
  return inWriteTransaction(context, async (trx) => {
    const ownerId = await ownerIdOfAccount(trx, account, now);
    const id = await insertListing(trx, ownerId, values, now);
    const listing = await recordListingEvent(trx, 'listing.created', id, now);
    await matchSavedSearches(trx, 'listings', listing, account.id, now);
    return listing;
  });
}

/**
 * Changes the fields of the account's listing that the body has; 404 for anyone else's (`base`: the
 * path the routes start with, for the advice), 409 for an archived one. The listing is locked
 * before it is read, so the weekly price rule holds against concurrent changes.
 */
export async function updateListing(
  context: WriteContext,
  account: AccountRow,
  id: string,
  body: ListingPatchBody,
  base: string,
): Promise<Listing> {
  const { now } = context;
  const change = columnsOf(body, account);
  return inWriteTransaction(context, async (trx) => {
    await lockListing(trx, id);
    const current = await ownListing(trx, id, account.id);
    // Refusals are thrown in the transaction: they commit nothing, not even the key's mark.
    if (!current) throw notFound('listing', id, `GET ${base}/listings`);
    // Archived, or removed by a moderation decision: no longer changed.
    if (current.status === 'archived' || current.status === 'removed')
      throw illegalTransition('listing', current.status, 'update', LISTING_MACHINE);
    if (change.price_per_day_cents !== undefined || change.price_per_week_cents !== undefined) {
      checkWeeklyPrice(
        change.price_per_day_cents ?? current.price_per_day_cents,
        change.price_per_week_cents !== undefined ? change.price_per_week_cents : current.price_per_week_cents,
        change.price_per_week_cents === undefined ? 'price_per_day_eur' : 'price_per_week_eur',
      );
    }
    if (change.price_per_day_cents !== undefined || change.price_per_hour_cents !== undefined) {
      checkHourlyPrice(
        change.price_per_day_cents ?? current.price_per_day_cents,
        change.price_per_hour_cents !== undefined ? change.price_per_hour_cents : current.price_per_hour_cents,
        change.price_per_hour_cents === undefined ? 'price_per_day_eur' : 'price_per_hour_eur',
      );
    }
    await setListingColumns(trx, id, change, now);
    const listing = await recordListingEvent(trx, 'listing.updated', id, now);
    await matchSavedSearches(trx, 'listings', listing, account.id, now);
    return listing;
  });
}

/**
 * Takes an action on the account's listing along LISTING_MACHINE, with its listing.status_changed
 * event; 404 for anyone else's, 409 when its state does not allow it.
 */
export async function transitionListing(
  context: WriteContext,
  account: AccountRow,
  id: string,
  action: ListingAction,
  base: string,
): Promise<Listing> {
  const edges = edgesOf<ListingStatus>(LISTING_MACHINE, action);
  return inWriteTransaction(context, async (trx) => {
    const changed = await moveListing(trx, id, account.id, edges, context.now);
    if (changed) return changed;
    // Thrown in the transaction: the refusal commits nothing (the key is free for a later try).
    const current = await ownListing(trx, id, account.id);
    if (!current) throw notFound('listing', id, `GET ${base}/listings`);
    throw illegalTransition('listing', current.status, action, LISTING_MACHINE);
  });
}

/**
 * The story of transitionListing inside a write transaction, also told by an erasure archiving the
 * account's listings (services/account-data.ts): the move along `edges` (moveOwnListing), the listing.status_changed event, the saved searches it starts to match (only
 * an available listing can). Null when the listing was not in `edges.from` or is not the
 * account's.
 */
export async function moveListing(
  trx: WriteTransaction,
  id: string,
  accountId: string,
  edges: { from: readonly ListingStatus[]; to: ListingStatus },
  now: Date,
): Promise<Listing | null> {
  if (!(await moveOwnListing(trx, id, accountId, edges.from, edges.to, now))) return null;
  const listing = await recordListingEvent(trx, 'listing.status_changed', id, now);
  // A paused listing made available again may start to match.
  await matchSavedSearches(trx, 'listings', listing, accountId, now);
  return listing;
}

/** The columns a body sets: only those of the fields it has. */
function columnsOf(body: ListingPatchBody, account: AccountRow): ListingChange {
  const {
    price_per_day_eur: day,
    price_per_week_eur: week,
    deposit_eur: deposit,
    late_fee_per_day_eur: lateFee,
    price_per_hour_eur: hour,
    location,
    ...rest
  } = body;
  return {
    ...(rest.title !== undefined && { title: rest.title }),
    ...(rest.description !== undefined && { description: rest.description }),
    ...(rest.category !== undefined && { category: rest.category }),
    ...(rest.condition !== undefined && { condition: rest.condition }),
    ...(day !== undefined && { price_per_day_cents: centsOf(day, 'price_per_day_eur') }),
    ...(week !== undefined && { price_per_week_cents: week === null ? null : centsOf(week, 'price_per_week_eur') }),
    ...(deposit !== undefined && { deposit_cents: centsOf(deposit, 'deposit_eur') }),
    ...(lateFee !== undefined && {
      late_fee_per_day_cents: lateFee === null ? null : centsOf(lateFee, 'late_fee_per_day_eur'),
    }),
    ...(location !== undefined && locationOf(location, account)),
    ...(rest.instant_booking !== undefined && { instant_booking: rest.instant_booking ? 1 : 0 }),
    ...(rest.cancellation_policy !== undefined && { cancellation_policy: rest.cancellation_policy }),
    ...(rest.min_lead_hours !== undefined && { min_lead_hours: rest.min_lead_hours }),
    ...(rest.buffer_hours !== undefined && { buffer_hours: rest.buffer_hours }),
    ...(rest.max_booking_days !== undefined && { max_booking_days: rest.max_booking_days }),
    ...(hour !== undefined && {
      price_per_hour_cents: hour === null ? null : centsOf(hour, 'price_per_hour_eur'),
    }),
    ...(rest.min_hours !== undefined && { min_hours: rest.min_hours }),
    ...(rest.opening_hours !== undefined && { opening_hours: openingHoursColumn(rest.opening_hours) }),
    ...(rest.photos !== undefined && { photos: JSON.stringify(rest.photos) }),
  };
}

/** Opening hours as stored (JSON, each day's close after its open), or a 400 naming the day. */
function openingHoursColumn(hours: OpeningHours | null): string | null {
  if (hours === null) return null;
  for (const [i, span] of hours.entries()) {
    if (clockMinutes(span.close) <= clockMinutes(span.open)) {
      throw badRequest(
        'conflicting_parameters',
        `opening_hours[${i}].close`,
        `opening_hours[${i}] (${span.day}) closes at ${span.close}, not after it opens at ${span.open}.`,
        'Send a close after open on the same day (24:00 for midnight); leave out a day that is closed.',
      );
    }
  }
  return JSON.stringify(hours);
}

/** An hour must cost less than a day, or the hourly price would never be used. */
function checkHourlyPrice(dailyCents: number, hourlyCents: number | null | undefined, blame: string): void {
  if (hourlyCents === null || hourlyCents === undefined || hourlyCents < dailyCents) return;
  throw badRequest(
    'conflicting_parameters',
    blame,
    `price_per_hour_eur (${hourlyCents / 100}) must be below price_per_day_eur (${dailyCents / 100}): an hour may not cost as much as a day.`,
    'Send a lower price_per_hour_eur, a higher price_per_day_eur, or price_per_hour_eur: null to lend by the day only.',
  );
}

/** A week must cost less than seven days, or the weekly price would never be used. */
function checkWeeklyPrice(dailyCents: number, weeklyCents: number | null, blame: string): void {
  if (weeklyCents === null || weeklyCents < 7 * dailyCents) return;
  const limit = (7 * dailyCents) / 100;
  const daily = dailyCents / 100;
  throw badRequest(
    'conflicting_parameters',
    blame,
    `price_per_week_eur (${weeklyCents / 100}) must be below 7 × price_per_day_eur (7 × ${daily} = ${limit}): a week may not cost as much as seven single days.`,
    `Send a price_per_week_eur below ${limit}, a higher price_per_day_eur, or price_per_week_eur: null for no weekly price.`,
  );
}
