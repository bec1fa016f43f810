import { CATEGORIES } from '../domain/categories.js';
import { type Column, Columns, type ColumnType, forEachRow, IdColumn, nextTurn } from './columns.js';
import type { RadiusTest } from './radius-test.js';

/**
 * Cell size by number of points: small cells keep the points a search reads near its circle, large
 * ones keep the number of cells (each costs a step) small where points are few.
 */
export function cellDegFor(points: number): number {
  return points <= 20_000 ? 0.2 : points <= 200_000 ? 0.05 : 0.02;
}

/** Numbers per run in PointIndex.runs. */
export const RUN = 6;

/**
 * The spatial half of the in-memory search index: points bucketed in a grid of square cells and
 * stored cell by cell (cells in key order, a key per latitude row and longitude column), so the
 * cells of one latitude row that a search box touches are one contiguous run of slots.
 * `rank` is each point's row (position in id order for the build's points); `order` the SQL
 * tie-break, also for points appended after the build. Which points lie within a
 * radius is RadiusTest's to decide (radius-test.ts).
 */
export class PointIndex {
  /** Points of the build (slots 0 .. size-1, grouped by cell). */
  readonly size: number;
  /** Slots the columns have: the build's and the tail's (appended since, scanned one by one). */
  readonly capacity: number;
  /** One past the last slot in use: size, plus the points appended since the build. */
  end: number;
  readonly lat: Float64Array;
  readonly lng: Float64Array;
  /**
   * The row of the point stored at each slot: its place in the id column (and the text index).
   * The build's rows are in id order, so there it is also the point's position in id order.
   */
  readonly rank: Uint32Array;
  /**
   * The SQL tie-break (id order) as a number per slot: the build's points their rank; an appended
   * point the position among the build's ids where its id would go, less a half. Two appended
   * points in the same gap tie here and are ordered by their ids (tieBefore). 32-bit floats hold
   * these exactly: below 2^22 points, a rank and a half need 23 bits of the 24 they have.
   */
  readonly order: Float32Array;
  /** 1 for a slot whose row changed or went away since it was stored: every scan skips it. */
  readonly dead: Uint8Array;
  /** Slots marked dead so far. */
  removed = 0;
  /** Slot by row for the build's rows (made on the first change), and by id for appended ones. */
  private slotOfRow: Uint32Array | undefined;
  private readonly appended = new Map<string, number>();
  /**
   * Groups of points (a cell and a partition, e.g. a category, as cell × parts + part), ascending,
   * and the first slot of each (one more: the end). A search for one partition reads its groups
   * only; a search for all reads each cell's groups as one run.
   */
  private readonly groupKeys: Float64Array;
  private readonly groupStart: Uint32Array;
  private readonly cellDeg: number;
  private readonly lngCells: number;

  /**
   * `lat`/`lng` (and `part`, a partition code below `parts` per point) in id order; callers reorder
   * their own columns with `permute`.
   */
  constructor(
    readonly ids: IdColumn,
    lat: Float64Array,
    lng: Float64Array,
    part: Uint8Array = new Uint8Array(lat.length),
    private readonly parts = 1,
    cellDeg = cellDegFor(lat.length),
    /** Slots kept free for points appended after the build. */
    spare = 0,
  ) {
    const n = lat.length;
    // Group, then rank, as one number per point (group × 2^k + rank, exact below 2^53 for up to
    // 2^22 points), so the sort is the typed array's own: no comparator, no boxed copies.
    if (n > 2 ** 22) throw new RangeError(`${n} points: the index keys stay exact up to 2^22`);
    this.size = n;
    this.capacity = n + spare;
    this.end = n;
    this.cellDeg = cellDeg;
    this.lngCells = Math.ceil(360 / this.cellDeg) + 1;
    const shift = 2 ** Math.ceil(Math.log2(Math.max(2, n)));
    const keys = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const cell = this.latCell(lat[i] as number) * this.lngCells + this.lngCell(lng[i] as number);
      keys[i] = (cell * parts + (part[i] as number)) * shift + i;
    }
    keys.sort();
    const rank = new Uint32Array(this.capacity);
    for (let i = 0; i < n; i++) rank[i] = (keys[i] as number) % shift;
    this.rank = rank;
    this.order = new Float32Array(this.capacity);
    for (let i = 0; i < n; i++) this.order[i] = rank[i] as number;
    this.dead = new Uint8Array(this.capacity);
    this.lat = this.permute(lat);
    this.lng = this.permute(lng);
    const starts: number[] = [];
    const groupKeys: number[] = [];
    for (let i = 0; i < n; i++) {
      const key = Math.floor((keys[i] as number) / shift);
      if (key !== groupKeys.at(-1)) {
        starts.push(i);
        groupKeys.push(key);
      }
    }
    starts.push(n);
    this.groupStart = Uint32Array.from(starts);
    this.groupKeys = Float64Array.from(groupKeys);
  }

  /** A column given in id order, reordered slot by slot like the points (with room for the tail). */
  permute<A extends Float64Array | Int32Array | Uint8Array>(column: A): A {
    const out = new (column.constructor as new (length: number) => A)(this.capacity);
    for (let i = 0; i < this.size; i++) out[i] = column[this.rank[i] as number] as number;
    return out;
  }

  /** Whether slot `a` comes before slot `b` in id order (the SQL tie-break); never for a = b. */
  tieBefore(a: number, b: number): boolean {
    const [oa, ob] = [this.order[a] as number, this.order[b] as number];
    if (oa !== ob) return oa < ob;
    return a !== b && this.ids.get(this.rank[a] as number) < this.ids.get(this.rank[b] as number);
  }

  /** How many of the build's ids sort before `id` (they are in id order). */
  private idsBefore(id: string): number {
    let [low, high] = [0, this.size];
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.ids.get(mid) < id) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  /** The live slot holding `id`, or -1. */
  slotOf(id: string): number {
    const appended = this.appended.get(id);
    if (appended !== undefined) return appended;
    const row = this.idsBefore(id);
    if (row >= this.size || this.ids.get(row) !== id) return -1;
    if (!this.slotOfRow) {
      this.slotOfRow = new Uint32Array(this.size);
      for (let s = 0; s < this.size; s++) this.slotOfRow[this.rank[s] as number] = s;
    }
    const slot = this.slotOfRow[row] as number;
    return this.dead[slot] === 1 ? -1 : slot;
  }

  /** Marks the slot of `id` dead (a changed or deleted row) and returns it; -1 when none holds it. */
  remove(id: string): number {
    const slot = this.slotOf(id);
    if (slot < 0) return -1;
    this.dead[slot] = 1;
    this.removed++;
    this.appended.delete(id);
    return slot;
  }

  /**
   * Stores a point after the build's, in the tail (scanned point by point); returns its slot, or -1
   * when the tail is full (the index is then rebuilt). The caller fills its own columns at the slot.
   */
  append(id: string, lat: number, lng: number): number {
    if (this.end >= this.capacity) return -1;
    const slot = this.end++;
    this.lat[slot] = lat;
    this.lng[slot] = lng;
    this.rank[slot] = this.ids.length;
    this.ids.push(id);
    this.order[slot] = this.idsBefore(id) - 0.5;
    this.appended.set(id, slot);
    return slot;
  }

  private latCell(lat: number): number {
    return Math.floor((lat + 90) / this.cellDeg);
  }

  private lngCell(lng: number): number {
    return Math.floor((lng + 180) / this.cellDeg);
  }

  /** The first group whose key is at least `key`. */
  private firstGroupFrom(key: number): number {
    let [low, high] = [0, this.groupKeys.length];
    while (low < high) {
      const mid = (low + high) >>> 1;
      if ((this.groupKeys[mid] as number) < key) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  /**
   * The slots a radius search reads, as runs of RUN numbers: start, end, inside, and the row's band
   * (RadiusTest.rowBand) or NaN. `inside` = 1 when the whole run is surely within the radius
   * (RadiusTest.containsRect); otherwise each point still needs containsInRow (with the row's
   * band) or contains (without). Per latitude row, neighbouring cells alike are merged.
   */
  runs(test: RadiusTest, part = -1): number[] {
    const out: number[] = [];
    const parts = this.parts;
    const { cellDeg, lngCells } = this;
    const [latFrom, latTo] = [this.latCell(test.minLat), this.latCell(test.maxLat)];
    const lngFrom = Math.max(0, this.lngCell(test.minLng));
    const lngTo = Math.min(lngCells - 1, this.lngCell(test.maxLng));
    for (let la = latFrom; la <= latTo; la++) {
      const rowLat = la * cellDeg - 90;
      const [kLng, bandIn, bandOut] = test.rowBand(rowLat - 1e-9, rowLat + cellDeg + 1e-9) ?? [
        Number.NaN,
        Number.NaN,
        Number.NaN,
      ];
      const rowStart = out.length;
      let [cellOf, inside] = [-1, 0];
      for (let group = this.firstGroupFrom((la * lngCells + lngFrom) * parts); group < this.groupKeys.length; group++) {
        const key = this.groupKeys[group] as number;
        const cell = Math.floor(key / parts);
        const ln = cell - la * lngCells;
        if (ln > lngTo) break;
        if (part >= 0 && key - cell * parts !== part) continue;
        if (cell !== cellOf) {
          // The cell's extent, padded by a hair against rounding in latCell/lngCell.
          const cellLng = ln * cellDeg - 180;
          const within = test.containsRect(
            rowLat - 1e-9,
            rowLat + cellDeg + 1e-9,
            cellLng - 1e-9,
            cellLng + cellDeg + 1e-9,
          );
          [cellOf, inside] = [cell, within ? 1 : 0];
        }
        const [start, end] = [this.groupStart[group] as number, this.groupStart[group + 1] as number];
        const last = out.length - RUN;
        if (last >= rowStart && out[last + 1] === start && out[last + 2] === inside) out[last + 1] = end;
        else out.push(start, end, inside, kLng, bandIn, bandOut);
      }
    }
    // The tail: every appended point, each tested (the scan also tests its partition).
    if (this.end > this.size) out.push(this.size, this.end, 0, Number.NaN, Number.NaN, Number.NaN);
    return out;
  }
}

/** Slots kept free after a build for the points that writes add: an eighth, at least 4,096, at most 65,536. */
export function spareFor(points: number): number {
  return Math.min(65_536, Math.max(4_096, Math.ceil(points / 8)));
}

/** What an index reads: rows in id order, each kept as column values or skipped (null). */
export interface PointLoad<K extends string, R extends { id: string }> {
  /** Rows expected (counted first), so the columns are allocated once. */
  expected: number;
  /** The prefix of the ids the table's rows have (IdColumn packs the rest). */
  idPrefix: string;
  /** Typed columns besides lat, lng and category (a code of CATEGORIES). */
  types: Record<K, ColumnType>;
  /** The next rows with an id above `after`, in id order (columns.ts forEachRow). */
  page: (after: string) => Promise<R[]>;
  values: (row: R) => (Record<NoInfer<K>, number> & { lat: number; lng: number; category: number }) | null;
  /** Called for each row kept (values not null), in id order. */
  kept?: (row: R) => void;
}

/**
 * Reads a table into a PointIndex partitioned by category (a search for one category reads that
 * category's points only) and its other columns in slot order.
 */
export async function loadPoints<K extends string, R extends { id: string }>(
  load: PointLoad<K, R>,
): Promise<{ points: PointIndex; category: Uint8Array; columns: Record<K, Column> }> {
  const ids = new IdColumn(load.idPrefix, load.expected);
  const columns = new Columns<K | 'lat' | 'lng' | 'category'>(
    { ...load.types, lat: Float64Array, lng: Float64Array, category: Uint8Array },
    load.expected,
  );
  await forEachRow(load.page, (row) => {
    const values = load.values(row);
    if (!values) return;
    ids.push(row.id);
    columns.push(values);
    load.kept?.(row);
  });
  await nextTurn();
  const category = columns.take('category') as Uint8Array;
  const points = new PointIndex(
    ids,
    columns.take('lat') as Float64Array,
    columns.take('lng') as Float64Array,
    category,
    CATEGORIES.length,
    cellDegFor(ids.length),
    spareFor(ids.length),
  );
  // Each column put in slot order in a turn of its own (about 25 ms each at a million rows): the
  // server answers meanwhile (the index is built while it listens).
  const permuted = {} as Record<K, Column>;
  for (const name of Object.keys(load.types) as K[]) {
    await nextTurn();
    permuted[name] = points.permute(columns.take(name));
  }
  await nextTurn();
  return { points, category: points.permute(category), columns: permuted };
}
