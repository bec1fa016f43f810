import type { QueryWord } from '../domain/search-text.js';
import type { SearchSort } from '../repositories/search-order.js';
import { SearchScratch } from './page.js';
import type { PointIndex } from './point-index.js';
import type { RadiusTest } from './radius-test.js';
import { RowCache } from './row-cache.js';
import type { TextIndex, TextScorer } from './text-index.js';

/** Rows an index snapshot keeps for the pages it shows (a row with its texts is 2-4 KB of heap). */
export const ROW_CACHE = 2_000;

/**
 * What the job and listing indexes share: the points, the columns every search orders or
 * partitions by, the per-search buffers and the rows pages showed. Each keeps its own scan loop:
 * the filters are inlined there, as a callback per point would cost more than the test itself.
 */
export abstract class PointTable<Row extends { id: string }> {
  protected readonly scratch: SearchScratch;
  /** Rows of this snapshot that pages showed (see RowCache). */
  readonly rows = new RowCache<Row>(ROW_CACHE);

  protected constructor(
    protected readonly points: PointIndex,
    protected readonly category: Uint8Array,
    protected readonly price: Int32Array,
    protected readonly created: Float64Array,
    protected readonly text: TextIndex,
  ) {
    this.scratch = new SearchScratch(points.size);
  }

  /** A scorer for the search's words (null without words); release it after the scan. */
  protected scorer(words: readonly QueryWord[] | undefined): TextScorer | null {
    return words && words.length > 0 ? this.text.prepare(words) : null;
  }

  get size(): number {
    return this.points.size;
  }

  /** The page of `total` matches (in scratch.matches) in the search's order. */
  protected page(test: RadiusTest, total: number, search: { sort: SearchSort; offset: number; limit: number }) {
    return this.scratch.page(this.points, test, total, search, {
      created: this.created,
      price: this.price,
      relevance: this.scratch.relevance,
    });
  }
}
