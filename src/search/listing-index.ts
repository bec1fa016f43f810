import type { Queryable } from '../db/queryable.js';
import { CATEGORIES } from '../domain/categories.js';
import { CONDITIONS } from '../domain/statuses.js';
import {
  countAvailableListings,
  type IndexedPage,
  type ListingIndexRow,
  listingIndexRowsAfter,
} from '../repositories/indexed-search.js';
import type { ListingSearch, ListingSearchRow } from '../repositories/listings.js';
import { cents, codeOf, isoMs, LOAD_CHUNK, nextTurn, PASS_CHUNK } from './columns.js';
import { ListingFigures } from './index-figures.js';
import { loadPoints, type PointIndex, RUN } from './point-index.js';
import { PointTable } from './point-table.js';
import { RadiusTest } from './radius-test.js';
import { TextIndex } from './text-index.js';

/** A listing's values as the index keeps them; null for one it does not keep (not available). */
function listingValues(row: ListingIndexRow) {
  return row.status !== 'available'
    ? null
    : {
        lat: row.lat,
        lng: row.lng,
        category: codeOf(CATEGORIES, row.category),
        price: cents(row.price_per_day_cents),
        condition: codeOf(CONDITIONS, row.condition),
        instant: row.instant_booking,
        created: isoMs(row.created_at),
        week: row.price_per_week_cents === null ? Number.NaN : cents(row.price_per_week_cents),
        deposit: cents(row.deposit_cents),
      };
}

/**
 * Every available listing (with its owner, as the search joins them) as typed columns over a
 * PointIndex: the filters and orders of repositories/listings.ts searchListings, in memory.
 */
export class ListingIndex extends PointTable<ListingSearchRow, ListingIndexRow> {
  /** The figures of the available listings, following every change (index-figures.ts). */
  protected readonly figures: ListingFigures;

  private constructor(
    points: PointIndex,
    category: Uint8Array,
    price: Int32Array,
    private readonly condition: Uint8Array,
    private readonly instant: Uint8Array,
    created: Float64Array,
    /** Cents per week; NaN for none. */
    private readonly week: Float64Array,
    private readonly deposit: Int32Array,
    text: TextIndex,
  ) {
    super(points, category, price, created, text);
    const places = () => text.placeCodesOfRows();
    this.figures = new ListingFigures({
      category,
      price,
      week,
      deposit,
      instant,
      placeOf: (slot) => places()[points.rank[slot] as number] as number,
    });
  }

  /** Reads the available listings; throws NotMirrorable when a stored value cannot be compared as SQL does. */
  static async load(db: Queryable): Promise<ListingIndex> {
    const expected = await countAvailableListings(db);
    const text = new TextIndex(expected);
    const { points, category, columns } = await loadPoints({
      expected,
      kept: (row: ListingIndexRow) => text.add(row),
      idPrefix: 'lst_',
      types: {
        price: Int32Array,
        condition: Uint8Array,
        instant: Uint8Array,
        created: Float64Array,
        week: Float64Array,
        deposit: Int32Array,
      },
      // In primary-key order, the status tested here (see jobIndexRowsAfter).
      page: (after) => listingIndexRowsAfter(db, after, LOAD_CHUNK),
      values: listingValues,
    });
    text.finish(points.capacity - points.size);
    const index = new ListingIndex(
      points,
      category,
      columns.price as Int32Array,
      columns.condition as Uint8Array,
      columns.instant as Uint8Array,
      columns.created as Float64Array,
      columns.week as Float64Array,
      columns.deposit as Int32Array,
      text,
    );
    for (let slot = 0; slot < points.end; slot++) {
      index.figures.added(slot);
      if (slot % PASS_CHUNK === PASS_CHUNK - 1) await nextTurn();
    }
    index.figures.settle();
    return index;
  }

  protected put(slot: number | null, row: ListingIndexRow): boolean {
    const values = listingValues(row);
    if (!values) return false;
    if (slot === null) return true;
    this.price[slot] = values.price;
    this.condition[slot] = values.condition;
    this.instant[slot] = values.instant;
    this.created[slot] = values.created;
    this.week[slot] = values.week;
    this.deposit[slot] = values.deposit;
    return true;
  }

  /**
   * The available listings as aggregates read them: price per day, per week (those with one) and
   * deposit by category, the count per place (TextIndex place codes) and of instant-booking ones.
   * Kept, not computed: a read costs the changes since the last one.
   */
  availableFigures(): ListingFigures {
    return this.figures;
  }

  /** The city and district of a place code. */
  placeName(code: number): { city: string; district: string | null } {
    return this.text.placeName(code);
  }

  search(search: ListingSearch): IndexedPage {
    const test = new RadiusTest(search.center, search.radiusKm);
    const category = search.category === undefined ? -1 : CATEGORIES.indexOf(search.category);
    const max = search.priceMaxCents ?? Infinity;
    const condition = search.condition === undefined ? -1 : CONDITIONS.indexOf(search.condition);
    const instant = search.instantBooking === undefined ? -1 : search.instantBooking ? 1 : 0;
    const { matches, relevance } = this.scratch;
    const { rank } = this.points;
    const scorer = this.scorer(search.text);
    const { lat, lng, dead } = this.points;
    const { category: categories, price: prices, condition: conditions, instant: instants } = this;
    const runs = this.points.runs(test, category);
    let total = 0;
    for (let r = 0; r < runs.length; r += RUN) {
      const end = (runs[r + 1] as number) | 0;
      const inside = runs[r + 2] === 1;
      const [kLng, bandIn, bandOut] = [runs[r + 3] as number, runs[r + 4] as number, runs[r + 5] as number];
      const banded = !Number.isNaN(kLng);
      // Integer loop bounds: the runs array holds doubles (NaN bands), and a double index is slow.
      for (let s = (runs[r] as number) | 0; s < end; s++) {
        if (dead[s] === 1) continue;
        if (!inside) {
          const [la, ln] = [lat[s] as number, lng[s] as number];
          if (banded ? !test.containsInRow(la, ln, kLng, bandIn, bandOut) : !test.contains(la, ln)) continue;
        }
        if (category >= 0 && categories[s] !== category) continue;
        if ((prices[s] as number) > max) continue;
        if (condition >= 0 && conditions[s] !== condition) continue;
        if (instant >= 0 && instants[s] !== instant) continue;
        if (scorer) {
          const score = scorer.score(rank[s] as number, categories[s] as number);
          if (score === 0) continue;
          relevance[s] = score;
        }
        matches[total++] = s;
      }
    }
    scorer?.release();
    return this.page(test, total, search);
  }
}
