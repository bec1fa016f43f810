import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { AccountRow, Database } from '../db/schema.js';
import {
  type DraftDetails,
  type DraftOperation,
  draftStatusAt,
  draftSummary,
  draftTokenHash,
  newDraftToken,
  placeName,
} from '../domain/drafts.js';
import { newId } from '../domain/ids.js';
import type { FeeRule } from '../domain/payments.js';
import type { ApplyOutcome } from '../repositories/applications.js';
import type { BookingAttempt } from '../repositories/bookings.js';
import {
  countPendingDrafts,
  type DraftRow,
  decideDraft,
  findAccount,
  findDraftByTokenHash,
  findOwnDraft,
  insertDraft,
} from '../repositories/drafts.js';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  dropIdempotencyClaim,
  releaseIdempotencyKey,
} from '../repositories/idempotency.js';
import { findJob } from '../repositories/jobs.js';
import { findListing } from '../repositories/listings.js';
import { recordEvent } from '../repositories/outbox.js';
import { inWriteTransaction, type WriteContext, type WriteTransaction } from '../repositories/write-transaction.js';
import type { Draft, DraftView } from '../schemas/drafts.js';
import { applyAsHelper } from './applications.js';
import { createBooking } from './bookings.js';
import { ApiError } from './errors.js';
import { createJob } from './jobs.js';
import { createListing } from './listings.js';

/** What drafts need from the configuration. */
export interface DraftSettings {
  /** DRAFT_TTL_HOURS. */
  ttlHours: number;
  /** DRAFTS_PENDING_PER_ACCOUNT. */
  pendingPerAccount: number;
  /** The public base URL the confirmation_url starts with. */
  baseUrl: string;
  applicationsPerHour: number;
  bookingsPerHour: number;
  bookingRequestTtlHours: number;
  /** The platform's fee on a booking's rent, confirmed at once. */
  fees: FeeRule;
}

/** A write as a draft runs it: the operation's own service, and what the page shows of its result. */
interface DraftWrite {
  /** Runs the operation's service; returns the created object's id and what the person is shown. */
  run(
    context: WriteContext,
    account: AccountRow,
    pathId: string,
    body: unknown,
    settings: DraftSettings,
  ): Promise<{ id: string; details: DraftDetails }>;
  /** The id the write's transaction created, from what its repository returned; undefined when it refused. */
  createdIn(result: unknown): string | undefined;
  /** The Location the operation answers for what it created. */
  location(id: string, pathId: string): string;
  /**
   * What the person was shown that the write, done now, would not hold to (a booking's rent or
   * deposit after the owner changed the listing's prices): said in a sentence; undefined when
   * nothing differs. The write is then undone.
   */
  changedSince?(result: unknown, shown: DraftDetails): string | undefined;
}

const WRITES: Record<DraftOperation, DraftWrite> = {
  createJob: {
    async run(context, account, _pathId, body) {
      const job = await createJob(context, account, body as Parameters<typeof createJob>[2]);
      const details = { title: job.title, place: placeName(job.location), price_eur: job.price_eur };
      return { id: job.id, details: { ...details, deposit_eur: null, starts: job.desired_at, ends: job.deadline } };
    },
    createdIn: (result) => (result as { id: string }).id,
    location: (id) => `/v1/jobs/${id}`,
  },
  applyToJob: {
    async run(context, account, jobId, body, settings) {
      const applied = await applyAsHelper(
        context,
        account,
        jobId,
        body as Parameters<typeof applyAsHelper>[3],
        settings.applicationsPerHour,
      );
      const job = await findJob(context.db, jobId, context.now);
      if (!job) throw new Error(`job ${jobId} vanished after an application to it`);
      const details = { title: job.title, place: placeName(job.location), price_eur: job.price_eur };
      return { id: applied.id, details: { ...details, deposit_eur: null, starts: job.desired_at, ends: job.deadline } };
    },
    createdIn: (result) => {
      const outcome = result as ApplyOutcome;
      return outcome.ok ? outcome.application.id : undefined;
    },
    location: (_id, jobId) => `/v1/jobs/${jobId}/applications`,
  },
  createBooking: {
    async run(context, account, listingId, body, settings) {
      const booking = await createBooking(context, account, listingId, body as Parameters<typeof createBooking>[3], {
        base: '/v1',
        requestTtlHours: settings.bookingRequestTtlHours,
        quota: settings.bookingsPerHour,
        fees: settings.fees,
      });
      const listing = await findListing(context.db, listingId);
      if (!listing) throw new Error(`listing ${listingId} vanished after a booking of it`);
      const { price_eur, deposit_eur, start_date, end_date, start_at, end_at } = booking;
      const place = placeName(listing.location);
      const [starts, ends] = start_at !== null ? [start_at, end_at ?? start_at] : [start_date, end_date];
      return {
        id: booking.id,
        details: { title: listing.title, place, price_eur, deposit_eur, starts, ends },
      };
    },
    createdIn: (result) => {
      const attempt = result as BookingAttempt;
      return 'booked' in attempt ? attempt.booked.id : undefined;
    },
    changedSince: (result, shown) => {
      const { booked } = result as { booked: { price_cents: number; deposit_cents: number } };
      const now = { rent: booked.price_cents / 100, deposit: booked.deposit_cents / 100 };
      if (now.rent === shown.price_eur && now.deposit === shown.deposit_eur) return undefined;
      return `The owner changed the prices since the draft was made: the rent is now ${now.rent.toFixed(2)} EUR (was ${shown.price_eur.toFixed(2)}) and the deposit ${now.deposit.toFixed(2)} EUR (was ${(shown.deposit_eur ?? 0).toFixed(2)}).`;
    },
    location: (id) => `/v1/bookings/${id}`,
  },
  createListing: {
    async run(context, account, _pathId, body) {
      const listing = await createListing(context, account, body as Parameters<typeof createListing>[2]);
      const { title, price_per_day_eur, deposit_eur } = listing;
      const place = placeName(listing.location);
      return {
        id: listing.id,
        details: { title, place, price_eur: price_per_day_eur, deposit_eur, starts: null, ends: null },
      };
    },
    createdIn: (result) => (result as { id: string }).id,
    location: (id) => `/v1/listings/${id}`,
  },
};

interface StoredSummary {
  summary: Draft['summary'];
  details: DraftDetails;
}

/** A draft as GET /v1/drafts/{id} and its events show it. */
export function draftOf(row: DraftRow, now: Date): Draft {
  const { summary } = JSON.parse(row.summary) as StoredSummary;
  return {
    id: row.id,
    operation: row.operation,
    status: draftStatusAt(row, now),
    body: JSON.parse(row.body),
    summary,
    result:
      row.result_id === null || row.result_location === null
        ? null
        : { id: row.result_id, location: row.result_location },
    confirmation_url: null,
    created_at: row.created_at,
    expires_at: row.expires_at,
    decided_at: row.decided_at,
  };
}

/** A draft as its confirmation page shows it: with the facts behind the summary. */
function draftViewOf(row: DraftRow, now: Date): DraftView {
  return { ...draftOf(row, now), details: (JSON.parse(row.summary) as StoredSummary).details };
}

export interface DraftInput {
  operation: DraftOperation;
  /** The path id (job or listing), checked by the route; '' for operations without one. */
  pathId: string;
  /** The body as the operation's own validation left it. */
  body: object;
}

/**
 * Prepares a write: the operation's service runs in a transaction that is rolled back (a
 * rehearsal), so the draft meets every rule the write would meet now, with the same errors, and
 * the summary shows what it would create (the booking's price, the job's place).
 */
export async function createDraft(
  context: WriteContext,
  account: AccountRow,
  input: DraftInput,
  settings: DraftSettings,
): Promise<Draft> {
  const { now } = context;
  if ((await countPendingDrafts(context.db, account.id, now)) >= settings.pendingPerAccount) {
    throw new ApiError(
      409,
      'limit_reached',
      `The account has ${settings.pendingPerAccount} drafts waiting for confirmation, the most it may have.`,
      { param: null, suggestion: 'Wait until the person confirms or declines one, or until one expires.' },
    );
  }
  const write = WRITES[input.operation];
  const rehearsal = { db: context.db, now, claim: null, rehearse: true };
  const { details } = await write.run(rehearsal, account, input.pathId, input.body, settings);
  const token = newDraftToken();
  const row: DraftRow = {
    id: newId('drf'),
    account_id: account.id,
    operation: input.operation,
    path_id: input.pathId === '' ? null : input.pathId,
    body: JSON.stringify(input.body),
    summary: JSON.stringify({ summary: draftSummary(input.operation, details), details } satisfies StoredSummary),
    token_hash: draftTokenHash(token) as string,
    status: 'pending',
    result_id: null,
    result_location: null,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + settings.ttlHours * 3_600_000).toISOString(),
    decided_at: null,
  };
  await inWriteTransaction(context, (trx) => insertDraft(trx, row));
  return { ...draftOf(row, now), confirmation_url: `${settings.baseUrl}/confirm/${token}` };
}

export async function getDraft(db: Kysely<Database>, account: AccountRow, id: string, now: Date): Promise<Draft> {
  const row = await findOwnDraft(db, id, account.id);
  if (!row) {
    throw new ApiError(404, 'not_found', `No draft with the id '${id}' is yours.`, {
      param: 'id',
      suggestion: 'Use the id POST /v1/drafts answered with, with the key that made the draft.',
    });
  }
  return draftOf(row, now);
}

/** The draft a page token opens; undefined for a token that names none. */
export async function draftOfToken(
  db: Kysely<Database>,
  token: string,
  now: Date,
): Promise<{ row: DraftRow; draft: DraftView } | undefined> {
  const hash = draftTokenHash(token);
  const row = hash && (await findDraftByTokenHash(db, hash));
  return row ? { row, draft: draftViewOf(row, now) } : undefined;
}

/** What pressing a button on the page came to. */
export type DraftDecision =
  | { outcome: 'unknown' }
  | { outcome: 'done'; draft: DraftView }
  | { outcome: 'busy'; draft: DraftView }
  | { outcome: 'refused'; draft: DraftView; error: unknown };

/** Thrown in the write's transaction when the draft was decided or expired meanwhile: nothing commits. */
class DecidedMeanwhile extends Error {}

/** Records the decision and its private event in the transaction `trx`; false if decided before. */
async function recordDecision(
  trx: WriteTransaction,
  row: DraftRow,
  decision: Parameters<typeof decideDraft>[2],
  now: Date,
): Promise<boolean> {
  if (!(await decideDraft(trx, row.id, decision, now))) return false;
  const decided = await findOwnDraft(trx, row.id, row.account_id);
  const type = decision.status === 'confirmed' ? 'draft.confirmed' : 'draft.declined';
  const data = draftOf(decided as DraftRow, now);
  await recordEvent(trx, { type, subjectId: row.id, place: null, audience: [row.account_id], data }, now);
  return true;
}

/**
 * The person confirms: the operation runs for the draft's account, exactly once. The draft's own
 * idempotency key (`draft-<id>`, claimed as a request's Idempotency-Key is) keeps a second click
 * or tab from running it while the first runs; the draft is marked confirmed in the write's own
 * transaction, conditionally, so a write whose draft was decided or expired meanwhile rolls back.
 * A refusal by the operation (the job closed, the days were taken) leaves the draft pending.
 */
export async function confirmDraft(
  db: Kysely<Database>,
  token: string,
  now: Date,
  settings: DraftSettings,
): Promise<DraftDecision> {
  const found = await draftOfToken(db, token, now);
  if (!found) return { outcome: 'unknown' };
  const { row, draft } = found;
  if (draft.status !== 'pending') return { outcome: 'done', draft };
  const account = await findAccount(db, row.account_id);
  if (!account) return { outcome: 'unknown' };
  if (account.suspended_at !== null) {
    const error = new ApiError(403, 'account_suspended', 'The account of this draft is suspended.', {
      suggestion: 'The draft cannot be confirmed while the account is suspended.',
    });
    return { outcome: 'refused', draft, error };
  }
  const requestHash = createHash('sha256').update(`confirm ${row.id}`).digest('hex');
  const claimed = await claimIdempotencyKey(db, { accountId: account.id, key: `draft-${row.id}`, requestHash }, now);
  if (!claimed.claimed) {
    // Another click or tab holds the draft's key: its answer is, or is about to be, the draft's.
    const meanwhile = await current(db, row, now);
    return { outcome: meanwhile.status === 'pending' ? 'busy' : 'done', draft: meanwhile };
  }
  const { claim } = claimed;
  const write = WRITES[row.operation];
  const pathId = row.path_id ?? '';
  const shown = (JSON.parse(row.summary) as StoredSummary).details;
  const alongside = async (trx: WriteTransaction, result: unknown) => {
    const id = write.createdIn(result);
    if (id === undefined) return;
    const changed = write.changedSince?.(result, shown);
    if (changed) {
      // Thrown in the write's transaction: the booking is undone, the draft stays pending.
      throw new ApiError(409, 'confirmation_mismatch', `${changed} Nothing was done.`, {
        suggestion: 'Decline this draft; the agent can make a new one with the prices as they are now.',
      });
    }
    const decision = { status: 'confirmed' as const, result_id: id, result_location: write.location(id, pathId) };
    if (!(await recordDecision(trx, row, decision, now))) throw new DecidedMeanwhile();
  };
  try {
    const created = await write.run({ db, now, claim, alongside }, account, pathId, JSON.parse(row.body), settings);
    await completeIdempotencyKey(db, claim, { status: 201, body: JSON.stringify({ id: created.id }), headers: {} });
  } catch (error) {
    await releaseIdempotencyKey(db, claim);
    const meanwhile = await current(db, row, now);
    if (error instanceof DecidedMeanwhile || meanwhile.status !== 'pending')
      return { outcome: 'done', draft: meanwhile };
    // Still pending: nothing was created (a creation decides the draft in its own transaction), so
    // the key must not hold the next press for its retention (a refusal thrown inside the write
    // left it free already; dropped in any case).
    await dropIdempotencyClaim(db, claim);
    return { outcome: 'refused', draft: meanwhile, error };
  }
  return { outcome: 'done', draft: await current(db, row, now) };
}

/** The person declines: pending -> declined, with its event; a decided draft stays as it is. */
export async function declineDraft(db: Kysely<Database>, token: string, now: Date): Promise<DraftDecision> {
  const found = await draftOfToken(db, token, now);
  if (!found) return { outcome: 'unknown' };
  const { row, draft } = found;
  if (draft.status !== 'pending') return { outcome: 'done', draft };
  await inWriteTransaction({ db, now, claim: null }, (trx) => recordDecision(trx, row, { status: 'declined' }, now));
  return { outcome: 'done', draft: await current(db, row, now) };
}

async function current(db: Kysely<Database>, row: DraftRow, now: Date): Promise<DraftView> {
  return draftViewOf((await findOwnDraft(db, row.id, row.account_id)) ?? row, now);
}
