import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  countedRatings,
  FRESH_HISTORY,
  helperRecord,
  NEW_ACCOUNT_HOURS,
  ownerRecord,
  type ReliabilityHistory,
  reliabilityOf,
  reliabilityScore,
  seasonedAt,
} from '../../src/domain/reliability.js';

const record = (overrides: Partial<ReliabilityHistory>): ReliabilityHistory => ({ ...FRESH_HISTORY, ...overrides });

/** A long good record: 40 completed jobs, none cancelled, answered in 5 minutes, forty 5-star reviews. */
const veteran = record({
  completed: 40,
  commitments: 40,
  responseMinutes: Array.from({ length: 40 }, () => 5),
  ratings: Array.from({ length: 40 }, () => 5),
  verified: true,
});

describe('reliability_score: a formula with priors', () => {
  test('someone new starts at the stated neutral value: 48, or 58 once verified', () => {
    assert.equal(reliabilityScore(FRESH_HISTORY), 48);
    assert.equal(reliabilityScore(record({ verified: true })), 58);
    assert.deepEqual(reliabilityOf(FRESH_HISTORY), {
      reliability_score: 48,
      completed_jobs: 0,
      avg_response_minutes: 0,
      cancellation_rate: 0,
      rating_avg: 0,
      rating_count: 0,
      verified: false,
    });
  });

  test('one bad review costs a long good record about a point, a newcomer five', () => {
    assert.equal(reliabilityScore(veteran), 96);
    assert.equal(reliabilityScore({ ...veteran, ratings: [...veteran.ratings, 1] }), 95);
    assert.equal(reliabilityScore(record({ ratings: [1] })), 43);
    // One 5-star review does not make a top helper either.
    assert.equal(reliabilityScore(record({ ratings: [5] })), 51);
  });

  test('cancellations, slowness and missing verification pull it down; it stays within 0-100', () => {
    assert.ok(reliabilityScore({ ...veteran, cancellations: 10 }) < reliabilityScore(veteran) - 5);
    assert.ok(reliabilityScore({ ...veteran, responseMinutes: veteran.responseMinutes.map(() => 600) }) < 90);
    assert.equal(reliabilityScore({ ...veteran, verified: false }), 86);
    const worst = record({ commitments: 10, cancellations: 10, ratings: Array.from({ length: 50 }, () => 1) });
    assert.equal(reliabilityScore(worst), 8);
  });

  test('the figures shown are the plain ones: mean rating and minutes, share cancelled', () => {
    assert.deepEqual(
      reliabilityOf(
        record({ ratings: [5, 4, 4], responseMinutes: [10, 21], commitments: 4, cancellations: 1, completed: 3 }),
      ),
      {
        reliability_score: reliabilityScore(
          record({ ratings: [5, 4, 4], responseMinutes: [10, 21], commitments: 4, cancellations: 1, completed: 3 }),
        ),
        completed_jobs: 3,
        avg_response_minutes: 16,
        cancellation_rate: 0.25,
        rating_avg: 4.33,
        rating_count: 3,
        verified: false,
      },
    );
  });

  test('a helper record counts accepted applications; completed jobs only when not withdrawn', () => {
    const job = { job_created_at: '2026-11-01T10:00:00.000Z' };
    const history = helperRecord(
      [
        {
          ...job,
          created_at: '2026-11-01T10:30:00.000Z',
          status: 'accepted',
          withdrawn_at: null,
          job_status: 'completed',
        },
        {
          ...job,
          created_at: '2026-11-01T11:00:00.000Z',
          status: 'accepted',
          withdrawn_at: '2026-11-02T00:00:00.000Z',
          job_status: 'cancelled',
        },
        {
          ...job,
          created_at: '2026-11-01T10:10:00.000Z',
          status: 'rejected',
          withdrawn_at: null,
          job_status: 'completed',
        },
      ],
      [4],
      true,
    );
    assert.deepEqual(history, {
      completed: 1,
      responseMinutes: [30, 60, 10],
      commitments: 2,
      cancellations: 1,
      ratings: [4],
      verified: true,
    });
  });

  test('an owner record: returned bookings, answer times of requests, cancellations by the owner', () => {
    const at = '2026-11-01T10:00:00.000Z';
    const history = ownerRecord(
      [
        { status: 'returned', created_at: at, decided_at: '2026-11-01T10:45:00.000Z', cancelled_by: null },
        { status: 'returned', created_at: at, decided_at: null, cancelled_by: null },
        { status: 'cancelled', created_at: at, decided_at: null, cancelled_by: 'owner' },
        { status: 'cancelled', created_at: at, decided_at: null, cancelled_by: 'renter' },
        { status: 'declined', created_at: at, decided_at: '2026-11-01T12:00:00.000Z', cancelled_by: null },
      ],
      [],
      false,
    );
    assert.deepEqual(history, {
      completed: 2,
      responseMinutes: [45, 120],
      commitments: 3,
      cancellations: 1,
      ratings: [],
      verified: false,
    });
  });
});

describe('reputation cannot be bought with new accounts or one pair (issue 30, 3)', () => {
  const at = (hours: number) => new Date(Date.UTC(2026, 10, 1) + hours * 3_600_000).toISOString();
  const review = (author: string | null, rating: number, authorMadeAt: number | null, writtenAt: number) => ({
    author_account_id: author,
    author_created_at: authorMadeAt === null ? null : at(authorMadeAt),
    created_at: at(writtenAt),
    rating,
  });

  test('one author counts once, with the mean of their ratings; reviews of no account count each', () => {
    const ratings = countedRatings([
      ...Array.from({ length: 11 }, (_, i) => review('acc_friend', 5, 0, 48 + i)),
      review('acc_other', 2, 0, 100),
      review('acc_other', 3, 0, 101),
      review(null, 4, null, 10),
    ]);
    assert.deepEqual(ratings.sort(), [2.5, 4, 5]);
  });

  test(`an account younger than ${NEW_ACCOUNT_HOURS} h when it wrote counts not at all`, () => {
    assert.deepEqual(
      countedRatings([review('acc_new', 5, 0, 0.1), review('acc_new', 5, 0, NEW_ACCOUNT_HOURS - 0.01)]),
      [],
    );
    assert.deepEqual(countedRatings([review('acc_old', 1, 0, NEW_ACCOUNT_HOURS)]), [1]);
    assert.equal(seasonedAt(at(0), at(NEW_ACCOUNT_HOURS)), true);
    assert.equal(seasonedAt(at(0), at(NEW_ACCOUNT_HOURS - 1)), false);
    assert.equal(seasonedAt(null, at(1)), false);
  });

  test('a completion by an owner account younger than a day is no completed job', () => {
    const application = (ownerMadeAt: number | null, completedAt: number) => ({
      created_at: at(0),
      status: 'accepted',
      withdrawn_at: null,
      job_created_at: at(0),
      job_status: 'completed',
      job_completed_at: at(completedAt),
      owner_created_at: ownerMadeAt === null ? null : at(ownerMadeAt),
    });
    const record = helperRecord([application(0, 1), application(0, 30), application(null, 1)], [], false);
    assert.equal(record.completed, 2, 'the seasoned owner’s and the seeded job count; the fresh owner’s not');
    assert.equal(record.commitments, 3);
  });
});
