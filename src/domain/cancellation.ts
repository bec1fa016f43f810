/**
 * Cancellation policies (issue 32): how much of a payment a payer gets back when they cancel, by
 * the hours left before the start, in the spirit of Helpling's 48 h / 24 h / 12 h tiers and
 * Airbnb's flexible, moderate and strict policies. The payee keeps the rest as a cancellation fee.
 *
 * | policy   | refund in full       | half refunded          | nothing refunded |
 * | -------- | -------------------- | ---------------------- | ---------------- |
 * | flexible | 24 h or more before  | less than 24 h before  | (never)          |
 * | moderate | 48 h or more before  | 12 h to 48 h before    | under 12 h       |
 * | strict   | 7 days or more before| 48 h to 7 days before  | under 48 h       |
 *
 * The kept share is rounded half up to the cent, the refund is the rest, so the two add up to
 * the amount. A cancellation by the payee (the owner of a listing), or of a job with no time set,
 * refunds in full.
 */
export const CANCELLATION_POLICIES = ['flexible', 'moderate', 'strict'] as const;
export type CancellationPolicy = (typeof CANCELLATION_POLICIES)[number];

/** Tiers, latest first: at least `hoursBefore` hours before the start, `refundPercent` comes back. */
export const POLICY_TIERS: Record<CancellationPolicy, readonly { hoursBefore: number; refundPercent: number }[]> = {
  flexible: [
    { hoursBefore: 24, refundPercent: 100 },
    { hoursBefore: Number.NEGATIVE_INFINITY, refundPercent: 50 },
  ],
  moderate: [
    { hoursBefore: 48, refundPercent: 100 },
    { hoursBefore: 12, refundPercent: 50 },
    { hoursBefore: Number.NEGATIVE_INFINITY, refundPercent: 0 },
  ],
  strict: [
    { hoursBefore: 168, refundPercent: 100 },
    { hoursBefore: 48, refundPercent: 50 },
    { hoursBefore: Number.NEGATIVE_INFINITY, refundPercent: 0 },
  ],
};

/** The percent refunded under `policy` with `hoursBefore` hours left (negative: after the start). */
export function refundPercent(policy: CancellationPolicy, hoursBefore: number): number {
  const tier = POLICY_TIERS[policy].find((t) => hoursBefore >= t.hoursBefore);
  return tier?.refundPercent ?? 0;
}

/** An amount split into what comes back and what the payee keeps, in cents. */
export function splitRefund(amountCents: number, percent: number): { refundCents: number; keptCents: number } {
  const keptCents = Math.floor((amountCents * (100 - percent) + 50) / 100);
  return { refundCents: amountCents - keptCents, keptCents };
}

/** The policies as one sentence, for the API description. */
export const POLICY_TEXT =
  'flexible: full refund until 24 h before the start, half after; moderate: full until 48 h, half until 12 h, none after; strict: full until 7 days, half until 48 h, none after. The payee keeps the rest as a cancellation fee (rounded half up to the cent).';
