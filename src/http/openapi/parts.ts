import { type Json, type OpenApiObject, operationsOf, type Tag } from './types.js';

/**
 * A part of the served document, for a reader that needs only some of it (issue 29: an agent should
 * be able to read what it works with whole). `GET /v1/openapi.json?tags=Bookings,Payments` answers a
 * complete OpenAPI document of its own: the operations carrying one of those tags, every component
 * they reference (followed through components too, so each `$ref` resolves inside the part), the
 * security schemes they name, and the tags those operations carry or point at ("See … in the Jobs section.").
 * Nothing in it is shortened: each operation, schema and description is as in the whole document.
 * The largest single tag weighs well under MAX_PART_BYTES (test/http/openapi-size.test.ts).
 */

/** The most one tag's part may weigh in bytes of JSON: what an agent reads whole (issue 29). */
export const MAX_PART_BYTES = 150_000;

/** The tags a part is asked for by: a comma-separated list, names as in the document, any case. */
export function partTags(doc: OpenApiObject, asked: string): { tags: string[] } | { unknown: string } {
  const known = (doc.tags ?? []).map((tag) => tag.name);
  const tags: string[] = [];
  for (const word of asked.split(',')) {
    const name = word.trim();
    if (name === '') continue;
    const found = known.find((tag) => tag.toLowerCase() === name.toLowerCase());
    if (found === undefined) return { unknown: name };
    if (!tags.includes(found)) tags.push(found);
  }
  return tags.length > 0 ? { tags } : { unknown: asked };
}

const POINTER = /See “[^”]+” in the (.+?) section\./g;
const LOCAL_REF = /^#\/components\/([^/]+)\/([^/]+)$/;

/** The part of `doc` with the operations tagged one of `tags` (names as partTags gives them). */
export function documentPart(doc: OpenApiObject, tags: readonly string[]): OpenApiObject {
  const cached = PARTS.get(doc)?.get(tags.join('\u0000'));
  if (cached) return cached;
  const paths: Record<string, Json> = {};
  const tagNames = new Set<string>();
  for (const [path, method, operation] of operationsOf(doc)) {
    if (!(operation.tags ?? []).some((tag) => tags.includes(tag))) continue;
    paths[path] = { ...paths[path], [method]: operation };
    for (const tag of operation.tags ?? []) tagNames.add(tag);
    for (const pointed of (operation.description ?? '').matchAll(POINTER)) tagNames.add(pointed[1] ?? '');
  }
  const components = (doc.components ?? {}) as Record<string, Json>;
  const used: Record<string, Json> = {};
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) walk(item);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      const match = key === '$ref' && typeof value === 'string' ? LOCAL_REF.exec(value) : null;
      if (!match) {
        walk(value);
        continue;
      }
      const [, kind = '', name = ''] = match;
      if (used[kind]?.[name] !== undefined) continue;
      const target = components[kind]?.[name];
      if (target === undefined) throw new Error(`documentPart: unresolved $ref ${value}`);
      used[kind] = { ...used[kind], [name]: target };
      walk(target);
    }
  };
  walk(paths);
  // The security schemes the document's default and the part's operations name.
  const schemes: Json = {};
  const requirements = (list: unknown) => (Array.isArray(list) ? list : []) as Json[];
  const operations = Object.values(paths).flatMap((item) => Object.values(item) as Json[]);
  for (const requirement of [doc.security, ...operations.map((operation) => operation.security)].flatMap(
    requirements,
  )) {
    for (const name of Object.keys(requirement)) schemes[name] = components.securitySchemes?.[name];
  }
  const order = Object.keys(components);
  const part: OpenApiObject = {
    ...doc,
    info: {
      ...(doc.info as Json),
      description: `This is a part of the document at \`/v1/openapi.json\`: the operations tagged ${tags.join(', ')}, with every component they use, unshortened.\n\n${String((doc.info as Json | undefined)?.description ?? '')}`,
    },
    paths: paths as OpenApiObject['paths'],
    components: Object.fromEntries(
      order
        .map((kind): [string, Json | undefined] => [
          kind,
          sortedLike(kind === 'securitySchemes' ? schemes : used[kind], components[kind]),
        ])
        .filter((entry): entry is [string, Json] => entry[1] !== undefined),
    ),
    tags: (doc.tags ?? []).filter((tag: Tag) => tagNames.has(tag.name)),
  };
  const parts = PARTS.get(doc) ?? new Map<string, OpenApiObject>();
  PARTS.set(doc, parts);
  // The parts asked for are few (one per tag, a few combinations); the bound keeps odd lists from growing it.
  if (parts.size >= MAX_CACHED_PARTS) parts.clear();
  parts.set(tags.join('\u0000'), part);
  return part;
}

const MAX_CACHED_PARTS = 64;
const PARTS = new WeakMap<OpenApiObject, Map<string, OpenApiObject>>();

/** `used`'s entries in the order the whole document lists them (a part reads like the whole). */
function sortedLike(used: Json | undefined, all: Json | undefined): Json | undefined {
  if (!used) return undefined;
  return Object.fromEntries(Object.keys(all ?? {}).flatMap((name) => (name in used ? [[name, used[name]]] : [])));
}
