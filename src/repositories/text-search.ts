import { documentFields, type QueryWord, type SearchableText, scoreDocument } from '../domain/search-text.js';
import type { IndexedPage } from './indexed-search.js';
import type { SearchSort } from './search-order.js';

/** Rows a search with words reads per query when no index is current. */
const SCAN_CHUNK = 5_000;

/** A row that matched the words, with what its order needs. */
export interface ScoredRow {
  id: string;
  score: number;
  created: string;
  price: number;
  distance: number;
}

export type ScannedRow = SearchableText & { id: string; created_at: string; distance_km: number };

/**
 * Every row of a filtered query that the words match, scored (domain/search-text.ts scoreDocument:
 * the function the in-memory index's postings reproduce), read in id order `SCAN_CHUNK` at a time.
 * `chunk(after, size)` returns the next rows with an id above `after`.
 */
export async function scoreRows<R extends ScannedRow>(
  chunk: (after: string, size: number) => Promise<R[]>,
  words: readonly QueryWord[],
  priceOf: (row: R) => number,
): Promise<ScoredRow[]> {
  const out: ScoredRow[] = [];
  let after = '';
  for (;;) {
    const rows = await chunk(after, SCAN_CHUNK);
    for (const row of rows) {
      const score = scoreDocument(words, documentFields(row));
      if (score > 0) {
        out.push({ id: row.id, score, created: row.created_at, price: priceOf(row), distance: row.distance_km });
      }
    }
    const last = rows.at(-1);
    if (!last || rows.length < SCAN_CHUNK) return out;
    after = last.id;
  }
}

const byId = (a: ScoredRow, b: ScoredRow) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const newest = (a: ScoredRow, b: ScoredRow) => (a.created > b.created ? -1 : a.created < b.created ? 1 : 0);

/** The rows in a search's order (search-order.ts, with relevance before newest); ties by id. */
export function orderScored(rows: ScoredRow[], sort: SearchSort): ScoredRow[] {
  const first: (a: ScoredRow, b: ScoredRow) => number =
    sort === 'relevance'
      ? (a, b) => b.score - a.score || newest(a, b)
      : sort === 'price_asc'
        ? (a, b) => a.price - b.price
        : sort === 'price_desc'
          ? (a, b) => b.price - a.price
          : sort === 'distance'
            ? (a, b) => a.distance - b.distance
            : newest;
  return rows.sort((a, b) => first(a, b) || byId(a, b));
}

/** The page of a search with words as an index answers it: the ids in order, their distances, the total. */
export async function scoredPage<R extends ScannedRow>(
  chunk: (after: string, size: number) => Promise<R[]>,
  search: { text: readonly QueryWord[]; sort: SearchSort; offset: number; limit: number },
  priceOf: (row: R) => number,
): Promise<IndexedPage> {
  const scored = await scoreRows(chunk, search.text, priceOf);
  const page = orderScored(scored, search.sort).slice(search.offset, search.offset + search.limit);
  return { ids: page.map((r) => r.id), distances: page.map((r) => r.distance), total: scored.length };
}
