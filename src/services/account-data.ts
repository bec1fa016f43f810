import type { Queryable } from '../db/queryable.js';
import type { AccountRow } from '../db/schema.js';
import { ERASURE_KEPT } from '../domain/erasure.js';
import {
  anonymiseAccountRows,
  archivableListingsOf,
  cancellableJobsOf,
  deleteEventsNaming,
  deleteOthersAnswersNaming,
  IDS_PER_STATEMENT,
  idsOfAccount,
  removeAccountRows,
  requestedBookingsOf,
  withdrawPendingApplications,
} from '../repositories/account-erasure.js';
import { sectionRows } from '../repositories/account-export.js';
import { inWriteTransaction, type WriteContext, type WriteTransaction } from '../repositories/write-transaction.js';
import type { AccountErasure } from '../schemas/account-data.js';
import { EXPORT_FORMAT, EXPORT_SECTIONS, EXPORT_VERSION } from '../schemas/account-export.js';
import { moveBookingRecorded } from './bookings.js';
import { ApiError, badRequest } from './errors.js';
import { moveJob } from './jobs.js';
import { moveListing } from './listings.js';
import { type Actor, audit } from './operators.js';

/**
 * The account's export as JSON text, piece by piece: each section is read a page at a time and
 * written as it comes, so memory stays flat however much the account holds. Sections are read one
 * after another (no snapshot across them: a write meanwhile may show in a later section only).
 */
export async function* exportAccount(db: Queryable, account: AccountRow, now: Date): AsyncGenerator<string> {
  const head = { format: EXPORT_FORMAT, version: EXPORT_VERSION, exported_at: now.toISOString() };
  yield JSON.stringify(head).slice(0, -1);
  for (const section of EXPORT_SECTIONS) {
    yield `,${JSON.stringify(section.key)}:`;
    if (!section.many) {
      let one: unknown = null;
      for await (const rows of sectionRows(db, section.key, account)) one = rows[0] ?? null;
      yield JSON.stringify(one);
      continue;
    }
    yield '[';
    let first = true;
    for await (const rows of sectionRows(db, section.key, account)) {
      const text = rows.map((row) => JSON.stringify(row)).join(',');
      yield first ? text : `,${text}`;
      first = false;
    }
    yield ']';
  }
  yield '}\n';
}

/** Accounts with an export under way in this process: one at a time each. */
const exporting = new Set<string>();

/** Runs `exportAccount` for the account unless one of its exports is under way (409). */
export function exclusiveExport(db: Queryable, account: AccountRow, now: Date): AsyncGenerator<string> {
  if (exporting.has(account.id)) {
    throw new ApiError(409, 'export_in_progress', 'An export of this account is being sent already.', {
      param: null,
      suggestion: 'Wait for it to finish, then ask again if you still need a new one.',
    });
  }
  exporting.add(account.id);
  const inner = exportAccount(db, account, now);
  return (async function* () {
    try {
      yield* inner;
    } finally {
      exporting.delete(account.id);
    }
  })();
}

/**
 * Erases the account (GDPR Art. 17) when `confirm` is its e-mail address (any case, no spaces
 * around); anything else is a 400 and erases nothing. What is done is counted in the answer, what
 * is kept is listed with its reason (docs/privacy.md). In one write transaction, in this order, so
 * that nothing written afterwards carries a name or text:
 * 1. the outbox's events about its objects, and those only it could see, are deleted (their
 *    payloads are copies of names and texts);
 * 2. names, e-mail, texts and exact places are overwritten, and the snapshots DSA reports kept of
 *    its items dropped (1 and 2: anonymiseAccountRows);
 * 2b. the copies other accounts were given are deleted: every event of any audience (with its
 *    webhook deliveries) and every stored idempotent answer of another account that names one of
 *    the account's objects by id (forgetCopies over idsOfAccount), so no stream replays,
 *    no redelivery sends and no repeated request answers its words; such a key's window ends
 *    early, and a repeated request runs again as after 48 hours;
 * 3. its commitments end the usual way, each with its usual event (which now shows erased texts):
 *    open jobs cancelled, listings archived, pending applications withdrawn, requested bookings
 *    (as renter or owner) cancelled (endCommitments);
 * 4. keys are revoked; webhooks, saved searches, the calendar feed and idempotency records go
 *    (removeAccountRows).
 * An account erased already is a 409 (nothing is done twice).
 */
export async function eraseAccount(
  context: WriteContext,
  account: AccountRow,
  confirm: string,
  requestTtlHours: number,
  /** An operator's erasure (the console, the admin command): audited in the erasure's transaction. */
  byOperator?: { actor: Actor; reason: string | null },
): Promise<AccountErasure> {
  if (confirm.trim().toLowerCase() !== account.email.toLowerCase()) {
    throw badRequest(
      'confirmation_mismatch',
      'confirm',
      'confirm is not the e-mail address of the account this key belongs to; nothing was erased.',
      'Send {"confirm": "<your account’s e-mail address>"} (GET /v1/me shows it) to erase the account for good.',
    );
  }
  const { now } = context;
  const done = await inWriteTransaction(context, async (trx) => {
    const anonymised = await anonymiseAccountRows(trx, account, now);
    // Thrown in the transaction: the refusal commits nothing.
    if (!anonymised) {
      throw new ApiError(409, 'invalid_state_transition', 'This account is erased already.', {
        param: null,
        suggestion: 'Nothing is left to erase.',
      });
    }
    if (byOperator) {
      await audit(
        trx,
        byOperator.actor,
        { action: 'account.erased', targetType: 'account', targetId: account.id, reason: byOperator.reason },
        now,
      );
    }
    const forgotten = await forgetCopies(trx, account.id);
    const ended = await endCommitments(trx, account.id, now, requestTtlHours);
    const removed = await removeAccountRows(trx, account.id, now, context.claim?.key ?? null);
    return {
      ...ended,
      keys_revoked: removed.keys_revoked,
      messages_erased: anonymised.messages_erased,
      reviews_anonymised: anonymised.reviews_anonymised,
      events_deleted: anonymised.events_deleted + forgotten.events_deleted,
      webhooks_deleted: removed.webhooks_deleted,
      saved_searches_deleted: removed.saved_searches_deleted,
    };
  });
  return { account_id: account.id, erased_at: context.now.toISOString(), done, kept: [...ERASURE_KEPT] };
}

/**
 * Step 2b of an erasure: the copies other accounts were given of the account's data. Every event of
 * any audience (with its deliveries) and every other account's stored answer that names one of its
 * objects by id goes, a statement per IDS_PER_STATEMENT ids.
 */
async function forgetCopies(trx: WriteTransaction, accountId: string) {
  const ids = await idsOfAccount(trx, accountId);
  let events = 0;
  for (let start = 0; start < ids.length; start += IDS_PER_STATEMENT) {
    const some = ids.slice(start, start + IDS_PER_STATEMENT);
    events += await deleteEventsNaming(trx, some);
    await deleteOthersAnswersNaming(trx, accountId, some);
  }
  return { events_deleted: events };
}

/**
 * Step 3 of an erasure: the account's commitments end as they would by hand, each with its usual
 * event: its open and assigned jobs cancelled (moveJob), its available and paused listings archived
 * (moveListing), its pending applications withdrawn, its requested bookings cancelled, as renter or
 * as owner (moveBookingRecorded). Returns how many of each.
 */
async function endCommitments(trx: WriteTransaction, accountId: string, now: Date, requestTtlHours: number) {
  let jobsCancelled = 0;
  for (const job of await cancellableJobsOf(trx, accountId)) {
    if ((await moveJob(trx, job.id, accountId, 'cancel', now))?.done) jobsCancelled += 1;
  }
  let listingsArchived = 0;
  const archive = { from: ['available', 'paused'], to: 'archived' } as const;
  for (const listing of await archivableListingsOf(trx, accountId)) {
    if (await moveListing(trx, listing.id, accountId, archive, now)) listingsArchived += 1;
  }
  const withdrawn = await withdrawPendingApplications(trx, accountId, now);
  let bookingsCancelled = 0;
  const cancel = { from: ['requested'], to: 'cancelled' } as const;
  for (const booking of await requestedBookingsOf(trx, accountId)) {
    const history = { cancelled_by: booking.renter_account_id === accountId ? 'renter' : 'owner' } as const;
    if (await moveBookingRecorded(trx, booking.id, cancel, now, requestTtlHours, history)) bookingsCancelled += 1;
  }
  return {
    jobs_cancelled: jobsCancelled,
    listings_archived: listingsArchived,
    applications_withdrawn: withdrawn,
    bookings_cancelled: bookingsCancelled,
  };
}
