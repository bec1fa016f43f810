/**
 * Quality of text search, measured (issue 18): the relevance set bench/relevance/queries.json
 * (German queries with the ids they must find in their first five results and ids they must not
 * return) over its fixed seeded dataset, through HTTP with the search index and with SQL alone.
 * Macro precision@5 and recall@5 must reach 0.9 (definitions in bench/relevance/relevance.mjs);
 * no query returns a must_not id, except those marked known_failure (listed in the report).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { evaluate, loadQueries, RELEVANCE_DATASET, relevanceReport, TARGET } from '../../bench/relevance/relevance.mjs';
import { buildApp } from '../../src/app.js';
import { testConfig } from '../../src/config.js';
import { SearchIndexes } from '../../src/search/search-indexes.js';
import { seedDatabase } from '../../src/seed/seed-database.js';
import { buildTestApp } from '../helpers/app.js';

const PLAIN = { RATE_LIMIT_ANONYMOUS_PER_MIN: '1000000', RESPONSE_CACHE_MS: '0' };

describe('the relevance set', () => {
  test('reaches precision@5 and recall@5 of 0.9 on the index and on SQL', { timeout: 120_000 }, async (t) => {
    const queries = loadQueries();
    assert.ok(queries.length >= 60, `at least 60 queries: ${queries.length}`);
    const now = new Date(RELEVANCE_DATASET.now);
    const { app: sqlApp, db } = await buildTestApp(t, now, { ...PLAIN, SEARCH_INDEX: 'false' });
    const { now: _now, anchor, ...sizes } = RELEVANCE_DATASET;
    await seedDatabase(db.kysely, { ...sizes, anchor: new Date(anchor) });
    const indexes = new SearchIndexes(db, { minGapMs: 3_600_000 });
    t.after(() => indexes.close());
    assert.ok(await indexes.refresh(), 'the index is built');
    const indexed = await buildApp(testConfig(PLAIN), { db, now: () => now, searchIndexes: indexes });
    t.after(() => indexed.close());

    for (const [name, app] of [
      ['index', indexed],
      ['SQL', sqlApp],
    ] as const) {
      const result = await evaluate(queries, async (path: string) => {
        const res = await app.inject({ method: 'GET', url: path });
        assert.equal(res.statusCode, 200, `${path}: ${res.body}`);
        return res.json();
      });
      const report = relevanceReport(result);
      t.diagnostic(`${name}:\n${report}`);
      assert.ok(result.precision >= TARGET.precision, `${name}: precision@5 ${result.precision}\n${report}`);
      assert.ok(result.recall >= TARGET.recall, `${name}: recall@5 ${result.recall}\n${report}`);
      const violations = result.scored.filter((s) => s.violations.length > 0 && !s.query.known_failure);
      assert.deepEqual(
        violations.map((s) => `${s.query.resource} ${s.query.q}: ${s.violations.join(' ')}`),
        [],
        `${name}: must_not ids returned`,
      );
    }
  });
});
