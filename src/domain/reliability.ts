/** The seven figures of a ReliabilityScore (spec 2.4), as the API shows them. */
export interface ReliabilityFigures {
  reliability_score: number;
  completed_jobs: number;
  avg_response_minutes: number;
  cancellation_rate: number;
  rating_avg: number;
  rating_count: number;
  verified: boolean;
}

/**
 * What a helper or a listing owner did, the figures are computed from. A helper: jobs completed
 * with an accepted application of theirs, minutes from a job's posting to their application,
 * accepted applications (commitments) and the ones they withdrew (cancellations). A listing owner:
 * bookings returned, minutes from a booking request to their confirm or decline, bookings
 * confirmed (commitments) and the ones they cancelled. Both: the ratings of their published
 * reviews, and whether an approved, unrevoked verification exists.
 */
export interface ReliabilityHistory {
  completed: number;
  responseMinutes: readonly number[];
  commitments: number;
  cancellations: number;
  ratings: readonly number[];
  verified: boolean;
}

/** The priors: what the score assumes of someone before their record says otherwise. */
export const RELIABILITY_PRIOR = {
  /** Pseudo-reviews at PRIOR_RATING stars added to the real ones (a Bayesian average). */
  ratingWeight: 5,
  rating: 3.5,
  /** Pseudo-commitments with PRIOR_CANCELLATIONS of them cancelled. */
  commitmentWeight: 5,
  cancellations: 0.5,
  /** Pseudo-answers of this many minutes. */
  responseWeight: 3,
  responseMinutes: 60,
  /** Completed jobs (or returned bookings) that count as full experience. */
  fullExperience: 25,
} as const;

/** The weights of the five parts of the score; they add up to 100. */
export const RELIABILITY_WEIGHTS = {
  rating: 50,
  cancellations: 20,
  experience: 10,
  responsiveness: 10,
  verified: 10,
} as const;

const clamp01 = (x: number) => Math.max(0, Math.min(1, x));
const mean = (values: readonly number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;
const roundTo = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;

/**
 * reliability_score (0-100) from a record, each part smoothed by a prior so that a new helper starts
 * at a stated neutral value (48 unverified, 58 verified) and one bad review does not sink a long
 * good record:
 *
 * - rating (50): the Bayesian average (5 × 3.5 + sum of ratings) / (5 + count), mapped from 1-5 stars to 0-1;
 * - cancellations (20): 1 − 4 × (cancellations + 0.5) / (commitments + 5), at least 0;
 * - experience (10): completed / 25, at most 1;
 * - responsiveness (10): 60 / (60 + m), m = (3 × 60 + sum of response minutes) / (3 + count);
 * - verified (10): all or nothing.
 *
 * The sum is rounded to a whole number.
 */
export function reliabilityScore(h: ReliabilityHistory): number {
  const p = RELIABILITY_PRIOR;
  const w = RELIABILITY_WEIGHTS;
  const ratingSum = h.ratings.reduce((sum, r) => sum + r, 0);
  const bayesRating = (p.ratingWeight * p.rating + ratingSum) / (p.ratingWeight + h.ratings.length);
  const smoothedCancellations = (h.cancellations + p.cancellations) / (h.commitments + p.commitmentWeight);
  const responseSum = h.responseMinutes.reduce((sum, m) => sum + m, 0);
  const minutes = (p.responseWeight * p.responseMinutes + responseSum) / (p.responseWeight + h.responseMinutes.length);
  const score =
    w.rating * clamp01((bayesRating - 1) / 4) +
    w.cancellations * clamp01(1 - 4 * smoothedCancellations) +
    w.experience * clamp01(h.completed / p.fullExperience) +
    w.responsiveness * (60 / (60 + minutes)) +
    (h.verified ? w.verified : 0);
  return Math.max(0, Math.min(100, Math.round(score)));
}

/** Every figure of a ReliabilityScore from a record: the only place they are computed. */
export function reliabilityOf(h: ReliabilityHistory): ReliabilityFigures {
  return {
    reliability_score: reliabilityScore(h),
    completed_jobs: h.completed,
    avg_response_minutes: h.responseMinutes.length > 0 ? Math.round(mean(h.responseMinutes)) : 0,
    cancellation_rate: h.commitments > 0 ? roundTo(Math.min(1, h.cancellations / h.commitments), 3) : 0,
    rating_avg: h.ratings.length > 0 ? roundTo(mean(h.ratings), 2) : 0,
    rating_count: h.ratings.length,
    verified: h.verified,
  };
}

/** The record of someone new: nothing done yet, not verified. */
export const FRESH_HISTORY: Readonly<ReliabilityHistory> = {
  completed: 0,
  responseMinutes: [],
  commitments: 0,
  cancellations: 0,
  ratings: [],
  verified: false,
};

/** The one-line statement of the formula, for the OpenAPI description of ReliabilityScore and the docs. */
const P = RELIABILITY_PRIOR;
const W = RELIABILITY_WEIGHTS;
/**
 * Hours an account must have existed for what it does to count in someone's reputation (issue 30,
 * 3): a review it writes, or its completion of a job. An account made minutes before a five-star
 * review or a completion is what a bought reputation looks like; one made a day earlier costs a
 * day per account, and with PAIR_COUNTS_ONCE a new account per review.
 */
export const NEW_ACCOUNT_HOURS = 24;

export const RELIABILITY_FORMULA = `reliability_score = round(${W.rating} × rating + ${W.cancellations} × cancellations + ${W.experience} × experience + ${W.responsiveness} × responsiveness + ${W.verified} × verified), each part 0 to 1 and smoothed by a prior: rating = ((${P.ratingWeight} × ${P.rating} + sum of published ratings) / (${P.ratingWeight} + rating_count) − 1) / 4, a Bayesian average with ${P.ratingWeight} pseudo-reviews of ${P.rating} stars; cancellations = max(0, 1 − 4 × (cancellations + ${P.cancellations}) / (commitments + ${P.commitmentWeight})); experience = min(1, completed_jobs / ${P.fullExperience}); responsiveness = ${P.responseMinutes} / (${P.responseMinutes} + m) with m = (${P.responseWeight} × ${P.responseMinutes} + sum of response minutes) / (${P.responseWeight} + answers); verified = 1 with an approved, unrevoked verification. Someone new starts at ${reliabilityScore(FRESH_HISTORY)} (${reliabilityScore({ ...FRESH_HISTORY, verified: true })} once verified); one 1-star review after 40 five-star ones costs about one point. Ratings count one per reviewer (the mean of theirs) and only from accounts ${NEW_ACCOUNT_HOURS} h old when they wrote; completions only by posters that old, and once final (the helper confirmed, or the window to object closed).`;

/** An application of a helper, with its job, as a helper's record reads it. */
export interface HelperApplicationFact {
  created_at: string;
  status: string;
  withdrawn_at: string | null;
  job_created_at: string;
  job_status: string;
  /** When the job was completed, and when its owner's account was made (seasoned: NEW_ACCOUNT_HOURS). */
  job_completed_at?: string | null;
  owner_created_at?: string | null;
  /**
   * When the completion became final for this helper (confirmed, or the window to object closed;
   * domain/completions.ts); null: not final. Not given: not tracked (counts as final).
   */
  completion_final_at?: string | null;
  /**
   * Who did not come, by the other side's report (issue 32): a helper's no-show counts as a
   * cancellation of theirs, the poster's not (their acceptance ended through no fault of the helper).
   */
  no_show?: 'helper' | 'poster' | null;
  /**
   * Who excused a standing helper from this occurrence of a job series (issue 35), and the
   * occurrence's start: the poster's excuse never counts as the helper's cancellation, the helper's
   * only when given less than EXCUSE_NOTICE_HOURS before the start.
   */
  excused_by?: 'helper' | 'poster' | null;
  job_desired_at?: string | null;
}

/** A standing helper who excuses themselves from an occurrence at least this long ahead has not cancelled. */
export const EXCUSE_NOTICE_HOURS = 48;

/** Whether an ended acceptance counts as the helper's cancellation (see HelperApplicationFact). */
function isHelpersCancellation(a: HelperApplicationFact): boolean {
  if (a.withdrawn_at === null || a.no_show === 'poster' || a.excused_by === 'poster') return false;
  if (a.excused_by !== 'helper' || !a.job_desired_at) return true;
  return Date.parse(a.job_desired_at) - Date.parse(a.withdrawn_at) < EXCUSE_NOTICE_HOURS * 3_600_000;
}

/** Whether an account made at `createdAt` was NEW_ACCOUNT_HOURS old at `at`. Unknown: not seasoned. */
export function seasonedAt(createdAt: string | null | undefined, at: string | null | undefined): boolean {
  if (!createdAt || !at) return false;
  return Date.parse(at) - Date.parse(createdAt) >= NEW_ACCOUNT_HOURS * 3_600_000;
}

/** A published review as reputation counts it: its author, their account's age, its stars. */
export interface RatingFact {
  author_account_id: string | null;
  author_created_at: string | null;
  created_at: string;
  rating: number;
}

/**
 * The ratings that count (issue 30, 3): of the published reviews, those whose author's account was
 * NEW_ACCOUNT_HOURS old when writing; and of one author's reviews of the same party, one rating,
 * their mean (two accounts that review each other again and again count once). So rating_avg and
 * rating_count count reviewers, not reviews.
 */
export function countedRatings(reviews: readonly RatingFact[]): number[] {
  const byAuthor = new Map<string, number[]>();
  const unattributed: number[] = [];
  for (const review of reviews) {
    // Reviews of no account (the seeded history) count each; an account's only once it was seasoned.
    if (review.author_account_id === null) unattributed.push(review.rating);
    else if (review.author_created_at === null || seasonedAt(review.author_created_at, review.created_at)) {
      byAuthor.set(review.author_account_id, [...(byAuthor.get(review.author_account_id) ?? []), review.rating]);
    }
  }
  return [...unattributed, ...[...byAuthor.values()].map((ratings) => roundTo(mean(ratings), 2))];
}

/** A booking of an owner's listing, as an owner's record reads it. */
export interface OwnerBookingFact {
  status: string;
  created_at: string;
  decided_at: string | null;
  cancelled_by: string | null;
}

const minutesBetween = (from: string, to: string) => Math.max(0, (Date.parse(to) - Date.parse(from)) / 60_000);

/**
 * A helper's record: each application answers a job (minutes from its posting); an accepted one is
 * a commitment, a withdrawn one a cancellation, one on a completed job a completed job. Each
 * conversation the other side opened and the helper's account answered is an answer too
 * (`firstReplies`: minutes from its first message to the account's first one).
 */
export function helperRecord(
  applications: readonly HelperApplicationFact[],
  ratings: readonly number[],
  verified: boolean,
  firstReplies: readonly number[] = [],
): ReliabilityHistory {
  const accepted = applications.filter((a) => a.status === 'accepted');
  return {
    completed: accepted.filter(
      (a) =>
        a.withdrawn_at === null &&
        a.job_status === 'completed' &&
        // A job of no account (the seeded history) counts; an account's once it was seasoned when
        // it completed the job, and once the completion is final for the helper (issue 30, 3).
        (a.job_completed_at === undefined ||
          !a.owner_created_at ||
          (seasonedAt(a.owner_created_at, a.job_completed_at) && a.completion_final_at !== null)),
    ).length,
    responseMinutes: [...applications.map((a) => minutesBetween(a.job_created_at, a.created_at)), ...firstReplies],
    commitments: accepted.length,
    cancellations: accepted.filter(isHelpersCancellation).length,
    ratings,
    verified,
  };
}

/**
 * A listing owner's record: a returned booking is a completed one; a request confirmed or declined
 * is an answer (minutes from the request); confirmed, active and returned bookings and those the
 * owner cancelled are commitments, the latter cancellations. First replies to conversations the
 * other side opened count as answers, as for helpers.
 */
export function ownerRecord(
  bookings: readonly OwnerBookingFact[],
  ratings: readonly number[],
  verified: boolean,
  firstReplies: readonly number[] = [],
): ReliabilityHistory {
  const cancellations = bookings.filter((b) => b.status === 'cancelled' && b.cancelled_by === 'owner').length;
  const kept = bookings.filter((b) => b.status === 'confirmed' || b.status === 'active' || b.status === 'returned');
  return {
    completed: bookings.filter((b) => b.status === 'returned').length,
    responseMinutes: [
      ...bookings.flatMap((b) => (b.decided_at === null ? [] : [minutesBetween(b.created_at, b.decided_at)])),
      ...firstReplies,
    ],
    commitments: kept.length + cancellations,
    cancellations,
    ratings,
    verified,
  };
}

/** How a helper may prove who they are (POST /v1/helpers/{id}/verification-requests). */
export const VERIFICATION_METHODS = ['id_document', 'address_letter', 'phone'] as const;
