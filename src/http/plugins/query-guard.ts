import type { FastifyInstance, FastifyRequest } from 'fastify';
import { anyCaseSchema, sameIgnoringCase } from '../../domain/text.js';
import { badRequest } from '../../services/errors.js';

interface PropertySchema {
  enum?: unknown[];
  type?: string | string[];
  default?: unknown;
}

/** Plain decimal notation of a finite number: "12", "-0.5", "1.5e3"; not "0x10", "Infinity" or "1e309". */
function isDecimalNumber(value: string): boolean {
  return /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d{1,3})?$/.test(value) && Number.isFinite(Number(value));
}

function querySchemaOf(request: FastifyRequest): Record<string, PropertySchema> {
  const schema = request.routeOptions.schema?.querystring as
    | { properties?: Record<string, PropertySchema> }
    | undefined;
  return schema?.properties ?? {};
}

/**
 * Runs before schema validation on every route: a parameter given twice or with no value is a
 * mistake worth naming, and enum values (categories, sort orders ...) match case-insensitively.
 */
export function registerQueryGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const query = request.query as Record<string, unknown> | undefined;
    if (!query || typeof query !== 'object') return;
    const properties = querySchemaOf(request);
    for (const [name, value] of Object.entries(query)) {
      if (Array.isArray(value)) {
        throw badRequest(
          'duplicate_parameter',
          name,
          `The query parameter '${name}' was given ${value.length} times.`,
          `Send ${name} once. To filter by several values, make one request per value.`,
        );
      }
      const schema = properties[name];
      if (!schema) continue; // unknown parameters are reported by validation, with a did-you-mean
      if (value === '') {
        const fallback = schema.default !== undefined ? ` to use the default ${JSON.stringify(schema.default)}` : '';
        throw badRequest(
          'invalid_parameter',
          name,
          `The query parameter '${name}' has no value.`,
          `Give ${name} a value, or leave it out${fallback}.`,
          schema.enum?.map(String) ?? [],
        );
      }
      const numeric = schema.type === 'number' || schema.type === 'integer';
      if (numeric && typeof value === 'string' && !isDecimalNumber(value)) {
        throw badRequest(
          'invalid_parameter',
          name,
          `${name} must be a ${schema.type === 'integer' ? 'whole number' : 'number'} in decimal notation; got '${value.slice(0, 100)}'.`,
          `Send ${name} as a decimal number${schema.default !== undefined ? `, or leave it out to use the default ${JSON.stringify(schema.default)}` : ''}.`,
        );
      }
      if (typeof value === 'string') {
        const canonical = schema.enum?.find((e) => typeof e === 'string' && sameIgnoringCase(e, value));
        const bool = schema.type === 'boolean' ? BOOLEANS.find((b) => sameIgnoringCase(b, value)) : undefined;
        if (typeof canonical === 'string') query[name] = canonical;
        else if (bool !== undefined) query[name] = bool;
      }
    }
  });
}

const BOOLEANS = ['true', 'false'] as const;

/**
 * A query parameter's schema as the guard takes it: enum values and true/false in any letter case
 * (anyOf the declared schema and anyCaseSchema); other schemas as they are. The served document marks
 * such schemas `x-any-case` instead (openapi/accepted.ts); the request check of the tests widens them
 * with this (test/helpers/request-check.ts).
 */
export function acceptedQuerySchema(schema: Record<string, unknown>): Record<string, unknown> {
  const { type, enum: values, ...rest } = schema as PropertySchema & Record<string, unknown>;
  const words = values?.filter((v): v is string => typeof v === 'string') ?? (type === 'boolean' ? BOOLEANS : []);
  if (words.length === 0) return schema;
  const declared = values ? { type, enum: values } : { type };
  return { ...rest, anyOf: [declared, anyCaseSchema(words)] };
}
