import { COMPONENT_SCHEMAS } from '../../schemas/components.js';
import { type Json, type OpenApiObject, operationsOf, ref } from './types.js';

// Repeated schemas (a step of compactDocument, compact.ts).

/** A schema shorter than this (in characters of JSON) stays inline: a reference would save too little. */
export const MIN_SHARED_SCHEMA_CHARS = 100;

/** The names of the generated document's own schemas: the $ids of schemas/components.ts. */
const OWN_SCHEMA_NAMES: ReadonlySet<string> = new Set(
  COMPONENT_SCHEMAS.map((schema) => (schema as { $id?: string }).$id ?? ''),
);

/**
 * Whether a schema of components.schemas is one shareSchemas or sharePatterns added (JobTitle: the
 * title of createJob's body), not one of the generated document's own (Job, Listing ...).
 */
export const isSharedSchemaName = (name: string) => !OWN_SCHEMA_NAMES.has(name);

/** snake_case, kebab-case or camelCase words as one PascalCase word: time_preference -> TimePreference. */
const pascal = (word: string) =>
  word
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');

/**
 * A real name for what a slot holds, for generated clients: its place in words, without the verb of
 * the operation it was found in, status codes and list positions (createJob.category -> JobCategory,
 * Webhook.events.items -> WebhookEvent, createJob.category.anyOf1 -> JobCategoryVariant1), and
 * when that is taken `suffix` (Base: the part several annotated copies share), numbered if still taken.
 */
export function schemaNameOf(label: string, taken: (name: string) => boolean, suffix = ''): string {
  const words: string[] = [];
  for (const [i, part] of label.split('.').entries()) {
    if (/^\d+$/.test(part)) continue;
    if (part === 'items') {
      const last = words.pop() ?? 'Item';
      words.push(last.endsWith('s') ? last.slice(0, -1) : `${last}Item`);
    } else if (/^(anyOf|oneOf|allOf)\d+$/.test(part)) words.push(`Variant${part.replace(/\D/g, '')}`);
    else if (i === 0)
      words.push(
        pascal(
          part.replace(/^(create|update|get|list|search|start|request|review|put|post|apply|Public)(?=[A-Z])/, ''),
        ),
      );
    else words.push(pascal(part));
  }
  const plain = words.join('') || 'Schema';
  if (!taken(plain)) return plain;
  const base = `${plain}${suffix}`;
  let name = base;
  for (let n = 2; taken(name); n++) name = `${base}${n}`;
  return name;
}

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
  // Parameters' schemas too: the any-case alternatives of the category and sort parameters
  // (openapi/accepted.ts) are the same in several of them.
  const parameterSchema = (label: string, parameter: Json) =>
    visit({ label, get: () => parameter.schema, set: (value) => (parameter.schema = value) });
  for (const [name, parameter] of Object.entries((doc.components?.parameters ?? {}) as Record<string, Json>)) {
    parameterSchema(name, parameter);
  }
  for (const [, , operation] of operationsOf(doc)) {
    const id = operation.operationId ?? 'operation';
    for (const parameter of operation.parameters ?? []) {
      if (!('$ref' in parameter)) parameterSchema(`${id}.${parameter.name}`, parameter);
    }
    contentSchemas(id, (operation.requestBody as Json | undefined)?.content);
    for (const [status, response] of Object.entries(operation.responses ?? {})) {
      contentSchemas(`${id}.${status}`, response.content);
    }
  }
  return slots;
}

/** The annotations a schema may keep beside a reference to what it shares with others (shareSchemas `ignoring`). */
type Annotation = 'description' | 'default';

function without(schema: Json, keys: readonly Annotation[]): Json {
  return Object.fromEntries(Object.entries(schema).filter(([key]) => !keys.includes(key as Annotation)));
}

function withOwn(target: Json, schema: Json, keys: readonly Annotation[]): Json {
  return { ...target, ...Object.fromEntries(keys.filter((k) => k in schema).map((k) => [k, schema[k]])) };
}

/**
 * Writes once, under components.schemas, every schema the document repeats (the location of a new
 * job and of a changed one, the event types of a webhook and of a delivery ...) and references it
 * from where it was. Greedy: the repetition that saves most first, until none saves anything.
 *
 * Without `ignoring`, schemas repeated word for word; a repeated schema that is an entry of
 * components.schemas already keeps its name. With `ignoring` annotations, also those that differ
 * only in them: ['default'], a field of a new job and of a changed one (only the new one has a
 * default); ['description', 'default'], the price bands of a category. What they share is written
 * once and each keeps its own annotations beside the reference (a $ref's siblings may carry them
 * in JSON Schema 2020-12).
 */
export function shareSchemas(doc: OpenApiObject, { ignoring = [] as readonly Annotation[] } = {}): void {
  doc.components ??= {};
  doc.components.schemas ??= {};
  const schemas = doc.components.schemas as Json;
  const alike = ignoring.length > 0;
  const keyOf = (schema: Json) => JSON.stringify(alike ? without(schema, ignoring) : schema);
  for (;;) {
    const uses = new Map<string, SchemaSlot[]>();
    for (const slot of schemaSlots(doc)) {
      // Named schemas of the generated document stay as they are; only their insides are shared.
      if (alike && slot.component && !isSharedSchemaName(slot.component)) continue;
      const key = keyOf(slot.get() as Json);
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
    let name = alike ? undefined : slots.find((slot) => slot.component)?.component;
    if (!name) {
      name = schemaNameOf(
        slots[0]?.label ?? 'schema',
        (n) => n in schemas || !isSharedSchemaName(n),
        alike ? 'Base' : '',
      );
      schemas[name] = JSON.parse(key) as Json;
    }
    for (const slot of slots) {
      if (slot.component === name) continue;
      slot.set(alike ? withOwn(ref('schemas', name), slot.get() as Json, ignoring) : ref('schemas', name));
    }
  }
}

/** A pattern shorter than this stays where it is: a reference would save too little. */
export const MIN_SHARED_PATTERN_CHARS = 80;

/**
 * Writes once, under components.schemas, every long `pattern` that several schemas carry with the
 * same `type` and a `maxLength` of their own (the visible-text rule of names and titles, the any-case
 * alternatives of enums), as `{type, pattern, maxLength}` with the longest of their maxLengths; each
 * of those schemas references it and keeps its other keywords, its own maxLength among them, beside
 * the reference (a $ref with siblings applies both, JSON Schema 2020-12). The shared part carries a
 * bound too, for tools that read a reference without its siblings (Spectral's OWASP rules do).
 * Run after shareSchemas.
 */
export function sharePatterns(doc: OpenApiObject): void {
  doc.components ??= {};
  doc.components.schemas ??= {};
  const schemas = doc.components.schemas as Json;
  const uses = new Map<string, SchemaSlot[]>();
  for (const slot of schemaSlots(doc)) {
    const { type, pattern, maxLength } = slot.get() as Json;
    if (typeof pattern !== 'string' || pattern.length < MIN_SHARED_PATTERN_CHARS) continue;
    if (typeof maxLength !== 'number') continue;
    const key = JSON.stringify({ type, pattern });
    uses.set(key, [...(uses.get(key) ?? []), slot]);
  }
  for (const [key, slots] of uses) {
    if (slots.length < 2) continue;
    // Named after the first user's field (TextPattern), not its operation: it is referenced often.
    const field = (slots[0]?.label ?? 'schema')
      .split('.')
      .filter((part) => !/^(anyOf|items)\d*$/.test(part))
      .at(-1)
      ?.split(/(?=[A-Z])/)
      .at(-1);
    const name = schemaNameOf(`${field ?? 'text'}_pattern`, (n) => n in schemas || !isSharedSchemaName(n));
    const maxLength = Math.max(...slots.map((slot) => (slot.get() as { maxLength: number }).maxLength));
    schemas[name] = { ...(JSON.parse(key) as Json), maxLength };
    for (const slot of slots) {
      const { type: _, pattern: __, ...rest } = slot.get() as Json;
      slot.set({ ...ref('schemas', name), ...rest });
    }
  }
}
