import type { FastifyInstance, FastifyRequest } from 'fastify';
import { badRequest } from '../errors.js';

interface PropertySchema {
  enum?: unknown[];
  type?: string | string[];
  default?: unknown;
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
      if (typeof value === 'string') {
        const canonical = schema.enum?.find((e) => typeof e === 'string' && e.toLowerCase() === value.toLowerCase());
        if (typeof canonical === 'string') query[name] = canonical;
        else if (schema.type === 'boolean' && /^(true|false)$/i.test(value)) query[name] = value.toLowerCase();
      }
    }
  });
}
