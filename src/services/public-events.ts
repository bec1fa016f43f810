import type { EventType } from '../db/schema.js';
import { findJob } from '../repositories/jobs.js';
import { findListing } from '../repositories/listings.js';
import { recordPublicEvent } from '../repositories/outbox.js';
import type { WriteTransaction } from '../repositories/write-transaction.js';
import type { Job } from '../schemas/jobs.js';
import type { Listing } from '../schemas/listings.js';

/** The event of a job change; returns the job as GET /v1/jobs/{id} shows it (read in the write's transaction). */
export async function recordJobEvent(trx: WriteTransaction, type: EventType, jobId: string, now: Date): Promise<Job> {
  return recordPublicEvent(trx, type, jobId, await findJob(trx, jobId, now), now);
}

/** The event of a listing change; returns the listing as GET /v1/listings/{id} shows it. */
export async function recordListingEvent(
  trx: WriteTransaction,
  type: EventType,
  listingId: string,
  now: Date,
): Promise<Listing> {
  return recordPublicEvent(trx, type, listingId, await findListing(trx, listingId), now);
}
