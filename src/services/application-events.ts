import type { ApplicationRow } from '../db/schema.js';
import { applicationRowToApplication, jobPlaceAndOwner } from '../repositories/applications.js';
import { rejectPending } from '../repositories/job-writes.js';
import { recordEvent } from '../repositories/outbox.js';
import type { WriteTransaction } from '../repositories/write-transaction.js';

/**
 * A decision on an application told to both sides (their webhooks, private streams and the
 * applicant's notifications, issue 36): application.status_changed, with the application as the
 * applicant reads it.
 */
export async function recordApplicationDecided(trx: WriteTransaction, row: ApplicationRow, now: Date): Promise<void> {
  const job = await jobPlaceAndOwner(trx, row.job_id);
  await recordEvent(
    trx,
    {
      type: 'application.status_changed',
      subjectId: row.id,
      place: job,
      audience: [job.owner_account_id, row.account_id],
      data: applicationRowToApplication(row, 'applicant', now),
    },
    now,
  );
}

/**
 * Rejects a job's pending applications (the job was cancelled, its helpers were all found, or its
 * poster did not show) and tells each applicant as a rejection one by one would: rejected in bulk,
 * nobody is left waiting without a word.
 */
export async function rejectPendingApplications(trx: WriteTransaction, jobId: string, now: Date): Promise<void> {
  for (const row of await rejectPending(trx, jobId, now)) await recordApplicationDecided(trx, row, now);
}
