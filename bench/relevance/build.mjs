// Proposes the ids of the relevance set from the judgements written in queries.json, and shows
// what the engine answers beside them, for review:
//
//   node --import tsx bench/relevance/build.mjs            review: each query's proposal and the engine's top 8
//   node --import tsx bench/relevance/build.mjs --write    write the proposed ids into queries.json
//
// A query's `judge` holds case-insensitive regular expressions over the titles of the rows the
// search could show (open jobs or available listings in its area, read through the API without q):
//   must      what a person typing q wants first; the five newest such rows are `must` (newest is
//             the order of equally relevant results), the others go to `also_relevant`
//   relevant  acceptable in the first five as well (`also_relevant`)
//   not       clearly unrelated: such rows are `must_not` (20 of them: those
//             the engine returns first, then by id)
//   must_category  rows of this category count as `must` too (queries naming a category in English)
// The engine's answers are never used to choose the ids: read the review and correct the judgements
// (or the ids) by hand. Rerun when the seed catalogue (src/seed/catalog/) changes.
import { readFileSync, writeFileSync } from 'node:fs';
import { loadQueries, openRelevanceApp, QUERIES_FILE, resultIds, scoreQuery } from './relevance.mjs';

const WRITE = process.argv.includes('--write');
/** must_not keeps a sample of the unrelated rows (the first by id), so the file stays small. */
const MUST_NOT_KEPT = 20;
const app = await openRelevanceApp(new URL('../../src/', import.meta.url));

/** The rows a search of `resource` around `near` can show, without q (all pages). */
const visible = new Map();
async function rowsOf(resource, near) {
  const key = `${resource} ${near ?? ''}`;
  if (!visible.has(key)) {
    const rows = [];
    for (let offset = 0; ; offset += 100) {
      const params = new URLSearchParams({ limit: '100', offset: String(offset), sort: 'newest' });
      if (near) params.set('near', near);
      const body = await app.get(`/v1/${resource}?${params}`);
      rows.push(...body.data);
      if (body.data.length < 100) break;
    }
    visible.set(key, rows);
  }
  return visible.get(key);
}

const queries = loadQueries();
const byId = new Map();
for (const query of queries) {
  const rows = await rowsOf(query.resource, query.near);
  for (const row of rows) byId.set(row.id, row);
  const test = (pattern) => (row) => pattern !== undefined && new RegExp(pattern, 'i').test(row.title);
  const isMust = (row) => test(query.judge.must)(row) || row.category === query.judge.must_category?.toUpperCase();
  // rows are in the newest order (ties by id), the order of equally relevant results.
  const must = rows.filter(isMust);
  const relevant = rows.filter((row) => !isMust(row) && test(query.judge.relevant)(row));
  const not = rows.filter(test(query.judge.not));
  query.must = must.slice(0, 5).map((r) => r.id);
  query.also_relevant = [...must.slice(5), ...relevant].map((r) => r.id).sort();
  const ids = await resultIds(query, app.get);
  // The unrelated rows the engine returns are kept first: they are the failures to see.
  const returned = new Set(ids);
  query.must_not = not
    .map((r) => r.id)
    .sort((a, b) => Number(returned.has(b)) - Number(returned.has(a)) || (a < b ? -1 : 1))
    .slice(0, MUST_NOT_KEPT)
    .sort();
  const score = scoreQuery(query, ids);
  const mark = (id) =>
    query.must.includes(id)
      ? 'MUST'
      : query.also_relevant.includes(id)
        ? 'rel '
        : query.must_not.includes(id)
          ? 'NOT!'
          : '    ';
  process.stdout.write(
    `\n${query.resource} q="${query.q}"${query.near ? ` near=${query.near}` : ''}: ${must.length} must-rows, ${relevant.length} relevant, ${not.length} not; engine ${ids.length} results; P@5 ${score.precision.toFixed(2)} R@5 ${score.recall.toFixed(2)}${score.violations.length ? ` ${score.violations.length} must_not returned` : ''}\n`,
  );
  for (const id of ids.slice(0, 8)) process.stdout.write(`  ${mark(id)} ${id} ${byId.get(id)?.title ?? '?'}\n`);
  for (const id of score.missing) process.stdout.write(`  missing ${id} ${byId.get(id)?.title}\n`);
  for (const id of score.violations.slice(0, 3))
    process.stdout.write(`  returned must_not ${id} ${byId.get(id)?.title}\n`);
}
await app.close();

if (WRITE) {
  const ordered = queries.map(({ resource, q, near, note, known_failure, judge, must, also_relevant, must_not }) => ({
    resource,
    q,
    ...(near ? { near } : {}),
    ...(note ? { note } : {}),
    ...(known_failure ? { known_failure } : {}),
    judge,
    must,
    also_relevant,
    must_not,
  }));
  const file = { ...JSON.parse(readFileSync(QUERIES_FILE, 'utf8')), queries: ordered };
  // One query's id lists on one line each (the file is left out of the formatter, biome.json).
  const text = JSON.stringify(file, null, 2).replace(
    /\[\n\s+("[^\]]*?)\n\s+\]/g,
    (_, ids) => `[${ids.replace(/,\n\s+/g, ', ')}]`,
  );
  writeFileSync(QUERIES_FILE, `${text}\n`);
  process.stdout.write(`\nwritten to ${QUERIES_FILE.pathname}\n`);
}
