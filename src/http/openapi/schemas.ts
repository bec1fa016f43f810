import { type Json, type OpenApiObject, operationsOf, ref } from './types.js';

// Repeated schemas (a step of compactDocument, compact.ts).

/** A schema shorter than this (in characters of JSON) stays inline: a reference would save too little. */
export const MIN_SHARED_SCHEMA_CHARS = 100;

/**
 * Names of the schemas shareSchemas adds have a dot (createJob.location: the location property of
 * createJob's body); the generated document's own schemas (Job, Listing ...) have none.
 */
export const isSharedSchemaName = (name: string) => name.includes('.');

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
export function shareSchemas(doc: OpenApiObject): void {
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
