import snowball from 'snowball-stemmers';
import { CATEGORY_INFO, type Category } from './categories.js';

/*
 * Text search in German as people type it: one algorithm for every engine and path (the in-memory
 * index and the SQL fallback both call matchKind), so SQLite and PostgreSQL answer alike.
 *
 * - Folding: lower case; ä/ae, ö/oe, ü/ue become a, o, u; ß becomes ss; other accents are dropped.
 * - Words: runs of letters and digits, so "Akku-Bohrer" is "akku" and "bohrer".
 * - Inflections: the Snowball German stemmer (snowball-stemmers), on folded words.
 * - Compounds: a query word of four letters or more matches the start or the end of a longer word
 *   ("maher" in "rasenmaher", "rasen" in "rasenmaher").
 * - Typos: a query word of five letters or more matches a word one edit away.
 * - Typing: the last word of the query may be the start of a word ("bohrm").
 */

const stemmer = snowball.newStemmer('german');

/** At most this many characters in q, and this many words. */
export const MAX_QUERY_LENGTH = 200;
export const MAX_QUERY_WORDS = 12;
/** Shortest query word that may match part of a compound; shortest that forgives a typo. */
const PART_MIN = 4;
const FUZZY_MIN = 5;

/** Words that say nothing about what is searched for: dropped from q ("Rasen mähen in Durlach"). */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  'der die das den dem des ein eine einen einem einer eines und oder in im am an auf aus bei mit von vom zu zum zur fur nach ich wir suche suchen gesucht brauche the a an and or of for in to with'.split(
    ' ',
  ),
);

/** Lower case without umlauts, ß or accents; the same on both sides of every comparison. */
export function foldText(text: string): string {
  return text
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/ä/g, 'a')
    .replace(/ö/g, 'o')
    .replace(/ü/g, 'u')
    .replace(/ae/g, 'a')
    .replace(/oe/g, 'o')
    .replace(/(?<!q)ue/g, 'u')
    .normalize('NFKD')
    .replace(/\p{M}/gu, '');
}

/** The folded words of a text, in order. */
export function words(text: string): string[] {
  return foldText(text).match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Stems of words seen, as a catalogue repeats its words (bounded: cleared when full). */
const STEMS = new Map<string, string>();
const STEM_CACHE = 200_000;

export function stem(word: string): string {
  if (word.length < 3) return word;
  let stemmed = STEMS.get(word);
  if (stemmed === undefined) {
    stemmed = stemmer.stem(word);
    if (STEMS.size >= STEM_CACHE) STEMS.clear();
    STEMS.set(word, stemmed);
  }
  return stemmed;
}

/** The terms a text is found by: each folded word and its stem. */
export function documentTerms(text: string): Set<string> {
  const terms = new Set<string>();
  for (const word of words(text)) {
    terms.add(word);
    terms.add(stem(word));
  }
  return terms;
}

export interface QueryWord {
  word: string;
  stem: string;
  /** The last word of the query: it may be the start of a longer word. */
  last: boolean;
}

/** The words of q that must all match, stop words left out. */
export function queryWords(q: string): QueryWord[] {
  const all = words(q);
  const kept = all.filter((word, i) => !STOP_WORDS.has(word) || (all.length === 1 && i === 0));
  return kept.map((word, i) => ({ word, stem: stem(word), last: i === kept.length - 1 }));
}

/** How a query word matches a term: 3 the whole word (or its stem), 2 part of it, 1 one typo away, 0 not. */
export function matchKind(query: QueryWord, term: string): number {
  if (term === query.word || term === query.stem) return 3;
  if (term.length > query.word.length) {
    if (query.last && term.startsWith(query.word)) return 2;
    if (query.word.length >= PART_MIN && (term.startsWith(query.word) || term.endsWith(query.word))) return 2;
    if (query.stem.length >= PART_MIN && (term.startsWith(query.stem) || term.endsWith(query.stem))) return 2;
  }
  // A typo only between long forms: short stems one edit apart are other words (ras/das, beam/beim).
  if (term.length >= FUZZY_MIN) {
    if (query.word.length >= FUZZY_MIN && oneEditApart(query.word, term)) return 1;
    if (query.stem.length >= FUZZY_MIN && oneEditApart(query.stem, term)) return 1;
  }
  return 0;
}

/** Whether a and b differ by exactly one insertion, deletion or substitution. */
export function oneEditApart(a: string, b: string): boolean {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  const extra = long.length - short.length;
  if (extra > 1 || a === b) return false;
  let i = 0;
  while (i < short.length && short.charCodeAt(i) === long.charCodeAt(i)) i++;
  // The rest after the one edit: a substitution skips one of each, an insertion one of the longer.
  for (let j = i + 1 - extra; j < short.length; j++) {
    if (short.charCodeAt(j) !== long.charCodeAt(j + extra)) return false;
  }
  return true;
}

/** Where a term stands in a document, weighting its matches: the title first, the category and place next. */
export const FIELD_WEIGHT = { title: 4, category: 2, place: 2, description: 1 } as const;
export type Field = keyof typeof FIELD_WEIGHT;

/**
 * The relevance of a document to the query words: for each word its best match (field weight ×
 * match kind), summed; 0 when any word matches nowhere.
 */
export function scoreDocument(query: readonly QueryWord[], fields: Readonly<Record<Field, Set<string>>>): number {
  let score = 0;
  for (const word of query) {
    let best = 0;
    for (const field of Object.keys(FIELD_WEIGHT) as Field[]) {
      for (const term of fields[field]) {
        const value = FIELD_WEIGHT[field] * matchKind(word, term);
        if (value > best) best = value;
      }
    }
    if (best === 0) return 0;
    score += best;
  }
  return score;
}

/** The terms of a category: its German and English names. */
const CATEGORY_TERMS = new Map<string, Set<string>>();
export function categoryTerms(category: Category): Set<string> {
  let terms = CATEGORY_TERMS.get(category);
  if (!terms) {
    const { name } = CATEGORY_INFO[category];
    terms = documentTerms(`${name.de} ${name.en}`);
    CATEGORY_TERMS.set(category, terms);
  }
  return terms;
}

/** The terms of a place: its city and district (public parts of every location). */
export function placeTerms(city: string, district: string | null): Set<string> {
  return documentTerms(district === null ? city : `${city} ${district}`);
}

/** What a job or listing is found by. */
export interface SearchableText {
  title: string;
  description: string;
  category: Category;
  city: string;
  district: string | null;
}

export function documentFields(doc: SearchableText): Record<Field, Set<string>> {
  return {
    title: documentTerms(doc.title),
    description: documentTerms(doc.description),
    category: categoryTerms(doc.category),
    place: placeTerms(doc.city, doc.district),
  };
}
