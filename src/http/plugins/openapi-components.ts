import { isDeepStrictEqual } from 'node:util';
import { IDEMPOTENCY_KEY_PARAMETER } from '../../schemas/idempotency.js';
import { type ErrorResponse, type HeaderSchema, SHARED_ERRORS, SHARED_HEADERS } from '../routes/route-kit.js';

/**
 * Compacts the generated OpenAPI document without changing what it says: the pieces operations
 * repeat are written once and pointed at.
 *
 * - components.headers: the budget headers and Retry-After (route-kit SHARED_HEADERS), named
 *   without their RateLimit prefixes (HEADER_COMPONENT_NAMES);
 * - components.responses: the ApiError responses (route-kit SHARED_ERRORS), named by their status
 *   (ERROR_COMPONENT_NAMES); those alike but for their description reference the first with their
 *   own description (chainAlikeResponses); and every success response two or more operations answer
 *   alike, referenced with each operation's description (shareSuccessResponses). In OpenAPI 3.1 a
 *   Reference Object's description overrides the description of what it references;
 * - components.parameters: every query or path parameter that two or more operations declare
 *   identically (the sandbox twins, the search filters, the ids), and the Idempotency-Key header,
 *   which every POST under /v1 declares (schemas/idempotency.ts);
 * - components.schemas: every schema repeated word for word (shareSchemas), under a name with a dot
 *   (createJob.location), which the generated schemas' names never have;
 * - a request body's copy of its schema's description goes (dropBodyDescriptionCopies);
 * - a sandbox twin whose description is its real operation's, after a paragraph of its own, keeps
 *   that paragraph and points at the real operation for the rest (pointTwins);
 * - paragraphs that several operations repeat word for word (the life cycles of jobs, listings,
 *   applications and bookings, the webhooks chapter) are written once, under a heading in the
 *   description of a tag (the section intro Swagger UI and Redoc show), and each operation that had
 *   them says where they are (moveSharedParagraphs).
 *
 * The route schemas stay as they are (they are what requests are validated with and what the MCP
 * tools are built from); only the document is rewritten. resolveShared and expandDocument write it
 * all out again, and compactDocument checks that they do: it throws if expanding what it produced
 * differs from the document before these steps (test/http/openapi-size.test.ts).
 */

type Json = Record<string, unknown>;

interface Parameter extends Json {
  name: string;
  in: string;
}

interface Operation extends Json {
  operationId?: string;
  description?: string;
  tags?: string[];
  parameters?: (Parameter | { $ref: string })[];
  responses?: Record<string, Json>;
}

interface Tag extends Json {
  name: string;
  description?: string;
}

export interface OpenApiObject extends Json {
  paths?: Record<string, Record<string, Operation>>;
  tags?: Tag[];
  components?: Json & { schemas?: Json };
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

/** A header as @fastify/swagger renders a route's response header: the schema, the description beside it. */
function headerObject({ description, ...schema }: HeaderSchema): Json {
  return { schema, description };
}

/** An error response as @fastify/swagger renders it from a route schema. */
function errorResponseObject({ description, headers }: ErrorResponse): Json {
  const response: Json = {
    description,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/ApiError' } } },
  };
  if (headers) response.headers = Object.fromEntries(Object.entries(headers).map(([n, h]) => [n, headerObject(h)]));
  return response;
}

function* operationsOf(doc: OpenApiObject): Generator<[path: string, method: string, operation: Operation]> {
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, operation] of Object.entries(item)) {
      if (HTTP_METHODS.includes(method)) yield [path, method, operation];
    }
  }
}

/** The resource a path is about, for naming: /v1/demo/jobs/{id}/cancel -> jobs. */
function resourceOf(path: string): string {
  const [segment] = path.replace(/^\/v1(\/demo)?\//, '').split('/');
  return segment?.replace(/[^A-Za-z0-9_-]/g, '') || 'root';
}

const isIdempotencyKey = (p: Parameter) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key';

/** Whether the server applies Idempotency-Key to an operation: every POST under /v1 (plugins/idempotency.ts). */
export const takesIdempotencyKey = (path: string, method: string) => method === 'post' && path.startsWith('/v1/');

/**
 * The parameters two or more operations share, each with its component name: the parameter's
 * name where it has a single shared form, else the name qualified by the resource of the first
 * path that uses that form (lat.jobs, lat.estimate, id.bookings ...).
 */
function sharedParameters(doc: OpenApiObject): Map<string, { name: string; parameter: Parameter }> {
  const uses = new Map<string, { parameter: Parameter; paths: string[] }>();
  for (const [path, , operation] of operationsOf(doc)) {
    for (const parameter of operation.parameters ?? []) {
      if ('$ref' in parameter || (parameter.in !== 'query' && parameter.in !== 'path')) continue;
      const key = JSON.stringify(parameter);
      const use = uses.get(key) ?? { parameter, paths: [] };
      use.paths.push(path);
      uses.set(key, use);
    }
  }
  const repeated = [...uses.entries()].filter(([, use]) => use.paths.length > 1);
  const forms = new Map<string, number>();
  for (const [, { parameter }] of repeated) {
    forms.set(`${parameter.in} ${parameter.name}`, (forms.get(`${parameter.in} ${parameter.name}`) ?? 0) + 1);
  }
  const taken = new Set<string>([IDEMPOTENCY_KEY_PARAMETER.component]);
  const named = new Map<string, { name: string; parameter: Parameter }>();
  for (const [key, { parameter, paths }] of repeated) {
    const base =
      (forms.get(`${parameter.in} ${parameter.name}`) ?? 0) > 1
        ? `${parameter.name}.${resourceOf(paths[0] ?? '')}`
        : parameter.name;
    let name = base.replace(/[^A-Za-z0-9._-]/g, '_');
    for (let n = 2; taken.has(name); n++) name = `${base}.${n}`;
    taken.add(name);
    named.set(key, { name, parameter });
  }
  return named;
}

/**
 * The name of each shared header in components.headers: the header's name without the RateLimit
 * prefixes (RateLimit-Policy: Policy, X-RateLimit-Remaining: Remaining). Short, because every
 * response that carries the budget references five of them.
 */
export const HEADER_COMPONENT_NAMES: Readonly<Record<string, string>> = Object.fromEntries(
  Object.keys(SHARED_HEADERS).map((name) => [name, name.replace(/^(X-)?RateLimit-/, '')]),
);

/**
 * The name of each shared error (route-kit SHARED_ERRORS) in components.responses: the first of
 * each status is named by its status (NotFound: 404), as operations reference it hundreds of
 * times; the others (the platform routes' and the documents' variants) keep their names.
 */
export const ERROR_COMPONENT_NAMES: Readonly<Record<string, string>> = (() => {
  const named = new Set<number>();
  return Object.fromEntries(
    Object.entries(SHARED_ERRORS).map(([name, { status }]) => {
      if (named.has(status)) return [name, name];
      named.add(status);
      return [name, String(status)];
    }),
  );
})();

/** The document with its shared headers, error responses and parameters moved to components. */
function shareComponents(doc: OpenApiObject): OpenApiObject {
  const headers = Object.entries(SHARED_HEADERS).map(([name, schema]) => ({
    name,
    component: HEADER_COMPONENT_NAMES[name] ?? name,
    object: headerObject(schema),
  }));
  const responses = Object.entries(SHARED_ERRORS).map(([name, { status, response }]) => ({
    name: ERROR_COMPONENT_NAMES[name] ?? name,
    status: String(status),
    object: errorResponseObject(response),
  }));
  const parameters = sharedParameters(doc);

  const usedHeaders = new Set<string>();
  const usedResponses = new Set<string>();
  const usedParameters = new Map<string, Parameter>();

  const compactHeaders = (headerMap: Json) => {
    for (const [headerName, header] of Object.entries(headerMap)) {
      const shared = headers.find((h) => h.name === headerName && isDeepStrictEqual(h.object, header));
      if (!shared) continue;
      headerMap[headerName] = ref('headers', shared.component);
      usedHeaders.add(shared.name);
    }
  };

  for (const [path, method, operation] of operationsOf(doc)) {
    for (const [status, response] of Object.entries(operation.responses ?? {})) {
      const shared = responses.find((r) => r.status === status && isDeepStrictEqual(r.object, response));
      if (shared) {
        (operation.responses as Record<string, Json>)[status] = ref('responses', shared.name);
        usedResponses.add(shared.name);
      } else if (response.headers && typeof response.headers === 'object') {
        compactHeaders(response.headers as Json);
      }
    }

    const list = (operation.parameters ?? []).filter((p) => '$ref' in p || !isIdempotencyKey(p as Parameter));
    const compacted = list.map((p) => {
      if ('$ref' in p) return p;
      const shared = parameters.get(JSON.stringify(p));
      if (!shared) return p;
      usedParameters.set(shared.name, shared.parameter);
      return ref('parameters', shared.name);
    });
    if (takesIdempotencyKey(path, method)) {
      compacted.push(ref('parameters', IDEMPOTENCY_KEY_PARAMETER.component));
      usedParameters.set(IDEMPOTENCY_KEY_PARAMETER.component, IDEMPOTENCY_KEY_PARAMETER.parameter as Parameter);
    }
    if (compacted.length > 0) operation.parameters = compacted;
  }

  for (const { name, object } of responses) {
    if (usedResponses.has(name) && object.headers) compactHeaders(object.headers as Json);
  }

  const components = { ...doc.components };
  if (usedParameters.size > 0) {
    components.parameters = Object.fromEntries([...usedParameters].sort(([a], [b]) => a.localeCompare(b)));
  }
  if (usedHeaders.size > 0) {
    components.headers = Object.fromEntries(
      headers.filter((h) => usedHeaders.has(h.name)).map((h) => [h.component, h.object]),
    );
  }
  if (usedResponses.size > 0) {
    components.responses = Object.fromEntries(
      responses.filter((r) => usedResponses.has(r.name)).map((r) => [r.name, r.object]),
    );
  }
  return { ...doc, components };
}

// ---------------------------------------------------------------------------------------------
// Success responses that differ at most in their description
// ---------------------------------------------------------------------------------------------

/**
 * Moves every success response (below 400) that two or more operations answer alike, the same
 * headers and content with whatever description, to components.responses, named after the first
 * schema it answers (Booking) or else the first operation and status that answer it (searchJobs.200),
 * and references it from each. A
 * reference whose operation describes the response otherwise carries that description: in
 * OpenAPI 3.1 a Reference Object's description overrides the referenced one's, so the booking
 * confirmBooking answers stays "The booking, now confirmed." Runs after shareComponents, so the
 * responses' headers are references already.
 */
function shareSuccessResponses(doc: OpenApiObject): void {
  /** The schema a response answers, when it is one of components.schemas: Booking. */
  const schemaNameOf = (response: Json) => {
    const media = Object.values((response.content ?? {}) as Record<string, Json>);
    const target = media.length === 1 ? (media[0]?.schema as Json | undefined)?.$ref : undefined;
    return typeof target === 'string' ? /^#\/components\/schemas\/([^/]+)$/.exec(target)?.[1] : undefined;
  };
  const uses = new Map<string, { response: Json; at: [Operation, string][] }>();
  for (const [, , operation] of operationsOf(doc)) {
    for (const [status, response] of Object.entries(operation.responses ?? {})) {
      if (Number(status) >= 400 || '$ref' in response) continue;
      const { description: _, ...rest } = response;
      const key = JSON.stringify(rest);
      const use = uses.get(key) ?? { response, at: [] };
      use.at.push([operation, status]);
      uses.set(key, use);
    }
  }
  doc.components ??= {};
  const components = doc.components as Json & { responses?: Record<string, Json> };
  const shared: Record<string, Json> = {};
  for (const { response, at } of uses.values()) {
    if (at.length < 2) continue;
    const [first, status] = at[0] as [Operation, string];
    const base = (schemaNameOf(response) ?? `${first.operationId ?? 'response'}.${status}`).replace(
      /[^A-Za-z0-9._-]/g,
      '_',
    );
    let name = base;
    for (let n = 2; name in shared || name in (components.responses ?? {}); n++) name = `${base}.${n}`;
    shared[name] = response;
    for (const [operation, s] of at) {
      const responses = operation.responses as Record<string, Json>;
      const description = responses[s]?.description;
      responses[s] =
        description === response.description ? ref('responses', name) : { ...ref('responses', name), description };
    }
  }
  if (Object.keys(shared).length > 0) components.responses = { ...components.responses, ...shared };
}

/**
 * components.responses that differ at most in their description (the ApiError responses with the
 * budget headers: 400, 401, 403, 404 ...) are written out once, in the first of them; the others
 * reference it with their own description, which overrides its (OpenAPI 3.1 Reference Object).
 */
function chainAlikeResponses(doc: OpenApiObject): void {
  const responses = (doc.components?.responses ?? {}) as Record<string, Json>;
  const first = new Map<string, string>();
  for (const [name, response] of Object.entries(responses)) {
    if ('$ref' in response) continue;
    const { description, ...rest } = response;
    const key = JSON.stringify(rest);
    const base = first.get(key);
    if (base === undefined) first.set(key, name);
    else responses[name] = { ...ref('responses', base), description };
  }
}

// ---------------------------------------------------------------------------------------------
// Descriptions: sandbox twins, and paragraphs several operations repeat
// ---------------------------------------------------------------------------------------------

/** Paragraphs of a Markdown description: the text between blank lines. */
const PARAGRAPH_BREAK = '\n\n';
const paragraphsOf = (text: string) => text.split(PARAGRAPH_BREAK);

/** A run of paragraphs shorter than this stays where it is: a pointer would save too little. */
export const MIN_SHARED_CHARS = 200;

/** What a twin says instead of the copy of its real operation's description. */
const twinPointer = (operationId: string, method: string, path: string) =>
  `The rest is as described at ${operationId} (${method.toUpperCase()} ${path}).`;
const TWIN_POINTER = /^The rest is as described at ([A-Za-z0-9_]+) \((\w+) (\S+)\)\.$/;

/** What an operation says instead of a run of paragraphs written in a tag's description. */
const sectionPointer = (title: string, tag: string) => `See “${title}” in the ${tag} section.`;
const SECTION_POINTER = /^See “(.+)” in the (.+) section\.$/;

/** The heading a moved run of paragraphs gets in its tag's description. */
const sectionHeading = (title: string) => `### ${title}`;
const SECTION_HEADING = /^### (.+)$/;

/**
 * A sandbox twin whose description is its real operation's, after a paragraph of its own that
 * names that operation, keeps its own paragraph and points at the operation for the rest: the
 * twin answers the same, so the pointer loses nothing.
 */
function pointTwins(doc: OpenApiObject): void {
  const byDescription = new Map<string, [string, string, Operation]>();
  for (const [path, method, operation] of operationsOf(doc)) {
    if (operation.description && operation.operationId) {
      byDescription.set(operation.description, [path, method, operation]);
    }
  }
  for (const [, , twin] of operationsOf(doc)) {
    const description = twin.description ?? '';
    const cut = description.indexOf(PARAGRAPH_BREAK);
    if (cut < 0) continue;
    const own = description.slice(0, cut);
    const real = byDescription.get(description.slice(cut + PARAGRAPH_BREAK.length));
    if (!real || real[2] === twin) continue;
    const [path, method, operation] = real;
    const operationId = operation.operationId ?? '';
    if (!new RegExp(`\\b${operationId}\\b`).test(own)) continue;
    twin.description = `${own}${PARAGRAPH_BREAK}${twinPointer(operationId, method, path)}`;
  }
}

/** A name for a run of paragraphs: its first words up to a parenthesis, colon or full stop. */
function titleOf(paragraphs: string[]): string {
  const lead = (paragraphs[0] ?? '').replace(/\*\*/g, '');
  const phrase = /^[^(:.\n|]+/.exec(lead)?.[0].trim() ?? '';
  if (phrase.length >= 3 && phrase.length <= 40) return phrase;
  return /^[\p{L}\p{N}-]+/u.exec(lead)?.[0] ?? 'Shared text';
}

/**
 * Writes once what several operations repeat: a run of consecutive paragraphs that the same
 * operations (two or more) all have, word for word, of at least MIN_SHARED_CHARS. It goes under a
 * heading at the end of the description of the tag most of those operations carry (ties: the
 * first in the document's tags), and each operation says where instead.
 */
function moveSharedParagraphs(doc: OpenApiObject): void {
  const tags = doc.tags ?? [];
  const operations = [...operationsOf(doc)].map(([, , operation]) => operation).filter((o) => o.description);
  const holders = new Map<string, Set<Operation>>();
  for (const operation of operations) {
    for (const paragraph of paragraphsOf(operation.description ?? '')) {
      const set = holders.get(paragraph) ?? new Set();
      set.add(operation);
      holders.set(paragraph, set);
    }
  }
  const holdersKey = (paragraph: string) =>
    operations
      .map((o, i) => (holders.get(paragraph)?.has(o) ? i : -1))
      .filter((i) => i >= 0)
      .join(',');

  // Each operation's runs: consecutive paragraphs held by the same two or more operations.
  const runs = new Map<string, { paragraphs: string[]; at: Operation[] }>();
  const runsOf = new Map<Operation, { start: number; end: number; key: string }[]>();
  for (const operation of operations) {
    const paragraphs = paragraphsOf(operation.description ?? '');
    const found: { start: number; end: number; key: string }[] = [];
    for (let start = 0; start < paragraphs.length; ) {
      const key = holdersKey(paragraphs[start] ?? '');
      let end = start + 1;
      while (end < paragraphs.length && holdersKey(paragraphs[end] ?? '') === key) end++;
      if ((holders.get(paragraphs[start] ?? '')?.size ?? 0) > 1) {
        const run = paragraphs.slice(start, end);
        const text = run.join(PARAGRAPH_BREAK);
        const entry = runs.get(text) ?? { paragraphs: run, at: [] };
        entry.at.push(operation);
        runs.set(text, entry);
        found.push({ start, end, key: text });
      }
      start = end;
    }
    runsOf.set(operation, found);
  }

  const pointers = new Map<string, string>();
  const titles = new Set<string>();
  for (const [text, { paragraphs, at }] of runs) {
    if (at.length < 2 || text.length < MIN_SHARED_CHARS) continue;
    const count = new Map<string, number>();
    for (const operation of at) for (const tag of operation.tags ?? []) count.set(tag, (count.get(tag) ?? 0) + 1);
    let home: Tag | undefined;
    for (const tag of tags) if ((count.get(tag.name) ?? 0) > (home ? (count.get(home.name) ?? 0) : 0)) home = tag;
    if (!home) continue;
    let title = titleOf(paragraphs);
    for (let n = 2; titles.has(title); n++) title = `${titleOf(paragraphs)} (${n})`;
    titles.add(title);
    home.description = [home.description ?? '', sectionHeading(title), text].filter(Boolean).join(PARAGRAPH_BREAK);
    pointers.set(text, sectionPointer(title, home.name));
  }

  for (const operation of operations) {
    const paragraphs = paragraphsOf(operation.description ?? '');
    const found = (runsOf.get(operation) ?? []).filter((run) => pointers.has(run.key));
    if (found.length === 0) continue;
    for (const { start, end, key } of found.reverse()) {
      paragraphs.splice(start, end - start, pointers.get(key) ?? '');
    }
    operation.description = paragraphs.join(PARAGRAPH_BREAK);
  }
}

/** The media types of a request body, with their schemas. */
const bodyMediaOf = (operation: Operation) =>
  Object.values(((operation.requestBody as Json | undefined)?.content ?? {}) as Record<string, Json>);

/**
 * @fastify/swagger copies the description of a body schema into the request body beside it; the
 * copy goes (the body schema keeps the description, and the UIs show it there).
 */
function dropBodyDescriptionCopies(doc: OpenApiObject): void {
  for (const [, , operation] of operationsOf(doc)) {
    const body = operation.requestBody as Json | undefined;
    const media = bodyMediaOf(operation);
    if (body?.description === undefined || media.length === 0) continue;
    if (media.every((m) => (m.schema as Json | undefined)?.description === body.description)) delete body.description;
  }
}

/** Puts back what dropBodyDescriptionCopies, moveSharedParagraphs and pointTwins took out: the descriptions as generated. */
function restoreDescriptions(doc: OpenApiObject): void {
  const sections = new Map<string, string>();
  const tagOf = new Map<string, Tag>();
  for (const tag of doc.tags ?? []) {
    tagOf.set(tag.name, tag);
    const paragraphs = paragraphsOf(tag.description ?? '');
    const first = paragraphs.findIndex((p) => SECTION_HEADING.test(p));
    if (first < 0) continue;
    let title = '';
    for (const paragraph of paragraphs.slice(first)) {
      const heading = SECTION_HEADING.exec(paragraph);
      if (heading) title = heading[1] ?? '';
      else {
        const key = `${tag.name}\u0000${title}`;
        sections.set(key, sections.has(key) ? `${sections.get(key)}${PARAGRAPH_BREAK}${paragraph}` : paragraph);
      }
    }
    if (first === 0) delete tag.description;
    else tag.description = paragraphs.slice(0, first).join(PARAGRAPH_BREAK);
  }
  const all = [...operationsOf(doc)];
  for (const [, , operation] of all) {
    const body = operation.requestBody as Json | undefined;
    const description = (bodyMediaOf(operation)[0]?.schema as Json | undefined)?.description;
    if (body && body.description === undefined && description !== undefined) body.description = description;
  }
  for (const [, , operation] of all) {
    if (!operation.description) continue;
    operation.description = paragraphsOf(operation.description)
      .map((paragraph) => {
        const pointer = SECTION_POINTER.exec(paragraph);
        const text = pointer && tagOf.has(pointer[2] ?? '') && sections.get(`${pointer[2]}\u0000${pointer[1]}`);
        return text || paragraph;
      })
      .join(PARAGRAPH_BREAK);
  }
  for (const [, , twin] of all) {
    const paragraphs = paragraphsOf(twin.description ?? '');
    const pointer = TWIN_POINTER.exec(paragraphs.at(-1) ?? '');
    const real = pointer && doc.paths?.[pointer[3] ?? '']?.[pointer[2]?.toLowerCase() ?? ''];
    if (!real || real.operationId !== pointer[1] || real.description === undefined) continue;
    twin.description = [...paragraphs.slice(0, -1), real.description].join(PARAGRAPH_BREAK);
  }
}

// ---------------------------------------------------------------------------------------------
// Repeated schemas
// ---------------------------------------------------------------------------------------------

/** A schema shorter than this (in characters of JSON) stays inline: a reference would save too little. */
export const MIN_SHARED_SCHEMA_CHARS = 100;

/**
 * Names of the schemas shareSchemas adds have a dot (createJob.location: the location property of
 * createJob's body); the generated document's own schemas (Job, Listing ...) have none.
 */
const isSharedSchemaName = (name: string) => name.includes('.');

interface SchemaSlot {
  /** Where the schema is, to name it: createJob.location, Webhook.events.items. */
  label: string;
  get: () => unknown;
  set: (schema: Json) => void;
  /** The name, when the slot is an entry of components.schemas itself. */
  component?: string;
}

/** Every schema of the document and every subschema in it, outermost first. */
function schemaSlots(doc: OpenApiObject): SchemaSlot[] {
  const slots: SchemaSlot[] = [];
  const visit = (slot: SchemaSlot) => {
    const schema = slot.get();
    if (schema === null || typeof schema !== 'object' || Array.isArray(schema) || '$ref' in schema) return;
    slots.push(slot);
    const node = schema as Json;
    const child = (label: string, holder: Json | unknown[], key: string | number) =>
      visit({
        label: `${slot.label}.${label}`,
        get: () => (holder as Record<string | number, unknown>)[key],
        set: (value) => {
          (holder as Record<string | number, unknown>)[key] = value;
        },
      });
    if (node.properties && typeof node.properties === 'object') {
      const properties = node.properties as Json;
      for (const name of Object.keys(properties)) child(name, properties, name);
    }
    for (const key of ['items', 'additionalProperties', 'not']) {
      if (node[key] && typeof node[key] === 'object') child(key, node, key);
    }
    for (const key of ['anyOf', 'oneOf', 'allOf']) {
      const list = node[key];
      if (Array.isArray(list)) for (let i = 0; i < list.length; i++) child(`${key}${i}`, list, i);
    }
  };
  const contentSchemas = (label: string, content: unknown) => {
    for (const media of Object.values((content ?? {}) as Record<string, Json>)) {
      if (media && typeof media === 'object' && 'schema' in media) {
        visit({ label, get: () => media.schema, set: (value) => (media.schema = value) });
      }
    }
  };
  const schemas = (doc.components?.schemas ?? {}) as Json;
  for (const name of Object.keys(schemas)) {
    visit({ label: name, component: name, get: () => schemas[name], set: (value) => (schemas[name] = value) });
  }
  for (const [name, response] of Object.entries((doc.components?.responses ?? {}) as Record<string, Json>)) {
    contentSchemas(name, response.content);
  }
  for (const [, , operation] of operationsOf(doc)) {
    const id = operation.operationId ?? 'operation';
    contentSchemas(id, (operation.requestBody as Json | undefined)?.content);
    for (const [status, response] of Object.entries(operation.responses ?? {})) {
      contentSchemas(`${id}.${status}`, response.content);
    }
  }
  return slots;
}

/**
 * Writes once, under components.schemas, every schema the document repeats word for word (the
 * location of a new job and of a changed one, the event types of a webhook and of a delivery ...)
 * and references it from where it was. Greedy: the repetition that saves most first, until none
 * saves anything; a repeated schema that is an entry of components.schemas already keeps its name.
 */
function shareSchemas(doc: OpenApiObject): void {
  doc.components ??= {};
  doc.components.schemas ??= {};
  const schemas = doc.components.schemas as Json;
  for (;;) {
    const uses = new Map<string, SchemaSlot[]>();
    for (const slot of schemaSlots(doc)) {
      const key = JSON.stringify(slot.get());
      if (key.length < MIN_SHARED_SCHEMA_CHARS) continue;
      uses.set(key, [...(uses.get(key) ?? []), slot]);
    }
    let best: [string, SchemaSlot[]] | undefined;
    let bestSaving = 0;
    for (const [key, slots] of uses) {
      // A reference costs about as much as {"$ref":"#/components/schemas/..."} with a name.
      const saving = (slots.length - 1) * key.length - slots.length * 60;
      if (slots.length > 1 && saving > bestSaving) [best, bestSaving] = [[key, slots], saving];
    }
    if (!best) return;
    const [key, slots] = best;
    let name = slots.find((slot) => slot.component)?.component;
    if (!name) {
      const base = (slots[0]?.label ?? 'schema').replace(/[^A-Za-z0-9._-]/g, '_');
      name = base;
      for (let n = 2; name in schemas; n++) name = `${base}.${n}`;
      schemas[name] = JSON.parse(key) as Json;
    }
    for (const slot of slots) if (slot.component !== name) slot.set(ref('schemas', name));
  }
}

// ---------------------------------------------------------------------------------------------
// The whole
// ---------------------------------------------------------------------------------------------

const SHARED_REF = /^#\/components\/(parameters|headers|responses|schemas)\/([^/]+)$/;

/**
 * The document with every reference to components.parameters, headers and responses, and to the
 * schemas shareSchemas added, replaced by what it points at, and the descriptions pointTwins and
 * moveSharedParagraphs shortened written out again. components stays as it is.
 */
export function resolveShared<T>(doc: T): T {
  const components = (doc as { components?: Record<string, Record<string, unknown>> }).components ?? {};
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== 'object') return node;
    const { $ref: target, ...overrides } = node as { $ref?: unknown };
    const match = typeof target === 'string' ? SHARED_REF.exec(target) : null;
    if (match && (match[1] !== 'schemas' || isSharedSchemaName(match[2] ?? ''))) {
      const shared = components[match[1] ?? '']?.[match[2] ?? ''];
      if (shared === undefined) throw new Error(`unresolved $ref ${target}`);
      // A Reference Object's summary and description override those of what it references (OpenAPI 3.1).
      return { ...(walk(shared) as Json), ...overrides };
    }
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, walk(value)]));
  };
  const resolved = walk(doc) as OpenApiObject;
  restoreDescriptions(resolved);
  return resolved as T;
}

/**
 * The document with everything compactDocument shared written out again where it was (see
 * resolveShared), and without the components it added: the document as generated, but for the
 * Idempotency-Key header, which it declares in its shared form on every POST under /v1.
 */
export function expandDocument<T extends OpenApiObject>(doc: T): T {
  const expanded = resolveShared(doc);
  const { parameters, headers, responses, schemas, ...components } = expanded.components ?? {};
  const own = Object.entries((schemas ?? {}) as Json).filter(([name]) => !isSharedSchemaName(name));
  return { ...expanded, components: { ...components, ...(own.length > 0 && { schemas: Object.fromEntries(own) }) } };
}

/** The compact document: the shared pieces of the generated one written once (see the top of this file). */
export function compactDocument(doc: OpenApiObject): OpenApiObject {
  const names = Object.keys(doc.components?.schemas ?? {});
  if (names.some(isSharedSchemaName)) throw new Error(`compactDocument: a schema name has a dot: ${names}`);
  // A copy: @fastify/swagger builds each document (JSON, YAML) from the same options objects (tags).
  const compact = shareComponents(structuredClone(doc));
  const before = expandDocument(compact);
  dropBodyDescriptionCopies(compact);
  shareSuccessResponses(compact);
  chainAlikeResponses(compact);
  shareSchemas(compact);
  pointTwins(compact);
  moveSharedParagraphs(compact);
  // What these steps move must all come back: expanded, the document is the same as before them.
  if (!isDeepStrictEqual(expandDocument(compact), before)) {
    throw new Error('compactDocument: sharing success responses, schemas or descriptions changed the document');
  }
  return compact;
}
