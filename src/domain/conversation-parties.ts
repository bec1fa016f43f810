/** What a conversation may be about. */
export type ConversationSubjectType = 'job' | 'listing' | 'application' | 'booking';

/** The parties of a subject, as far as conversations need them. */
export interface SubjectParties {
  /** The owner of the job or listing (of the application's job, of the booking's listing); null when seeded. */
  owner: string | null;
  /** The applicant of an application, the renter of a booking; null for a job or listing. */
  party: string | null;
  /** A job or listing anyone may write about: the job open, the listing available. */
  open: boolean;
}

/** The other party of a subject for the caller, or why there is none. */
export type CounterpartOutcome =
  | { ok: true; other: string }
  | { ok: false; problem: 'not_found' | 'self' | 'no_counterpart' };

/** Whether the caller's answer about a job or listing depends on having applied to it or booked it. */
export function dependsOnTaken(type: ConversationSubjectType, subject: SubjectParties, accountId: string): boolean {
  return (type === 'job' || type === 'listing') && !subject.open && subject.owner !== accountId;
}

/**
 * The other party of a subject for `accountId`: the owner of a job or listing the caller can see
 * (an open job or available listing, or one the caller applied to or booked: `taken`), the other
 * side of an application or booking the caller is a party of. Everything else is not_found, the
 * same answer as an id that does not exist.
 */
export function counterpartIn(
  type: ConversationSubjectType,
  subject: SubjectParties,
  accountId: string,
  taken: boolean,
): CounterpartOutcome {
  const { owner, party } = subject;
  if (type === 'job' || type === 'listing') {
    if (!subject.open && owner !== accountId && !taken) return { ok: false, problem: 'not_found' };
    if (owner === accountId) return { ok: false, problem: 'self' };
    return owner === null ? { ok: false, problem: 'no_counterpart' } : { ok: true, other: owner };
  }
  if (party !== accountId && owner !== accountId) return { ok: false, problem: 'not_found' };
  if (party === owner) return { ok: false, problem: 'self' };
  const other = party === accountId ? owner : party;
  return other === null ? { ok: false, problem: 'no_counterpart' } : { ok: true, other };
}
