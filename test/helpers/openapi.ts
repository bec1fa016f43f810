/**
 * The served OpenAPI document writes shared parameters, headers and error responses once under
 * components and references them (src/http/plugins/openapi-components.ts). Tests that read an
 * operation's parameters or responses read them through this: the document with every such $ref
 * replaced by what it points at (schema $refs stay, as they are served).
 */
const SHARED = /^#\/components\/(parameters|headers|responses)\/([^/]+)$/;

export function resolveShared<T>(doc: T): T {
  const components = (doc as { components?: Record<string, Record<string, unknown>> }).components ?? {};
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== 'object') return node;
    const ref = (node as { $ref?: unknown }).$ref;
    const match = typeof ref === 'string' ? SHARED.exec(ref) : null;
    if (match) {
      const target = components[match[1] ?? '']?.[match[2] ?? ''];
      if (target === undefined) throw new Error(`unresolved $ref ${ref}`);
      return walk(target);
    }
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, walk(value)]));
  };
  return walk(doc) as T;
}
