import type { Db } from '../../src/db/create-db.js';
import { createKey } from './app.js';
import { helperFixture, insert, jobFixture } from './fixtures.js';

export interface Applicant {
  key: string;
  helperId: string;
}

/**
 * For the application races: two open jobs of one owner (helpers_needed 1, so 3 applications
 * allowed; no deadline) and `count` unverified helpers spread over five other accounts, written
 * straight into the database; returns the jobs and each helper with its account's key.
 */
export async function jobsWithApplicants(db: Db, count: number, now = new Date()) {
  const owner = await createKey(db, { email: 'owner@example.org' }, now);
  const accounts: Awaited<ReturnType<typeof createKey>>[] = [];
  for (let i = 0; i < 5; i++) accounts.push(await createKey(db, { email: `helpers${i}@example.org` }, now));
  const open = {
    owner_account_id: owner.accountId,
    helpers_needed: 1,
    applications_count: 0,
    desired_at: null,
    desired_date: null,
    deadline: null,
  };
  const [job, second] = [jobFixture(open), jobFixture(open)];
  const applicants = Array.from({ length: count }, (_, i) => {
    const account = accounts[i % accounts.length] as (typeof accounts)[number];
    return { key: account.key, helper: helperFixture(['GARDENING'], { account_id: account.accountId, verified: 0 }) };
  });
  await insert(db.kysely, { jobs: [job, second], helpers: applicants.map((a) => a.helper) });
  return {
    jobId: job.id,
    secondJobId: second.id,
    applicants: applicants.map((a): Applicant => ({ key: a.key, helperId: a.helper.id })),
  };
}
