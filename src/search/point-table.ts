import { CATEGORIES, type Category } from '../domain/categories.js';
import type { QueryWord } from '../domain/search-text.js';
import type { SearchSort } from '../repositories/search-order.js';
import { codeOf } from './columns.js';
import { SearchScratch } from './page.js';
import type { PointIndex } from './point-index.js';
import type { RadiusTest } from './radius-test.js';
import { RowCache } from './row-cache.js';
import type { SearchableRow, TextIndex, TextScorer } from './text-index.js';

/** Rows an index snapshot keeps for the pages it shows (a row with its texts is 2-4 KB of heap). */
export const ROW_CACHE = 2_000;

/**
 * What the job and listing indexes share: the points, the columns every search orders or
 * partitions by, the per-search buffers and the rows pages showed. Each keeps its own scan loop:
 * the filters are inlined there, as a callback per point would cost more than the test itself.
 */
/** What a table's rows have besides their texts: an id, a point and a category. */
type PointRow = SearchableRow & { id: string; lat: number; lng: number; category: Category };

/** The figures a table keeps (index-figures.ts): they follow each slot that comes in or dies. */
interface SlotFigures {
  added(slot: number): void;
  removed(slot: number): void;
}

export abstract class PointTable<Row extends { id: string }, IndexRow extends PointRow> {
  protected readonly scratch: SearchScratch;
  /** Rows that pages showed (see RowCache); emptied whenever the data changes (follow). */
  readonly rows = new RowCache<Row>(ROW_CACHE);

  protected constructor(
    protected readonly points: PointIndex,
    protected readonly category: Uint8Array,
    protected readonly price: Int32Array,
    protected readonly created: Float64Array,
    protected readonly text: TextIndex,
  ) {
    this.scratch = new SearchScratch(points.capacity);
  }

  /**
   * Stores a row the index keeps (values as its load computes them) at `slot` of the subclass's own
   * columns and returns true; false (nothing stored) for a row the index does not keep. Throws
   * NotMirrorable like the load.
   */
  protected abstract put(slot: number | null, row: IndexRow): boolean;

  /**
   * Follows changes: `changed` are the ids of rows that changed (or went away) since this index
   * last looked, `rows` what they are now (those that exist). Each changed row's old point goes, the
   * new one, if the index keeps it, comes in the tail. Returns false when the tail is full: the
   * index must be rebuilt (it is then partly changed and must not answer).
   */
  follow(changed: readonly string[], rows: readonly IndexRow[]): boolean {
    this.rows.clear();
    for (const id of changed) {
      const slot = this.points.remove(id);
      if (slot >= 0) this.figures.removed(slot);
    }
    for (const row of rows) {
      if (!this.put(null, row)) continue;
      const values = this.pointOf(row);
      const slot = this.points.append(row.id, values.lat, values.lng);
      if (slot < 0) return false;
      const textRow = this.text.addTail(row);
      if (textRow === false) return false;
      if (textRow !== this.points.rank[slot]) throw new Error('the text and point rows of the tail diverged');
      this.category[slot] = values.category;
      this.put(slot, row);
      this.figures.added(slot);
    }
    return true;
  }

  /** The subclass's figures, told of every slot that came in (its columns filled) or died. */
  protected abstract readonly figures: SlotFigures;

  /** A kept row's point and category code (as its load computes them). */
  private pointOf(row: IndexRow): { lat: number; lng: number; category: number } {
    return { lat: row.lat, lng: row.lng, category: codeOf(CATEGORIES, row.category) };
  }

  /** Points appended since the build (tests, metrics). */
  get appended(): number {
    return this.points.end - this.points.size;
  }

  /** A scorer for the search's words (null without words); release it after the scan. */
  protected scorer(words: readonly QueryWord[] | undefined): TextScorer | null {
    return words && words.length > 0 ? this.text.prepare(words) : null;
  }

  /** Live points: the build's and the tail's, less those changed since. */
  get size(): number {
    return this.points.end - this.points.removed;
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
