import { IdColumn } from './columns.js';
import { CategoryValues } from './sorted-values.js';

/**
 * The figures /v1/categories and /v1/stats show of the rows an index holds, kept up to date as the
 * index follows writes (search-indexes.ts): counts and sorted values per category (sorted-values.ts)
 * and counts per place, changed by the slots that come and go, never recomputed from every row per
 * request. test/http/index-aggregates.test.ts checks them against the full recomputation in SQL
 * after random writes, with time moving forward and back.
 */

/** Counts per place code, growing as places appear. */
class PlaceCounts {
  counts = new Uint32Array(64);

  change(place: number, by: 1 | -1): void {
    if (place >= this.counts.length) {
      const grown = new Uint32Array(Math.max(place + 1, this.counts.length * 2));
      grown.set(this.counts);
      this.counts = grown;
    }
    this.counts[place] = (this.counts[place] as number) + by;
  }
}

/**
 * Slots ordered by a key (a min-heap, or a max-heap with `max`): the jobs by deadline, to learn which
 * ones `now` passed (or, when a clock goes back, which ones are open again).
 */
class SlotHeap {
  private heap = new Int32Array(1024);
  size = 0;

  constructor(
    private readonly key: Float64Array,
    private readonly max: boolean,
  ) {}

  private before(a: number, b: number): boolean {
    const [ka, kb] = [this.key[a] as number, this.key[b] as number];
    return this.max ? ka > kb : ka < kb;
  }

  /** The first slot's key; undefined when empty. */
  peekKey(): number | undefined {
    return this.size === 0 ? undefined : (this.key[this.heap[0] as number] as number);
  }

  push(slot: number): void {
    if (this.size === this.heap.length) {
      const grown = new Int32Array(this.heap.length * 2);
      grown.set(this.heap);
      this.heap = grown;
    }
    const heap = this.heap;
    let at = this.size++;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (!this.before(slot, heap[parent] as number)) break;
      heap[at] = heap[parent] as number;
      at = parent;
    }
    heap[at] = slot;
  }

  pop(): number {
    const heap = this.heap;
    const top = heap[0] as number;
    const last = heap[--this.size] as number;
    let at = 0;
    for (;;) {
      let child = 2 * at + 1;
      if (child >= this.size) break;
      if (child + 1 < this.size && this.before(heap[child + 1] as number, heap[child] as number)) child++;
      if (!this.before(heap[child] as number, last)) break;
      heap[at] = heap[child] as number;
      at = child;
    }
    heap[at] = last;
    return top;
  }
}

/** What the figures keep of a completed job. */
export interface CompletedValues {
  category: number;
  hourly: number;
}

/**
 * The completed jobs the figures hold, by id, compact: those of the load in id order as packed ids
 * (columns.ts IdColumn, 8 bytes) with their category and rate, found by binary search; those
 * completed since in a map. About 18 bytes a job instead of a map entry's ~200.
 */
export class CompletedJobs {
  private readonly ids = new IdColumn('job_', 1024);
  private category = new Uint8Array(1024);
  private hourly = new Float64Array(1024);
  /** 1 for a loaded job that changed since (its values are no longer held). */
  private gone = new Uint8Array(1024);
  private readonly since = new Map<string, CompletedValues>();
  private loading = true;
  /** The last id pushed while loading (they come in id order). */
  private lastId = '';

  /** A completed job of the load (they come in id order; one that does not is kept in the map). */
  push(id: string, values: CompletedValues): void {
    if (!this.loading) throw new Error('completed jobs of the load are pushed while loading');
    if (id <= this.lastId) {
      this.since.set(id, values);
      return;
    }
    this.lastId = id;
    const at = this.ids.length;
    if (at === this.category.length) {
      const grow = <A extends Uint8Array | Float64Array>(array: A): A => {
        const grown = new (array.constructor as new (length: number) => A)(array.length * 2);
        grown.set(array);
        return grown;
      };
      [this.category, this.hourly, this.gone] = [grow(this.category), grow(this.hourly), grow(this.gone)];
    }
    this.ids.push(id);
    this.category[at] = values.category;
    this.hourly[at] = values.hourly;
  }

  /** Every job of the load (once, after it). */
  forEachLoaded(visit: (values: CompletedValues) => void): void {
    this.loading = false;
    for (let i = 0; i < this.ids.length; i++) {
      visit({ category: this.category[i] as number, hourly: this.hourly[i] as number });
    }
    for (const values of this.since.values()) visit(values);
  }

  /** The values held for `id`, which are let go; undefined for a job not held. */
  take(id: string): CompletedValues | undefined {
    const recent = this.since.get(id);
    if (recent) {
      this.since.delete(id);
      return recent;
    }
    let [low, high] = [0, this.ids.length];
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.ids.get(mid) < id) low = mid + 1;
      else high = mid;
    }
    if (low >= this.ids.length || this.ids.get(low) !== id || this.gone[low] === 1) return undefined;
    this.gone[low] = 1;
    return { category: this.category[low] as number, hourly: this.hourly[low] as number };
  }

  /** A job completed after the load. */
  put(id: string, values: CompletedValues): void {
    this.since.set(id, values);
  }
}

/** The columns of a job index the figures read a slot's values from (they do not change while it lives). */
export interface JobColumns {
  category: Uint8Array;
  price: Int32Array;
  /** Milliseconds; +Infinity for none. */
  deadline: Float64Array;
  urgent: Uint8Array;
  hourly: Float64Array;
  /** The slot's place code. */
  placeOf: (slot: number) => number;
}

/**
 * The figures of the jobs, open (deadline ahead of `now`) and completed.
 *
 * An open job counts from the moment its slot comes in until it dies or `now` passes its deadline.
 * The figures are those of one moment, `asOf`: the jobs with a deadline wait in a min-heap until a
 * read at a later moment passes it, then in a max-heap in case a read comes at an earlier moment
 * (requests read their clock before they wait for the index, so concurrent ones arrive out of
 * order; tests have clocks of their own), so any sequence of moments costs only the jobs that
 * change sides. Completed jobs are kept by id (they hold no slot: the index searches open jobs only).
 */
export class JobFigures {
  readonly openPrice = new CategoryValues('integers');
  /** Cents per helper-hour of open and completed jobs. */
  readonly hourlyAll = new CategoryValues('none');
  /** Cents per helper-hour of completed jobs. */
  readonly completed = new CategoryValues('kept');
  private readonly places = new PlaceCounts();
  urgent = 0;
  private readonly counted: Uint8Array;
  private readonly ahead: SlotHeap;
  private readonly passed: SlotHeap;
  private asOf = Number.NEGATIVE_INFINITY;

  constructor(
    capacity: number,
    private readonly columns: JobColumns,
    /** The completed jobs of the load (counted by countLoaded). */
    private readonly completedJobs = new CompletedJobs(),
  ) {
    this.counted = new Uint8Array(capacity);
    this.ahead = new SlotHeap(columns.deadline, false);
    this.passed = new SlotHeap(columns.deadline, true);
  }

  /** A live slot came in (at the load or appended by a follow). */
  added(slot: number): void {
    const deadline = this.columns.deadline[slot] as number;
    if (deadline > this.asOf) {
      this.count(slot, 1);
      if (deadline !== Number.POSITIVE_INFINITY) this.ahead.push(slot);
    } else {
      this.passed.push(slot);
    }
  }

  /** A slot died (its row changed or went away); it leaves its heap when it comes up there. */
  removed(slot: number): void {
    if (this.counted[slot] === 1) this.count(slot, -1);
  }

  /** The figures as of `now`: the jobs whose deadline lies between the last moment and `now` change sides. */
  at(now: number, dead: Uint8Array): this {
    while ((this.ahead.peekKey() ?? Number.POSITIVE_INFINITY) <= now) {
      const slot = this.ahead.pop();
      if (dead[slot] === 1) continue;
      if (this.counted[slot] === 1) this.count(slot, -1);
      this.passed.push(slot);
    }
    while ((this.passed.peekKey() ?? Number.NEGATIVE_INFINITY) > now) {
      const slot = this.passed.pop();
      if (dead[slot] === 1) continue;
      this.count(slot, 1);
      this.ahead.push(slot);
    }
    this.asOf = now;
    return this;
  }

  /** Open jobs per place code. */
  get byPlace(): Uint32Array {
    return this.places.counts;
  }

  private count(slot: number, by: 1 | -1): void {
    const { category, price, urgent, hourly, placeOf } = this.columns;
    const c = category[slot] as number;
    this.openPrice.change(c, price[slot] as number, by);
    this.hourlyAll.change(c, hourly[slot] as number, by);
    this.places.change(placeOf(slot), by);
    this.urgent += by * (urgent[slot] as number);
    this.counted[slot] = by === 1 ? 1 : 0;
  }

  /** Counts the completed jobs of the load (once, after it). */
  countLoaded(): void {
    this.completedJobs.forEachLoaded((values) => this.countCompleted(values, 1));
  }

  /** A changed job as it is now: its completed values, or `null` when it is not (or no longer) completed. */
  completedIs(id: string, now: CompletedValues | null): void {
    const before = this.completedJobs.take(id);
    if (before) this.countCompleted(before, -1);
    if (now) {
      this.countCompleted(now, 1);
      this.completedJobs.put(id, now);
    }
  }

  private countCompleted({ category, hourly }: CompletedValues, by: 1 | -1): void {
    this.completed.change(category, hourly, by);
    this.hourlyAll.change(category, hourly, by);
  }

  /** Merges the changes of the load, so that the first read does not pay for them. */
  settle(): void {
    for (const values of [this.openPrice, this.hourlyAll, this.completed]) values.settle();
  }
}

/** The columns of a listing index the figures read a slot's values from. */
export interface ListingColumns {
  category: Uint8Array;
  price: Int32Array;
  /** NaN for none. */
  week: Float64Array;
  deposit: Int32Array;
  instant: Uint8Array;
  placeOf: (slot: number) => number;
}

/** The figures of the available listings: every live slot counts. */
export class ListingFigures {
  readonly day = new CategoryValues('integers');
  readonly week = new CategoryValues('none');
  readonly deposit = new CategoryValues('integers');
  private readonly places = new PlaceCounts();
  instant = 0;

  constructor(private readonly columns: ListingColumns) {}

  added(slot: number): void {
    this.count(slot, 1);
  }

  removed(slot: number): void {
    this.count(slot, -1);
  }

  get byPlace(): Uint32Array {
    return this.places.counts;
  }

  private count(slot: number, by: 1 | -1): void {
    const { category, price, week, deposit, instant, placeOf } = this.columns;
    const c = category[slot] as number;
    const w = week[slot] as number;
    this.day.change(c, price[slot] as number, by);
    if (!Number.isNaN(w)) this.week.change(c, w, by);
    this.deposit.change(c, deposit[slot] as number, by);
    this.places.change(placeOf(slot), by);
    this.instant += by * (instant[slot] as number);
  }

  settle(): void {
    for (const values of [this.day, this.week, this.deposit]) values.settle();
  }
}
