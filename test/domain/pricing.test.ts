import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { coarseEta, ETA_STEP_MINUTES, smartEtaMinutes } from '../../src/domain/eta.js';
import { haversineKm } from '../../src/domain/geo.js';
import { PLACES } from '../../src/domain/places.js';
import {
  estimateConfidence,
  estimateFromRates,
  eurToCents,
  maxApplicants,
  priceBand,
  priceRange,
  pricingConfidence,
  pricingConfidenceOfStanding,
  quantile,
  rateSample,
} from '../../src/domain/pricing.js';

describe('pricing_confidence from counts (issue 34)', () => {
  test('gives what the percentiles give, for any sample and rate, ties and bounds included', () => {
    // Rates as the database computes them (cents per helper-hour), in EUR as sampleInEuros makes them.
    const cents = fc
      .integer({ min: 100, max: 10_000 })
      .chain((price) => fc.constantFrom(1, 2, 3, 4, 6).map((hours) => price / hours));
    fc.assert(
      fc.property(fc.array(cents, { maxLength: 80 }), fc.nat(), cents, (values, pick, other) => {
        const eur = values.map((v) => v / 100);
        // Half the time the rate is one of the sample's own values (ties are where a band edge lies).
        const rate = eur.length > 0 && pick % 2 === 0 ? (eur[pick % eur.length] as number) : other / 100;
        const standing = {
          count: eur.length,
          atOrBelow: eur.filter((v) => v <= rate).length,
          below: eur.filter((v) => v < rate).length,
        };
        assert.equal(pricingConfidenceOfStanding(standing), pricingConfidence(rate, rateSample(eur)));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('pricing rules', () => {
  test('price_range is the price minus and plus 20 %; max_applicants is helpers x 3', () => {
    assert.deepEqual(priceRange(60), { low: 48, high: 72 });
    assert.deepEqual(priceRange(19.99), { low: 15.99, high: 23.99 });
    assert.equal(maxApplicants(1), 3);
    assert.equal(maxApplicants(4), 12);
  });

  test('nearest-rank percentiles', () => {
    const sorted = [10, 11, 12, 13, 14, 15, 16, 17, 18, 19];
    assert.equal(quantile(sorted, 10), 10);
    assert.equal(quantile(sorted, 50), 14);
    assert.equal(quantile(sorted, 90), 18);
    assert.equal(quantile([7], 90), 7);
    assert.equal(quantile([], 50), undefined);
    assert.deepEqual(rateSample([30, 10, 20, 40]), { count: 4, p10: 10, p25: 10, p50: 20, p75: 30, p90: 40 });
  });

  test('pricing_confidence: high in the middle half of 30+ jobs, medium within p10-p90, low outside, null under 5', () => {
    const thirty = rateSample(Array.from({ length: 30 }, (_, i) => 10 + i)); // 10..39
    assert.ok(thirty);
    assert.deepEqual([thirty.p10, thirty.p25, thirty.p75, thirty.p90], [12, 17, 32, 36]);
    assert.equal(pricingConfidence(17, thirty), 'high');
    assert.equal(pricingConfidence(32, thirty), 'high');
    assert.equal(pricingConfidence(16.99, thirty), 'medium');
    assert.equal(pricingConfidence(36, thirty), 'medium');
    assert.equal(pricingConfidence(36.01, thirty), 'low');
    assert.equal(pricingConfidence(11, thirty), 'low');
    const few = rateSample([15, 16, 17, 18, 19, 20]);
    assert.equal(pricingConfidence(17, few), 'medium'); // fewer than 30: never high
    assert.equal(pricingConfidence(17, rateSample([15, 16, 17, 18])), null);
    assert.equal(pricingConfidence(17, null), null);
  });

  test('estimates scale by helper-hours; confidence n/(n+20) capped at 0.95', () => {
    assert.equal(estimateConfidence(0), 0);
    assert.equal(estimateConfidence(20), 0.5);
    assert.equal(estimateConfidence(80), 0.8);
    assert.equal(estimateConfidence(100_000), 0.95);
    const sample = { count: 20, p10: 12, p25: 14, p50: 16, p75: 18, p90: 20 };
    assert.deepEqual(estimateFromRates('GARDENING', sample, 2.5, 2), {
      price_estimate_eur: 80,
      price_min_eur: 60,
      price_max_eur: 100,
      confidence: 0.5,
      based_on_jobs: 20,
    });
  });

  test('EUR bounds round inward, bands show EUR to the cent', () => {
    assert.equal(eurToCents(60.004, 'up'), 6001);
    assert.equal(eurToCents(59.996, 'down'), 5999);
    assert.equal(eurToCents(19.99, 'down'), 1999);
    assert.equal(eurToCents(19.99, 'up'), 1999);
    assert.equal(eurToCents(19.995), 2000);
    assert.deepEqual(priceBand({ count: 3, p10: 1234, p25: 1300, p50: 1500, p75: 1700, p90: 2001 }), {
      low: 12.34,
      median: 15,
      high: 20.01,
    });
    assert.equal(priceBand(null), null);
  });
});

describe('smart ETA and reliability', () => {
  const job = { lat: 49.0069, lng: 8.4037, remote_task: false };

  test('ETA: the quickest helper: response time plus travel at 20 km/h, within the limit', () => {
    // Ettlingen is 7.22 km from the centre: 21.66 minutes at 20 km/h.
    const ettlingen = PLACES.find((p) => p.city === 'Ettlingen');
    assert.ok(ettlingen);
    assert.equal(haversineKm(job, ettlingen).toFixed(2), '7.22');
    const slowNear = { lat: job.lat, lng: job.lng, avg_response_minutes: 60 };
    const quickFar = { lat: ettlingen.lat, lng: ettlingen.lng, avg_response_minutes: 15 };
    assert.equal(smartEtaMinutes(job, [slowNear, quickFar], 50), 45); // 15 + 21.66, up to the quarter hour
    assert.equal(smartEtaMinutes(job, [slowNear, quickFar], 5), 60); // Ettlingen is beyond 5 km
    assert.equal(smartEtaMinutes({ ...job, remote_task: true }, [quickFar], 1), 15); // no travel
    assert.equal(smartEtaMinutes(job, [], 50), null);
  });

  test('ETA: rounded up to quarter hours, never 0, so it says less than the 500 m offset (issue 30, 4)', () => {
    const here = { lat: job.lat, lng: job.lng, avg_response_minutes: 0 };
    assert.equal(smartEtaMinutes(job, [here], 50), ETA_STEP_MINUTES, 'a helper on the spot: one step, not 0');
    assert.equal(smartEtaMinutes({ ...job, remote_task: true }, [here], 50), ETA_STEP_MINUTES);
    // Helpers 0 to 5 km away (response 0): one step tells nothing finer than 5 km.
    for (let m = 0; m < 5_000; m += 250) {
      const helper = { lat: job.lat + m / 111_195, lng: job.lng, avg_response_minutes: 0 };
      assert.equal(smartEtaMinutes(job, [helper], 50), ETA_STEP_MINUTES, `${m} m`);
    }
    assert.deepEqual([1, 14, 15, 16, 29, 31, 60].map(coarseEta), [15, 15, 15, 30, 30, 45, 60]);
  });
});
