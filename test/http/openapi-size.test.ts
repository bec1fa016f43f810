/**
 * The served OpenAPI document is compact (issue 15): what operations share is written once and
 * pointed at — the budget headers, the ApiError responses, repeated parameters and Idempotency-Key,
 * alike success responses and repeated schemas under components; the life cycles and the webhooks
 * chapter in their tags' descriptions; the sandbox twins' copies of their real operations'
 * descriptions as pointers — and writing it all out again loses nothing.
 */
import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import { describe, test } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import { IDEMPOTENCY_RETENTION_HOURS } from '../../src/domain/idempotency.js';
import { BUDGET_HEADERS, SHARED_ERRORS, SHARED_HEADERS } from '../../src/http/error-catalogue.js';
import { compactDocument, descriptionsPageOf, expandDocument } from '../../src/http/openapi/compact.js';
import { ERROR_COMPONENT_NAMES, HEADER_COMPONENT_NAMES } from '../../src/http/openapi/components.js';
import { MIN_SHARED_CHARS } from '../../src/http/openapi/descriptions.js';
import { MAX_PART_BYTES } from '../../src/http/openapi/parts.js';
import {
  DESCRIPTIONS_PAGE,
  MAX_INLINE_CHARS,
  type Prose,
  proseOfPage,
  restoreProse,
} from '../../src/http/openapi/prose.js';
import { isSharedSchemaName } from '../../src/http/openapi/schemas.js';
import type { OpenApiObject } from '../../src/http/openapi/types.js';
import { AccountExportSchema } from '../../src/schemas/account-export.js';
import {
  IDEMPOTENCY_KEY_PATTERN,
  IDEMPOTENCY_KEY_PATTERN_SOURCE,
  IdempotencyKeySchema,
} from '../../src/schemas/idempotency.js';
import { buildTestApp } from '../helpers/app.js';
import { resolveShared } from '../helpers/openapi.js';

/**
 * The most the document may weigh, in bytes of JSON (issue 15: 150 KB; raised with the operations of issue 17). Inlined it was 494,571
 * bytes; with shared headers, errors and parameters 194,435; 147,900 at the end of issue 15 (58
 * operations); 166,600 with the conversations of issue 17 (65); with its reviews, replies,
 * verification requests and the documented reliability formula too, about 185,100 (72); with issue
 * 18's places, calendar feeds and saved searches (and q and near on the searches) 204,700 (84), about
 * 2,440 per operation: the average still falls, so the ceiling rises with the operations. Issue 19's
 * account export documents each of the ~200 stored fields it hands out (GDPR Art. 15 asks for that
 * much): 232,000 (86); its weight is that list, once, so the per-operation average below still holds.
 * With the provider details and the DSA notices, statements, appeals and transparency: 253,600 (94).
 * Issue 21's drafts, the workflows document and the drafts section of the export: 261,000 (97), still
 * below the per-operation average, which is what holds the growth. Issue 29 (an agent should read it
 * whole) added the 304 of the cached reads and moved every description over 240 characters to
 * /docs/descriptions.md but its first sentence (openapi/prose.ts): 235,800. What is left is structure
 * an OpenAPI document cannot share further: ~720 references to the error responses (30 KB), the
 * budget headers of each distinct success response (18 KB), the account export's field list
 * (24 KB) and the schemas and parameters of 97 operations. Issue 30 added who-read-my-place
 * (an operation and two export sections) and the reputation and shield rules: 240,300 (98).
 * Issue 29's leftover: RateLimit-Policy and the legacy X-RateLimit-* declared once, on the 429 answer
 * (-15,400), descriptions past 120 characters to the page (-4,500), the account export's field
 * meanings there too (-6,000), enums declared as their canonical values and marked x-any-case
 * instead of anyOf a pattern of every spelling (-3,700): 210,500 (98). What is left is structure
 * OpenAPI 3.1 cannot share further without saying less: ~740 references to the error responses
 * each operation answers (33 KB; there is no shared list of responses), the account export's ~200
 * typed fields (18 KB), parameters, bodies and schemas, and ~49 KB of descriptions under 120
 * characters. Issue 30's completion confirmed or objected to by the helper (getApplication,
 * confirmCompletion, objectToCompletion, the application's completion, its export fields):
 * 216,100 (101), about 1,870 per new operation. Issue 31's people and apps: the OAuth2 security
 * scheme with its scopes, an alternative in every operation's security, /v1/me's `app`, the
 * export's passkeys and three error codes: about 219,000 (101); listing and revoking one's
 * connected apps: 221,500 (103); developers' OAuth clients (register, list, get, change, delete,
 * rotate the secret): 230,100 (109), about 1,430 per new operation, the average still falling;
 * the export's connected apps and registered clients (GDPR Art. 15 asks for them): 231,400; the
 * DPoP scheme (RFC 9449) and its alternative in every operation's security, one error code: 232,600.
 * Issue 32's payments (list, get, paid, received; the Payment schema, the payments scope, the
 * export's payments): 240,000 (113), about 1,850 per new operation; with the payee's bank account
 * (put, get, delete; its schema, the payment's payee_bank_account, the export's section): 244,000 (116);
 * a booking's rent and deposit and damage claims (release a deposit; file, get, accept, dispute a
 * claim; the Claim schema, three error codes, two event types, the export's claims): 253,700
 * (121), about 1,850 per new operation; cancellation policies (the field on jobs, listings,
 * bookings and their bodies, the cancel answers' cancellation, the payments summary of
 * applications and bookings, the tiers once in the Payments rules): 256,700; a listing's and a
 * booking's late fee per day: 257,600; no-shows (report one; the application's no_show and
 * cancellation, two error codes, an event type): 259,300 (122); Stripe (payouts, onboarding,
 * checkout; the Payouts schema, the Stripe rules once, the payment's last_error, three error
 * codes): 265,100 (125); Stripe's refusals (provider_refused): 266,100. Issue 35's job series
 * (create, list, get, pause, resume, cancel, skip an occurrence; the JobSeries schema and its life
 * cycle once in its tag, the job's series_id, two export sections): 280,600 (132), about 2,070 per
 * new operation; its standing helpers (apply to a series, list, accept, reject, end; the
 * SeriesApplication schema, the rules once in the tag, an export section): 288,600 (137); editing
 * a series, all or this and following (updateJobSeries): 291,300 (138); a listing's booking rules
 * (min_lead_hours, buffer_hours, max_booking_days on the Listing and its bodies): 292,900; lending by
 * the hour (the OpeningHours schema, three listing fields, the booking's start_at, end_at, hours and
 * hourly price, its rules in the bookings' text): 296,800; extensions (request, list, accept,
 * decline; the BookingExtension schema, its rules once in the Bookings tag, two event types, an
 * export section): 303,200 (142); waiting lists (join, list yours, leave; the WaitlistEntry
 * schema, its rules once in the Bookings tag, an event type, an export section): 308,300 (145);
 * busy calendars (attach, list, detach; the BusyCalendar schema, its rules once in the tag, an
 * export section, availability's busy status): 313,800 (148); a substitute for one occurrence
 * (excuse a standing helper; the excused dates on SeriesApplication and Application, an event
 * type, an export section): 317,300 (149). Issue 36's notification settings (get, change; the
 * NotificationSettings schema, its rules, the application.status_changed event type, two export
 * sections): 323,500 (151); web push (subscribe, list, unsubscribe; the PushSubscription schema,
 * the push channel, its rules, an export section): 328,800 (154). Issue 29 again: the whole cannot
 * reach 150 KB with 154 operations without saying less (without any description or summary it still
 * weighs 231 KB: schemas, parameters, the error responses each operation answers), so a reader that
 * needs only some of it asks for a part, GET /v1/openapi.json?tags= (openapi/parts.ts; each tag's part
 * under MAX_PART_BYTES, tested below); the notification operations' own tag, Notifications, and the
 * sentence on parts in the introduction: 328,700; issue 36's kind payments and the notifications
 * and categories texts it changed: 328,900.
 */
const MAX_DOCUMENT_BYTES = 329_800;
/**
 * What an operation may weigh on average, in bytes: the 150 KB of issue 15 held 58 operations
 * (about 2,550 each). New operations (issue 17: conversations, the private stream, reviews,
 * verification) get the same budget, so the document grows with what the API can do, not with
 * repetition; 2,200 since issue 29's leftover (about 2,150 each).
 */
const MAX_BYTES_PER_OPERATION = 2_200;

type Json = Record<string, unknown>;
interface Operation extends Json {
  operationId: string;
  description?: string;
  tags?: string[];
  parameters?: Json[];
  responses: Record<string, Json>;
}
interface Document extends Json {
  paths: Record<string, Record<string, Operation>>;
  tags: { name: string; description?: string }[];
  components: Record<string, Record<string, Json>>;
}

async function served(t: TestContext): Promise<{ body: string; doc: Document; prose: Prose }> {
  const { app } = await buildTestApp(t);
  const response = await app.inject({ method: 'GET', url: '/v1/openapi.json' });
  assert.equal(response.statusCode, 200);
  const page = await app.inject({ method: 'GET', url: DESCRIPTIONS_PAGE });
  assert.equal(page.statusCode, 200);
  return { body: response.body, doc: response.json() as Document, prose: proseOfPage(page.body) };
}

function* operations(doc: Document): Generator<[string, string, Operation]> {
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(item)) yield [path, method, operation];
  }
}

const IDEMPOTENCY_REF = '#/components/parameters/Idempotency-Key';

/** Every description of the document, paragraph by paragraph, with where it is. */
function paragraphs(doc: unknown): [string, string][] {
  const found: [string, string][] = [];
  const walk = (node: unknown, where: string): void => {
    if (Array.isArray(node)) {
      for (const [i, item] of node.entries()) walk(item, `${where}/${i}`);
    } else if (node !== null && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key === 'description' && typeof value === 'string') {
          for (const paragraph of value.split('\n\n')) found.push([paragraph, where]);
        } else walk(value, `${where}/${key}`);
      }
    }
  };
  walk(doc, '');
  return found;
}

/** The sections the document moved into its tags' descriptions: tag, title and text. */
function sections(doc: Document): { tag: string; title: string; text: string }[] {
  const found: { tag: string; title: string; text: string }[] = [];
  for (const tag of doc.tags) {
    for (const part of (tag.description ?? '').split(/^### /m).slice(1)) {
      const [title = '', ...rest] = part.split('\n\n');
      found.push({ tag: tag.name, title, text: rest.join('\n\n').trimEnd() });
    }
  }
  return found;
}

describe('the OpenAPI document is compact', () => {
  test(`weighs less than ${MAX_DOCUMENT_BYTES} bytes`, async (t) => {
    const { body } = await served(t);
    const bytes = Buffer.byteLength(body);
    assert.ok(bytes < MAX_DOCUMENT_BYTES, `the document weighs ${bytes} bytes`);
    const count = [...operations(JSON.parse(body) as Document)].length;
    assert.ok(
      bytes / count <= MAX_BYTES_PER_OPERATION,
      `${count} operations weigh ${Math.round(bytes / count)} bytes each on average`,
    );
  });

  test('the budget headers and Retry-After are components.headers, referenced from every response', async (t) => {
    const { doc } = await served(t);
    assert.deepEqual(Object.keys(doc.components.headers ?? {}).sort(), Object.values(HEADER_COMPONENT_NAMES).sort());
    assert.equal(HEADER_COMPONENT_NAMES['X-RateLimit-Remaining'], 'Remaining');
    const inline: string[] = [];
    const counted = new Map<string, number>();
    const check = (where: string, response: Json) => {
      for (const [name, header] of Object.entries((response.headers ?? {}) as Record<string, Json>)) {
        if (header.$ref === `#/components/headers/${HEADER_COMPONENT_NAMES[name]}`) {
          counted.set(name, (counted.get(name) ?? 0) + 1);
        } else if (name in SHARED_HEADERS) inline.push(`${where} ${name}`);
      }
    };
    for (const [path, method, operation] of operations(doc)) {
      for (const [status, response] of Object.entries(operation.responses))
        check(`${method} ${path} ${status}`, response);
    }
    for (const [name, response] of Object.entries(doc.components.responses ?? {})) check(`responses.${name}`, response);
    assert.deepEqual(inline, [], 'shared headers written out instead of referenced');
    assert.ok((counted.get('RateLimit') ?? 0) > 60, `${counted.get('RateLimit')} references to RateLimit`);
    // RateLimit-Policy and the legacy X-RateLimit-* are declared once: on the 429 answer (which
    // DocumentsBudgetSpent, the documents' 429, references with its own description).
    for (const name of Object.keys(BUDGET_HEADERS).filter((n) => n !== 'RateLimit')) {
      assert.equal(counted.get(name), 1, `${name}: on the 429 answer only`);
    }
    const tooMany = Object.keys(doc.components.responses?.['429']?.headers ?? {});
    assert.deepEqual(tooMany.sort(), [...Object.keys(BUDGET_HEADERS), 'Retry-After'].sort());
    assert.equal(doc.components.responses?.DocumentsBudgetSpent?.$ref, '#/components/responses/429');
    // RateLimit says so, and written out every response that carries it carries all five again.
    const rateLimit = String(doc.components.headers?.RateLimit?.description);
    for (const name of Object.keys(BUDGET_HEADERS)) assert.ok(rateLimit.includes(name), `RateLimit names ${name}`);
    assert.match(rateLimit, /legacy aliases/);
    const full = resolveShared(doc);
    let written = 0;
    for (const [path, method, operation] of operations(full)) {
      for (const [status, response] of Object.entries(operation.responses)) {
        const headers = (response.headers ?? {}) as Record<string, Json>;
        if (!headers.RateLimit) continue;
        written++;
        for (const [name, header] of Object.entries(BUDGET_HEADERS)) {
          assert.equal(headers[name]?.description, header.description, `${method} ${path} ${status} ${name}`);
        }
      }
    }
    assert.ok(written > 300, `${written} responses with the budget`);
  });

  test('every error response is a reference to components.responses, named by its status', async (t) => {
    const { doc } = await served(t);
    const errorOf = new Map(Object.entries(ERROR_COMPONENT_NAMES).map(([name, component]) => [component, name]));
    assert.equal(ERROR_COMPONENT_NAMES.NotFound, '404');
    const inline: string[] = [];
    for (const [path, method, operation] of operations(doc)) {
      for (const [status, response] of Object.entries(operation.responses)) {
        if (Number(status) < 400) continue;
        const component = /^#\/components\/responses\/(.+)$/.exec(String(response.$ref ?? ''))?.[1];
        const name = component && errorOf.get(component);
        if (!name) inline.push(`${method} ${path} ${status}`);
        else assert.equal(SHARED_ERRORS[name]?.status, Number(status), `${method} ${path} ${status}: ${name}`);
      }
    }
    // The few errors only one route answers (readiness, metrics) stay written where they are.
    assert.ok(inline.length <= 5, `inline error responses: ${inline.join(', ')}`);
    // Written out, each is the error-catalogue.ts error: its description, the ApiError schema, its headers.
    const { responses } = resolveShared(doc).components;
    for (const [name, { response }] of Object.entries(SHARED_ERRORS)) {
      const component = responses?.[ERROR_COMPONENT_NAMES[name] ?? ''];
      if (!component) continue;
      assert.equal(component.description, response.description, name);
      assert.deepEqual(component.content, {
        'application/json': { schema: { $ref: '#/components/schemas/ApiError' } },
      });
      assert.deepEqual(Object.keys(component.headers ?? {}).sort(), Object.keys(response.headers ?? {}).sort(), name);
    }
  });

  test('success responses that differ only in their description are one component', async (t) => {
    const { doc } = await served(t);
    const confirm = doc.paths['/v1/bookings/{id}/confirm']?.post?.responses['200'];
    assert.deepEqual(confirm, { $ref: '#/components/responses/Booking', description: 'The booking, now confirmed.' });
    const full = resolveShared(doc);
    const written = full.paths['/v1/bookings/{id}/confirm']?.post?.responses['200'];
    assert.equal(written?.description, 'The booking, now confirmed.');
    assert.deepEqual(written?.content, { 'application/json': { schema: { $ref: '#/components/schemas/Booking' } } });
    const seen = new Map<string, string>();
    for (const [path, method, operation] of operations(full)) {
      for (const [status, response] of Object.entries(operation.responses)) {
        if (Number(status) >= 400) continue;
        const { description: _, ...rest } = response;
        const key = JSON.stringify(rest);
        const inline = !doc.paths[path]?.[method]?.responses[status]?.$ref;
        if (inline) assert.ok(!seen.has(key), `${method} ${path} ${status} is written out, like ${seen.get(key)}`);
        seen.set(key, `${method} ${path} ${status}`);
      }
    }
  });

  test('no parameter is written out in two operations: shared ones are components.parameters', async (t) => {
    const { doc } = await served(t);
    const seen = new Map<string, string>();
    const repeated: string[] = [];
    for (const [path, method, operation] of operations(doc)) {
      for (const parameter of operation.parameters ?? []) {
        if (parameter.$ref) continue;
        const key = JSON.stringify(parameter);
        const first = seen.get(key);
        if (first) repeated.push(`${parameter.in} ${parameter.name}: ${first} and ${method} ${path}`);
        else seen.set(key, `${method} ${path}`);
      }
    }
    assert.deepEqual(repeated, []);
    const parameters = doc.components.parameters ?? {};
    for (const name of ['lat.jobs', 'lng.jobs', 'radius.jobs', 'category.jobs', 'limit', 'offset', 'id.jobs']) {
      assert.ok(parameters[name], `components.parameters.${name}`);
    }
    const refs = (doc.paths['/v1/jobs']?.get?.parameters ?? []).map((p: { $ref?: string }) => p.$ref);
    assert.ok(refs.includes('#/components/parameters/lat.jobs'), 'GET /v1/jobs refers to the shared lat');
  });

  test('a schema repeated word for word is written once, under components.schemas', async (t) => {
    const { doc } = await served(t);
    const body = (path: string, method: string) =>
      (doc.paths[path]?.[method]?.requestBody as { content: Record<string, { schema: Json }> } | undefined)?.content[
        'application/json'
      ]?.schema as { properties: Record<string, Json> } | undefined;
    const created = body('/v1/jobs', 'post')?.properties.location;
    assert.deepEqual(created, { $ref: '#/components/schemas/JobLocation' });
    assert.deepEqual(body('/v1/jobs/{id}', 'patch')?.properties.location, created);
    assert.deepEqual(body('/v1/listings', 'post')?.properties.location, created);
    const location = resolveShared(doc).components.schemas?.JobLocation as Json;
    assert.ok(Array.isArray(location.anyOf), 'lat/lng or plz');
    // Written out, the bodies have their schemas inline again.
    const full = expandDocument(doc as unknown as OpenApiObject) as unknown as Document;
    const shared = Object.keys(doc.components.schemas ?? {}).filter(isSharedSchemaName);
    assert.ok(shared.length > 20, `${shared.length} shared schemas`);
    for (const name of shared) {
      assert.match(name, /^[A-Z][A-Za-z0-9]*$/, 'a real name, for generated clients');
      assert.ok(!JSON.stringify(full).includes(`"#/components/schemas/${name}"`), `${name} resolved everywhere`);
    }
  });

  test('each moved paragraph is in the document once, and every operation that had it points there', async (t) => {
    const { doc: compact, prose } = await served(t);
    // With its long descriptions written out (the tags' sections among them).
    const doc = restoreProse(compact, prose);
    const full = expandDocument(doc as unknown as OpenApiObject) as unknown as Document;
    const moved = sections(doc);
    assert.deepEqual(moved.map(({ tag, title }) => `${tag}: ${title}`).sort(), [
      'Applications: Application states',
      'Applications: Contact data in applications',
      'Bookings: Booking life cycle',
      'Bookings: Busy calendars',
      'Bookings: Extensions',
      'Bookings: Waiting lists',
      'Conversations: Contact-data shield',
      'Conversations: Limits',
      'Conversations: Privacy',
      'Events: Webhooks',
      'Job series: Series states and transitions',
      'Job series: Standing helpers',
      'Jobs: Job states and transitions',
      'Listings: Listing life cycle',
      'Notifications: Notifications',
      'Notifications: Web push',
      'Payments: Damage claims',
      'Payments: Payments',
      'Payments: With Stripe',
      'Reviews: Reviews are double-blind',
    ]);
    const everywhere = paragraphs(doc);
    for (const { tag, title, text } of moved) {
      assert.ok(text.length >= MIN_SHARED_CHARS, title);
      for (const paragraph of text.split('\n\n')) {
        const places = everywhere.filter(([p]) => p === paragraph).map(([, where]) => where);
        assert.equal(places.length, 1, `${title}: "${paragraph.slice(0, 60)}…" is at ${places.join(', ')}`);
      }
      const pointer = `See “${title}” in the ${tag} section.`;
      const had = [...operations(full)].filter(([, , o]) => o.description?.includes(text));
      assert.ok(had.length >= 2, `${title}: ${had.length} operations had it`);
      for (const [path, method, operation] of had) {
        const compact = doc.paths[path]?.[method];
        assert.ok(compact?.description?.split('\n\n').includes(pointer), `${operation.operationId}: ${pointer}`);
        assert.ok(compact?.tags?.length, operation.operationId);
      }
      const pointing = [...operations(doc)].filter(([, , o]) => o.description?.includes(pointer)).length;
      assert.equal(pointing, had.length, `${title}: the operations that point at it are those that had it`);
    }
    const count = (title: string) =>
      [...operations(doc)].filter(([, , o]) => o.description?.includes(`See “${title}”`)).length;
    assert.equal(count('Booking life cycle'), 7);
    assert.equal(count('Job states and transitions'), 8);
    assert.equal(count('Listing life cycle'), 5);
    assert.equal(count('Application states'), 4);
    assert.equal(count('Webhooks'), 2);
  });

  test('a sandbox twin points at its real operation instead of repeating its description', async (t) => {
    const { doc, prose } = await served(t);
    const full = expandDocument(doc as unknown as OpenApiObject, prose) as unknown as Document;
    let twins = 0;
    for (const [path, method, operation] of operations(doc)) {
      const pointer = /\n\nThe rest is as described at (\w+) \((\w+) (\S+)\)\.$/.exec(operation.description ?? '');
      if (!pointer) continue;
      twins++;
      const [, operationId, verb, realPath] = pointer;
      const real = doc.paths[realPath ?? '']?.[verb?.toLowerCase() ?? ''];
      assert.equal(real?.operationId, operationId, `${operation.operationId} points at ${operationId}`);
      assert.ok(operation.description?.includes(operationId ?? ''), 'its own paragraph names it too');
      const written = full.paths[path]?.[method]?.description ?? '';
      const realWritten = full.paths[realPath ?? '']?.[verb?.toLowerCase() ?? '']?.description ?? '';
      assert.ok(written.endsWith(`\n\n${realWritten}`), `${operation.operationId}: written out, the real description`);
    }
    assert.equal(twins, 8);
  });

  test('writing out what is shared gives back the document: compacting it again gives the served one', async (t) => {
    const { doc, prose } = await served(t);
    const full = expandDocument(doc as unknown as OpenApiObject, prose);
    // Written out, nothing is a reference to what the compaction adds, and no description points.
    const text = JSON.stringify(full);
    assert.ok(!text.includes(`](${DESCRIPTIONS_PAGE}#`), 'a link to a long description left');
    assert.ok(!/#\/components\/(parameters|headers|responses)\//.test(text), 'a shared $ref left');
    assert.ok(!/See “[^”]+” in the [^"]+ section\./.test(text), 'a section pointer left');
    assert.ok(!/The rest is as described at /.test(text), 'a twin pointer left');
    assert.deepEqual(Object.keys(full.components ?? {}).sort(), ['schemas', 'securitySchemes']);
    // Every operation, with its parameters (Idempotency-Key in its shared form), bodies and responses.
    assert.deepEqual(
      Object.entries(full.paths ?? {}).flatMap(([path, item]) => Object.keys(item).map((m) => `${m} ${path}`)),
      [...operations(doc)].map(([path, method]) => `${method} ${path}`),
    );
    const again = compactDocument(structuredClone(full));
    assert.ok(isDeepStrictEqual(expandDocument(again, prose), full), 'expand(compact(full)) differs from full');
    assert.deepEqual(again, doc, 'compacting again gives the served document');
  });

  test('a long description keeps its first sentence and links to its whole text on the served page', async (t) => {
    const { doc, prose } = await served(t);
    const { app } = await buildTestApp(t);
    const page = await app.inject({ method: 'GET', url: DESCRIPTIONS_PAGE });
    assert.match(String(page.headers['content-type']), /^text\/markdown/);
    const text = JSON.stringify(doc);
    const links = [...text.matchAll(/ \[More\]\(\/docs\/descriptions\.md#([A-Za-z0-9._-]+)\)"/g)];
    const lists = [...text.matchAll(/ \[Fields\]\(\/docs\/descriptions\.md#([A-Za-z0-9._-]+)\)"/g)];
    assert.ok(links.length > 80, `${links.length} links`);
    assert.deepEqual(
      [...links, ...lists].map(([, anchor]) => anchor).sort(),
      [...prose.keys()].sort(),
      'one link per text, each on the page',
    );
    const listed = new Set(lists.map(([, anchor]) => anchor));
    for (const [anchor, { text }] of prose) {
      if (!listed.has(anchor)) assert.ok(text.length > MAX_INLINE_CHARS, anchor);
      assert.ok(page.body.includes(`<a id="${anchor}"></a>`), anchor);
    }
    // The operations by their operationIds, the tags' sections under theirs.
    assert.match(prose.get('streamEvents')?.text ?? '', /new EventSource/);
    assert.match(prose.get('tag.Bookings')?.text ?? '', /### Booking life cycle/);
    for (const [paragraph, where] of paragraphs(doc)) {
      if (!where.includes('/parameters/') && !where.includes('/headers/')) {
        assert.ok(paragraph.length <= MAX_INLINE_CHARS + 80, `${where}: ${paragraph}`);
      }
    }
    // Every shortened text is given back whole: the page's texts put back, the document is as generated.
    const whole = restoreProse(doc, prose);
    assert.ok(!JSON.stringify(whole).includes(`](${DESCRIPTIONS_PAGE}#`), 'a link left');
    for (const [anchor, { text }] of prose) {
      if (!listed.has(anchor)) assert.ok(JSON.stringify(whole).includes(JSON.stringify(text)), anchor);
    }
  });

  test('the account export lists its fields on the page, one list per section, given back whole', async (t) => {
    const { doc, prose } = await served(t);
    const compact = doc.components.schemas?.AccountExport as { properties: Record<string, Json> };
    const whole = (restoreProse(doc, prose) as Document).components.schemas?.AccountExport as Json;
    const source = AccountExportSchema.properties as unknown as Record<string, Json>;
    const sections = Object.entries(compact.properties).filter(([, s]) => /\[Fields\]/.test(String(s.description)));
    assert.ok(sections.length >= 27, `${sections.length} sections list their fields`);
    for (const [key, section] of sections) {
      const anchor = `AccountExport.${key}`;
      assert.equal(section.description, `${source[key]?.description} [Fields](${DESCRIPTIONS_PAGE}#${anchor})`);
      assert.match(prose.get(anchor)?.text ?? '', /^- `\w+`: /, anchor);
      const fields = ((section.items ?? section) as { properties: Record<string, Json> }).properties;
      for (const [name, field] of Object.entries(fields)) assert.equal(field.description, undefined, `${key}.${name}`);
    }
    // Written out, every field has the description the route schema gives it, and no other.
    const fieldsOf = (section: Json) => ((section.items ?? section) as { properties: Record<string, Json> }).properties;
    for (const [key, section] of Object.entries((whole.properties ?? {}) as Record<string, Json>)) {
      assert.equal(section.description, source[key]?.description, key);
      if (!fieldsOf(section)) continue;
      for (const [name, field] of Object.entries(fieldsOf(section))) {
        assert.equal(field.description, fieldsOf(source[key] as Json)[name]?.description, `${key}.${name}`);
      }
    }
  });

  test('the compaction checks itself: what it moves comes back', () => {
    const op = (operationId: string, tag: string, description: string) => ({
      operationId,
      tags: [tag],
      description,
      responses: { '200': { description: 'OK.', content: { 'application/json': { schema: { type: 'string' } } } } },
    });
    const shared = `Thing life cycle (${'a long paragraph that three operations repeat, '.repeat(5)}):\n\n| a | b |\n| --- | --- |`;
    const doc: OpenApiObject = {
      openapi: '3.1.0',
      tags: [{ name: 'Things', description: 'Things.' }],
      paths: {
        '/a': { get: op('getA', 'Things', `Gets A.\n\n${shared}`) },
        '/b': { get: op('getB', 'Things', `Gets B.\n\n${shared}`) },
        '/c': { post: op('makeC', 'Things', `Makes C.\n\n${shared}\n\nMore.`) },
        '/demo/a': { get: op('demoGetA', 'Things', `Sandbox twin of getA.\n\nGets A.\n\n${shared}`) },
      },
      components: { schemas: {} },
    };
    const generated = structuredClone(doc);
    const compact = compactDocument(structuredClone(doc));
    assert.equal(
      compact.paths?.['/c']?.post?.description,
      'Makes C.\n\nSee “Thing life cycle” in the Things section.\n\nMore.',
    );
    assert.equal(
      compact.paths?.['/demo/a']?.get?.description,
      'Sandbox twin of getA.\n\nThe rest is as described at getA (GET /a).',
    );
    // The tag's description is long now: its first sentence, and the whole text on the page.
    const prose = proseOfPage(descriptionsPageOf(compact) ?? '');
    assert.equal(compact.tags?.[0]?.description, `Things. [More](${DESCRIPTIONS_PAGE}#tag.Things)`);
    const tag = restoreProse(compact, prose).tags?.[0]?.description;
    assert.equal(tag?.split(shared).length, 2, 'the paragraphs once, in the tag');
    assert.deepEqual(compact.paths?.['/b']?.get?.responses?.['200'], { $ref: '#/components/responses/getA.200' });
    const expanded = expandDocument(compact, prose);
    assert.deepEqual(expanded.paths, generated.paths);
    assert.deepEqual(expanded.tags, generated.tags);
  });
});

describe('a part of the document, for a reader that needs only some tags (GET /v1/openapi.json?tags=)', () => {
  /** Every local $ref in a document, with whether it resolves inside that document. */
  function danglingRefs(doc: Document): string[] {
    const dangling: string[] = [];
    JSON.stringify(doc, (key, value: unknown) => {
      if (key === '$ref' && typeof value === 'string') {
        const [, kind = '', name = ''] = value.split('/').slice(1);
        if (doc.components[kind]?.[name] === undefined) dangling.push(value);
      }
      return value;
    });
    return dangling;
  }

  test(`each tag's part is self-contained, unshortened and under ${MAX_PART_BYTES} bytes; the parts together are the whole`, async (t) => {
    const { app } = await buildTestApp(t);
    const whole = (await app.inject({ method: 'GET', url: '/v1/openapi.json' })).json() as Document;
    const seen = new Set<string>();
    for (const tag of whole.tags) {
      const response = await app.inject({
        method: 'GET',
        url: `/v1/openapi.json?tags=${encodeURIComponent(tag.name)}`,
      });
      assert.equal(response.statusCode, 200, tag.name);
      assert.ok(response.headers.etag, 'a part has its ETag as the whole has');
      const bytes = Buffer.byteLength(response.body);
      assert.ok(bytes < MAX_PART_BYTES, `the part ${tag.name} weighs ${bytes} bytes`);
      const part = response.json() as Document;
      assert.deepEqual(danglingRefs(part), [], `every $ref of ${tag.name} resolves inside the part`);
      assert.ok(part.tags.some((own) => own.name === tag.name));
      assert.match(
        String((part.info as Json).description),
        new RegExp(`^This is a part of the document at .*tagged ${tag.name}`),
      );
      assert.ok(part.components.securitySchemes?.ApiKeyAuth, 'the security schemes the part names');
      let count = 0;
      for (const [path, method, operation] of operations(part)) {
        count += 1;
        assert.ok(operation.tags?.includes(tag.name), `${operation.operationId} carries ${tag.name}`);
        // Word for word the whole document's operation, and every component it uses is the whole's too.
        assert.deepEqual(operation, whole.paths[path]?.[method]);
        seen.add(`${method} ${path}`);
      }
      assert.ok(count > 0, `${tag.name} has operations`);
      for (const [kind, entries] of Object.entries(part.components)) {
        for (const [name, value] of Object.entries(entries)) assert.deepEqual(value, whole.components[kind]?.[name]);
      }
    }
    assert.equal(seen.size, [...operations(whole)].length, 'every operation is in some part');
  });

  test('several tags, any case, in one part; an unknown tag or parameter is a 400 that lists what to send', async (t) => {
    const { app } = await buildTestApp(t);
    const both = (
      await app.inject({ method: 'GET', url: '/v1/openapi.json?tags=bookings,%20Payments' })
    ).json() as Document;
    const tagsOf = new Set([...operations(both)].flatMap(([, , operation]) => operation.tags ?? []));
    assert.ok(tagsOf.has('Bookings') && tagsOf.has('Payments'));
    assert.ok(both.paths['/v1/bookings/{id}/claims'], 'a Payments operation');
    assert.ok(both.paths['/v1/listings/{id}/bookings'], 'a Bookings operation');
    assert.equal(both.paths['/v1/jobs/{id}/applications'], undefined, 'not an Applications operation');

    const unknown = await app.inject({ method: 'GET', url: '/v1/openapi.json?tags=Bookings,Parking' });
    assert.equal(unknown.statusCode, 400);
    const error = unknown.json() as { error: string; param: string; message: string; alternatives: string[] };
    assert.equal(error.error, 'invalid_parameter');
    assert.equal(error.param, 'tags');
    assert.match(error.message, /"Parking" is not a tag/);
    assert.ok(error.alternatives.includes('Bookings') && error.alternatives.includes('Job series'));
    const empty = await app.inject({ method: 'GET', url: '/v1/openapi.json?tags=' });
    assert.equal(empty.statusCode, 400);
    const other = await app.inject({ method: 'GET', url: '/v1/openapi.json?tag=Bookings' });
    assert.equal(other.statusCode, 400);
    assert.equal((other.json() as { param: string }).param, 'tag');
    assert.deepEqual((other.json() as { alternatives: string[] }).alternatives, ['tags']);
  });

  test("every section an operation points at is in its tag's part", async (t) => {
    const { app } = await buildTestApp(t);
    const whole = (await app.inject({ method: 'GET', url: '/v1/openapi.json' })).json() as Document;
    let checked = 0;
    for (const [, , operation] of operations(whole)) {
      const pointer = /See “([^”]+)” in the (.+?) section\./.exec(operation.description ?? '');
      const own = operation.tags?.[0];
      if (!pointer || !own) continue;
      const url = `/v1/openapi.json?tags=${encodeURIComponent(own)}`;
      const part = (await app.inject({ method: 'GET', url })).json() as Document;
      const home = part.tags.find((tag) => tag.name === pointer[2]);
      assert.ok(home, `${operation.operationId}: the ${pointer[2]} tag comes along`);
      checked += 1;
    }
    assert.ok(checked > 0, 'some operation points at a section');
  });
});

describe('Idempotency-Key is one component, declared on every POST under /v1', () => {
  test('every POST under /v1 references it, once; nothing else declares the header', async (t) => {
    const { doc } = await served(t);
    const posts: string[] = [];
    for (const [path, method, operation] of operations(doc)) {
      const refs = (operation.parameters ?? []).filter((p) => p.$ref === IDEMPOTENCY_REF).length;
      const inline = (operation.parameters ?? []).filter((p) => String(p.name).toLowerCase() === 'idempotency-key');
      assert.deepEqual(inline, [], `${method} ${path}: the header written out`);
      if (method === 'post' && path.startsWith('/v1/')) {
        posts.push(path);
        assert.equal(refs, 1, `POST ${path} declares Idempotency-Key`);
      } else {
        assert.equal(refs, 0, `${method} ${path} does not take Idempotency-Key`);
      }
    }
    for (const path of [
      '/v1/jobs',
      '/v1/jobs/{id}/applications',
      '/v1/helpers',
      '/v1/developer/key-requests',
      '/v1/listings',
      '/v1/webhooks',
    ]) {
      assert.ok(posts.includes(path), `POST ${path}`);
    }
  });

  test('the component states the format, the retention and what anonymous requests get', async (t) => {
    const { doc } = await served(t);
    const parameter = doc.components.parameters?.['Idempotency-Key'] as
      | { name: string; in: string; required?: boolean; description: string; schema: Json }
      | undefined;
    assert.ok(parameter);
    assert.equal(parameter.in, 'header');
    assert.equal(parameter.name, 'Idempotency-Key');
    // Optional: `required: false` is the default, left out of the compact document (components.ts).
    assert.equal(parameter.required ?? false, false);
    assert.deepEqual(parameter.schema, { ...IdempotencyKeySchema });
    assert.equal(parameter.schema.maxLength, 255);
    assert.equal(parameter.schema.pattern, IDEMPOTENCY_KEY_PATTERN_SOURCE);
    assert.match(parameter.description, new RegExp(`within ${IDEMPOTENCY_RETENTION_HOURS} hours`));
    assert.match(parameter.description, /developer key/);
    assert.match(parameter.description, /anonymous/);
  });

  test('the pattern: 1 to 255 visible ASCII characters', () => {
    for (const key of ['a', crypto.randomUUID(), '!~', 'x'.repeat(255)])
      assert.ok(IDEMPOTENCY_KEY_PATTERN.test(key), key);
    for (const key of ['', 'a b', 'ä', 'x'.repeat(256), 'a\n', '\t'])
      assert.ok(!IDEMPOTENCY_KEY_PATTERN.test(key), key);
    assert.equal(new RegExp(IDEMPOTENCY_KEY_PATTERN_SOURCE).source, IDEMPOTENCY_KEY_PATTERN.source);
  });
});
