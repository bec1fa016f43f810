/**
 * Who a conversation is with (src/domain/conversation-parties.ts): the owner of a job or listing
 * the caller can see, the other side of an application or booking the caller is a party of, and
 * not_found for everything else, the same answer as an id that does not exist.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { counterpartIn, dependsOnTaken } from '../../src/domain/conversation-parties.js';

const offer = (open: boolean, owner: string | null = 'owner') => ({ owner, party: null, open });
const deal = (party: string | null, owner: string | null = 'owner') => ({ owner, party, open: false });

describe('counterpartIn', () => {
  test('an open job or available listing: its owner, for anyone but the owner', () => {
    for (const type of ['job', 'listing'] as const) {
      assert.deepEqual(counterpartIn(type, offer(true), 'me', false), { ok: true, other: 'owner' });
      assert.deepEqual(counterpartIn(type, offer(true), 'owner', false), { ok: false, problem: 'self' });
      assert.deepEqual(counterpartIn(type, offer(true, null), 'me', false), { ok: false, problem: 'no_counterpart' });
    }
  });

  test('a closed one: only for who applied to it or booked it, else not_found', () => {
    assert.deepEqual(counterpartIn('job', offer(false), 'me', false), { ok: false, problem: 'not_found' });
    assert.deepEqual(counterpartIn('job', offer(false), 'me', true), { ok: true, other: 'owner' });
    assert.deepEqual(counterpartIn('listing', offer(false), 'owner', false), { ok: false, problem: 'self' });
    assert.equal(dependsOnTaken('job', offer(false), 'me'), true);
    assert.equal(dependsOnTaken('job', offer(true), 'me'), false);
    assert.equal(dependsOnTaken('listing', offer(false), 'owner'), false);
    assert.equal(dependsOnTaken('booking', deal('me'), 'me'), false);
  });

  test('an application or booking: the other side, for its two parties only', () => {
    for (const type of ['application', 'booking'] as const) {
      assert.deepEqual(counterpartIn(type, deal('me'), 'me', false), { ok: true, other: 'owner' });
      assert.deepEqual(counterpartIn(type, deal('party'), 'owner', false), { ok: true, other: 'party' });
      assert.deepEqual(counterpartIn(type, deal('party'), 'stranger', true), { ok: false, problem: 'not_found' });
      assert.deepEqual(counterpartIn(type, deal('me', 'me'), 'me', false), { ok: false, problem: 'self' });
      assert.deepEqual(counterpartIn(type, deal('me', null), 'me', false), { ok: false, problem: 'no_counterpart' });
    }
  });
});
