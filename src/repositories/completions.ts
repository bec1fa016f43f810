import { sql } from 'kysely';
import type { Queryable } from '../db/queryable.js';
import type { ApplicationRow } from '../db/schema.js';
import { objectableUntil } from '../domain/completions.js';
import type { WriteTransaction } from './write-transaction.js';

/**
 * The job's owner completed the job: their word for each accepted helper (not withdrawn), with the
 * window to object fixed now; what an earlier completion of the job left (an objection before the
 * job was reopened) is cleared. Returns the applications it reached.
 */
export async function requestCompletions(
  trx: WriteTransaction,
  jobId: string,
  now: Date,
  objectionHours: number,
): Promise<ApplicationRow[]> {
  return trx
    .updateTable('applications')
    .set({
      completion_requested_at: now.toISOString(),
      completion_objectable_until: objectableUntil(now, objectionHours),
      completion_confirmed_at: null,
      completion_objected_at: null,
      completion_objection: null,
      completion_final_at: null,
    })
    .where('job_id', '=', jobId)
    .where('status', '=', 'accepted')
    .where('withdrawn_at', 'is', null)
    .returningAll()
    .execute();
}

/** An application with what the completion actions decide on: its job's state, owner and place. */
export function findCompletionSubject(db: Queryable, jobId: string, applicationId: string) {
  return db
    .selectFrom('applications')
    .innerJoin('jobs', 'jobs.id', 'applications.job_id')
    .selectAll('applications')
    .select([
      'jobs.status as job_status',
      'jobs.owner_account_id',
      'jobs.category as job_category',
      'jobs.lat as job_lat',
      'jobs.lng as job_lng',
    ])
    .where('applications.id', '=', applicationId)
    .where('applications.job_id', '=', jobId)
    .executeTakeFirst();
}

export type CompletionSubject = NonNullable<Awaited<ReturnType<typeof findCompletionSubject>>>;

/** The conditions every completion action shares: the account's accepted application of a completed job. */
function ownCompletion(trx: WriteTransaction, ids: { jobId: string; applicationId: string }, accountId: string) {
  return trx
    .updateTable('applications')
    .where('id', '=', ids.applicationId)
    .where('job_id', '=', ids.jobId)
    .where('account_id', '=', accountId)
    .where('status', '=', 'accepted')
    .where('withdrawn_at', 'is', null)
    .where('completion_requested_at', 'is not', null)
    .where('completion_confirmed_at', 'is', null)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('jobs')
          .select('jobs.id')
          .whereRef('jobs.id', '=', 'applications.job_id')
          .where('jobs.status', '=', 'completed'),
      ),
    );
}

/**
 * The helper confirms the completion, in one conditional update: while it awaits them (the window
 * open), or to withdraw their objection while the job stays completed. Final at once. Undefined:
 * not from the application's state (the caller says why).
 */
export function confirmOwnCompletion(
  trx: WriteTransaction,
  ids: { jobId: string; applicationId: string },
  accountId: string,
  now: Date,
): Promise<ApplicationRow | undefined> {
  const at = now.toISOString();
  return ownCompletion(trx, ids, accountId)
    .set({ completion_confirmed_at: at, completion_final_at: at })
    .where((eb) => eb.or([eb('completion_objected_at', 'is not', null), eb('completion_objectable_until', '>', at)]))
    .returningAll()
    .executeTakeFirst();
}

/** The helper objects, in one conditional update: only while the window is open and they have not answered. */
export function objectToOwnCompletion(
  trx: WriteTransaction,
  ids: { jobId: string; applicationId: string },
  accountId: string,
  reason: string,
  now: Date,
): Promise<ApplicationRow | undefined> {
  const at = now.toISOString();
  return ownCompletion(trx, ids, accountId)
    .set({ completion_objected_at: at, completion_objection: reason })
    .where('completion_objected_at', 'is', null)
    .where('completion_objectable_until', '>', at)
    .returningAll()
    .executeTakeFirst();
}

/**
 * Takes the owner's word back when it stands for no helper any more (every accepted helper has
 * objected and none confirmed): the job is assigned again, completed_at cleared. False while the
 * completion still stands for someone (the job stays completed for them).
 */
export async function reopenWhenNoneStands(trx: WriteTransaction, jobId: string, now: Date): Promise<boolean> {
  const reopened = await trx
    .updateTable('jobs')
    .set({ status: 'assigned', completed_at: null, updated_at: now.toISOString() })
    .where('id', '=', jobId)
    .where('status', '=', 'completed')
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('applications')
            .select('applications.id')
            .where('applications.job_id', '=', jobId)
            .where('applications.status', '=', 'accepted')
            .where('applications.withdrawn_at', 'is', null)
            .where((eb) =>
              eb.or([
                eb('applications.completion_confirmed_at', 'is not', null),
                eb('applications.completion_objected_at', 'is', null),
              ]),
            ),
        ),
      ),
    )
    .executeTakeFirst();
  return Number(reopened.numUpdatedRows) > 0;
}

/** Completions whose window closed without a word from the helper and that are not written final yet, oldest first. */
export function completionsDue(db: Queryable, now: Date, limit: number) {
  return db
    .selectFrom('applications')
    .select(['id'])
    .where('completion_objectable_until', '<=', now.toISOString())
    .where('completion_final_at', 'is', null)
    .where('completion_confirmed_at', 'is', null)
    .where('completion_objected_at', 'is', null)
    .where('status', '=', 'accepted')
    .orderBy('completion_objectable_until')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/**
 * Writes a completion final at its window's end, in one conditional update (concurrent sweeps write
 * it once); returns the application's helper, or undefined when it was not due any more.
 */
export async function finalizeCompletion(trx: WriteTransaction, id: string, now: Date): Promise<string | undefined> {
  const row = await trx
    .updateTable('applications')
    .set({ completion_final_at: sql`completion_objectable_until` })
    .where('id', '=', id)
    .where('completion_objectable_until', '<=', now.toISOString())
    .where('completion_final_at', 'is', null)
    .where('completion_confirmed_at', 'is', null)
    .where('completion_objected_at', 'is', null)
    .returning('helper_id')
    .executeTakeFirst();
  return row?.helper_id;
}
