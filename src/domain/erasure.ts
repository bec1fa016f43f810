/**
 * What an erased account's names and texts become (DELETE /v1/me; docs/privacy.md). German first,
 * as the marketplace shows its own words.
 */
export const ERASED_NAME = 'Gelöschtes Konto / Deleted account';
export const ERASED_TITLE = 'Gelöscht / Deleted';
export const ERASED_TEXT = '[gelöscht / deleted]';
/** What a message removed by a moderation decision reads as. */
export const MODERATED_TEXT = '[entfernt / removed by moderation]';

/** The e-mail address an erased row gets: unique, and undeliverable by definition (RFC 2606 .invalid). */
export function erasedEmail(id: string): string {
  return `erased+${id}@erased.invalid`;
}

/** What an erasure keeps, why, and for how long: the answer of DELETE /v1/me and docs/privacy.md list the same. */
export const ERASURE_KEPT = [
  {
    record: 'bookings',
    what: 'Dates, days, prices, deposit and status of each booking, with no name, text or address.',
    reason:
      'Accounting records of commercial providers and of their customers’ payments (§ 147 AO, § 257 HGB); the other party’s own history.',
    period: '10 years from the end of the calendar year of the booking, then deleted.',
  },
  {
    record: 'payments',
    what: 'Amount, fee, status and dates of each payment the account owed or was owed, and their ledger lines; no name, text or bank account.',
    reason:
      'Accounting records of the platform’s fees and of the parties’ payments (§ 147 AO, § 257 HGB); the other party’s own history.',
    period: '10 years from the end of the calendar year of the payment, then deleted.',
  },
  {
    record: 'jobs and listings',
    what: 'Category, price, dates, status and the approximate place; titles, descriptions, photos and the exact place are erased.',
    reason: 'The market statistics and price estimates count them; applications and bookings of others refer to them.',
    period: 'As long as the marketplace runs; nothing in them identifies a person.',
  },
  {
    record: 'ratings',
    what: 'The rating (1-5) of each review written or received; texts, replies and author names are erased.',
    reason:
      'Reliability figures of the other parties are counts and averages over them (GDPR Art. 17(3) does not reach anonymous data).',
    period: 'As long as the rated profile exists.',
  },
  {
    record: 'account',
    what: 'The account id, its type, when it was made and when it was erased; no name and no e-mail address.',
    reason: 'The rows above refer to it; a revoked key is answered as revoked, not as unknown.',
    period: 'As long as the rows above.',
  },
  {
    record: 'messages received',
    what: 'Messages others wrote to the account (their words, in their conversation); those the account wrote are erased.',
    reason: 'They are the other party’s data, not the erased account’s.',
    period: 'Until the other party erases their account.',
  },
] as const;
