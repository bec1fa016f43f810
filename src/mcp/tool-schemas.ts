/**
 * The JSON Schemas of the tools, made from the schemas the routes validate and serialize with, in
 * the dialect model providers and MCP clients accept: self-contained (the `$ref`s to the shared
 * components inlined), one `type` per schema (never a `type` array: a nullable field is `anyOf`
 * with `{type: null}`), `type: object` and `additionalProperties` on every object, nothing that
 * belongs to the OpenAPI document only (response headers, `$id`).
 *
 * An input of a tool that reads or creates, which may be null and may be left out, means the same
 * both ways (a job without a date), so the tool takes it as optional and does not list null: some
 * providers refuse nullable inputs. The REST call still accepts an explicit null, so clients that
 * send one keep working. A tool that changes an object (PATCH, PUT) is different: there null clears
 * a field and leaving it out keeps it, so its inputs list null as an anyOf branch
 * (test/mcp/tool-schemas.test.ts names the inputs either rule applies to, so a new one is a
 * decision).
 */
import type { Tool } from '@modelcontextprotocol/server';
import type { TSchema } from 'typebox';
import { NO_CONTACT_DATA } from '../schemas/common.js';
import { COMPONENT_SCHEMAS } from '../schemas/components.js';

type Schema = Record<string, unknown>;

/** A schema as plain JSON (what a client is sent), without anything TypeBox keeps beside it. */
const plain = (schema: unknown): Schema => JSON.parse(JSON.stringify(schema));

const isSchema = (value: unknown): value is Schema =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** The shared components by their $id (what `{$ref: 'Job'}` in a route schema names). */
const COMPONENTS: ReadonlyMap<string, Schema> = new Map(
  COMPONENT_SCHEMAS.map(plain).map((component) => [String(component.$id), component]),
);

/**
 * Keywords of the OpenAPI document that are no JSON Schema: a response's headers, a component's id,
 * the API's own extension NO_CONTACT_DATA (the description says it in words).
 */
const DOCUMENT_ONLY = new Set(['headers', '$id', NO_CONTACT_DATA]);

/** Keywords whose value is one schema, a list of schemas, or a map of names to schemas. */
const ONE = ['items', 'additionalProperties', 'not', 'contains', 'propertyNames'];
const LIST = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
const MAP = ['properties', 'patternProperties'];

/** The component a `$ref` names; a name that is no component stops the process at start-up. */
function component(ref: string): Schema {
  const found = COMPONENTS.get(ref.replace(/#$/, ''));
  if (!found) throw new Error(`tool schemas: '$ref: ${ref}' names no component schema`);
  return found;
}

/**
 * `schema` with its `$ref` inlined (its own keywords, such as a description, win over the
 * component's) and without the document-only keywords.
 */
function inlined(schema: Schema): Schema {
  const { $ref, ...own } = schema;
  const merged = typeof $ref === 'string' ? { ...inlined(component($ref)), ...own } : own;
  for (const key of DOCUMENT_ONLY) delete merged[key];
  return merged;
}

/** The nullable `schema` as one type: `{type: [t, 'null']}` as t, `anyOf: [s, {type: 'null'}]` as s. */
function withoutNull(schema: Schema): Schema | undefined {
  const { type, anyOf, ...rest } = schema;
  if (Array.isArray(type) && type.length === 2 && type.includes('null')) {
    const values = Array.isArray(rest.enum) ? { enum: rest.enum.filter((value) => value !== null) } : {};
    return { ...rest, ...values, type: type.find((t) => t !== 'null') };
  }
  if (Array.isArray(anyOf) && anyOf.length === 2 && anyOf.some((s) => isSchema(s) && s.type === 'null')) {
    const other = anyOf.find((s) => !(isSchema(s) && s.type === 'null')) as Schema;
    return { ...rest, ...other, ...(rest.description !== undefined && { description: rest.description }) };
  }
  return undefined;
}

/** A nullable schema as `anyOf` with `{type: 'null'}`, its description outside the branches. */
function nullAsBranch(single: Schema): Schema {
  const { description, ...branch } = single;
  return { anyOf: [branch, { type: 'null' }], ...(description !== undefined && { description }) };
}

/**
 * An input that is left out rather than null: its description said null ("null: no date." becomes
 * "Omitted: no date.", "..., or null." becomes "..., or omitted.").
 */
function leftOut(single: Schema): Schema {
  const { description } = single;
  if (typeof description !== 'string') return single;
  const worded = description.replace(/(^|[.!?]\s+)null\b/g, '$1Omitted').replace(/\bnull\b/g, 'omitted');
  return { ...single, description: worded };
}

/**
 * `schema` in the tools' dialect, with every subschema. An input property that is not required and
 * may be null (`optional`) becomes one without null; every other nullable schema gets a null branch.
 */
function portable(schema: unknown, mode: 'input' | 'output', optional = false, depth = 0): unknown {
  if (!isSchema(schema)) return schema;
  const ref = typeof schema.$ref === 'string' ? schema.$ref : undefined;
  const nested = ref !== undefined ? depth + 1 : depth;
  // A component within a component is an open object, or a list of them (OpeningHours in a Listing).
  if (mode === 'output' && ref !== undefined && nested > 1) {
    const type = component(ref).type;
    if (type === 'object') return OPEN_OBJECT;
    if (type === 'array') return { type: 'array', items: OPEN_OBJECT };
  }
  let node = inlined(schema);
  if (mode === 'output' && RECORD_LISTS.has(String(schema.$ref))) node = withOpenRecords(node);
  // A map (TypeBox's Record: patternProperties with one catch-all pattern) as additionalProperties,
  // which says the same in the dialect.
  const patterns = node.patternProperties;
  if (isSchema(patterns) && Object.keys(patterns).length === 1 && !('properties' in node)) {
    const [pattern, value] = Object.entries(patterns)[0] as [string, unknown];
    if (pattern === '^.*$' || pattern === '^(.*)$') {
      const { patternProperties: _, ...rest } = node;
      node = { ...rest, type: 'object', properties: {}, additionalProperties: value };
    }
  }
  const single = withoutNull(node);
  if (single) node = optional ? inlined(leftOut(single)) : nullAsBranch(single);
  const out: Schema = { ...node };
  for (const key of ONE) if (key in node) out[key] = portable(node[key], mode, false, nested);
  for (const key of LIST) {
    if (Array.isArray(node[key])) out[key] = node[key].map((s: unknown) => portable(s, mode, false, nested));
  }
  const required = new Set(Array.isArray(node.required) ? node.required : []);
  for (const key of MAP) {
    const map = node[key];
    if (!isSchema(map)) continue;
    out[key] = Object.fromEntries(
      Object.entries(map).map(([name, s]) => [
        name,
        portable(s, mode, mode === 'input' && !required.has(name), nested),
      ]),
    );
  }
  return out;
}

/**
 * What an output schema says of a component object inside another (the location of a Job, the
 * provider of a Listing): an object, its shape in the OpenAPI document's component. Written out, the
 * same Location, ReliabilityScore and PublicProvider came back in dozens of tools.
 */
const OPEN_OBJECT = { type: 'object', properties: {}, additionalProperties: true };

/**
 * Components whose sections are records as stored, field by field (the account export: ~200 fields
 * in 29 sections): an output schema keeps the sections and says of each record only that it is an
 * object. The OpenAPI document has every field, with its type, and /docs/descriptions.md lists them
 * with what they mean; written out here they were 16 KB of every tools/list.
 */
const RECORD_LISTS: ReadonlySet<string> = new Set(['AccountExport']);

/** `schema` with each record of its sections as OPEN_OBJECT: a list's items, or an object section itself. */
function withOpenRecords(schema: Schema): Schema {
  const properties = isSchema(schema.properties) ? schema.properties : {};
  const open = (section: unknown): unknown => {
    if (!isSchema(section)) return section;
    if (section.type === 'array' && isSchema(section.items) && section.items.type === 'object') {
      return { ...section, items: OPEN_OBJECT };
    }
    if (section.type === 'object' && isSchema(section.properties)) {
      const { description } = section;
      return { ...OPEN_OBJECT, ...(description !== undefined && { description }) };
    }
    return section;
  };
  return { ...schema, properties: Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, open(v)])) };
}

/** A route's parameters or body, as far as a tool's input schema takes them. */
interface ObjectSchema {
  properties?: Record<string, unknown>;
  required?: readonly string[];
}

/**
 * A tool's input schema: the properties and required names of the route's params, query and body
 * schemas in one object, plus `extra` ones (idempotency_key for writes). A name in two parts would
 * be ambiguous, so it stops the process at start-up. `nullClears`: the tool changes an object
 * (PATCH, PUT), where null is not the same as leaving an input out.
 */
export function inputSchemaOf(
  tool: string,
  parts: readonly (TSchema | undefined)[],
  extra: { properties?: Record<string, object>; required?: readonly string[] } = {},
  nullClears = false,
): Tool['inputSchema'] {
  const properties: Record<string, object> = {};
  const required: string[] = [];
  for (const part of parts) {
    if (!part) continue;
    const schema = plain(part) as ObjectSchema;
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      if (name in properties) throw new Error(`tool ${tool}: '${name}' is in two parts of the route schema`);
      properties[name] = property as object;
    }
    required.push(...(schema.required ?? []));
  }
  Object.assign(properties, extra.properties);
  required.push(...(extra.required ?? []));
  const merged = { type: 'object', properties, ...(required.length > 0 && { required }), additionalProperties: false };
  // Where null clears a field, inputs keep their null branch, as outputs do.
  return portable(merged, nullClears ? 'output' : 'input') as Tool['inputSchema'];
}

/** Words only people read: the OpenAPI document has them; tools/list would be three times its size with them. */
const WORDS = new Set(['description', 'examples', 'title']);

/**
 * Limits on what the server writes (lengths, ranges, patterns, defaults): they protect nothing in
 * an answer and the OpenAPI document states them; an output schema keeps the shape (types, formats,
 * properties, required, enums, null) that a client checks an answer against.
 */
const LIMITS = new Set([
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minItems',
  'maxItems',
  'uniqueItems',
  'default',
]);

/**
 * `schema` without its words (descriptions, examples, titles) in every subschema: an output schema
 * is for checking an answer's shape, and the words of all answers (a Listing's alone are 5 KB)
 * would make tools/list three times as long for every agent that reads it.
 */
function terse(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(terse);
  if (!isSchema(schema)) return schema;
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    if ((WORDS.has(key) || LIMITS.has(key)) && (typeof value !== 'object' || value === null)) continue;
    if (key === 'examples') continue;
    // A property named "description" or "title" stays: only the keywords go.
    out[key] =
      MAP.includes(key) && isSchema(value)
        ? Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, terse(sub)]))
        : terse(value);
  }
  return out;
}

/**
 * A tool's output schema: the route's success answer (200 or 201) as structuredContent carries it,
 * or with `or` either that answer or `or`'s (the Draft of a write made with confirm_by_person).
 * MCP wants an object there; a route that answers anything else stops the process at start-up.
 */
export function outputSchemaOf(tool: string, response: TSchema, or?: TSchema): NonNullable<Tool['outputSchema']> {
  const schema = terse(portable(plain(response), 'output')) as Schema;
  if (schema.type !== 'object') throw new Error(`tool ${tool}: its route answers no JSON object`);
  if (!or) return schema as NonNullable<Tool['outputSchema']>;
  // Either answer (a write's, or the draft confirm_by_person makes): an object that is one of them.
  const other = terse(portable(plain(or), 'output')) as Schema;
  return { type: 'object', properties: {}, additionalProperties: true, anyOf: [schema, other] } as NonNullable<
    Tool['outputSchema']
  >;
}
