import type { IndexedPage } from '../repositories/indexed-search.js';
import type { SearchSort } from '../repositories/search-order.js';
import type { PointIndex } from './point-index.js';
import type { RadiusTest } from './radius-test.js';

/** Order of a search page: by `key` (ascending, or descending with `descending`), ties in id order. */
interface PageOrder {
  key: Float64Array | Int32Array;
  descending: boolean;
}

/**
 * The slots at positions offset .. offset+limit of `matches[0..count)` in the given order: a full
 * sort when the page reaches far into the matches, otherwise a bounded heap of the first
 * offset+limit (one pass, most candidates rejected by one comparison with the heap's last).
 */
function selectPage(
  matches: Uint32Array,
  count: number,
  points: PointIndex,
  order: PageOrder,
  offset: number,
  limit: number,
): number[] {
  const { key, descending } = order;
  const sign = descending ? -1 : 1;
  const ids = points.order;
  const before = (a: number, b: number) => {
    const d = sign * ((key[a] as number) - (key[b] as number));
    if (d !== 0) return d < 0;
    const [ia, ib] = [ids[a] as number, ids[b] as number];
    return ia !== ib ? ia < ib : points.tieBefore(a, b);
  };
  const compare = (a: number, b: number) => (before(a, b) ? -1 : before(b, a) ? 1 : 0);
  const k = Math.min(count, offset + limit);
  if (k * 4 >= count || count <= 64) {
    return Array.from(matches.subarray(0, count)).sort(compare).slice(offset, k);
  }
  // A max-heap of the k best so far: its root is the one that comes last.
  const heap = new Uint32Array(k);
  let size = 0;
  for (let m = 0; m < count; m++) {
    const slot = matches[m] as number;
    if (size < k) {
      let i = size++;
      heap[i] = slot;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!before(heap[parent] as number, heap[i] as number)) break;
        [heap[i], heap[parent]] = [heap[parent] as number, heap[i] as number];
        i = parent;
      }
    } else if (before(slot, heap[0] as number)) {
      heap[0] = slot;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        let last = i;
        if (l < size && before(heap[last] as number, heap[l] as number)) last = l;
        if (l + 1 < size && before(heap[last] as number, heap[l + 1] as number)) last = l + 1;
        if (last === i) break;
        [heap[i], heap[last]] = [heap[last] as number, heap[i] as number];
        i = last;
      }
    }
  }
  return Array.from(heap).sort(compare).slice(offset, k);
}

/**
 * Per-index buffers a search fills (searches run one at a time: they never await), and the page
 * step every search shares: order the matches as repositories/search-order.ts does, cut the page.
 */
export class SearchScratch {
  readonly matches: Uint32Array;
  private readonly key: Float64Array;
  /** Per slot the relevance a search with words gave it (set for its matches only). */
  readonly relevance: Float32Array;

  constructor(size: number) {
    this.matches = new Uint32Array(size);
    this.key = new Float64Array(size);
    // Sums of a few byte-sized weights: exact in 32-bit floats.
    this.relevance = new Float32Array(size);
  }

  page(
    points: PointIndex,
    test: RadiusTest,
    total: number,
    search: { sort: SearchSort; offset: number; limit: number },
    keys: { created: Float64Array; price: Int32Array; relevance?: Float32Array },
  ): IndexedPage {
    if (search.offset >= total) return { ids: [], distances: [], total };
    const distanceOf = (s: number) => test.distanceKm(points.lat[s] as number, points.lng[s] as number);
    let slots: number[];
    if (search.sort === 'distance') slots = this.nearest(points, test, total, search.offset, search.limit);
    else if (search.sort === 'relevance' && keys.relevance) {
      // Relevance, then newest, as one number: scores stay below 2^11, milliseconds below 2^42.
      const { matches, key } = this;
      for (let m = 0; m < total; m++) {
        const s = matches[m] as number;
        key[s] = (keys.relevance[s] as number) * 2 ** 42 + (keys.created[s] as number);
      }
      slots = selectPage(matches, total, points, { key, descending: true }, search.offset, search.limit);
    } else {
      const order =
        search.sort === 'newest' || search.sort === 'relevance'
          ? { key: keys.created, descending: true }
          : { key: keys.price, descending: search.sort === 'price_desc' };
      slots = selectPage(this.matches, total, points, order, search.offset, search.limit);
    }
    return { ids: slots.map((s) => points.ids.get(points.rank[s] as number)), distances: slots.map(distanceOf), total };
  }

  /**
   * The page of matches nearest first, with the haversine computed for few of them: the k-th
   * smallest planar measure bounds the k-th distance (the band's margin relates the two), so only
   * matches within that bound can be on the page; those are ordered by their exact distance.
   */
  private nearest(points: PointIndex, test: RadiusTest, total: number, offset: number, limit: number): number[] {
    const { matches, key } = this;
    const k = Math.min(total, offset + limit);
    let candidates = total;
    if (test.band && k < total) {
      for (let m = 0; m < total; m++) {
        const s = matches[m] as number;
        key[s] = test.planar(points.lat[s] as number, points.lng[s] as number);
      }
      const kth = selectPage(matches, total, points, { key, descending: false }, k - 1, 1)[0] as number;
      const factor = (1 + test.band.margin) / (1 - test.band.margin);
      const bound = (key[kth] as number) * factor * factor * (1 + 1e-9) + 1e-12;
      candidates = 0;
      for (let m = 0; m < total; m++) {
        const s = matches[m] as number;
        if ((key[s] as number) <= bound) matches[candidates++] = s;
      }
    }
    for (let m = 0; m < candidates; m++) {
      const s = matches[m] as number;
      key[s] = test.distanceKm(points.lat[s] as number, points.lng[s] as number);
    }
    return selectPage(matches, candidates, points, { key, descending: false }, offset, limit);
  }
}
