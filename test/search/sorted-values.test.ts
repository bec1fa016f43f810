/**
 * The sorted multiset behind the figures the search indexes keep (src/search/sorted-values.ts)
 * against a sorted copy, after random batches of additions and removals of every size (one by
 * one and merged), with ties, negative zero and removals of values added in the same batch; and the
 * deadline heaps of JobFigures against a direct count with a clock that goes forward and back, and
 * the compact store of completed jobs.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CompletedJobs, JobFigures } from '../../src/search/index-figures.js';
import { CategoryValues, FiguresBroken, SortedValues } from '../../src/search/sorted-values.js';
import { seeded } from '../helpers/random.js';

test('SortedValues holds exactly the values added and not removed, in order, after batches of any size', () => {
  const g = seeded(5);
  const values = new SortedValues();
  const model: number[] = [];
  for (let round = 0; round < 400; round++) {
    const batch = g.pick([1, 2, 5, 8, 9, 40, 300]);
    for (let i = 0; i < batch; i++) {
      if (model.length > 0 && g.maybe(0.45)) {
        const at = Math.floor(g.next() * model.length);
        const [value] = model.splice(at, 1);
        values.remove(value as number);
      } else {
        // Few distinct values (ties), fractions, and zero of both signs.
        const value = g.pick([0, -0, 1, 2.5, 1 / 3, 1000, -7, Math.floor(g.next() * 50)]);
        values.add(value);
        model.push(value);
        // Sometimes removed again before the batch is merged.
        if (g.maybe(0.1)) {
          values.remove(value);
          model.pop();
        }
      }
    }
    assert.equal(values.size, model.length, `round ${round}: size before the merge`);
    // Zero and negative zero are one value (as in SQL): compared as zero.
    const zero = (list: number[]) => list.map((v) => (v === 0 ? 0 : v));
    const sorted = zero([...model].sort((a, b) => a - b));
    assert.deepEqual(zero(values.toArray()), sorted, `round ${round}`);
    if (sorted.length > 0) {
      const k = Math.floor(g.next() * sorted.length);
      assert.ok(values.at(k) === sorted[k]);
    }
  }
  assert.throws(() => values.add(Number.NaN), RangeError);
  values.remove(123_456);
  assert.throws(() => values.settle(), FiguresBroken);
  assert.throws(() => values.sample(), /not held/, 'broken for good: no read answers from wrong values');
});

test('SortedValues gives the nearest-rank percentiles', () => {
  const values = new SortedValues();
  assert.equal(values.sample(), null);
  for (const v of [50, 10, 40, 20, 30, 60, 70, 80, 90, 100]) values.add(v);
  assert.deepEqual(values.sample(), { count: 10, p10: 10, p25: 30, p50: 50, p75: 80, p90: 90 });
});

test('JobFigures counts exactly the live jobs whose deadline lies ahead, whichever way the clock moves', () => {
  const g = seeded(11);
  const n = 500;
  const deadline = new Float64Array(n);
  const columns = {
    category: new Uint8Array(n),
    price: new Int32Array(n),
    deadline,
    urgent: new Uint8Array(n),
    hourly: new Float64Array(n),
    placeOf: (slot: number) => slot % 7,
  };
  const figures = new JobFigures(n, columns);
  const dead = new Uint8Array(n);
  let end = 0;
  const append = () => {
    const slot = end++;
    deadline[slot] = g.maybe(0.2) ? Number.POSITIVE_INFINITY : Math.floor(g.next() * 1000);
    columns.category[slot] = Math.floor(g.next() * 4);
    columns.price[slot] = Math.floor(g.next() * 100);
    columns.urgent[slot] = g.maybe(0.3) ? 1 : 0;
    columns.hourly[slot] = g.next() * 40;
    figures.added(slot);
  };
  for (let i = 0; i < 200; i++) append();
  for (let step = 0; step < 300; step++) {
    if (end < n && g.maybe(0.5)) append();
    if (g.maybe(0.3)) {
      const slot = Math.floor(g.next() * end);
      if (dead[slot] === 0) {
        dead[slot] = 1;
        figures.removed(slot);
      }
    }
    const now = Math.floor(g.next() * 1100) - 50;
    const at = figures.at(now, dead);
    const open = [...Array(end).keys()].filter((s) => dead[s] === 0 && (deadline[s] as number) > now);
    assert.equal(
      [...at.openPrice.countMap().values()].reduce((a, b) => a + b, 0),
      open.length,
      `step ${step}`,
    );
    for (let c = 0; c < 4; c++) {
      assert.equal(at.openPrice.count(c), open.filter((s) => columns.category[s] === c).length);
    }
    assert.equal(at.urgent, open.filter((s) => columns.urgent[s] === 1).length);
    const places = new Uint32Array(7);
    for (const s of open) places[s % 7] = (places[s % 7] as number) + 1;
    assert.deepEqual([...at.byPlace.subarray(0, 7)], [...places]);
    const prices = open.map((s) => columns.price[s] as number).sort((a, b) => a - b);
    const overall = at.openPrice.overall();
    if (prices.length === 0) assert.equal(overall, null);
    else assert.equal(overall?.p50, prices[Math.ceil(prices.length * 0.5) - 1]);
  }
});

test('CategoryValues finds the percentiles over all categories by search as a second multiset does', () => {
  const g = seeded(17);
  const searched = new CategoryValues('integers');
  const kept = new CategoryValues('kept');
  const held: [number, number][] = [];
  assert.equal(searched.overall(), null);
  for (let round = 0; round < 200; round++) {
    for (let i = 0; i < g.pick([1, 3, 20]); i++) {
      if (held.length > 0 && g.maybe(0.4)) {
        const [c, v] = held.splice(Math.floor(g.next() * held.length), 1)[0] as [number, number];
        searched.remove(c, v);
        kept.remove(c, v);
      } else {
        const entry: [number, number] = [Math.floor(g.next() * 10), Math.floor(g.next() * 2000) - 100];
        held.push(entry);
        searched.add(...entry);
        kept.add(...entry);
      }
    }
    assert.deepEqual(searched.overall(), kept.overall(), `round ${round}`);
    assert.deepEqual(searched.samples(), kept.samples());
  }
  assert.throws(() => searched.add(0, 1.5), RangeError);
});

test('CompletedJobs holds the load packed and finds, lets go and takes in jobs by id', () => {
  const jobs = new CompletedJobs();
  const id = (n: number) => `job_${n.toString(16).padStart(16, '0')}`;
  for (let n = 0; n < 3000; n += 3) jobs.push(id(n), { category: n % 10, hourly: n / 7 });
  // Out of id order (another collation, an id of another form): kept aside, found all the same.
  jobs.push('job_custom', { category: 1, hourly: 2 });
  jobs.push(id(3), { category: 4, hourly: 5 });
  let loaded = 0;
  jobs.forEachLoaded(() => loaded++);
  assert.equal(loaded, 1002);
  assert.deepEqual(jobs.take(id(2997)), { category: 7, hourly: 2997 / 7 });
  assert.equal(jobs.take(id(2997)), undefined, 'taken once');
  assert.equal(jobs.take(id(1)), undefined, 'never held');
  assert.deepEqual(jobs.take('job_custom'), { category: 1, hourly: 2 });
  jobs.put(id(2997), { category: 2, hourly: 9 });
  assert.deepEqual(jobs.take(id(2997)), { category: 2, hourly: 9 });
  assert.deepEqual(jobs.take(id(0)), { category: 0, hourly: 0 });
  assert.throws(() => jobs.push(id(5000), { category: 0, hourly: 1 }), /while loading/);
});
