import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../services/errors.js';

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

/** Where a parsed JSON value holds a key that could reach an object's prototype, as a dotted path, or null. */
export function prototypeKeyPath(value: unknown, path: readonly string[] = []): string | null {
  if (value === null || typeof value !== 'object') return null;
  for (const [key, item] of Object.entries(value)) {
    const here = [...path, key];
    if (key === '__proto__') return here.join('.');
    if (key === 'constructor' && item !== null && typeof item === 'object' && 'prototype' in item) {
      return here.join('.');
    }
    const inner = prototypeKeyPath(item, here);
    if (inner) return inner;
  }
  return null;
}

/**
 * application/json bodies, the only ones taken, through Fastify's own parser (which refuses __proto__ and constructor
 * keys), after a check that they nest at most MAX_BODY_DEPTH levels (400 invalid_body otherwise).
 * An empty body is no body (a client library sets Content-Type on a POST without one, such as
 * /cancel): operations that need a body say so through their schema. A refused prototype key is
 * named, not reported as invalid JSON.
 */
export function registerJsonBody(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  // JSON is the only body media type: text/plain, which Fastify reads by default, is a 415 like
  // every other type (a web page may post text/plain to another site without asking).
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = String(body);
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    if (jsonDepth(text) > MAX_BODY_DEPTH) {
      done(
        new ApiError(400, 'invalid_body', `The body nests more than ${MAX_BODY_DEPTH} levels deep.`, {
          suggestion: 'Send the flat JSON object the operation documents (see /v1/openapi.json).',
        }),
        undefined,
      );
      return;
    }
    parse(request, text, (error, value) => {
      if (error) {
        // Valid JSON refused all the same: a prototype key. JSON.parse makes it a plain own property.
        const path = prototypeKeyPath(plainParse(text));
        if (path) {
          const key = path.split('.').at(-1);
          done(
            new ApiError(400, 'invalid_parameter', `The key '${key}' (at ${path}) is not allowed in a request body.`, {
              param: path,
              suggestion: `Remove '${key}': keys that could change the prototype of objects are refused everywhere.`,
            }),
            undefined,
          );
          return;
        }
      }
      done(error, value);
    });
  });
}

/** JSON.parse, undefined for text that is no JSON. */
function plainParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
