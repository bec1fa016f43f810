import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { unsubscribeToken } from '../domain/unsubscribe.js';
import type { Mailer } from '../mail/mailer.js';
import { savedSearchDigestEmail } from '../mail/saved-search-digest-email.js';
import { accountsDueForDigest, claimDigest, digestOf, releaseDigest } from '../repositories/saved-searches.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Sends each account with new matches of a digest-enabled saved search its daily e-mail: at most
 * one per account per 24 hours, claimed with a conditional write first (so instances running the
 * same sweep never both send), given back when the send fails. Returns how many were sent.
 */
export async function sendSavedSearchDigests(
  db: Kysely<Database>,
  mailer: Mailer,
  options: { now: Date; baseUrl: string; batch?: number },
): Promise<number> {
  const dueBefore = new Date(options.now.getTime() - DAY_MS).toISOString();
  let sent = 0;
  // One address that cannot be reached must not hold back the accounts after it: each failure is
  // given back and reported once the batch is through.
  const failures: unknown[] = [];
  for (const accountId of await accountsDueForDigest(db, dueBefore, options.batch ?? 50)) {
    const claim = await claimDigest(db, accountId, dueBefore, options.now);
    if (!claim) continue;
    const digest = await digestOf(db, accountId, claim.previous);
    if (!digest || digest.searches.length === 0) continue;
    const searches = digest.searches.map((search) => ({
      ...search,
      unsubscribeUrl: `${options.baseUrl}/v1/saved-searches/unsubscribe?token=${unsubscribeToken(search.id, search.unsubscribeKey)}`,
    }));
    try {
      await mailer.send(savedSearchDigestEmail({ to: digest.email, searches, baseUrl: options.baseUrl }));
      sent++;
    } catch (error) {
      await releaseDigest(db, accountId, claim.previous);
      failures.push(error);
    }
  }
  if (failures.length === 1) throw failures[0];
  if (failures.length > 1) throw new AggregateError(failures, `${failures.length} digest e-mails failed`);
  return sent;
}
