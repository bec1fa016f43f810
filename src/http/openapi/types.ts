/**
 * The parts of an OpenAPI 3.1 document that the compaction steps (compact.ts) read and rewrite,
 * and the walk over its operations they all share.
 */

export type Json = Record<string, unknown>;

export interface Parameter extends Json {
  name: string;
  in: string;
}

export interface Operation extends Json {
  operationId?: string;
  description?: string;
  tags?: string[];
  parameters?: (Parameter | { $ref: string })[];
  responses?: Record<string, Json>;
}

export interface Tag extends Json {
  name: string;
  description?: string;
}

export interface OpenApiObject extends Json {
  paths?: Record<string, Record<string, Operation>>;
  tags?: Tag[];
  components?: Json & { schemas?: Json };
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

export const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

export function* operationsOf(doc: OpenApiObject): Generator<[path: string, method: string, operation: Operation]> {
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, operation] of Object.entries(item)) {
      if (HTTP_METHODS.includes(method)) yield [path, method, operation];
    }
  }
}
