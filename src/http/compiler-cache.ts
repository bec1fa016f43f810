import { createHash } from 'node:crypto';
import { AjvCompiler, type BuildCompilerFromPool } from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { Plugin } from 'ajv';
import { findContactData } from '../domain/contact-shield.js';
import { NO_CONTACT_DATA } from '../schemas/common.js';

/** What Fastify hands a validator compiler for each part of each route. */
interface RouteSchema {
  schema: object;
  method: string;
  url: string;
  httpPart?: string;
}
type Validator = ReturnType<ReturnType<BuildCompilerFromPool>>;
type SerializerFactory = ReturnType<typeof SerializerSelector>;
type Serializer = ReturnType<ReturnType<SerializerFactory>>;

/**
 * Fastify's own compilers (Ajv through @fastify/ajv-compiler for requests, fast-json-stringify for
 * responses: the ones it uses by default), remembering what they compiled: an app built again in
 * the same process (the tests build hundreds) reuses a route schema's validator and serializer
 * instead of compiling them again, which cost about 0.6 s of each app's 1 s start in a CPU profile.
 * Two schemas with the same JSON, under the same shared schemas and options, compile to the same
 * function, so the key is their JSON; a production server builds its app once and sees no difference.
 */

/** Distinct route schemas are a fixed set of the code; this only guards against a runaway. */
const MAX_CACHED = 8_192;

/**
 * A digest of a shared schema, remembered per schema object: the shared schemas are the same
 * objects in every app (module constants), so each is serialized once per process, not once per
 * app and scope. Shared schemas are not changed after they are added.
 */
const digests = new WeakMap<object, string>();
function digestOf(schema: unknown): string {
  if (schema === null || typeof schema !== 'object') return JSON.stringify(schema) ?? 'undefined';
  let digest = digests.get(schema);
  if (digest === undefined) {
    digest = createHash('sha256')
      .update(JSON.stringify(schema) ?? '')
      .digest('base64url');
    digests.set(schema, digest);
  }
  return digest;
}

/** What a compiled function depends on besides its route schema: the shared schemas and the options. */
function contextOf(externalSchemas: Record<string, unknown> | undefined, options: unknown): string {
  const hash = createHash('sha256');
  for (const [id, schema] of Object.entries(externalSchemas ?? {})) hash.update(`${id}=${digestOf(schema)};`);
  return hash.update(JSON.stringify(options ?? null) ?? '').digest('base64url');
}

function remember<F>(cache: Map<string, F>, key: string, compile: () => F): F {
  const known = cache.get(key);
  if (known) return known;
  const compiled = compile();
  if (cache.size < MAX_CACHED) cache.set(key, compiled);
  return compiled;
}

/** One Ajv compiler per distinct context (it holds an Ajv instance with the shared schemas added). */
const validatorBuilders = new Map<string, ReturnType<BuildCompilerFromPool>>();
const validators = new Map<string, Validator>();

/**
 * The keywords of this API's schemas beyond JSON Schema, added to every Ajv instance: NO_CONTACT_DATA
 * (schemas/common.ts), a public text that holds contact data fails it (http/validation.ts says why).
 */
const apiKeywords: Plugin<unknown> = (ajv) =>
  ajv.addKeyword({
    keyword: NO_CONTACT_DATA,
    type: 'string',
    schemaType: 'boolean',
    errors: false,
    validate: (refused: boolean, text: string) => !refused || findContactData(text).length === 0,
  });

export const cachedValidatorFactory: BuildCompilerFromPool = (externalSchemas, options) => {
  // The plugins (functions) are not part of the key: the app passes the same ones every time.
  const context = contextOf(externalSchemas, options?.customOptions);
  const withKeywords = { ...options, plugins: [...(options?.plugins ?? []), apiKeywords] };
  const build = remember(validatorBuilders, context, () => AjvCompiler()(externalSchemas, withKeywords));
  // Fastify calls the compiler with the route's schema definition ({schema, method, url, httpPart}),
  // though the package's types name its parameter a schema.
  const compile = (route: RouteSchema) =>
    remember(validators, `${context}:${route.httpPart}:${JSON.stringify(route.schema)}`, () => build(route as never));
  return compile as unknown as ReturnType<BuildCompilerFromPool>;
};

const serializers = new Map<string, Serializer>();

export const cachedSerializerFactory: SerializerFactory = (externalSchemas, options) => {
  const build = SerializerSelector()(externalSchemas, options);
  const context = contextOf(externalSchemas as Record<string, unknown>, options);
  return (route) => remember(serializers, `${context}:${JSON.stringify(route.schema ?? null)}`, () => build(route));
};
