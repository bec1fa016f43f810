/**
 * The other direction of the request check (scripts/check-requests.mjs checks that the document
 * takes every request the server takes): every GET request the served document says is valid, the
 * server must not refuse as invalid. For each read operation, random parameter values are drawn
 * from the document's own parameter schemas (enums, any-case patterns, ranges, lengths, formats),
 * seeded and bounded, and sent; a 400 is a place where the server is narrower than its document.
 *
 * The few rules that tie parameters together are in the descriptions, not in the schemas (a schema
 * describes one parameter): lat and lng go together, hours is duration_hours by another name,
 * budget_min is at most budget_max, near excludes lat/lng and names a known place, q has at most
 * 12 words, sort=relevance needs q. They are kept here when drawing, so a 400 always means a
 * parameter the document allows was refused.
 *
 *   DOCUMENT_RUNS=200 DOCUMENT_SEED=7 npm test -- test/http/document-requests.test.ts
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { NAMED_PLACES, type NamedPlace } from '../../src/domain/place-names.js';
import { MAX_QUERY_WORDS, words } from '../../src/domain/search-text.js';
import { seedDatabase } from '../../src/seed/seed-database.js';
import { buildTestApp, createKey } from '../helpers/app.js';
import { resolveShared } from '../helpers/openapi.js';

const RUNS = Number(process.env.DOCUMENT_RUNS ?? 25);
const SEED = Number(process.env.DOCUMENT_SEED ?? 20261125);

interface Schema {
  type?: string | string[];
  enum?: unknown[];
  anyOf?: Schema[];
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  maxLength?: number;
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema: Schema;
}

/** Text a parameter's schema accepts, as it goes into a URL (before encoding). */
function textFor(schema: Schema): fc.Arbitrary<string> {
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map(textFor));
  if (schema.enum) return fc.constantFrom(...schema.enum.map(String));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'boolean') return fc.constantFrom('true', 'false');
  if (type === 'integer' || type === 'number') {
    const min = schema.minimum ?? schema.exclusiveMinimum ?? -1e6;
    const max = schema.maximum ?? 1e6;
    return type === 'integer'
      ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) }).map(String)
      : fc
          .double({ min, max, noNaN: true, minExcluded: schema.exclusiveMinimum !== undefined })
          .map((n) => String(Object.is(n, -0) ? 0 : n));
  }
  if (schema.format === 'date') {
    return fc
      .date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10));
  }
  const lengths = { minLength: schema.minLength ?? 0, maxLength: schema.maxLength ?? 64 };
  const text = schema.pattern
    ? fc.stringMatching(new RegExp(schema.pattern, 'u'))
    : fc.string({ ...lengths, unit: 'grapheme' });
  return text.filter((s) => [...s].length >= lengths.minLength && [...s].length <= lengths.maxLength);
}

/** Query strings the operation's documented parameters allow, with the rules that tie parameters together. */
function queryOf(parameters: readonly Parameter[]): fc.Arbitrary<string> {
  const query = parameters.filter((p) => p.in === 'query');
  const entries = query.map((p) =>
    p.required ? textFor(p.schema).map((v) => [p.name, v]) : fc.option(textFor(p.schema).map((v) => [p.name, v])),
  );
  return fc.tuple(...entries).map((pairs) => {
    const given = new Map(pairs.filter((pair): pair is string[] => Array.isArray(pair)) as [string, string][]);
    // lat and lng go together (a point); hours is duration_hours by another name: one of them; min <= max.
    if (given.has('lat') !== given.has('lng')) {
      given.delete('lat');
      given.delete('lng');
    }
    if (given.has('hours')) given.delete('duration_hours');
    // near is a place the service knows (GET /v1/places), instead of lat/lng.
    const near = given.get('near');
    if (near !== undefined) {
      given.set('near', (NAMED_PLACES[[...near].length % NAMED_PLACES.length] as NamedPlace).name);
      given.delete('lat');
      given.delete('lng');
    }
    const q = given.get('q');
    if (q !== undefined && words(q).length > MAX_QUERY_WORDS)
      given.set('q', words(q).slice(0, MAX_QUERY_WORDS).join(' '));
    if (given.get('sort')?.toLowerCase() === 'relevance' && !given.has('q')) given.delete('sort');
    const [low, high] = [given.get('budget_min'), given.get('budget_max')];
    if (low !== undefined && high !== undefined && Number(low) > Number(high)) {
      given.set('budget_min', high);
      given.set('budget_max', low);
    }
    return new URLSearchParams([...given]).toString();
  });
}

test('no GET request the document allows is refused as invalid', { timeout: 600_000 }, async (t) => {
  const { app, db } = await buildTestApp(t);
  await seedDatabase(db.kysely, {
    seed: 5,
    jobs: 40,
    listings: 20,
    helpers: 20,
    completedJobs: 20,
    anchor: new Date('2026-11-20T00:00:00Z'),
  });
  const { key } = await createKey(db);
  const served = (await app.inject({ url: '/v1/openapi.json' })).json();
  const doc = resolveShared(served) as { paths: Record<string, Record<string, { parameters?: Parameter[] }>> };
  const ids = async (table: 'jobs' | 'listings' | 'helpers') =>
    (await db.kysely.selectFrom(table).select('id').limit(5).execute()).map((r) => r.id);
  const known: Record<string, string[]> = { jobs: await ids('jobs'), listings: await ids('listings') };

  const refused: string[] = [];
  let sent = 0;
  for (const [path, item] of Object.entries(doc.paths)) {
    const operation = item.get;
    // The streams stay open (the public one's parameters are the search filters, drawn for GET
    // /v1/jobs; both streams' types and Last-Event-ID are checked in events-stream.test.ts).
    const streams = ['/v1/events/stream', '/v1/me/events/stream'];
    if (!operation || !path.startsWith('/v1/') || streams.includes(path)) continue;
    const parameters = operation.parameters ?? [];
    const pathValues = parameters
      .filter((p) => p.in === 'path')
      .map((p) => {
        const resource = path.split('/')[path.startsWith('/v1/demo/') ? 3 : 2] ?? '';
        const existing = p.name === 'id' ? (known[resource] ?? []) : [];
        const value =
          existing.length > 0 ? fc.oneof(fc.constantFrom(...existing), textFor(p.schema)) : textFor(p.schema);
        return value.map((v) => [p.name, v] as const);
      });
    const request = fc.tuple(fc.tuple(...pathValues), queryOf(parameters)).map(([values, query]) => {
      let url = path;
      for (const [name, value] of values) url = url.replace(`{${name}}`, encodeURIComponent(value));
      return query ? `${url}?${query}` : url;
    });
    for (const url of fc.sample(request, { seed: SEED, numRuns: RUNS })) {
      const response = await app.inject({ url, headers: { 'x-api-key': key } });
      sent++;
      assert.ok(response.statusCode < 500, `GET ${url}: ${response.statusCode} ${response.body.slice(0, 300)}`);
      if (response.statusCode === 400) refused.push(`GET ${url}\n    ${response.body.slice(0, 300)}`);
    }
  }
  t.diagnostic(`${sent} requests drawn from the document (seed ${SEED}, ${RUNS} per operation)`);
  assert.deepEqual(refused, [], `the server refused ${refused.length} request(s) its document allows`);
});
