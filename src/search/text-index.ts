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
  private termOf: GrowingUint32;
  private entryOf: GrowingUint32;
  private readonly placeCodes = new Map<string, number>();
  private readonly places: Set<string>[] = [];
  private readonly placeNames: { city: string; district: string | null }[] = [];
  /** Per row (id order) its place code, while loading; then `placeOf`. */
  private placeByRow: GrowingUint32;
  private placeOf = new Uint32Array(0);
  /** After finish: per term the range of its entries (row × 2 + field) in `entries`. */
  private starts = new Uint32Array(0);
  private entries = new Uint32Array(0);
  /** Per query word, the best weight × kind per row; zeroed again after each search. */
  private best: Uint8Array[] = [];
  private rows = 0;
  /** Rows and terms of the build; rows and terms after them came with tail rows (addTail). */
  private builtTerms = 0;
  private capacity = 0;
  /** The entries (row × 2 + field) of tail rows, by term. */
  private readonly tailEntries = new Map<number, number[]>();

  constructor(expected: number) {
    this.termOf = new GrowingUint32(expected * 16);
    this.entryOf = new GrowingUint32(expected * 16);
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
   * Groups the entries by term (a counting sort: within a term, rows stay in order); `spare` rows
   * may follow with addTail.
   */
  finish(spare = 0): void {
    const count = this.termOf.length;
    const starts = new Uint32Array(this.terms.length + 1);
    for (let i = 0; i < count; i++) {
      const next = (this.termOf.array[i] as number) + 1;
      starts[next] = (starts[next] as number) + 1;
    }
    for (let t = 0; t < this.terms.length; t++) starts[t + 1] = (starts[t + 1] as number) + (starts[t] as number);
    const fill = starts.slice(0, this.terms.length);
    const entries = new Uint32Array(count);
    for (let i = 0; i < count; i++) {
      const term = this.termOf.array[i] as number;
      const at = fill[term] as number;
      entries[at] = this.entryOf.array[i] as number;
      fill[term] = at + 1;
    }
    this.starts = starts;
    this.entries = entries;
    this.termOf = new GrowingUint32(0);
    this.entryOf = new GrowingUint32(0);
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
    const matched: number[][] = [];
    const byCategory: Uint8Array[] = [];
    const byPlace: Uint8Array[] = [];
    words.forEach((word, w) => {
      const best = this.best[w] as Uint8Array;
      const terms: number[] = [];
      for (let t = 0; t < this.terms.length; t++) {
        const kind = matchKind(word, this.terms[t] as string);
        if (kind === 0) continue;
        terms.push(t);
        if (t < this.builtTerms) {
          for (let e = this.starts[t] as number; e < (this.starts[t + 1] as number); e++) {
            const entry = this.entries[e] as number;
            const row = entry >>> 1;
            const value = (POSTING_WEIGHT[entry & 1] as number) * kind;
            if (value > (best[row] as number)) best[row] = value;
          }
        }
        for (const entry of this.tailOf(t)) {
          const row = entry >>> 1;
          const value = (POSTING_WEIGHT[entry & 1] as number) * kind;
          if (value > (best[row] as number)) best[row] = value;
        }
      }
      matched.push(terms);
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
      release: () => {
        matched.forEach((terms, w) => {
          const array = best[w] as Uint8Array;
          for (const t of terms) {
            if (t < this.builtTerms) {
              for (let e = this.starts[t] as number; e < (this.starts[t + 1] as number); e++) {
                array[(this.entries[e] as number) >>> 1] = 0;
              }
            }
            for (const entry of this.tailOf(t)) array[entry >>> 1] = 0;
          }
        });
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
