/** The cancellation policies' tiers at their edges, and the split of an amount (domain/cancellation.ts). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { refundPercent, splitRefund } from '../../src/domain/cancellation.js';

test('each policy refunds by the hours left, the tiers including their edges', () => {
  const at = (policy: 'flexible' | 'moderate' | 'strict', hours: number[]) =>
    hours.map((h) => refundPercent(policy, h));
  assert.deepEqual(at('flexible', [200, 24, 23.9, 0, -5]), [100, 100, 50, 50, 50]);
  assert.deepEqual(at('moderate', [48, 47.9, 12, 11.9, -1]), [100, 50, 50, 0, 0]);
  assert.deepEqual(at('strict', [168, 167.9, 48, 47.9, 0]), [100, 50, 50, 0, 0]);
});

test('the kept share is rounded half up to the cent and the two parts add up to the amount', () => {
  assert.deepEqual(splitRefund(801, 50), { refundCents: 400, keptCents: 401 });
  assert.deepEqual(splitRefund(800, 50), { refundCents: 400, keptCents: 400 });
  assert.deepEqual(splitRefund(999, 100), { refundCents: 999, keptCents: 0 });
  assert.deepEqual(splitRefund(999, 0), { refundCents: 0, keptCents: 999 });
  for (const amount of [1, 3, 77, 12_345]) {
    const { refundCents, keptCents } = splitRefund(amount, 50);
    assert.equal(refundCents + keptCents, amount);
  }
});
