import type { FastifyInstance } from 'fastify';
import { badRequest } from '../../services/errors.js';

/** The path of the first string holding U+0000 inside `value` (e.g. "title", "location.plz"), or null. */
function nulPath(value: unknown, path: string, depth = 0): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (depth > 32 || value === null || typeof value !== 'object') return null;
  for (const [key, inner] of Object.entries(value)) {
    const found = nulPath(inner, path ? `${path}.${key}` : key, depth + 1);
    if (found !== null) return found;
  }
  return null;
}

/**
 * Refuses the NUL character in every path parameter, query parameter and body string, before
 * validation, on both engines alike: PostgreSQL cannot store or even compare text holding it
 * (SQLite can), and no field of this API has a use for it.
 */
export function registerNulGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const found = nulPath(request.params, '') ?? nulPath(request.query, '') ?? nulPath(request.body, '');
    if (found === null) return;
    throw badRequest(
      'invalid_parameter',
      found || null,
      `${found || 'The request'} holds a NUL character (U+0000), which no text of this API may contain.`,
      'Remove the NUL characters (\\u0000 or %00) from the text and send it again.',
    );
  });
}
