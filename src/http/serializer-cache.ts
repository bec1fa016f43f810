import { createHash } from 'node:crypto';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

type SerializerFactory = ReturnType<typeof SerializerSelector>;
type Serializer = (doc: unknown) => string;

/** Serializers compiled so far, by the shared schemas, options and response schema they came from. */
const compiled = new Map<string, Serializer>();
/** Distinct response schemas are a fixed set of the code; this only guards against a runaway. */
const MAX_CACHED = 4_096;

/**
 * Fastify's own serializer factory (fast-json-stringify, through the compiler package Fastify uses
 * by default), remembering what it compiled: an app built again in the same process (the tests
 * build hundreds, the sandbox and MCP none extra) reuses a response schema's serializer instead of
 * compiling it again, which costs ~1.6 s per app for our 85 operations. Two schemas with the same
 * JSON, under the same shared schemas and options, compile to the same function, so the key is
 * their JSON; a production server builds its app once and sees no difference.
 */
export const cachedSerializerFactory: SerializerFactory = (externalSchemas, options) => {
  const build = SerializerSelector()(externalSchemas, options);
  const context = createHash('sha256')
    .update(JSON.stringify([externalSchemas ?? null, options ?? null]))
    .digest('base64');
  return (route) => {
    const key = `${context}:${JSON.stringify(route.schema ?? null)}`;
    const known = compiled.get(key);
    if (known) return known;
    const serializer = build(route);
    if (compiled.size < MAX_CACHED) compiled.set(key, serializer);
    return serializer;
  };
};
