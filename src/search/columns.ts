/** Column helpers of the in-memory search indexes: rows arrive in chunks and become typed arrays. */

/**
 * Rows read per query while loading, and so between two turns of the event loop: SQLite's driver
 * is synchronous, so a chunk holds the loop (and the single connection) for as long as it takes to
 * read and index it, about 40 µs a job (the text index's terms most of it). 1,000 keeps that near
 * 40 ms while the server already answers (issue 34: the index is built after the server listens);
 * 20,000 held it for about a second at a time.
 */
export const LOAD_CHUNK = 1_000;

/** Slots handled between two turns of the event loop by the passes over a loaded index. */
export const PASS_CHUNK = 50_000;

/** Lets the event loop take its turn (timers, sockets) before a long load goes on. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Thrown while loading when a stored value has a form the index cannot compare as SQL does. */
export class NotMirrorable extends Error {}

/**
 * Milliseconds of a timestamp stored as `Date.toISOString()` writes it, the only form whose string
 * order (SQL compares the text) equals its time order; anything else cannot be mirrored.
 */
export function isoMs(value: string): number {
  const ms = Date.parse(value);
  if (!Number.isFinite(ms) || new Date(ms).toISOString() !== value) throw new NotMirrorable(`timestamp '${value}'`);
  return ms;
}

/** A calendar date YYYY-MM-DD as the number YYYYMMDD: equal numbers, equal dates. */
export function dateCode(value: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) throw new NotMirrorable(`date '${value}'`);
  return Number(match[1]) * 10_000 + Number(match[2]) * 100 + Number(match[3]);
}

/** Cents as a 32-bit integer column holds them (up to 21 million euros). */
export function cents(value: number): number {
  if (!Number.isInteger(value) || value < -(2 ** 31) || value >= 2 ** 31) throw new NotMirrorable(`amount ${value}`);
  return value;
}

/** The index of a value in a closed list of codes (categories, conditions). */
export function codeOf(list: readonly string[], value: string): number {
  const code = list.indexOf(value);
  if (code < 0) throw new NotMirrorable(`value '${value}'`);
  return code;
}

export type Column = Float64Array | Int32Array | Uint8Array;
export type ColumnType = Float64ArrayConstructor | Int32ArrayConstructor | Uint8ArrayConstructor;

/**
 * Typed columns filled row by row, sized for the rows counted before loading (grown by half if
 * writes added more since), so loading holds each value once.
 */
export class Columns<K extends string> {
  length = 0;
  private capacity: number;
  private arrays: Record<K, Column>;

  constructor(
    private readonly types: Record<K, ColumnType>,
    expected: number,
  ) {
    this.capacity = Math.max(16, expected);
    this.arrays = this.allocate(this.capacity);
  }

  private allocate(capacity: number): Record<K, Column> {
    const arrays = {} as Record<K, Column>;
    for (const name in this.types) {
      const array = new this.types[name](capacity);
      array.set(this.arrays?.[name] ?? []);
      arrays[name] = array;
    }
    return arrays;
  }

  push(values: Record<K, number>): void {
    if (this.length === this.capacity) {
      this.capacity = Math.ceil(this.capacity * 1.5);
      this.arrays = this.allocate(this.capacity);
    }
    for (const name in values) this.arrays[name][this.length] = values[name];
    this.length++;
  }

  /** A filled column, handed over: the builder lets go of it, so loading never holds two copies of all. */
  take(name: K): Column {
    const column = this.arrays[name].subarray(0, this.length);
    this.arrays[name] = new Float64Array(0);
    return column;
  }
}

const PACKED = /^[0-9a-f]{16}$/;

/**
 * Ids in load order, packed: an id of the form `<prefix><16 hex digits>` (every id the service
 * makes) as two 32-bit numbers, 8 bytes instead of a string's ~40; any other id kept as it is.
 */
export class IdColumn {
  /** Ids pushed so far (the next one's row). */
  length = 0;
  private high: Uint32Array;
  private low: Uint32Array;
  private readonly other = new Map<number, string>();

  constructor(
    private readonly prefix: string,
    expected: number,
  ) {
    this.high = new Uint32Array(Math.max(16, expected));
    this.low = new Uint32Array(this.high.length);
  }

  push(id: string): void {
    if (this.length === this.high.length) {
      const [high, low] = [
        new Uint32Array(Math.ceil(this.length * 1.5)),
        new Uint32Array(Math.ceil(this.length * 1.5)),
      ];
      high.set(this.high);
      low.set(this.low);
      [this.high, this.low] = [high, low];
    }
    const hex = id.slice(this.prefix.length);
    if (id.startsWith(this.prefix) && PACKED.test(hex)) {
      this.high[this.length] = Number.parseInt(hex.slice(0, 8), 16);
      this.low[this.length] = Number.parseInt(hex.slice(8), 16);
    } else {
      this.other.set(this.length, id);
    }
    this.length++;
  }

  get(i: number): string {
    const other = this.other.get(i);
    if (other !== undefined) return other;
    const hex = (n: number) => (n as number).toString(16).padStart(8, '0');
    return `${this.prefix}${hex(this.high[i] as number)}${hex(this.low[i] as number)}`;
  }
}

/**
 * Reads every row of a keyset-paged query in id order, `LOAD_CHUNK` at a time, so no single query
 * holds the connection for long; `page(after)` returns the next rows with an id above `after`.
 */
export async function forEachRow<R extends { id: string }>(
  page: (after: string) => Promise<R[]>,
  each: (row: R) => void,
): Promise<void> {
  let after = '';
  for (;;) {
    const rows = await page(after);
    for (const row of rows) each(row);
    const last = rows.at(-1);
    if (!last || rows.length < LOAD_CHUNK) return;
    after = last.id;
    // SQLite's driver answers synchronously (promises settle without leaving the microtask queue):
    // without this, a load would hold the event loop for its whole run, not a chunk at a time.
    await nextTurn();
  }
}
