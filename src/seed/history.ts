import type { ApplicationRow, BookingRow, NewJob, ReviewRow, ReviewSide, VerificationRow } from '../db/schema.js';
import { berlinDate } from '../domain/berlin-time.js';
import { addDays, bookingPrice } from '../domain/booking-price.js';
import type { Category } from '../domain/categories.js';
import { NO_COMPLETION } from '../domain/completions.js';
import {
  helperRecord,
  ownerRecord,
  type ReliabilityFigures,
  reliabilityOf,
  VERIFICATION_METHODS,
} from '../domain/reliability.js';
import { REVIEW_TEXTS } from './catalog/reviews.js';
import { displayName } from './people.js';
import { DAY_MS, idOf, type Marking } from './placing.js';
import type { Rng } from './rng.js';

/**
 * The history behind the seeded reliability figures: accepted applications on completed jobs,
 * withdrawals on cancelled ones, returned and cancelled bookings with the owners' decision times,
 * the reviews of both sides and the verifications. The figures follow from it by the one formula
 * (domain/reliability.ts), exactly as the writes compute them, so a test can recompute them.
 */

/** What a seeded person is like: how good, how quick, how reliable, how busy. */
export interface Traits {
  quality: number;
  responseMinutes: number;
  flakiness: number;
  activity: number;
  verified: boolean;
}

export function drawTraits(rng: Rng): Traits {
  return {
    quality: rng.between(3.4, 5.2),
    responseMinutes: Math.exp(rng.between(Math.log(5), Math.log(240))),
    flakiness: rng.next() ** 3 * 0.2,
    activity: 0.05 + rng.next() ** 2,
    verified: rng.chance(0.78),
  };
}

export interface History {
  applications: ApplicationRow[];
  bookings: BookingRow[];
  reviews: ReviewRow[];
  verifications: VerificationRow[];
}

export const emptyHistory = (): History => ({ applications: [], bookings: [], reviews: [], verifications: [] });

const REVIEW_WINDOW_MS = 14 * DAY_MS;
const iso = (ms: number) => new Date(ms).toISOString();

function rating(rng: Rng, quality: number): number {
  return Math.max(1, Math.min(5, Math.round(quality + rng.normal() * 0.7)));
}

/** Whole minutes (so sums of response times are exact) drawn around a mean. */
function minutesAround(rng: Rng, mean: number): number {
  return Math.max(1, Math.round(mean * Math.exp(rng.normal() * 0.5)));
}

interface ReviewPair {
  about: { type: 'application' | 'booking'; id: string };
  listingId: string | null;
  /** When the window opened: the job's completion or the booking's return. */
  closedAt: number;
  first: { side: ReviewSide; name: string; helperId: string | null; ownerId: string | null; quality: number };
  second: { side: ReviewSide; name: string; quality: number };
}

/**
 * Reviews of both sides of one completed thing, each written with some probability within the
 * window. Both written: published when the second came; one: published when the window closed, if
 * it has by the anchor (else hidden, as the API would hold it).
 */
function reviewPair(rng: Rng, marking: Marking, anchor: number, pair: ReviewPair, texts: boolean): ReviewRow[] {
  const windowCloses = pair.closedAt + REVIEW_WINDOW_MS;
  const written = [
    rng.chance(0.8) ? { ...pair.first } : null,
    rng.chance(0.6) ? { ...pair.second, helperId: null, ownerId: null } : null,
  ].flatMap((w) => (w ? [{ ...w, at: Math.round(pair.closedAt + rng.between(0.1, 12) * DAY_MS) }] : []));
  const rows = written
    .filter((w) => w.at <= anchor)
    .map((w): ReviewRow => {
      const stars = rating(rng, w.quality);
      return {
        removed_at: null,
        id: idOf(rng, marking, 'rev'),
        about_type: pair.about.type,
        about_id: pair.about.id,
        author_side: w.side,
        author_account_id: null,
        author_name: w.name,
        helper_id: w.helperId,
        owner_id: w.ownerId,
        listing_id: pair.listingId,
        reviewed_account_id: null,
        rating: stars,
        text: texts ? rng.pick(REVIEW_TEXTS[stars] ?? ['Alles gut.']) : null,
        created_at: iso(w.at),
        window_closes_at: iso(windowCloses),
        published_at: null,
        reply: null,
        replied_at: null,
      };
    });
  const publishedAt =
    rows.length === 2 ? rows.map((r) => r.created_at).sort()[1] : windowCloses <= anchor ? iso(windowCloses) : null;
  for (const row of rows) row.published_at = publishedAt ?? null;
  return rows;
}

function approvedVerification(
  rng: Rng,
  marking: Marking,
  ids: { helper_id?: string; owner_id?: string },
  created: string,
) {
  return {
    id: idOf(rng, marking, 'ver'),
    helper_id: ids.helper_id ?? null,
    owner_id: ids.owner_id ?? null,
    account_id: null,
    method: rng.pick(VERIFICATION_METHODS),
    status: 'approved' as const,
    created_at: created,
    decided_at: created,
    reason: null,
  };
}

export interface SeededHelper {
  id: string;
  display_name: string;
  created_at: string;
  categories: readonly Category[];
  traits: Traits;
}

/**
 * Helpers for the completed and cancelled jobs: each completed job gets its helpers_needed helpers
 * (offering its category, busier ones more often) with accepted applications and their reviews;
 * about half the cancelled jobs had a helper who withdrew. Returns the history and each helper's figures.
 */
export function helperHistory(
  rng: Rng,
  marking: Marking,
  anchor: Date,
  helpers: readonly SeededHelper[],
  jobs: readonly NewJob[],
  into: History,
): Map<string, ReliabilityFigures> {
  const byCategory = new Map<Category, (readonly [SeededHelper, number])[]>();
  for (const h of helpers) {
    for (const c of h.categories) byCategory.set(c, [...(byCategory.get(c) ?? []), [h, h.traits.activity] as const]);
  }
  const everyone = helpers.map((h) => [h, h.traits.activity] as const);
  const applicationsOf = new Map<string, { app: ApplicationRow; job: NewJob }[]>();
  const ratingsOf = new Map<string, number[]>();
  for (const job of jobs) {
    const candidates = byCategory.get(job.category) ?? everyone;
    const wanted = job.status === 'completed' ? job.helpers_needed : rng.chance(0.5) ? 1 : 0;
    const chosen = new Map<string, SeededHelper>();
    for (let tries = 0; chosen.size < wanted && tries < wanted * 4; tries++) {
      const helper = rng.weighted(job.status === 'completed' ? candidates : flakyOf(candidates));
      chosen.set(helper.id, helper);
    }
    for (const helper of chosen.values()) {
      const created = Date.parse(job.created_at) + minutesAround(rng, helper.traits.responseMinutes) * 60_000;
      const app: ApplicationRow = {
        id: idOf(rng, marking, 'app'),
        job_id: job.id,
        helper_id: helper.id,
        account_id: `${marking.idPrefix}acc_seeded_helper`,
        message: null,
        status: 'accepted',
        created_at: iso(created),
        decided_at: iso(created + rng.int(10, 600) * 60_000),
        withdrawn_at: job.status === 'cancelled' ? iso(created + rng.int(1, 48) * 3_600_000) : null,
        no_show: null,
        no_show_at: null,
        excused_by: null,
        // Jobs of no account: their completions count as the owner's word (domain/reliability.ts).
        ...NO_COMPLETION,
      };
      into.applications.push(app);
      applicationsOf.set(helper.id, [...(applicationsOf.get(helper.id) ?? []), { app, job }]);
      if (job.status !== 'completed' || !job.completed_at) continue;
      const reviews = reviewPair(
        rng,
        marking,
        anchor.getTime(),
        {
          about: { type: 'application', id: app.id },
          listingId: null,
          closedAt: Date.parse(job.completed_at),
          first: {
            side: 'client',
            name: displayName(rng),
            helperId: helper.id,
            ownerId: null,
            quality: helper.traits.quality,
          },
          second: { side: 'helper', name: helper.display_name, quality: 4.5 },
        },
        true,
      );
      into.reviews.push(...reviews);
      for (const r of reviews) {
        if (r.helper_id && r.published_at)
          ratingsOf.set(r.helper_id, [...(ratingsOf.get(r.helper_id) ?? []), r.rating]);
      }
    }
  }
  const figures = new Map<string, ReliabilityFigures>();
  for (const helper of helpers) {
    if (helper.traits.verified)
      into.verifications.push(approvedVerification(rng, marking, { helper_id: helper.id }, helper.created_at));
    const facts = (applicationsOf.get(helper.id) ?? []).map(({ app, job }) => ({
      ...app,
      job_created_at: job.created_at,
      job_status: job.status,
    }));
    figures.set(helper.id, reliabilityOf(helperRecord(facts, ratingsOf.get(helper.id) ?? [], helper.traits.verified)));
  }
  return figures;
}

/** Candidates weighted by how likely they drop out. */
function flakyOf(candidates: readonly (readonly [SeededHelper, number])[]) {
  return candidates.map(([h]) => [h, h.traits.flakiness + 0.001] as const);
}

export interface SeededOwner {
  id: string;
  display_name: string;
  created_at: string;
  traits: Traits;
}

export interface SeededListing {
  id: string;
  owner_id: string;
  price_per_day_cents: number;
  price_per_week_cents?: number | null | undefined;
  deposit_cents: number;
  instant_booking: 0 | 1;
  created_at: string;
}

/**
 * Past bookings of each owner's listings (busier owners more): returned mostly, some declined,
 * some cancelled by the renter or (the flaky ones) by the owner, with the owner's answer times for
 * requests and both sides' reviews of returned ones. Returns the history and each owner's figures.
 */
export function ownerHistory(
  rng: Rng,
  marking: Marking,
  anchor: Date,
  owners: readonly SeededOwner[],
  listings: readonly SeededListing[],
  into: History,
): Map<string, ReliabilityFigures> {
  const listingsOf = new Map<string, SeededListing[]>();
  for (const l of listings) listingsOf.set(l.owner_id, [...(listingsOf.get(l.owner_id) ?? []), l]);
  const figures = new Map<string, ReliabilityFigures>();
  const today = berlinDate(anchor);
  for (const owner of owners) {
    const own = listingsOf.get(owner.id) ?? [];
    const count = own.length === 0 ? 0 : Math.floor(owner.traits.activity * 30);
    const facts: BookingRow[] = [];
    const ratings: number[] = [];
    for (let i = 0; i < count; i++) {
      const listing = rng.pick(own);
      const booking = pastBooking(rng, marking, anchor, today, owner, listing);
      facts.push(booking);
      into.bookings.push(booking);
      if (booking.status !== 'returned') continue;
      const reviews = reviewPair(
        rng,
        marking,
        anchor.getTime(),
        {
          about: { type: 'booking', id: booking.id },
          listingId: listing.id,
          closedAt: Date.parse(booking.updated_at),
          first: {
            side: 'renter',
            name: displayName(rng),
            helperId: null,
            ownerId: owner.id,
            quality: owner.traits.quality,
          },
          second: { side: 'owner', name: owner.display_name, quality: 4.6 },
        },
        false,
      );
      into.reviews.push(...reviews);
      for (const r of reviews) if (r.owner_id && r.published_at) ratings.push(r.rating);
    }
    if (owner.traits.verified)
      into.verifications.push(approvedVerification(rng, marking, { owner_id: owner.id }, owner.created_at));
    figures.set(owner.id, reliabilityOf(ownerRecord(facts, ratings, owner.traits.verified)));
  }
  return figures;
}

function pastBooking(
  rng: Rng,
  marking: Marking,
  anchor: Date,
  today: string,
  owner: SeededOwner,
  listing: SeededListing,
): BookingRow {
  const days = rng.int(1, 7);
  const start = addDays(today, -rng.int(days + 2, 360));
  const end = addDays(start, days - 1);
  const createdMs = Math.min(
    anchor.getTime() - 3 * DAY_MS,
    Date.parse(`${start}T08:00:00.000Z`) - rng.int(1, 14) * DAY_MS,
  );
  const status = rng.weighted([
    ['returned', 85],
    ['declined', listing.instant_booking ? 0 : 5],
    ['cancelled_renter', 6],
    ['cancelled_owner', owner.traits.flakiness * 60],
  ] as const);
  const decidedMs =
    listing.instant_booking === 1 ? null : createdMs + minutesAround(rng, owner.traits.responseMinutes) * 60_000;
  const price = bookingPrice(days, listing.price_per_day_cents, listing.price_per_week_cents ?? null);
  const endMs = Date.parse(`${end}T17:00:00.000Z`);
  return {
    id: idOf(rng, marking, 'bkg'),
    listing_id: listing.id,
    renter_account_id: `${marking.idPrefix}acc_seeded_renter`,
    start_date: start,
    end_date: end,
    days,
    price_cents: price.total_cents,
    deposit_cents: listing.deposit_cents,
    daily_cents: listing.price_per_day_cents,
    weekly_cents: listing.price_per_week_cents ?? null,
    weeks: price.weeks,
    extra_days: price.extra_days,
    status: status.startsWith('cancelled') ? 'cancelled' : (status as 'returned' | 'declined'),
    created_at: iso(createdMs),
    updated_at: iso(status === 'returned' ? endMs : (decidedMs ?? createdMs) + DAY_MS),
    decided_at: decidedMs === null ? null : iso(decidedMs),
    cancelled_by: status === 'cancelled_owner' ? 'owner' : status === 'cancelled_renter' ? 'renter' : null,
    returned_at: status === 'returned' ? iso(endMs) : null,
    cancellation_policy: 'flexible',
    late_fee_per_day_cents: null,
    ...DAY_BOOKING,
  };
}

/** A seeded booking is a day booking: none of the columns of one by the hour. */
const DAY_BOOKING = { start_at: null, end_at: null, hours: null, hourly_cents: null, extra_hours: null } as const;
