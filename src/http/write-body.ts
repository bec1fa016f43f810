import type { FastifyRequest } from 'fastify';
import { closestMatches, sameIgnoringCase } from '../domain/text.js';
import { badRequest } from '../services/errors.js';
import { requireAccount } from './write-kit.js';

/**
 * What every write route shares: a key before anything else (401 before 400), bodies checked
 * strictly before schema validation (no coercion between types, enum values in any case, unknown
 * fields named first), and money to the cent.
 */

interface BodySchema {
  type?: string | string[];
  enum?: unknown[];
  properties?: Record<string, BodySchema>;
  additionalProperties?: unknown;
  items?: BodySchema;
  uniqueItems?: boolean;
  anyOf?: BodySchema[];
}

const TYPE_WORDS: Record<string, string> = {
  string: 'a text',
  number: 'a number',
  integer: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
  null: 'null',
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

function fitsType(types: readonly string[], value: unknown): boolean {
  const type = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  return types.includes(type) || (type === 'number' && types.includes('integer'));
}

function canonicalEnum(values: readonly unknown[], given: string, name: string): string {
  const allowed = values.filter((v): v is string => typeof v === 'string');
  const match = allowed.find((v) => sameIgnoringCase(v, given));
  if (match !== undefined) return match;
  const close = closestMatches(given, allowed);
  throw badRequest(
    'invalid_enum_value',
    name,
    `${name} must be one of ${allowed.join(', ')}; got '${given.slice(0, 100)}'.`,
    close.length > 0 ? `Did you mean '${close[0]}'?` : 'Use one of the values listed in alternatives.',
    allowed,
  );
}

/** Named before ajv's other errors: a misspelt required field gets a did-you-mean, not "missing". */
function unknownField(path: readonly string[], known: readonly string[]) {
  const name = path.join('.');
  const close = closestMatches(path.at(-1) ?? '', known);
  return badRequest(
    'unknown_parameter',
    name,
    `Unknown field '${name}'.`,
    close.length > 0 ? `Did you mean '${close[0]}'?` : `Remove '${name}'; this endpoint accepts: ${known.join(', ')}.`,
    close.length > 0 ? close : known,
  );
}

/**
 * Checks a JSON body's value types against its schema before ajv sees it, because Fastify's ajv
 * coerces (null would become 0, false or "", "12" would become 12): a body is taken as it is typed.
 * Enum values match case-insensitively and become canonical ("gardening" -> GARDENING), in lists
 * and nested objects too, and an unknown one is named with a did-you-mean; so are unknown fields,
 * and a value listed twice where values must be unique.
 */
function strictly(schema: BodySchema | undefined, value: unknown, path: readonly string[]): unknown {
  if (!schema) return value;
  if (schema.anyOf) {
    const keys = isObject(value) ? Object.keys(value) : [];
    const shape = schema.anyOf.find(
      (branch) => keys.length > 0 && keys.every((key) => branch.properties && Object.hasOwn(branch.properties, key)),
    );
    return shape ? strictly(shape, value, path) : value; // no shape fits: ajv names the accepted ones
  }
  const name = path.join('.');
  const types = schema.type === undefined ? [] : [schema.type].flat();
  if (types.length > 0 && !fitsType(types, value)) {
    const expected = types.map((type) => TYPE_WORDS[type] ?? type).join(' or ');
    throw badRequest(
      'invalid_parameter',
      name,
      `${name} must be ${expected}; got ${JSON.stringify(value).slice(0, 100)}.`,
      `Send ${name} as ${expected}${typeof value === 'string' ? ', without quotes' : ''}.`,
    );
  }
  if (typeof value === 'string' && schema.enum) return canonicalEnum(schema.enum, value, name);
  if (Array.isArray(value)) {
    const items = value.map((item, i) => strictly(schema.items, item, [...path, String(i)]));
    const seen = new Set<string>();
    const twice = items.find((item) => {
      const key = JSON.stringify(item);
      if (seen.has(key)) return true;
      seen.add(key);
      return false;
    });
    if (schema.uniqueItems && twice !== undefined) {
      throw badRequest(
        'invalid_parameter',
        name,
        `${name} lists ${JSON.stringify(twice).slice(0, 100)} more than once.`,
        `Send each value of ${name} once.`,
      );
    }
    return items;
  }
  if (isObject(value) && schema.properties) {
    for (const [key, item] of Object.entries(value)) {
      if (Object.hasOwn(schema.properties, key)) value[key] = strictly(schema.properties[key], item, [...path, key]);
      else if (schema.additionalProperties === false)
        throw unknownField([...path, key], Object.keys(schema.properties));
    }
  }
  return value;
}

/** The strict check of WRITE_HOOKS against another route's body schema (a draft checks an operation's body so). */
export function checkBodyStrictly(schema: unknown, body: unknown): void {
  if (isObject(body)) strictly(schema as BodySchema, body, []);
}

/**
 * Hooks of every write route: a key is needed before anything else is looked at (401 before 400),
 * and the body is checked strictly (see `strictly`) before schema validation.
 */
export const WRITE_HOOKS = {
  onRequest: async (request: FastifyRequest) => {
    requireAccount(request);
  },
  preValidation: async (request: FastifyRequest) => {
    if (isObject(request.body)) strictly(request.routeOptions.schema?.body as BodySchema, request.body, []);
  },
};

/** The developer key's two headers as security requirements: X-API-Key, or Authorization: Bearer. */
export const API_KEY_BEARER = 'Bearer';
/** An OAuth 2.1 access token acting for a person (issue 31); sent as `Authorization: Bearer` too. */
export const OAUTH_SCHEME = 'OAuth2';
/** The same access token bound to the client's key, as `Authorization: DPoP` with a proof (RFC 9449). */
export const DPOP_SCHEME = 'DPoP';
export const KEY_SECURITY: Record<string, string[]>[] = [
  { ApiKeyAuth: [] },
  { [API_KEY_BEARER]: [] },
  { [OAUTH_SCHEME]: [] },
  { [DPOP_SCHEME]: [] },
];

/** Writes need the developer key; reads stay open to everyone. */
export const WRITE_SECURITY = KEY_SECURITY;
