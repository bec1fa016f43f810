/**
 * The text index's postings are stored per segment of rows as differences to the term's previous
 * entry (src/search/text-index.ts): with segments of a few rows, so that terms start, pause and end
 * across many segment boundaries, every row scores exactly as with one segment and as a direct
 * count over the rows' terms says, before and after rows appended to the tail, and a search after
 * a search (the scores cleared between) scores the same.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { documentTerms, FIELD_WEIGHT, matchKind, queryWords } from '../../src/domain/search-text.js';
import { TextIndex } from '../../src/search/text-index.js';
import { seeded } from '../helpers/random.js';

const WORDS = ['rasen', 'mähen', 'garten', 'hecke', 'umzug', 'kisten', 'bohrmaschine', 'zelt', 'katze', 'fenster'];

test('postings across many small segments score every row as one segment and a direct count do', () => {
  const g = seeded(3);
  const text = () =>
    Array.from({ length: 1 + Math.floor(g.next() * 5) }, () => g.pick(WORDS))
      // Rare words: some terms occur in one segment only, some only after several segments.
      .concat(g.maybe(0.05) ? [`selten${Math.floor(g.next() * 3)}`] : [])
      .join(' ');
  const rows = Array.from({ length: 300 }, () => ({
    title: text(),
    description: g.maybe(0.2) ? '' : text(),
    city: 'Karlsruhe',
    district: g.pick(['Durlach', null]),
  }));
  const tail = rows.slice(0, 20).map((row) => ({ ...row, title: `${row.title} selten9` }));
  const [small, whole] = [new TextIndex(rows.length, 7), new TextIndex(rows.length)];
  for (const index of [small, whole]) {
    for (const row of rows) index.add(row);
    index.finish(tail.length);
    for (const row of tail) assert.notEqual(index.addTail(row), false);
  }
  const all = [...rows, ...tail];
  for (const q of ['rasen', 'mähen garten', 'selten0', 'selten2', 'selten9', 'kiste', 'zelt katze fenster']) {
    const words = queryWords(q);
    for (let round = 0; round < 2; round++) {
      const [a, b] = [small.prepare(words), whole.prepare(words)];
      all.forEach((row, r) => {
        // Direct: per word the best of title and description by matchKind (category 0, place as indexed).
        const direct = words.every((word) =>
          [...documentTerms(row.title), ...documentTerms(row.description)].some((t) => matchKind(word, t) > 0),
        );
        const score = a.score(r, 0);
        assert.equal(score, b.score(r, 0), `${q}: row ${r}`);
        const titleBest = Math.max(
          0,
          ...[...documentTerms(row.title)].map((t) => matchKind(words[0] as (typeof words)[number], t)),
        );
        if (words.length === 1 && titleBest > 0) assert.ok(score >= FIELD_WEIGHT.title * titleBest, `${q}: row ${r}`);
        if (direct) assert.ok(score > 0, `${q}: row ${r} matches`);
      });
      a.release();
      b.release();
    }
  }
});
