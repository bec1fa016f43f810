import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors.js';

/** The deepest nesting a request body may have; the deepest documented body has 3 levels. */
export const MAX_BODY_DEPTH = 32;

/**
 * How deeply the JSON text nests arrays and objects, counted in one pass over the text (strings
 * skipped), so a hostile body of 20,000 brackets is refused before anything walks it recursively.
 * Stops counting past `limit`.
 */
export function jsonDepth(text: string, limit = MAX_BODY_DEPTH): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > limit) return deepest;
      }
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return deepest;
}

/**
 * application/json bodies through Fastify's own parser (which refuses __proto__ and constructor
 * keys), after a check that they nest at most MAX_BODY_DEPTH levels (400 invalid_body otherwise).
 */
export function registerJsonBody(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = String(body);
    if (jsonDepth(text) > MAX_BODY_DEPTH) {
      done(
        new ApiError(400, 'invalid_body', `The body nests more than ${MAX_BODY_DEPTH} levels deep.`, {
          suggestion: 'Send the flat JSON object the operation documents (see /v1/openapi.json).',
        }),
        undefined,
      );
      return;
    }
    parse(request, text, done);
  });
}
