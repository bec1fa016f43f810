import { CATEGORIES } from '../domain/categories.js';
import {
  categoryTerms,
  documentTerms,
  FIELD_WEIGHT,
  matchKind,
  placeTerms,
  type QueryWord,
} from '../domain/search-text.js';

/** A Uint32Array that grows by half when full. */
class GrowingUint32 {
  length = 0;
  array: Uint32Array;
  constructor(capacity: number) {
    this.array = new Uint32Array(Math.max(16, capacity));
  }
  push(value: number): void {
    if (this.length === this.array.length) {
      const grown = new Uint32Array(Math.ceil(this.array.length * 1.5));
      grown.set(this.array);
      this.array = grown;
    }
    this.array[this.length++] = value;
  }
}

/** Rows whose postings are encoded together (a segment): the load holds one segment's raw entries at a time. */
const SEGMENT_ROWS = 65_536;

/**
 * The postings of one segment of rows: per term (below `terms`, the vocabulary's size when the
 * segment was closed) the range of its bytes in `bytes`. The entries (row × 2 + field, ascending
 * within a term) are stored as the differences to the term's previous entry, in any earlier
 * segment too (the first is the entry + 1), each in 7-bit groups, low first, the high bit set on
 * all but the last: a difference is mostly one byte where a plain entry takes four.
 */
interface Segment {
  terms: number;
  starts: Uint32Array;
  bytes: Uint8Array;
}

/**
 * Raises `best[row]` to the term's weight × `kind` for every entry of term `t` in the build's
 * segments (decoded in place: this loop is most of a search with words over a large index).
 */
function raiseBest(segments: readonly Segment[], t: number, best: Uint8Array, kind: number): void {
  const [title, description] = [
    (POSTING_WEIGHT[TITLE] as number) * kind,
    (POSTING_WEIGHT[DESCRIPTION] as number) * kind,
  ];
  let entry = -1;
  for (const { terms, starts, bytes } of segments) {
    if (t >= terms) continue;
    const end = starts[t + 1] as number;
    let at = starts[t] as number;
    while (at < end) {
      let byte = bytes[at++] as number;
      let delta = byte;
      if (byte >= 0x80) {
        // Entries stay below 2^23 (PointIndex's limit), so a difference fits the 32-bit shifts.
        delta = byte & 0x7f;
        let shift = 7;
        do {
          byte = bytes[at++] as number;
          delta |= (byte & 0x7f) << shift;
          shift += 7;
        } while (byte >= 0x80);
      }
      entry += delta;
      const row = entry >>> 1;
      const value = (entry & 1) === TITLE ? title : description;
      if (value > (best[row] as number)) best[row] = value;
    }
  }
}

/** Bytes a difference takes in a segment. */
function deltaBytes(delta: number): number {
  return delta < 0x80 ? 1 : delta < 0x4000 ? 2 : delta < 0x200000 ? 3 : delta < 0x10000000 ? 4 : 5;
}

/** The two fields with postings; category and place are few values, matched per value. */
const TITLE = 0;
const DESCRIPTION = 1;
const POSTING_WEIGHT = [FIELD_WEIGHT.title, FIELD_WEIGHT.description];

/**
 * The words of every row of an index (rows in load order, that is id order = PointIndex rank):
 * a vocabulary of terms (folded words and stems, domain/search-text.ts documentTerms) with the
 * rows and fields each occurs in, and per row its place. A search matches each query word against
 * the vocabulary once (matchKind, the same function the SQL path scores rows with) and reads the
 * postings of the terms it matched.
 */
export class TextIndex {
  private readonly vocabulary = new Map<string, number>();
  private readonly terms: string[] = [];
  /** While loading: the entries of the segment being read (term and entry of each), reused. */
  private termOf: GrowingUint32;
  private entryOf: GrowingUint32;
  /** Per term, its last entry + 1 so far (0: none), what the next difference is taken from. */
  private lastEntry = new Uint32Array(1024);
  private readonly segments: Segment[] = [];
  private readonly placeCodes = new Map<string, number>();
  private readonly places: Set<string>[] = [];
  private readonly placeNames: { city: string; district: string | null }[] = [];
  /** Per row (id order) its place code, while loading; then `placeOf`. */
  private placeByRow: GrowingUint32;
  private placeOf = new Uint32Array(0);
  /** Per query word, the best weight × kind per row; zeroed again after each search. */
  private best: Uint8Array[] = [];
  private rows = 0;
  /** Rows and terms of the build; rows and terms after them came with tail rows (addTail). */
  private builtTerms = 0;
  private capacity = 0;
  /** The entries (row × 2 + field) of tail rows, by term. */
  private readonly tailEntries = new Map<number, number[]>();

  constructor(
    expected: number,
    /** Rows per segment of postings (tests make it small to cross segment boundaries). */
    private readonly segmentRows = SEGMENT_ROWS,
  ) {
    const rows = Math.min(expected, segmentRows);
    this.termOf = new GrowingUint32(rows * 16);
    this.entryOf = new GrowingUint32(rows * 16);
    this.placeByRow = new GrowingUint32(expected);
  }

  /** The next row (rows come in id order). */
  add(text: SearchableRow): void {
    const row = this.rows++;
    this.addField(row, TITLE, text.title, (id, entry) => {
      this.termOf.push(id);
      this.entryOf.push(entry);
    });
    this.addField(row, DESCRIPTION, text.description, (id, entry) => {
      this.termOf.push(id);
      this.entryOf.push(entry);
    });
    this.placeByRow.push(this.placeCode(text));
    if (this.rows % this.segmentRows === 0) this.closeSegment();
  }

  /** Encodes the entries read since the last segment as a segment (a counting sort by term). */
  private closeSegment(): void {
    const count = this.termOf.length;
    if (count === 0) return;
    const [termOf, entryOf] = [this.termOf.array, this.entryOf.array];
    const terms = this.terms.length;
    if (this.lastEntry.length < terms) {
      const grown = new Uint32Array(Math.max(terms, this.lastEntry.length * 2));
      grown.set(this.lastEntry);
      this.lastEntry = grown;
    }
    const last = this.lastEntry;
    // Bytes per term, then where each term's bytes start; the differences in entry order per term.
    const starts = new Uint32Array(terms + 1);
    const previous = last.slice(0, terms);
    for (let i = 0; i < count; i++) {
      const [term, entry] = [termOf[i] as number, entryOf[i] as number];
      starts[term + 1] = (starts[term + 1] as number) + deltaBytes(entry + 1 - (previous[term] as number));
      previous[term] = entry + 1;
    }
    for (let t = 0; t < terms; t++) starts[t + 1] = (starts[t + 1] as number) + (starts[t] as number);
    const bytes = new Uint8Array(starts[terms] as number);
    const fill = starts.slice(0, terms);
    for (let i = 0; i < count; i++) {
      const [term, entry] = [termOf[i] as number, entryOf[i] as number];
      let delta = entry + 1 - (last[term] as number);
      last[term] = entry + 1;
      let at = fill[term] as number;
      while (delta >= 0x80) {
        bytes[at++] = (delta & 0x7f) | 0x80;
        delta = Math.floor(delta / 0x80);
      }
      bytes[at++] = delta;
      fill[term] = at;
    }
    this.segments.push({ terms, starts, bytes });
    this.termOf.length = 0;
    this.entryOf.length = 0;
  }

  /**
   * A row after the build (finish), for a point appended to the tail: its terms go to postings of
   * their own, read with the build's. Returns its row; false when there is no room (rebuild).
   */
  addTail(text: SearchableRow): number | false {
    if (this.rows >= this.capacity) return false;
    const row = this.rows++;
    const keep = (id: number, entry: number) => {
      const entries = this.tailEntries.get(id);
      if (entries) entries.push(entry);
      else this.tailEntries.set(id, [entry]);
    };
    this.addField(row, TITLE, text.title, keep);
    this.addField(row, DESCRIPTION, text.description, keep);
    this.placeOf[row] = this.placeCode(text);
    return row;
  }

  private placeCode(text: SearchableRow): number {
    const placeKey = `${text.city}\u0000${text.district ?? ''}`;
    let code = this.placeCodes.get(placeKey);
    if (code === undefined) {
      code = this.places.length;
      this.placeCodes.set(placeKey, code);
      this.places.push(placeTerms(text.city, text.district));
      this.placeNames.push({ city: text.city, district: text.district });
    }
    return code;
  }

  /** The place code of each row (its city and district: placeName); read only. */
  placeCodesOfRows(): Uint32Array {
    return this.placeOf;
  }

  /** How many place codes there are. */
  get placeCount(): number {
    return this.placeNames.length;
  }

  placeName(code: number): { city: string; district: string | null } {
    return this.placeNames[code] as { city: string; district: string | null };
  }

  private addField(row: number, field: number, text: string, keep: (term: number, entry: number) => void): void {
    for (const term of documentTerms(text)) {
      let id = this.vocabulary.get(term);
      if (id === undefined) {
        id = this.terms.length;
        this.vocabulary.set(term, id);
        this.terms.push(term);
      }
      keep(id, row * 2 + field);
    }
  }

  /** Entries of term `t` in the tail (none for most). */
  private tailOf(t: number): readonly number[] {
    return this.tailEntries.get(t) ?? NO_ENTRIES;
  }

  /**
   * Encodes the last segment; the build's postings are then complete (within a term, rows in
   * order). `spare` rows may follow with addTail.
   */
  finish(spare = 0): void {
    this.closeSegment();
    this.termOf = new GrowingUint32(0);
    this.entryOf = new GrowingUint32(0);
    this.lastEntry = new Uint32Array(0);
    this.capacity = this.rows + spare;
    this.placeOf = new Uint32Array(this.capacity);
    this.placeOf.set(this.placeByRow.array.subarray(0, this.placeByRow.length));
    this.placeByRow = new GrowingUint32(0);
    this.builtTerms = this.terms.length;
  }

  /**
   * Prepares a search for `words`: fills each word's best match per row from the postings, and per
   * category and place. Returns the scorer the scan calls per candidate; `release` must follow.
   */
  prepare(words: readonly QueryWord[]): TextScorer {
    while (this.best.length < words.length) this.best.push(new Uint8Array(this.capacity));
    const byCategory: Uint8Array[] = [];
    const byPlace: Uint8Array[] = [];
    words.forEach((word, w) => {
      const best = this.best[w] as Uint8Array;
      for (let t = 0; t < this.terms.length; t++) {
        const kind = matchKind(word, this.terms[t] as string);
        if (kind === 0) continue;
        if (t < this.builtTerms) raiseBest(this.segments, t, best, kind);
        for (const entry of this.tailOf(t)) {
          const row = entry >>> 1;
          const value = (POSTING_WEIGHT[entry & 1] as number) * kind;
          if (value > (best[row] as number)) best[row] = value;
        }
      }
      byCategory.push(Uint8Array.from(CATEGORIES, (c) => bestIn(word, categoryTerms(c), FIELD_WEIGHT.category)));
      byPlace.push(Uint8Array.from(this.places, (p) => bestIn(word, p, FIELD_WEIGHT.place)));
    });
    const best = this.best.slice(0, words.length);
    const place = this.placeOf;
    return {
      score(row: number, category: number): number {
        let total = 0;
        for (let w = 0; w < best.length; w++) {
          let value = (best[w] as Uint8Array)[row] as number;
          const c = (byCategory[w] as Uint8Array)[category] as number;
          if (c > value) value = c;
          const p = (byPlace[w] as Uint8Array)[place[row] as number] as number;
          if (p > value) value = p;
          if (value === 0) return 0;
          total += value;
        }
        return total;
      },
      // One byte per row and word: clearing all of it (a memset, ~25 µs at a million rows) costs
      // less than decoding the matched postings a second time.
      release: () => {
        for (const array of best) array.fill(0);
      },
    };
  }
}

const NO_ENTRIES: readonly number[] = [];

/** What the text index reads of a row. */
export interface SearchableRow {
  title: string;
  description: string;
  city: string;
  district: string | null;
}

export interface TextScorer {
  /** The row's relevance (id-order row, its category code), 0 when a word matches nowhere. */
  score(row: number, category: number): number;
  release(): void;
}

function bestIn(word: QueryWord, terms: Set<string>, weight: number): number {
  let best = 0;
  for (const term of terms) best = Math.max(best, weight * matchKind(word, term));
  return best;
}
