/**
 * The served OpenAPI document writes what operations share once and points at it
 * (src/http/openapi/compact.ts): parameters, headers, responses and repeated schemas
 * under components, referenced by $ref; paragraphs several operations repeat in a tag's
 * description; a sandbox twin's copy of its real operation's description as a pointer. Tests that
 * read an operation's parameters, responses or description read them through this: the document
 * with every such $ref replaced by what it points at (the route schemas' own $refs stay, as they
 * are served) and every description written out again. components stays as served.
 */
import { isDeepStrictEqual } from 'node:util';
import { anyCaseSchema } from '../../src/domain/text.js';

import { resolveShared as resolveCompacted } from '../../src/http/openapi/compact.js';
import { restoreSeenProse } from '../../src/http/openapi/prose.js';

/**
 * resolveShared (src/http/openapi/compact.ts), with the long descriptions written out too: those
 * the documents built in this process shortened (a document from another process keeps its links).
 */
export const resolveShared = <T>(doc: T): T => resolveCompacted(restoreSeenProse(doc));

type Json = Record<string, unknown>;

/** The any-case alternative openapi/accepted.ts gives a declared enum or boolean, if `anyOf` is one. */
function declaredOf(anyOf: unknown): Json | undefined {
  if (!Array.isArray(anyOf) || anyOf.length !== 2) return undefined;
  const [declared, alternative] = anyOf as [Json, Json];
  const words = Array.isArray(declared.enum)
    ? declared.enum.filter((v): v is string => typeof v === 'string')
    : declared.type === 'boolean'
      ? ['true', 'false']
      : [];
  const isAlternative = words.length > 0 && isDeepStrictEqual(alternative, anyCaseSchema(words));
  return isAlternative ? declared : undefined;
}

/**
 * A resolved document (resolveShared) with the any-case alternatives of its query enums, booleans
 * and body enums (src/http/openapi/accepted.ts) taken out again: every schema as its route declares
 * it. The fuzzers draw their values from these, so widening the document does not change what they send.
 */
export function declaredForms<T>(doc: T): T {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== 'object') return node;
    const { anyOf, ...rest } = node as Json;
    const declared = declaredOf(anyOf);
    if (declared) return walk({ ...declared, ...rest });
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, walk(value)]));
  };
  return walk(doc) as T;
}
