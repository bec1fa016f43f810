import type { Kysely } from 'kysely';
import type { Queryable } from '../db/queryable.js';
import type { AccountRow, Database, WaitlistEntryRow } from '../db/schema.js';
import { berlinDate } from '../domain/berlin-time.js';
import { requestSpan } from '../domain/hourly-lending.js';
import { newId } from '../domain/ids.js';
import type { Mailer } from '../mail/mailer.js';
import { waitlistOfferEmail } from '../mail/waitlist-email.js';
import { firstClash, listingToBook } from '../repositories/bookings.js';
import { busyTimeOfListing } from '../repositories/busy-calendars.js';
import { lockListing } from '../repositories/listing-writes.js';
import { recordEvent } from '../repositories/outbox.js';
import {
  activeEntriesOf,
  claimOfferMail,
  entriesBefore,
  entriesOfAccount,
  findEntry,
  insertWaitlistEntry,
  lapsedOffers,
  lapsePastWaiting,
  moveEntry,
  offersToMail,
  releaseOfferMail,
  waitingEntries,
} from '../repositories/waitlist.js';
import { inWriteTransaction, type WriteContext } from '../repositories/write-transaction.js';
import type { BookingCreateBody } from '../schemas/bookings.js';
import type { WaitlistEntry } from '../schemas/waitlist.js';
import { listingNotFound, requestedTime } from './bookings.js';
import { ApiError, badRequest } from './errors.js';
import { heldFor } from './waitlist-holds.js';

const HOUR_MS = 3_600_000;

/** An entry as its account reads it, with its place while it waits or holds an offer. */
async function entryView(db: Queryable, row: WaitlistEntryRow): Promise<WaitlistEntry> {
  const active = row.status === 'waiting' || row.status === 'offered';
  return {
    id: row.id,
    listing_id: row.listing_id,
    status: row.status,
    start_date: row.start_date,
    end_date: row.end_date,
    start_at: row.start_at,
    end_at: row.end_at,
    place: active ? (await entriesBefore(db, row)) + 1 : null,
    hold_until: row.status === 'offered' ? row.hold_until : null,
    created_at: row.created_at,
  };
}

/**
 * Puts the account on the listing's waiting list for a time that is taken: 404 for no listing, 400
 * for an own listing or a time nothing holds (book it instead), 409 when the account already waits
 * for this listing. The same time rules as a booking (requestedTime).
 */
export async function joinWaitlist(
  context: WriteContext,
  account: AccountRow,
  listingId: string,
  body: BookingCreateBody,
  settings: { base: string; requestTtlHours: number },
): Promise<WaitlistEntry> {
  const { now } = context;
  const time = requestedTime(body, now);
  return inWriteTransaction(context, async (trx) => {
    const listing = await listingToBook(trx, listingId);
    if (!listing || listing.status === 'removed') throw listingNotFound(listingId, settings.base);
    if (listing.account_id === account.id) {
      throw badRequest(
        'invalid_parameter',
        'id',
        'This listing is your own: you need not wait for it.',
        'Wait for listings of others.',
      );
    }
    const [already] = await activeEntriesOf(trx, listingId, account.id);
    if (already) {
      throw new ApiError(
        409,
        'invalid_state_transition',
        `You already wait for this listing (${already.id}, ${already.status}).`,
        {
          suggestion: 'Leave that entry first (DELETE /v1/waitlist/{id}) to wait for another time.',
        },
      );
    }
    const request = { listingId, renterAccountId: account.id, ...time };
    const span = requestSpan(request);
    const taken =
      (await firstClash(trx, request, now, settings.requestTtlHours, listing.buffer_hours)) ??
      (await heldFor(trx, request, listing.buffer_hours, now, account.id)) ??
      (await busyTimeOfListing(trx, listingId, span.from.toISOString(), span.to.toISOString()));
    if (!taken) {
      const param = time.startAt === null ? 'start_date' : 'start_at';
      throw badRequest(
        'invalid_parameter',
        param,
        'Nothing holds this time: it can be booked now.',
        `Book it: POST ${settings.base}/listings/${listingId}/bookings with the same body.`,
      );
    }
    const at = now.toISOString();
    const row: WaitlistEntryRow = {
      id: newId('wl'),
      listing_id: listingId,
      account_id: account.id,
      status: 'waiting',
      start_date: time.startDate,
      end_date: time.endDate,
      start_at: time.startAt,
      end_at: time.endAt,
      hold_until: null,
      mailed_at: null,
      created_at: at,
      updated_at: at,
    };
    await insertWaitlistEntry(trx, row);
    return entryView(trx, row);
  });
}

/** The account's waiting-list entries, newest first (at most 100). */
export async function myWaitlist(db: Queryable, account: AccountRow): Promise<{ data: WaitlistEntry[] }> {
  const rows = await entriesOfAccount(db, account.id);
  return { data: await Promise.all(rows.map((row) => entryView(db, row))) };
}

/** Leaves the list (an offer held is given up, for the next); 404 for anyone else's entry, 409 for one that ended. */
export async function leaveWaitlist(context: WriteContext, account: AccountRow, id: string): Promise<void> {
  await inWriteTransaction(context, async (trx) => {
    const entry = await findEntry(trx, id);
    if (!entry || entry.account_id !== account.id) {
      throw new ApiError(404, 'not_found', `No waiting-list entry with the id '${id}' is yours.`, {
        param: 'id',
        suggestion: 'GET /v1/me/waitlist lists yours.',
      });
    }
    if (!(await moveEntry(trx, id, ['waiting', 'offered'], { status: 'left' }, context.now))) {
      throw new ApiError(
        409,
        'invalid_state_transition',
        `The entry is ${entry.status}; it is no longer on the list.`,
        {
          suggestion: 'Nothing to leave.',
        },
      );
    }
  });
}

/**
 * The sweep of the waiting lists, in every instance: offers past their hold lapse; then each
 * waiting entry, first come first, whose time is free (no booking, no other offer, the buffer
 * kept) is offered it for `holdHours`, with its waitlist.offered event, under the listing's lock
 * (a conditional write: two instances offer an entry once); then the offers' e-mails go out, each
 * claimed first so one instance sends it. Returns how many entries were offered.
 */
export async function offerFreedTimes(
  db: Kysely<Database>,
  mailer: Mailer,
  options: { now: Date; holdHours: number; requestTtlHours: number; baseUrl: string; batch?: number },
): Promise<number> {
  const { now, holdHours, requestTtlHours } = options;
  // Every waiting entry is looked at each round up to this many (a cheap read each; only a free
  // time takes the listing's lock).
  const batch = options.batch ?? 1_000;
  const context = { db, now, claim: null };
  for (const entry of await lapsedOffers(db, now, batch)) {
    await inWriteTransaction(context, (trx) => moveEntry(trx, entry.id, ['offered'], { status: 'lapsed' }, now));
  }
  // Entries whose time has begun wait for nothing: they lapse, and never crowd the batch below.
  await inWriteTransaction(context, (trx) => lapsePastWaiting(trx, berlinDate(now), now));
  let offered = 0;
  for (const entry of await waitingEntries(db, batch)) {
    const request = {
      listingId: entry.listing_id,
      renterAccountId: entry.account_id,
      startDate: entry.start_date,
      endDate: entry.end_date,
      startAt: entry.start_at,
      endAt: entry.end_at,
    };
    const free = async (q: Queryable) => {
      const listing = await listingToBook(q, entry.listing_id);
      if (listing?.status !== 'available') return false;
      const buffer = listing.buffer_hours;
      const span = requestSpan(request);
      return (
        !(await firstClash(q, request, now, requestTtlHours, buffer)) &&
        !(await heldFor(q, request, buffer, now, entry.account_id)) &&
        !(await busyTimeOfListing(q, entry.listing_id, span.from.toISOString(), span.to.toISOString()))
      );
    };
    // A cheap look first: most waiting times are still taken.
    if (!(await free(db))) continue;
    const done = await inWriteTransaction(context, async (trx) => {
      await lockListing(trx, entry.listing_id);
      if (!(await free(trx))) return false;
      const hold = new Date(now.getTime() + holdHours * HOUR_MS).toISOString();
      if (!(await moveEntry(trx, entry.id, ['waiting'], { status: 'offered', hold_until: hold }, now))) return false;
      const row = { ...entry, status: 'offered' as const, hold_until: hold };
      const listing = await listingToBook(trx, entry.listing_id);
      const place = listing ? { category: listing.category, lat: listing.lat, lng: listing.lng } : null;
      await recordEvent(
        trx,
        {
          type: 'waitlist.offered',
          subjectId: entry.id,
          place,
          audience: [entry.account_id],
          data: await entryView(trx, row),
        },
        now,
      );
      return true;
    });
    if (done) offered++;
  }
  await mailOffers(db, mailer, options);
  return offered;
}

async function mailOffers(
  db: Kysely<Database>,
  mailer: Mailer,
  options: { now: Date; baseUrl: string; batch?: number },
): Promise<void> {
  const failures: unknown[] = [];
  for (const offer of await offersToMail(db, options.now, options.batch ?? 100)) {
    if (!(await claimOfferMail(db, offer.id, options.now))) continue;
    try {
      await mailer.send(
        waitlistOfferEmail({ to: offer.email, entry: offer, title: offer.title, baseUrl: options.baseUrl }),
      );
    } catch (error) {
      await releaseOfferMail(db, offer.id);
      failures.push(error);
    }
  }
  if (failures.length === 1) throw failures[0];
  if (failures.length > 1) throw new AggregateError(failures, `${failures.length} waiting-list e-mails failed`);
}
